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
//! `{"step":…,"cell":"rnn","loss":…,"token_acc":…,"ms":…}` (`loss` in nats per supervised token,
//! `token_acc` a fraction, `ms` the wall time of that step). Messages go to stderr; an invalid
//! delay exits with status 2 and the rule.

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
        for _ in 0..steps * cells {
            let t0 = now_ms();
            let s = pollster::block_on(run.step());
            let ms = now_ms() - t0;
            if s.step % every == 0 || s.step == steps {
                println!(
                    "{}",
                    serde_json::json!({
                        "step": s.step,
                        "cell": s.cell.as_str(),
                        "loss": s.loss,
                        "token_acc": s.token_acc,
                        "skipped": s.skipped,
                        "ms": (ms * 10.0).round() / 10.0,
                    })
                );
            }
        }
        Ok(())
    }
}
