//! `generate-names`: the names generator (a next-character language model conditioned on the
//! language) trained natively with the same trainer as the browser tab, then sampled.
//!
//! ```text
//! cargo run --release --bin generate-names -- [--cell gru] [--hidden-size 64] [--num-layers 1]
//!     [--bidirectional] [--conditioning input|state] [--epochs 3] [--batch-size 32]
//!     [--lr 0.005] [--max-norm 1] [--seed 0] [--split-seed 0] [--temperature 0.5]
//!     [--samples 200] [--show 5] [--data-dir DIR] [--as-pytorch FILE]
//! ```
//! Prints JSON lines: first `{"baselines"}` (held-out loss per character of the uniform,
//! unigram and bigram models fitted on the training names, nats; the split's sizes); then one
//! `{"epoch", "train_loss", "heldout_loss", "perplexity", "below_bigram", "steps", "sec"}` per
//! epoch (held-out loss per character, nats; perplexity `e^loss`); then one `{"quality"}` per
//! language over `--samples` names at `--temperature` (shares of training names, held-out
//! names and new names, the mean length and the bigram loss per character against the
//! training names') with `--show` of its samples; last `{"summary"}` (the means over the
//! languages). `--help` lists every option.

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    unroll_core::cli::main(
        "generate-names",
        include_str!("generate_names_help.txt"),
        native::run,
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::path::PathBuf;
    use std::sync::Arc;
    use std::time::Instant;

    use serde_json::json;
    use unroll_core::as_pytorch::{generate_script, GenerateRun};
    use unroll_core::cli::{finish, opt, write_script, Arguments};
    use unroll_core::data::names::{locate_names_dir, NamesDataset};
    use unroll_core::math::params::CellKind;
    use unroll_core::task::generate::sample::{quality, sample, SampleRequest};
    use unroll_core::task::generate::{Conditioning, GenerateTask};
    use unroll_core::task::Task;
    use unroll_core::train::trainer::{at_once, Recipe, Trainer};

    pub fn run(mut args: Arguments) -> Result<(), String> {
        let d = GenerateRun::default();
        let cell = match opt::<String>(&mut args, "--cell")?.as_deref() {
            None => d.cell,
            Some("rnn") => CellKind::Rnn,
            Some("lstm") => CellKind::Lstm,
            Some("gru") => CellKind::Gru,
            Some(other) => return Err(format!("--cell {other}: rnn, lstm or gru")),
        };
        let bidirectional = args.contains("--bidirectional");
        let conditioning = match opt::<String>(&mut args, "--conditioning")?.as_deref() {
            None => d.conditioning,
            Some("input") => Conditioning::Input,
            Some("state") => Conditioning::State,
            Some(other) => return Err(format!("--conditioning {other}: input or state")),
        };
        let r = &d.recipe;
        let recipe = Recipe {
            hidden_size: opt::<f64>(&mut args, "--hidden-size")?.unwrap_or(r.hidden_size as f64)
                as usize,
            num_layers: opt::<f64>(&mut args, "--num-layers")?.unwrap_or(r.num_layers as f64)
                as usize,
            bidirectional: bidirectional || r.bidirectional,
            lr: opt::<f64>(&mut args, "--lr")?.unwrap_or(f64::from(r.lr)) as f32,
            batch_size: opt::<f64>(&mut args, "--batch-size")?.unwrap_or(r.batch_size as f64)
                as usize,
            max_norm: Some(
                opt::<f64>(&mut args, "--max-norm")?.unwrap_or(f64::from(r.max_norm.unwrap_or(0.0)))
                    as f32,
            )
            .filter(|m| *m > 0.0),
            forget_bias: r.forget_bias,
        };
        let epochs = opt::<f64>(&mut args, "--epochs")?.unwrap_or(d.epochs as f64) as usize;
        let seed = opt::<f64>(&mut args, "--seed")?.unwrap_or(f64::from(d.seed)) as u32;
        let split_seed =
            opt::<f64>(&mut args, "--split-seed")?.unwrap_or(d.split_seed as f64) as u64;
        let temperature = opt::<f64>(&mut args, "--temperature")?.unwrap_or(d.sample.temperature);
        let samples = opt::<f64>(&mut args, "--samples")?.unwrap_or(d.samples as f64) as usize;
        let show = opt::<f64>(&mut args, "--show")?.unwrap_or(5.0) as usize;
        let as_pytorch = opt::<PathBuf>(&mut args, "--as-pytorch")?;
        let dir = match opt::<String>(&mut args, "--data-dir")? {
            Some(d) => PathBuf::from(d),
            None => locate_names_dir(&PathBuf::from(".")).map_err(|e| e.to_string())?,
        };
        finish(args)?;
        if let Some(path) = as_pytorch {
            let run = GenerateRun {
                cell,
                recipe,
                conditioning,
                seed,
                split_seed,
                epochs,
                steps: 0,
                sample: SampleRequest {
                    temperature,
                    ..d.sample.clone()
                },
                samples,
            };
            return write_script(
                &path,
                &generate_script(
                    unroll_core::as_pytorch::GENERATE_TEMPLATE,
                    unroll_core::as_pytorch::TEMPLATE,
                    &run,
                    "?v=1&lesson=generate",
                ),
            );
        }
        let data = Arc::new(NamesDataset::load_dir(&dir).map_err(|e| e.to_string())?);
        let task = GenerateTask::new(data.clone(), split_seed, conditioning);
        let b = task.baselines();
        println!(
            "{}",
            json!({"baselines": {"uniform": b.uniform, "unigram": b.unigram, "bigram": b.bigram,
                   "characters": b.characters, "letters": task.alphabet().len(),
                   "train_names": task.split().train.len(), "heldout_names": task.split().val.len()}})
        );
        let mut trainer = Trainer::new(&task, cell, &recipe, seed);
        let heldout = task.heldout(recipe.batch_size);
        let per_epoch = task.split().train.len(); // names; batches vary with the buckets
        let mut seen = 0usize;
        for epoch in 1..=epochs {
            let start = Instant::now();
            let (mut loss, mut steps) = (0.0f64, 0usize);
            // One epoch: as many batches as cover the training names once.
            while seen < epoch * per_epoch {
                let r = at_once(trainer.step());
                seen += r.sequences as usize;
                loss += r.loss;
                steps += 1;
            }
            let sec = start.elapsed().as_secs_f64();
            let held = at_once(trainer.evaluate(&heldout, false)).sums.mean_loss();
            println!(
                "{}",
                json!({"epoch": epoch, "train_loss": loss / steps.max(1) as f64,
                       "heldout_loss": held, "perplexity": held.exp(),
                       "below_bigram": b.bigram - held, "steps": steps, "sec": sec})
            );
        }
        let (model, params) = (trainer.model().clone(), trainer.params().to_vec());
        let (mut new, mut real, mut len, mut data_len) = (0.0, 0.0, 0.0, 0.0);
        let (mut bigram, mut data_bigram) = (0.0, 0.0);
        let languages = task.languages();
        for lang in 0..languages as u32 {
            let req = SampleRequest::new(lang, temperature, u64::from(seed) * 1_000_000);
            let q =
                quality(&task, &model, &params, &req, samples, None).map_err(|e| e.to_string())?;
            let shown: Vec<String> = (0..show as u64)
                .map(|i| {
                    let r = SampleRequest {
                        seed: req.seed + i,
                        ..req.clone()
                    };
                    sample(&task, &model, &params, &r).map(|s| s.name)
                })
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?;
            new += q.new;
            real += q.training;
            len += q.mean_length;
            data_len += q.data_mean_length;
            bigram += q.bigram_loss;
            data_bigram += q.data_bigram_loss;
            println!(
                "{}",
                json!({"quality": {"language": data.classes()[lang as usize], "new": q.new,
                       "training": q.training, "heldout": q.heldout, "unended": q.unended,
                       "mean_length": q.mean_length, "data_mean_length": q.data_mean_length,
                       "bigram_loss": q.bigram_loss, "data_bigram_loss": q.data_bigram_loss},
                       "samples": shown})
            );
        }
        let n = languages.max(1) as f64;
        println!(
            "{}",
            json!({"summary": {"bidirectional": bidirectional, "conditioning": conditioning.as_str(), "new": new / n,
                   "training": real / n, "mean_length": len / n, "data_mean_length": data_len / n,
                   "bigram_loss": bigram / n, "data_bigram_loss": data_bigram / n,
                   "temperature": temperature}})
        );
        Ok(())
    }
}
