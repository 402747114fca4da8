//! `train-names`: the name classifier trained natively with the same code as the browser tab
//! (the engine's one training loop, [`unroll_core::engine::run::run`], on the names task).
//!
//! ```text
//! cargo run --release --bin train-names -- --epochs 5 --backend cpu|gpu --seed 0 [--hidden-size N]
//!     [--cell rnn|lstm|gru] [--num-layers 1] [--bidirectional] [--head last|padded]
//!     [--batch-size 64] [--lr 0.001] [--max-norm 0] [--forget-bias 0] [--data-dir DIR]
//!     [--no-simd] [--dump-batches FILE] [--as-pytorch FILE] [--save FILE] [--predict NAMES]
//! ```
//! Prints one JSON object per epoch on its own line: `epoch`, `train_loss`, `train_acc` (the
//! accuracy counted over the epoch's training batches, before each update), `val_loss`,
//! `val_acc`, `sec` (training seconds of that epoch). Messages go to stderr, among them the
//! matrix products used (`--no-simd`: the portable ones) and the share of padded step-rows of
//! the first epoch's batches. `--dump-batches FILE` writes the first epoch's training batches
//! (one JSON object per line: `seq_len`, `tokens` `[B·T]` row-major, `lengths` `[B]`, `labels`
//! `[B]`) and exits without training, so another trainer can be timed on the same batches.
//! `--as-pytorch FILE` writes the page's "As PyTorch" script for this configuration and exits.
//! `--save FILE` writes the trained classifier as `.safetensors` (as the page downloads it);
//! `--predict A,B` prints `{"name", "probs"}` per name after training (probabilities over the
//! classes in label order).

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    unroll_core::cli::main(
        "train-names",
        include_str!("train_names_help.txt"),
        native::run,
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::path::PathBuf;
    use std::rc::Rc;
    use std::sync::Arc;

    use unroll_core::as_pytorch::{names_script, DataSource};
    use unroll_core::cli::{finish, opt, write_script, Arguments};
    use unroll_core::config::{BackendChoice, Head, TrainConfig};
    use unroll_core::data::names::{locate_names_dir, NamesDataset};
    use unroll_core::data::normalize::{encode, normalize, VOCAB};
    use unroll_core::data::split::{Split, VAL_FRACTION};
    use unroll_core::data::Batches;
    use unroll_core::engine::protocol::LabEvent;
    use unroll_core::engine::run::{run as run_sweep, RunControl};
    use unroll_core::math::linalg;
    use unroll_core::math::params::CellKind;
    use unroll_core::task::names::ValReport;
    use unroll_core::train::backend::BackendKind;
    use unroll_core::train::split::{ThreadHelpers, MAX_SHARES};
    use unroll_core::train::sweep::{Sweep, SweepPlan, Weights};
    use unroll_core::weights::{export_classifier, ClassifierInfo};

    pub fn run(mut args: Arguments) -> Result<(), String> {
        let d = TrainConfig::default();
        let backend = match opt::<String>(&mut args, "--backend")?.as_deref() {
            None | Some("cpu") => BackendChoice::Cpu,
            Some("gpu") => BackendChoice::Gpu,
            Some("auto") => BackendChoice::Auto,
            Some(other) => {
                return Err(format!("--backend must be cpu, gpu or auto, not {other:?}"))
            }
        };
        let cell = match opt::<String>(&mut args, "--cell")? {
            None => d.cell,
            Some(s) => CellKind::parse(&s)
                .ok_or_else(|| format!("--cell must be {}, not {s:?}", CellKind::keys_or()))?,
        };
        let head = match opt::<String>(&mut args, "--head")?.as_deref() {
            None => d.head,
            Some("last") => Head::Last,
            Some("padded") => Head::Padded,
            Some(other) => return Err(format!("--head must be last or padded, not {other:?}")),
        };
        let cfg = TrainConfig {
            cell,
            hidden_size: opt::<f64>(&mut args, "--hidden-size")?
                .map_or(d.hidden_size, |v| v as usize),
            num_layers: opt::<f64>(&mut args, "--num-layers")?.map_or(d.num_layers, |v| v as usize),
            bidirectional: args.contains("--bidirectional"),
            batch_size: opt::<f64>(&mut args, "--batch-size")?.map_or(d.batch_size, |v| v as usize),
            lr: opt::<f64>(&mut args, "--lr")?.unwrap_or(d.lr),
            epochs: opt::<f64>(&mut args, "--epochs")?.map_or(d.epochs, |v| v as u32),
            max_norm: opt::<f64>(&mut args, "--max-norm")?.unwrap_or(d.max_norm),
            forget_bias: opt::<f64>(&mut args, "--forget-bias")?.unwrap_or(d.forget_bias),
            seed: opt::<f64>(&mut args, "--seed")?.map_or(d.seed, |v| v as u32),
            backend,
            head,
            ..d
        };
        if !cfg.forget_bias.is_finite() || cfg.forget_bias.abs() > 5.0 {
            return Err(format!(
                "--forget-bias must be between -5 and 5 (the URL key's range), not {}",
                cfg.forget_bias
            ));
        }
        if cfg.hidden_size == 0 || cfg.num_layers == 0 || cfg.batch_size == 0 || cfg.epochs == 0 {
            return Err(
                "--hidden-size, --num-layers, --batch-size and --epochs must be at least 1".into(),
            );
        }
        if args.contains("--no-simd") {
            linalg::set_simd(false);
        }
        let dump: Option<PathBuf> = opt(&mut args, "--dump-batches")?;
        let data_dir: Option<PathBuf> = opt(&mut args, "--data-dir")?;
        let as_pytorch: Option<PathBuf> = opt(&mut args, "--as-pytorch")?;
        let save: Option<PathBuf> = opt(&mut args, "--save")?;
        let predict: Option<String> = opt(&mut args, "--predict")?;
        let workers = opt::<f64>(&mut args, "--workers")?.map_or(1, |v| v as usize);
        if !(1..=MAX_SHARES).contains(&workers) {
            return Err(format!(
                "--workers must be 1 to {MAX_SHARES}, not {workers}"
            ));
        }
        finish(args)?;
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = match data_dir {
            Some(d) => d,
            None => locate_names_dir(&root).map_err(|e| e.to_string())?,
        };
        let data = NamesDataset::load_dir(&dir).map_err(|e| e.to_string())?;
        let r = data.report();
        eprintln!(
            "data: {} classes, {} raw lines, {} distinct pairs, {} skipped ({})",
            data.num_classes(),
            r.raw_lines,
            r.distinct,
            r.skipped,
            dir.display()
        );
        if let Some(path) = as_pytorch {
            let page = format!("?{}", cfg.to_query());
            let script = names_script(
                unroll_core::as_pytorch::TEMPLATE,
                &cfg,
                data.classes(),
                DataSource::Tutorial,
                &page,
            );
            return write_script(&path, &script);
        }
        let split = Split::new(&data, cfg.seed as u64, VAL_FRACTION);
        let batches = Batches::train_epoch(&data, &split.train, cfg.batch_size, cfg.seed as u64, 0);
        eprintln!(
            "batches: {} per epoch ({} training pairs), {:.1} % of step-rows padded; matrix products: {}",
            batches.num_batches(),
            split.train.len(),
            100.0 * batches.padded_share(),
            linalg::kernel_name()
        );
        if let Some(path) = dump {
            let mut out = String::new();
            for b in batches {
                let line = serde_json::json!({"seq_len": b.seq_len, "tokens": b.tokens_batch_first(), "lengths": b.lengths, "labels": b.labels()});
                out.push_str(&line.to_string());
                out.push('\n');
            }
            std::fs::write(&path, out).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("wrote the first epoch's batches to {}", path.display());
            return Ok(());
        }
        let classes = data.num_classes();
        let data = Arc::new(data);
        let plan = SweepPlan::of_names(&cfg, data.clone());
        let per_epoch = plan.eval_every.max(1);
        let control = RunControl::new();
        let mut failed = None;
        let mut last: Option<Rc<Weights>> = None;
        // Seconds of training (not validation) since the last epoch's end.
        let mut sec = 0.0f64;
        let mut on_event = |ev: LabEvent| match ev {
            LabEvent::Backend(b) => match b.kind {
                BackendKind::Gpu {
                    description,
                    measured,
                } => eprintln!(
                    "backend: GPU ({description}){}",
                    measured.map(|t| format!(" — {t}")).unwrap_or_default()
                ),
                BackendKind::Cpu { notice } => eprintln!(
                    "backend: CPU{}",
                    notice.map(|n| format!(" — {n}")).unwrap_or_default()
                ),
            },
            LabEvent::Tick(t) => {
                sec += (t.ms - t.eval_ms) / 1e3;
                if let (Some(h), Some(confusion)) = (t.heldout, t.confusion) {
                    let epoch = h.step.div_ceil(per_epoch) as u32;
                    let report = ValReport {
                        epoch,
                        num_classes: classes,
                        confusion,
                    };
                    println!(
                        "{}",
                        serde_json::json!({"epoch": epoch, "train_loss": h.train_loss.map(|l| l as f32), "train_acc": h.train_acc.map(|a| a as f32), "val_loss": h.loss as f32, "val_acc": report.accuracy(), "sec": sec})
                    );
                    sec = 0.0;
                }
            }
            LabEvent::Notice(n) => eprintln!("notice: {n}"),
            LabEvent::Error(e) => failed = Some(e.to_string()),
            LabEvent::Weights { weights, .. } => last = Some(weights),
            LabEvent::Plan(_)
            | LabEvent::Progress { .. }
            | LabEvent::Checkpoint(_)
            | LabEvent::GradFlow { .. }
            | LabEvent::Workers(_)
            | LabEvent::Finished => {}
        };
        let mut sweep = Sweep::new(plan);
        if workers > 1 {
            // Each batch in `workers` shares: this thread computes the first, helper threads
            // the others.
            sweep.split(workers);
            sweep.set_helpers(Some(Rc::new(ThreadHelpers::new(workers - 1))));
        }
        pollster::block_on(run_sweep(sweep, cfg.backend, true, &control, &mut on_event));
        if let Some(e) = failed {
            return Err(e);
        }
        let weights = last.ok_or("training ended without weights")?;
        if let Some(path) = save {
            let info = ClassifierInfo {
                classes: Some(data.classes().to_vec()),
                vocabulary: Some(VOCAB.to_string()),
            };
            let bytes = export_classifier(&weights.model, &weights.params, &info)
                .map_err(|e| e.to_string())?;
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("wrote the trained classifier to {}", path.display());
        }
        for name in predict.iter().flat_map(|p| p.split(',')) {
            let tokens = encode(name).map_err(|e| format!("{name:?}: {e}"))?;
            let probs = weights
                .model
                .predict(&weights.params, &tokens)
                .map_err(|e| format!("{name:?}: {e}"))?;
            println!(
                "{}",
                serde_json::json!({"name": normalize(name), "probs": probs})
            );
        }
        Ok(())
    }
}
