//! `long-memory`: the classic long-memory tasks (adding problem, copy memory, temporal order)
//! trained natively with the same code as the browser's CPU path: every cell × seed asked for,
//! each on its own training stream, measured on the task's fixed held-out set.
//!
//! ```text
//! cargo run --release --bin long-memory -- --task adding|copy|order [--length T]
//!     [--cell rnn|lstm|gru|all] [--seed 0] [--seeds 1] [--steps N] [--eval-every 100]
//!     [--hidden-size 64] [--lr 0.003] [--batch-size 32] [--max-norm 1] [--forget-bias 1]
//! long-memory --task adding [--length T] --dump-heldout FILE
//! long-memory --task adding [...] --as-pytorch FILE
//! ```
//! Defaults: T and the budget of the task (adding 50 and 1500 steps, copy 20 blanks and 1000,
//! order 100 and 800), the recipe of `memory::recipe_for` (hidden 64, Adam lr 0.003, batch
//! 32, clipping at 1.0, LSTM forget-gate bias 1.0); `--max-norm 0` turns clipping off.
//!
//! Prints one JSON object per held-out evaluation and run (step 0 before training, every
//! `--eval-every` steps and after the last):
//! `{"task":"adding","cell":"lstm","seed":0,"step":…,"sequences":…,"train_loss":…,
//! "heldout_loss":…,"heldout_acc":…,"solved":false,"ms":…}` (`train_loss` the mean training
//! loss of the steps since the previous line, `null` at step 0; losses are MSE for adding and
//! nats per readout for copy and order; `heldout_acc` a fraction, 0 for adding; `ms` the wall
//! time since the previous line), then per run
//! `{"summary":true,…,"params":…,"solved_after":N|null,"criterion":"…"}` where `solved_after`
//! counts the training sequences at the first evaluation that met the task's criterion.
//! `--dump-heldout` writes the held-out set as JSON (`seq_len`, `lengths`, `dense` `[T, B, 2]`
//! or `tokens` `[T, B]` time-major and flat, `values` or `classes` readout-major, `readouts`)
//! and exits; the PyTorch reference evaluates on it. `--as-pytorch FILE` writes the lab's "As
//! PyTorch" script of this configuration (its held-out evaluations on the page's schedule,
//! every ⌈steps / 20⌉ steps) and exits. Errors exit with status 2.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    if let Err(e) = native::run() {
        eprintln!("long-memory: {e}");
        std::process::exit(2);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use unroll_core::math::params::CellKind;
    use unroll_core::math::recurrent::SeqData;
    use unroll_core::memory::run::MemoryPlan;
    use unroll_core::memory::task::Targets;
    use unroll_core::memory::trainer::{criterion_text, default_steps};
    use unroll_core::memory::{
        heldout_set, recipe_for, solved_after, MemoryTask, MemoryTrainer, TaskKind,
    };
    use unroll_core::train::clock::now_ms;

    const HELP: &str = include_str!("long_memory_help.txt");

    fn opt<T: std::str::FromStr>(
        args: &mut pico_args::Arguments,
        flag: &'static str,
    ) -> Result<Option<T>, String>
    where
        T::Err: std::fmt::Display,
    {
        args.opt_value_from_str::<_, T>(flag)
            .map_err(|e| format!("{flag}: {e}"))
    }

    pub fn run() -> Result<(), String> {
        let mut args = pico_args::Arguments::from_env();
        if args.contains(["-h", "--help"]) {
            print!("{HELP}");
            return Ok(());
        }
        let task_key: String =
            opt(&mut args, "--task")?.ok_or(format!("--task missing\n\n{HELP}"))?;
        let kind = TaskKind::parse(&task_key)
            .ok_or(format!("--task: {task_key:?} is not adding, copy or order"))?;
        let length = opt(&mut args, "--length")?.unwrap_or(kind.default_length());
        let task = MemoryTask::new(kind, length).map_err(|e| e.to_string())?;
        if let Some(path) = opt::<String>(&mut args, "--dump-heldout")? {
            let rest = args.finish();
            if !rest.is_empty() {
                return Err(format!("unknown arguments: {rest:?}"));
            }
            return dump_heldout(&task, &path);
        }
        let mut recipe = recipe_for(kind);
        if let Some(h) = opt(&mut args, "--hidden-size")? {
            recipe.hidden_size = h;
        }
        if let Some(lr) = opt(&mut args, "--lr")? {
            recipe.lr = lr;
        }
        if let Some(b) = opt(&mut args, "--batch-size")? {
            recipe.batch_size = b;
        }
        if let Some(m) = opt::<f32>(&mut args, "--max-norm")? {
            recipe.max_norm = (m > 0.0).then_some(m);
        }
        if let Some(f) = opt(&mut args, "--forget-bias")? {
            recipe.forget_bias = f;
        }
        let cell_key: String = opt(&mut args, "--cell")?.unwrap_or_else(|| "all".to_owned());
        let cells: Vec<CellKind> = if cell_key == "all" {
            CellKind::ALL.to_vec()
        } else {
            vec![CellKind::parse(&cell_key)
                .ok_or(format!("--cell: {cell_key:?} is not rnn, lstm, gru or all"))?]
        };
        let seed: u32 = opt(&mut args, "--seed")?.unwrap_or(0);
        let seeds: u32 = opt(&mut args, "--seeds")?.unwrap_or(1).max(1);
        let steps: u64 = opt(&mut args, "--steps")?.unwrap_or(default_steps(kind));
        let eval_every: u64 = opt(&mut args, "--eval-every")?.unwrap_or(100).max(1);
        let as_pytorch: Option<String> = opt(&mut args, "--as-pytorch")?;
        let rest = args.finish();
        if !rest.is_empty() {
            return Err(format!("unknown arguments: {rest:?}"));
        }
        if let Some(path) = as_pytorch {
            let plan = MemoryPlan {
                task,
                recipe,
                steps,
                cells,
                seeds: (seed..seed + seeds).collect(),
            };
            // No page: the command line it came from.
            let page = std::iter::once("long-memory".to_owned())
                .chain(std::env::args().skip(1))
                .collect::<Vec<_>>()
                .join(" ");
            let script = unroll_core::as_pytorch::memory_script(&plan, &page);
            return std::fs::write(&path, script).map_err(|e| format!("{path}: {e}"));
        }
        eprintln!(
            "task {} length {} (steps {} per sequence) hidden {} batch {} lr {} max_norm {:?} \
             forget_bias {} steps {} seeds {}..{} eval every {}; baseline loss {:.4}; solved: {}",
            kind.as_str(),
            length,
            task.seq_len(),
            recipe.hidden_size,
            recipe.batch_size,
            recipe.lr,
            recipe.max_norm,
            recipe.forget_bias,
            steps,
            seed,
            seed + seeds - 1,
            eval_every,
            task.baseline_loss(),
            criterion_text(kind)
        );
        let started = now_ms();
        let mut table = Vec::new();
        for s in seed..seed + seeds {
            for &cell in &cells {
                let mut trainer = MemoryTrainer::new(cell, task, &recipe, s);
                let mut curve = Vec::new();
                let mut window = (0.0f64, 0u64);
                let mut t0 = now_ms();
                let line = |trainer: &MemoryTrainer, window: &mut (f64, u64), t0: &mut f64| {
                    let h = trainer.evaluate();
                    let now = now_ms();
                    println!(
                        "{}",
                        serde_json::json!({
                            "task": kind.as_str(),
                            "cell": cell.as_str(),
                            "seed": s,
                            "step": h.step,
                            "sequences": h.sequences,
                            "train_loss": (window.1 > 0).then(|| window.0 / window.1 as f64),
                            "heldout_loss": h.loss,
                            "heldout_acc": h.accuracy,
                            "solved": h.solved,
                            "ms": ((now - *t0) * 10.0).round() / 10.0,
                        })
                    );
                    *window = (0.0, 0);
                    *t0 = now;
                    h
                };
                curve.push(line(&trainer, &mut window, &mut t0));
                let run_started = now_ms();
                let mut skipped = 0u64;
                for k in 1..=steps {
                    let st = trainer.step();
                    skipped += u64::from(st.skipped);
                    window.0 += st.loss;
                    window.1 += 1;
                    if k % eval_every == 0 || k == steps {
                        curve.push(line(&trainer, &mut window, &mut t0));
                    }
                }
                let last = *curve.last().expect("step 0 is evaluated");
                let after = solved_after(&curve);
                println!(
                    "{}",
                    serde_json::json!({
                        "summary": true,
                        "task": kind.as_str(),
                        "length": length,
                        "cell": cell.as_str(),
                        "seed": s,
                        "steps": steps,
                        "params": trainer.model().param_count(),
                        "heldout_loss": last.loss,
                        "heldout_acc": last.accuracy,
                        "baseline_loss": task.baseline_loss(),
                        "solved_after": after,
                        "criterion": criterion_text(kind),
                        "skipped": skipped,
                        "seconds": ((now_ms() - run_started) / 100.0).round() / 10.0,
                    })
                );
                table.push((cell, s, trainer.model().param_count(), last, after));
            }
        }
        eprintln!("cell  seed  params  step  heldout_loss  heldout_acc  solved_after");
        for (cell, s, params, last, after) in table {
            eprintln!(
                "{:<5} {:>4}  {:>6}  {:>4}  {:>12.4}  {:>11.4}  {}",
                cell.as_str(),
                s,
                params,
                last.step,
                last.loss,
                last.accuracy,
                after.map_or("-".to_owned(), |n| n.to_string())
            );
        }
        eprintln!("wall time: {:.1} s", (now_ms() - started) / 1000.0);
        Ok(())
    }

    fn dump_heldout(task: &MemoryTask, path: &str) -> Result<(), String> {
        let b = heldout_set(task);
        let mut obj = serde_json::json!({
            "task": task.kind().as_str(),
            "length": task.length(),
            "batch": b.batch,
            "seq_len": b.seq_len,
            "lengths": b.lengths,
            "readouts": b.readouts,
        });
        match &b.input {
            SeqData::Dense(x) => obj["dense"] = serde_json::json!(x),
            SeqData::Tokens(t) => obj["tokens"] = serde_json::json!(t),
        }
        match &b.targets {
            Targets::Values(v) => obj["values"] = serde_json::json!(v),
            Targets::Classes(c) => obj["classes"] = serde_json::json!(c),
        }
        std::fs::write(path, obj.to_string()).map_err(|e| format!("{path}: {e}"))
    }
}
