//! `delay-copy`: the delay-copy task trained natively with the same code as the browser tab
//! (CPU path, or `--backend gpu`: the same model on the WGSL kernels, natively on Vulkan —
//! lavapipe without a GPU): every cell × seed of a configuration, cells of one seed in turn on
//! the same token stream, measured on the fixed held-out set.
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

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    if let Err(e) = native::run() {
        eprintln!("delay-copy: {e}");
        std::process::exit(2);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::collections::HashMap;
    use unroll_core::config::query::{decode, parse_pairs};
    use unroll_core::delay::outcome::outcome_of_results;
    use unroll_core::delay::run::{RunId, Sweep, EVAL_EVERY};
    use unroll_core::delay::DelayConfig;
    use unroll_core::train::clock::now_ms;

    pub fn run() -> Result<(), String> {
        let mut args = pico_args::Arguments::from_env();
        if args.contains(["-h", "--help"]) {
            print!("{}", include_str!("delay_copy_help.txt"));
            return Ok(());
        }
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
            if let Some(v) = args
                .opt_value_from_str::<_, String>(flag)
                .map_err(|e| format!("{flag}: {e}"))?
            {
                pairs.push((key.to_owned(), v));
            }
        }
        let eval_every: u64 = args
            .opt_value_from_str::<_, u64>("--eval-every")
            .map_err(|e| format!("--eval-every: {e}"))?
            .unwrap_or(EVAL_EVERY)
            .max(1);
        let every: u64 = args
            .opt_value_from_str::<_, u64>("--every")
            .map_err(|e| format!("--every: {e}"))?
            .unwrap_or(1)
            .max(1);
        let backend: String = args
            .opt_value_from_str("--backend")
            .map_err(|e| format!("--backend: {e}"))?
            .unwrap_or_else(|| "cpu".to_owned());
        let gpu = match backend.as_str() {
            "cpu" => false,
            "gpu" => true,
            other => return Err(format!("--backend: {other:?} is not cpu or gpu")),
        };
        let as_pytorch: Option<std::path::PathBuf> = args
            .opt_value_from_str("--as-pytorch")
            .map_err(|e| format!("--as-pytorch: {e}"))?;
        let rest = args.finish();
        if !rest.is_empty() {
            return Err(format!("unknown arguments: {rest:?}"));
        }
        let query = serde_urlencoded::to_string(&pairs).map_err(|e| e.to_string())?;
        let decoded = decode::<DelayConfig>(&query);
        for n in &decoded.notices {
            eprintln!("note: {n}");
        }
        let config = decoded.config;
        if let Some(path) = as_pytorch {
            let page = format!("?{}", unroll_core::config::query::encode(&config, None));
            let script = unroll_core::as_pytorch::delay_script(&config, &page);
            std::fs::write(&path, script).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("wrote {}", path.display());
            return Ok(());
        }
        let mut sweep = Sweep::with_eval_every(&config, eval_every).map_err(|e| e.to_string())?;
        if gpu {
            let ctx = pollster::block_on(unroll_core::gpu::GpuContext::new())
                .map_err(|e| format!("--backend gpu: {e}"))?;
            eprintln!(
                "backend: GPU, {} ({:?})",
                ctx.description(),
                ctx.adapter_info.backend
            );
            sweep = sweep
                .on_gpu(&ctx)
                .map_err(|e| format!("--backend gpu: {e}"))?;
        } else {
            eprintln!("backend: CPU");
        }
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
        for p in sweep.param_counts() {
            eprintln!(
                "{}: {} parameters (recurrent {}, head {})",
                p.cell.as_str(),
                p.total,
                p.recurrent,
                p.total - p.recurrent
            );
        }
        let started = now_ms();
        // Per run: (sum of losses, sum of accuracies, steps, ms of its steps) since its
        // previous line, and its total ms.
        let mut window: HashMap<RunId, (f64, f64, u64)> = HashMap::new();
        let mut run_ms: HashMap<RunId, f64> = HashMap::new();
        loop {
            let t0 = now_ms();
            let Some(tick) = sweep.tick() else { break };
            let ms = now_ms() - t0;
            *run_ms.entry(tick.run).or_default() += ms;
            let Some(s) = tick.step else {
                if let Some(h) = tick.heldout {
                    eprintln!(
                        "{} seed {}: held-out at step 0: accuracy {:.4}, loss {:.4}",
                        h.cell.as_str(),
                        h.seed,
                        h.acc,
                        h.loss
                    );
                }
                continue;
            };
            let w = window.entry(tick.run).or_default();
            w.0 += s.loss;
            w.1 += s.token_acc;
            w.2 += 1;
            if s.step % every == 0 || tick.heldout.is_some() || tick.finished.is_some() {
                let (mean_loss, mean_acc) = (w.0 / w.2 as f64, w.1 / w.2 as f64);
                *w = (0.0, 0.0, 0);
                println!(
                    "{}",
                    serde_json::json!({
                        "step": s.step,
                        "cell": s.cell.as_str(),
                        "seed": s.seed,
                        "loss": s.loss,
                        "token_acc": s.token_acc,
                        "mean_loss": mean_loss,
                        "mean_token_acc": mean_acc,
                        "skipped": s.skipped,
                        "ms": (ms * 10.0).round() / 10.0,
                        "heldout_acc": tick.heldout.map(|h| h.acc),
                        "heldout_loss": tick.heldout.map(|h| h.loss),
                    })
                );
            }
        }
        let results = sweep.results();
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
