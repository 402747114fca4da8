//! `delay-copy`: the delay-copy task trained natively with the same code as the browser tab
//! (the engine's one training loop, [`unroll_core::engine::run::run`]; CPU path, or
//! `--backend gpu`: the same model on the WGSL kernels, natively on Vulkan — lavapipe without
//! a GPU): every cell × seed of a configuration, cells of one seed in turn on the same token
//! stream, measured on the fixed held-out set.
//!
//! ```text
//! cargo run --release --bin delay-copy -- [--delay 8] [--length 96] [--vocab 10]
//!     [--hidden-size 128] [--lr 0.003] [--batch-size 32] [--max-norm 1] [--forget-bias 1]
//!     [--steps 3000] [--seed 0] [--seeds 3] [--cell both|rnn|lstm|gru|all]
//!     [--eval-every 100] [--every 1] [--backend cpu|gpu] [--as-pytorch FILE]
//! ```
//! `--as-pytorch FILE` writes the lab's "As PyTorch" script for this configuration and exits.
//! Defaults are those of `?v=1&lesson=delay` (recipe R, docs/url.md). Prints one JSON object
//! per step and run on its own line (every `--every` steps, at every held-out evaluation and
//! always the last):
//! `{"step":…,"cell":"rnn","seed":0,"loss":…,"token_acc":…,"mean_loss":…,"mean_token_acc":…,
//! "skipped":false,"ms":…,"heldout_acc":…,"heldout_loss":…}` (`loss` in nats per supervised
//! token and `token_acc` a fraction, both of that step's training batch; `mean_*` the means
//! over that run's steps since its previous line; `ms` the wall time of the step, including
//! the held-out evaluation on lines that have one; `heldout_acc`/`heldout_loss` the held-out
//! token accuracy and loss after that step, `null` between evaluations). Messages, parameter
//! counts and a closing table of the final held-out figures go to stderr; an invalid delay
//! exits with status 2 and the rule.

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    unroll_core::cli::main(
        "delay-copy",
        include_str!("delay_copy_help.txt"),
        native::run,
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::collections::HashMap;
    use unroll_core::cli::{finish, opt, write_script, Arguments};
    use unroll_core::config::query::{decode, parse_pairs};
    use unroll_core::config::BackendChoice;
    use unroll_core::delay::outcome::outcome_of_results;
    use unroll_core::delay::task::EVAL_EVERY;
    use unroll_core::delay::DelayConfig;
    use unroll_core::engine::protocol::LabEvent;
    use unroll_core::engine::run::{run as run_sweep, RunControl};
    use unroll_core::train::backend::BackendKind;
    use unroll_core::train::clock::now_ms;
    use unroll_core::train::sweep::{RunId, RunResult, Sweep, SweepPlan};

    pub fn run(mut args: Arguments) -> Result<(), String> {
        // Every task setting goes through the URL codec, so the ranges are the page's.
        let mut pairs: Vec<(String, String)> = parse_pairs("v=1&lesson=delay");
        for (flag, key) in [
            ("--delay", "delay"),
            ("--length", "length"),
            ("--vocab", "vocab"),
            ("--hidden-size", "hidden_size"),
            ("--lr", "lr"),
            ("--batch-size", "batch_size"),
            ("--max-norm", "max_norm"),
            ("--forget-bias", "forget_bias"),
            ("--steps", "steps"),
            ("--seed", "seed"),
            ("--seeds", "seeds"),
            ("--cell", "cell"),
        ] {
            if let Some(v) = opt::<String>(&mut args, flag)? {
                pairs.push((key.to_owned(), v));
            }
        }
        let eval_every: u64 = opt(&mut args, "--eval-every")?.unwrap_or(EVAL_EVERY).max(1);
        let every: u64 = opt(&mut args, "--every")?.unwrap_or(1).max(1);
        let backend: String = opt(&mut args, "--backend")?.unwrap_or_else(|| "cpu".to_owned());
        let backend = match backend.as_str() {
            "cpu" => BackendChoice::Cpu,
            "gpu" => BackendChoice::Gpu,
            other => return Err(format!("--backend: {other:?} is not cpu or gpu")),
        };
        let as_pytorch: Option<std::path::PathBuf> = opt(&mut args, "--as-pytorch")?;
        finish(args)?;
        let query = serde_urlencoded::to_string(&pairs).map_err(|e| e.to_string())?;
        let decoded = decode::<DelayConfig>(&query);
        for n in &decoded.notices {
            eprintln!("note: {n}");
        }
        let config = decoded.config;
        if let Some(path) = as_pytorch {
            let page = format!("?{}", unroll_core::config::query::encode(&config, None));
            return write_script(
                &path,
                &unroll_core::as_pytorch::delay_script(
                    unroll_core::as_pytorch::DELAY_TEMPLATE,
                    &config,
                    &page,
                ),
            );
        }
        let mut plan = SweepPlan::of_lab(&config).map_err(|e| e.to_string())?;
        plan.eval_every = eval_every;
        eprintln!(
            "delay {} length {} vocab {} hidden {} batch {} lr {} max_norm {} forget_bias {} \
             steps {} seeds {:?} eval every {}",
            config.delay,
            config.length,
            config.vocab,
            config.hidden_size,
            config.batch_size,
            config.lr,
            config.max_norm,
            config.forget_bias,
            config.steps,
            config.run_seeds(),
            eval_every
        );
        for p in plan.param_counts() {
            eprintln!(
                "{}: {} parameters (recurrent {}, head {})",
                p.cell.as_str(),
                p.total,
                p.recurrent,
                p.total - p.recurrent
            );
        }
        let started = now_ms();
        // Per run: (sum of losses, sum of accuracies, steps) since its previous line, and its
        // total ms.
        let mut window: HashMap<RunId, (f64, f64, u64)> = HashMap::new();
        let mut run_ms: HashMap<RunId, f64> = HashMap::new();
        let mut results: Vec<RunResult> = Vec::new();
        let mut failed = None;
        let mut on_event = |event: LabEvent| match event {
            LabEvent::Backend(b) => match b.kind {
                BackendKind::Gpu { description, .. } => {
                    eprintln!("backend: {}: GPU, {description}", b.cell.as_str())
                }
                BackendKind::Cpu { notice } => eprintln!(
                    "backend: {}: CPU{}",
                    b.cell.as_str(),
                    notice.map(|n| format!(" — {n}")).unwrap_or_default()
                ),
            },
            LabEvent::Tick(tick) => {
                *run_ms.entry(tick.run).or_default() += tick.ms;
                if let Some(r) = &tick.finished {
                    results.push(r.clone());
                }
                let Some(last) = tick.steps.last().copied() else {
                    if let Some(h) = tick.heldout {
                        eprintln!(
                            "{} seed {}: held-out at step 0: accuracy {:.4}, loss {:.4}",
                            h.cell.as_str(),
                            h.seed,
                            h.acc,
                            h.loss
                        );
                    }
                    return;
                };
                let ms = tick.ms / tick.steps.len() as f64;
                for s in &tick.steps {
                    let w = window.entry(tick.run).or_default();
                    w.0 += s.loss;
                    w.1 += s.acc;
                    w.2 += 1;
                    let is_last = s.step == last.step;
                    let heldout = tick.heldout.filter(|_| is_last);
                    let finished = tick.finished.is_some() && is_last;
                    if s.step % every == 0 || heldout.is_some() || finished {
                        let (mean_loss, mean_acc) = (w.0 / w.2 as f64, w.1 / w.2 as f64);
                        *w = (0.0, 0.0, 0);
                        println!(
                            "{}",
                            serde_json::json!({
                                "step": s.step,
                                "cell": tick.run.cell.as_str(),
                                "seed": tick.run.seed,
                                "loss": s.loss,
                                "token_acc": s.acc,
                                "mean_loss": mean_loss,
                                "mean_token_acc": mean_acc,
                                "skipped": s.skipped,
                                "ms": (ms * 10.0).round() / 10.0,
                                "heldout_acc": heldout.map(|h| h.acc),
                                "heldout_loss": heldout.map(|h| h.loss),
                            })
                        );
                    }
                }
            }
            LabEvent::Error(e) => failed = Some(e.to_string()),
            _ => {}
        };
        pollster::block_on(run_sweep(
            Sweep::new(plan),
            backend,
            true,
            &RunControl::new(),
            &mut on_event,
        ));
        if let Some(e) = failed {
            return Err(e);
        }
        eprintln!("cell  seed  steps  heldout_acc  heldout_loss  skipped  ms/step");
        for r in &results {
            let last = r.last().copied();
            eprintln!(
                "{:<5} {:>4}  {:>5}  {:>11.4}  {:>12.4}  {:>7}  {:>7.1}",
                r.run.cell.as_str(),
                r.run.seed,
                r.steps,
                last.map_or(f64::NAN, |h| h.acc),
                last.map_or(f64::NAN, |h| h.loss),
                r.skipped_steps,
                run_ms.get(&r.run).copied().unwrap_or(0.0) / r.steps.max(1) as f64
            );
        }
        eprintln!("outcome: {:?}", outcome_of_results(&config, &results));
        eprintln!("wall time: {:.1} s", (now_ms() - started) / 1000.0);
        Ok(())
    }
}
