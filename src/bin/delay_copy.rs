//! `delay-copy`: the delay-copy task trained natively with the same code as the browser tab
//! (CPU path), cells in turn on the same token stream.
//!
//! ```text
//! cargo run --release --bin delay-copy -- [--delay 8] [--length 96] [--vocab 10]
//!     [--hidden-size 64] [--lr 0.01] [--batch-size 16] [--seed 0] [--cell both|rnn|lstm|gru|all]
//!     [--steps 300] [--every 1]
//! ```
//! Defaults are those of `?v=1&lesson=delay` (docs/url.md). Prints one JSON object per step
//! and cell on its own line (every `--every` steps, and always the last):
//! `{"step":…,"cell":"rnn","loss":…,"token_acc":…,"mean_loss":…,"mean_token_acc":…,"ms":…}`
//! (`loss` in nats per supervised token and `token_acc` a fraction, both of that step's batch;
//! `mean_*` the means over that cell's steps since its previous line; `ms` the wall time of the
//! step). Messages go to stderr; an invalid delay exits with status 2 and the rule.

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
    use unroll::config::query::{decode, parse_pairs};
    use unroll::delay::{DelayConfig, SideBySide};
    use unroll::train::clock::now_ms;

    pub fn run() -> Result<(), String> {
        let mut args = pico_args::Arguments::from_env();
        if args.contains(["-h", "--help"]) {
            println!(
                "delay-copy [--delay N] [--length N] [--vocab N] [--hidden-size N] [--lr X] \
                 [--batch-size N] [--seed N] [--cell both|rnn|lstm|gru|all] [--steps N] [--every N]"
            );
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
            ("--seed", "seed"),
            ("--cell", "cell"),
        ] {
            if let Some(v) = args
                .opt_value_from_str::<_, String>(flag)
                .map_err(|e| format!("{flag}: {e}"))?
            {
                pairs.push((key.to_owned(), v));
            }
        }
        let steps: u64 = args
            .opt_value_from_str("--steps")
            .map_err(|e| format!("--steps: {e}"))?
            .unwrap_or(300);
        let every: u64 = args
            .opt_value_from_str::<_, u64>("--every")
            .map_err(|e| format!("--every: {e}"))?
            .unwrap_or(1)
            .max(1);
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
        let mut run = SideBySide::new(&config).map_err(|e| e.to_string())?;
        for t in run.trainers() {
            eprintln!(
                "{}: {} parameters (recurrent {}, head {})",
                t.cell().as_str(),
                t.model().param_count(),
                t.model().recurrent_param_count(),
                t.model().param_count() - t.model().recurrent_param_count()
            );
        }
        let cells = run.trainers().len() as u64;
        // Per cell: (sum of losses, sum of accuracies, steps) since its previous line.
        let mut window = vec![(0.0f64, 0.0f64, 0u64); cells as usize];
        for i in 0..steps * cells {
            let w = &mut window[(i % cells) as usize];
            let t0 = now_ms();
            let s = run.step();
            let ms = now_ms() - t0;
            w.0 += s.loss;
            w.1 += s.token_acc;
            w.2 += 1;
            if s.step % every == 0 || s.step == steps {
                let (mean_loss, mean_acc) = (w.0 / w.2 as f64, w.1 / w.2 as f64);
                *w = (0.0, 0.0, 0);
                println!(
                    "{}",
                    serde_json::json!({
                        "step": s.step,
                        "cell": s.cell.as_str(),
                        "loss": s.loss,
                        "token_acc": s.token_acc,
                        "mean_loss": mean_loss,
                        "mean_token_acc": mean_acc,
                        "skipped": s.skipped,
                        "ms": (ms * 10.0).round() / 10.0,
                    })
                );
            }
        }
        Ok(())
    }
}
