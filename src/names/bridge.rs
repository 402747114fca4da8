//! The one place where the UI touches the layers below it (`config`, `data`, `train`).
//!
//! The training page only uses the items of this module, so when an API below changes, this
//! file is the only one to adjust. Everything here is plain data or a thin call; no Leptos.
//! The helpers in this file are pure and compile natively (the tests below check them); the
//! data set in use and the runs in the engine's worker are browser-only (`engine`, re-exported
//! here).

use unroll_core::config::{query, Lang, UrlNotice};
use unroll_core::data;
use unroll_core::data::names::LoadReport;
use unroll_core::data::upload::UploadSummary;
pub use unroll_core::keep::DataSource;

pub use unroll_core::config::{BackendChoice, CellKind, TrainConfig};
pub use unroll_core::task::names::{EpochReport, ValReport};
pub use unroll_core::train::backend::BackendKind;
pub use unroll_core::train::sweep::{SweepCheckpoint, Weights};
mod engine;
mod events;
pub use crate::shell::engine_client::{DataRef, EngineData};
pub use engine::{
    build_dataset, fetch_split, loaded_data, loaded_upload, run_session, split_missing,
    split_sizes, val_class_counts, DataInUse, LoadedData, RunHandle, Start,
};
pub use events::{NamesEvent, NamesEvents};

// ---------------------------------------------------------------------------------------------
// Configuration (URL codec)

/// A decoded page URL: the configuration, the language chosen in the link (kept when the URL
/// is rewritten) and one human-readable notice per ignored or clamped field.
#[derive(Clone, Debug, PartialEq)]
pub struct UrlState {
    /// The configuration, every field within its range.
    pub config: TrainConfig,
    /// `lang` when the link sets one.
    pub lang: Option<Lang>,
    /// What was clamped, ignored or replaced by a default.
    pub notices: Vec<UrlNotice>,
}

/// Decodes a query string (with or without `?`) with the URL codec of `config`.
pub fn decode_config(search: &str) -> UrlState {
    let decoded = TrainConfig::from_query(search);
    UrlState {
        config: decoded.config,
        lang: decoded.lang,
        notices: decoded.notices,
    }
}

/// The canonical query string of `config` (no leading `?`): `v` and `lesson` first, then the
/// keys that differ from their defaults, then `lang` when the link chose one.
pub fn encode_config(config: &TrainConfig, lang: Option<Lang>) -> String {
    config.to_query_with_lang(lang)
}

/// `config` with one URL field set from a form control, validated by the same codec as the URL
/// (so a typed 1000 for `hidden_size` is clamped exactly as `?hidden_size=1000` would be),
/// and the notices for that field.
pub fn with_field(config: &TrainConfig, key: &str, value: &str) -> (TrainConfig, Vec<UrlNotice>) {
    let mut pairs = query::parse_pairs(&config.to_query());
    pairs.retain(|(k, _)| k != key);
    pairs.push((key.to_owned(), value.trim().to_owned()));
    let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
    let state = decode_config(&query);
    (state.config, state.notices)
}

// ---------------------------------------------------------------------------------------------
// Data

/// Counts of one language (class) as the loader reports them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassCount {
    /// Language name (the class file's stem).
    pub language: String,
    /// Lines in the class file.
    pub raw_lines: usize,
    /// Distinct (normalised name, language) pairs.
    pub distinct_pairs: usize,
}

/// What the loader reports about the whole data set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetSummary {
    /// One row per class, in class-index order.
    pub classes: Vec<ClassCount>,
    /// Lines in all class files.
    pub raw_lines: usize,
    /// Distinct (name, language) pairs: the examples trained and validated on.
    pub distinct_pairs: usize,
    /// Lines that were empty after normalisation.
    pub skipped: usize,
}

/// The page's counts of the loader's `report`.
pub fn summary_of(report: &LoadReport) -> DatasetSummary {
    DatasetSummary {
        classes: report
            .classes
            .iter()
            .map(|c| ClassCount {
                language: c.class.clone(),
                raw_lines: c.raw_lines,
                distinct_pairs: c.distinct,
            })
            .collect(),
        raw_lines: report.raw_lines,
        distinct_pairs: report.distinct,
        skipped: report.skipped,
    }
}

/// The page's counts of an upload: the loader's per-class counts and pairs, with the lines
/// of the files and every skipped line as the upload counted them (the same numbers its
/// message gives).
pub fn upload_summary_of(upload: &UploadSummary) -> DatasetSummary {
    DatasetSummary {
        raw_lines: upload.file_lines,
        skipped: upload.skipped,
        ..summary_of(&upload.report)
    }
}

pub use crate::kit::names_data::{manifest_files, DataLoadError, FetchProblem, FETCH_DATA_COMMAND};

/// Sizes of the seeded 90/10 split (distinct pairs on each side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitSizes {
    /// Training pairs.
    pub train: usize,
    /// Validation pairs.
    pub val: usize,
}

/// Features per input step of the name classifier: the one-hot vocabulary size (`input_size`).
pub fn input_size() -> usize {
    data::VOCAB_SIZE
}

/// Parameters of the classifier `config` trains on `num_classes` languages: the length of its
/// `ParamLayout` (recurrent module with both bias vectors per layer and direction, as PyTorch
/// counts them, plus the `fc` head).
pub fn param_count(config: &TrainConfig, num_classes: usize) -> usize {
    unroll_core::math::params::ParamLayout::classifier(&spec_of(config), num_classes).total_len()
}

/// The recurrent module `config` trains (its cell and sizes over the one-hot vocabulary).
pub fn spec_of(config: &TrainConfig) -> unroll_core::math::params::RnnSpec {
    unroll_core::train::trainer::Recipe::of_names(config).spec(config.cell, input_size())
}

/// Mini-batches per epoch for `train` pairs at `batch_size` (the last batch may be smaller),
/// as `data::Batches::num_batches` counts them.
pub fn steps_per_epoch(train: usize, batch_size: usize) -> u64 {
    train.div_ceil(batch_size.max(1)) as u64
}

/// Encodes a typed name for the model. `Err` holds a friendly message when nothing of it is
/// left after normalisation (the model never sees an empty sequence).
pub fn encode_name(name: &str) -> Result<Vec<u32>, String> {
    data::encode(name).map_err(|e| {
        let text = e.to_string();
        let mut chars = text.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => text,
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Prediction

/// The `k` most likely languages for the encoded name `tokens` with their probabilities
/// (descending), computed on the CPU from `weights` (the session's latest read-back).
///
/// Errors: the model's message (e.g. a symbol outside the vocabulary).
pub fn predict_top(
    weights: &Weights,
    classes: &[String],
    tokens: &[u32],
    k: usize,
) -> Result<Vec<(String, f32)>, String> {
    let probs = weights
        .model
        .predict(&weights.params, tokens)
        .map_err(|e| e.to_string())?;
    let mut ranked: Vec<(usize, f32)> = probs.into_iter().enumerate().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(ranked
        .into_iter()
        .take(k)
        .map(|(i, p)| {
            (
                classes
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("class {i}")),
                p,
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::data::NamesDataset;
    use unroll_core::math::model::SeqModel;
    use unroll_core::math::params::RnnSpec;

    #[test]
    fn a_form_field_is_clamped_as_the_same_link_would_be() {
        let base = TrainConfig {
            seed: 7,
            ..TrainConfig::default()
        };
        let (next, notices) = with_field(&base, "hidden_size", " 1000 ");
        let by_link = decode_config("?v=1&lesson=names&seed=7&hidden_size=1000");
        assert_eq!(next, by_link.config);
        assert_ne!(next.hidden_size, 1000);
        assert_eq!(next.seed, 7, "the other fields stay");
        assert_eq!(notices, by_link.notices);
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].field, "hidden_size");
        let (same, none) = with_field(&base, "lr", "0.01");
        assert_eq!((same.lr, same.seed, none.len()), (0.01, 7, 0));
    }

    #[test]
    fn a_config_and_its_language_survive_the_url() {
        let config = TrainConfig {
            cell: CellKind::Gru,
            hidden_size: 64,
            bidirectional: true,
            ..TrainConfig::default()
        };
        let query = encode_config(&config, Some(Lang::Zh));
        let back = decode_config(&query);
        assert_eq!((back.config, back.lang), (config, Some(Lang::Zh)));
        assert!(back.notices.is_empty());
    }

    #[test]
    fn steps_per_epoch_counts_the_smaller_last_batch() {
        assert_eq!(steps_per_epoch(100, 32), 4);
        assert_eq!(steps_per_epoch(96, 32), 3);
        assert_eq!(steps_per_epoch(0, 32), 0);
        assert_eq!(steps_per_epoch(5, 0), 5);
    }

    #[test]
    fn param_count_is_pytorchs() {
        let (v, c) = (input_size(), 18);
        for cell in CellKind::ALL {
            for (layers, bidirectional) in [(1, false), (2, true)] {
                let config = TrainConfig {
                    cell,
                    hidden_size: 16,
                    num_layers: layers,
                    bidirectional,
                    ..TrainConfig::default()
                };
                let (h, d, g) = (16, if bidirectional { 2 } else { 1 }, cell.spec().blocks);
                // Per layer and direction: weight_ih [G·H, in], weight_hh [G·H, H], two biases.
                let rnn: usize = (0..layers)
                    .map(|l| {
                        let input = if l == 0 { v } else { d * h };
                        d * (g * h * (input + h) + 2 * g * h)
                    })
                    .sum();
                let fc = c * d * h + c;
                assert_eq!(param_count(&config, c), rnn + fc, "{cell:?} {layers} {d}");
            }
        }
    }

    #[test]
    fn a_name_without_letters_gets_a_capitalised_message() {
        assert_eq!(encode_name("Abe").unwrap(), data::encode("Abe").unwrap());
        let message = encode_name(" 123 ").unwrap_err();
        assert!(message.chars().next().unwrap().is_uppercase(), "{message}");
    }

    #[test]
    fn predict_top_ranks_the_models_probabilities() {
        let model = SeqModel::new(RnnSpec::new(CellKind::Lstm, input_size(), 4), 3);
        let params: Vec<f32> = (0..model.layout.total_len())
            .map(|i| ((i as f32) * 1.37).cos() * 0.6)
            .collect();
        let weights = Weights {
            model,
            params,
            step: 0,
        };
        let tokens = data::encode("Nguyen").unwrap();
        let probs = weights.model.predict(&weights.params, &tokens).unwrap();
        // Two class names for three classes: the third is named by its index.
        let classes = ["Arabic", "Czech"].map(String::from);
        let top = predict_top(&weights, &classes, &tokens, 3).unwrap();
        assert_eq!(top.len(), 3);
        assert!(top.windows(2).all(|p| p[0].1 >= p[1].1));
        let mut sorted = probs.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        assert_eq!(top.iter().map(|t| t.1).collect::<Vec<_>>(), sorted);
        for (label, p) in &top {
            let i = match label.as_str() {
                "Arabic" => 0,
                "Czech" => 1,
                other => other.strip_prefix("class ").unwrap().parse().unwrap(),
            };
            assert_eq!(*p, probs[i]);
        }
        assert_eq!(
            predict_top(&weights, &classes, &tokens, 1).unwrap().len(),
            1
        );
        assert!(predict_top(&weights, &classes, &[99], 3).is_err());
    }

    #[test]
    fn summary_counts_lines_and_distinct_pairs() {
        let dataset = NamesDataset::from_named_files([
            ("Arabic.txt", "Nasser\nNasser\nKhoury\n"),
            ("Czech.txt", "Novak\n123\n"),
        ])
        .unwrap();
        let s = summary_of(dataset.report());
        assert_eq!(s.classes.len(), 2);
        assert_eq!(
            (
                s.classes[0].language.as_str(),
                s.classes[0].raw_lines,
                s.classes[0].distinct_pairs
            ),
            ("Arabic", 3, 2)
        );
        assert_eq!(
            (
                s.classes[1].language.as_str(),
                s.classes[1].raw_lines,
                s.classes[1].distinct_pairs
            ),
            ("Czech", 2, 1)
        );
        assert_eq!((s.raw_lines, s.distinct_pairs, s.skipped), (5, 3, 1));
    }

    #[test]
    fn manifest_lists_its_files_in_order() {
        let json = r#"{"version":1,"files":[
            {"class":"Arabic","file":"Arabic.txt","sha256":"00"},
            {"class":"Czech","file":"Czech.txt","sha256":"11"}]}"#;
        match manifest_files(json) {
            Ok(files) => assert_eq!(files, ["Arabic.txt", "Czech.txt"]),
            Err(e) => panic!("{e}"),
        }
        assert!(manifest_files("not json").is_err());
    }
}
