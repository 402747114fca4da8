//! `long-memory`: the classic long-memory tasks (adding problem, copy memory, temporal order)
//! trained natively with the same code as the browser tab (the engine's one training loop,
//! [`unroll_core::engine::run::run`], on the CPU path): every cell × seed asked for, each on its
//! own training stream, measured on the task's fixed held-out set.
//!
//! ```text
//! cargo run --release --bin long-memory -- --task adding|copy|order [--length T]
//!     [--cell rnn|lstm|gru|all] [--seed 0] [--seeds 1] [--steps N] [--eval-every 100]
//!     [--hidden-size 64] [--lr 0.003] [--batch-size 32] [--max-norm 1] [--forget-bias 1]
//! long-memory --task adding [--length T] --dump-heldout FILE
//! long-memory --task adding [...] --as-pytorch FILE
//! ```
//! Defaults: T and the budget of the task (adding 50 and 1500 steps, copy 20 blanks and 1000,
//! order 100 and 800), recipe R with hidden 64 (Adam lr 0.003, batch 32, clipping at 1.0,
//! LSTM forget-gate bias 1.0); `--max-norm 0` turns clipping off.
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

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    unroll_core::cli::main("long-memory", native::HELP, native::run);
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::collections::HashMap;
    use std::sync::Arc;

    use unroll_core::cli::{finish, opt, write_script, Arguments};
    use unroll_core::config::BackendChoice;
    use unroll_core::engine::protocol::LabEvent;
    use unroll_core::engine::run::{run as run_sweep, RunControl};
    use unroll_core::math::model::Targets;
    use unroll_core::math::params::CellKind;
    use unroll_core::math::recurrent::SeqData;
    use unroll_core::memory::task::DEFAULT_HIDDEN;
    use unroll_core::memory::{MemoryTask, TaskKind};
    use unroll_core::train::clock::now_ms;
    use unroll_core::train::plan::EVALS_PER_RUN;
    use unroll_core::train::sweep::{solved_after, HeldOut, RunId, Sweep, SweepPlan};
    use unroll_core::train::trainer::Recipe;

    pub const HELP: &str = include_str!("long_memory_help.txt");

    pub fn run(mut args: Arguments) -> Result<(), String> {
        let task_key: String =
            opt(&mut args, "--task")?.ok_or(format!("--task missing\n\n{HELP}"))?;
        let kind = TaskKind::parse(&task_key)
            .ok_or(format!("--task: {task_key:?} is not adding, copy or order"))?;
        let length = opt(&mut args, "--length")?.unwrap_or(kind.default_length());
        let task = MemoryTask::new(kind, length).map_err(|e| e.to_string())?;
        if let Some(path) = opt::<String>(&mut args, "--dump-heldout")? {
            finish(args)?;
            return dump_heldout(&task, &path);
        }
        let mut recipe = Recipe {
            hidden_size: DEFAULT_HIDDEN,
            ..Recipe::default()
        };
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
        let steps: u64 = opt(&mut args, "--steps")?.unwrap_or(kind.default_steps());
        let eval_every: u64 = opt(&mut args, "--eval-every")?.unwrap_or(100).max(1);
        let as_pytorch: Option<std::path::PathBuf> = opt(&mut args, "--as-pytorch")?;
        finish(args)?;
        let batch = recipe.batch_size.max(1);
        let task = Arc::new(task);
        let plan = SweepPlan {
            task: task.clone(),
            cells,
            seeds: (seed..seed + seeds).collect(),
            recipe,
            steps,
            eval_every,
        };
        if let Some(path) = as_pytorch {
            // The page's evaluation schedule ([`EVALS_PER_RUN`] per run), as the script says.
            let plan = SweepPlan {
                eval_every: steps.div_ceil(EVALS_PER_RUN).max(1),
                ..plan
            };
            // No page: the command line it came from.
            let page = std::iter::once("long-memory".to_owned())
                .chain(std::env::args().skip(1))
                .collect::<Vec<_>>()
                .join(" ");
            return write_script(
                &path,
                &unroll_core::as_pytorch::memory_script(
                    unroll_core::as_pytorch::MEMORY_TEMPLATE,
                    &plan,
                    &page,
                ),
            );
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
            task.criterion_text()
        );
        let started = now_ms();
        let mut table = Vec::new();
        // Per run: its held-out curve, and the ms since its previous line.
        let mut curves: HashMap<RunId, Vec<HeldOut>> = HashMap::new();
        let mut since: HashMap<RunId, f64> = HashMap::new();
        let mut run_ms: HashMap<RunId, f64> = HashMap::new();
        let mut failed = None;
        let mut on_event = |event: LabEvent| match event {
            LabEvent::Tick(tick) => {
                let id = tick.run;
                *since.entry(id).or_default() += tick.ms;
                *run_ms.entry(id).or_default() += tick.ms;
                if let Some(h) = tick.heldout {
                    let ms = since.insert(id, 0.0).unwrap_or(0.0);
                    println!(
                        "{}",
                        serde_json::json!({
                            "task": kind.as_str(),
                            "cell": id.cell.as_str(),
                            "seed": id.seed,
                            "step": h.step,
                            "sequences": h.step * batch as u64,
                            "train_loss": h.train_loss,
                            "heldout_loss": h.loss,
                            "heldout_acc": h.acc,
                            "solved": h.solved,
                            "ms": (ms * 10.0).round() / 10.0,
                        })
                    );
                    curves.entry(id).or_default().push(h);
                }
                if let Some(r) = tick.finished {
                    let last = *r.last().expect("a finished run is evaluated");
                    let after = solved_after(&r.curve, batch);
                    println!(
                        "{}",
                        serde_json::json!({
                            "summary": true,
                            "task": kind.as_str(),
                            "length": length,
                            "cell": id.cell.as_str(),
                            "seed": id.seed,
                            "steps": r.steps,
                            "params": r.params.total,
                            "heldout_loss": last.loss,
                            "heldout_acc": last.acc,
                            "baseline_loss": task.baseline_loss(),
                            "solved_after": after,
                            "criterion": task.criterion_text(),
                            "skipped": r.skipped_steps,
                            "seconds": (run_ms.get(&id).copied().unwrap_or(0.0) / 100.0).round() / 10.0,
                        })
                    );
                    table.push((id, r.params.total, last, after));
                }
            }
            LabEvent::Error(e) => failed = Some(e.to_string()),
            _ => {}
        };
        pollster::block_on(run_sweep(
            Sweep::new(plan),
            BackendChoice::Cpu,
            true,
            &RunControl::new(),
            &mut on_event,
        ));
        if let Some(e) = failed {
            return Err(e);
        }
        eprintln!("cell  seed  params  step  heldout_loss  heldout_acc  solved_after");
        for (id, params, last, after) in table {
            eprintln!(
                "{:<5} {:>4}  {:>6}  {:>4}  {:>12.4}  {:>11.4}  {}",
                id.cell.as_str(),
                id.seed,
                params,
                last.step,
                last.loss,
                last.acc,
                after.map_or("-".to_owned(), |n| n.to_string())
            );
        }
        eprintln!("wall time: {:.1} s", (now_ms() - started) / 1000.0);
        Ok(())
    }

    fn dump_heldout(task: &MemoryTask, path: &str) -> Result<(), String> {
        let b = task.heldout_batch();
        let mut obj = serde_json::json!({
            "task": task.kind().as_str(),
            "length": task.length(),
            "batch": b.batch,
            "seq_len": b.seq_len,
            "lengths": b.lengths,
            "readouts": b.readouts(),
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
