//! The training page's configuration (`?lesson=names`), with the keys of the training lab, and
//! its URL field table.
//!
//! Canonical order of the keys: `cell`,
//! `hidden_size`, `num_layers`, `bidirectional`, `lr`, `batch_size`, `epochs`, `max_norm`,
//! `forget_bias`, `seed`, `head`, `backend`, `workers`, `autostart`. Example: `?v=1&lesson=names&cell=gru&hidden_size=32&seed=3`.

use super::fields::{choice_enum, url_config, ChoiceField};
use super::query::{self, Decoded, FieldKind, Lang};
use crate::math::params::CellKind;

pub use crate::math::model::Head;

choice_enum! {
    /// Which compute backend to train on (`backend`).
    pub enum BackendChoice {
        /// WebGPU when an adapter is available, otherwise the CPU path with a notice.
        Auto = "auto",
        /// WebGPU (falls back to the CPU path with a notice when there is no adapter).
        Gpu = "gpu",
        /// The Rust CPU path.
        Cpu = "cpu",
    }
}

url_config! {
    /// Settings of the names classifier's training run. Every field is within the range of its
    /// URL key after decoding (see [`TRAIN_FIELDS`] and `docs/url.md`). The default is the
    /// names recipe: LSTM, hidden 128, 1 layer, unidirectional, lr 0.001, batch 64, 5 epochs, no
    /// clipping, no forget-gate bias, seed 0, `last` head, `auto` backend, no autostart.
    #[derive(Clone, Debug, PartialEq)]
    pub struct TrainConfig {
        lesson: "names",
        fields: TRAIN_FIELDS,
    } {
        /// Recurrent cell (`cell`, default `lstm`).
        cell: CellKind = FieldKind::Choice { choices: CellKind::WORDS, default: CellKind::Lstm as usize }
            => "recurrent cell: `nn.RNN` (tanh), `nn.LSTM` or `nn.GRU`",
        /// Features of the hidden state H (`hidden_size`, 8–256, default 128).
        hidden_size: usize = FieldKind::Int { min: 8, max: 256, default: 128 }
            => "features of the hidden state h_t (H)",
        /// Stacked layers L (`num_layers`, 1–4, default 1).
        num_layers: usize = FieldKind::Int { min: 1, max: 4, default: 1 } => "stacked recurrent layers",
        /// Two directions, D = 2 (`bidirectional`, 0/1, default 0).
        bidirectional: bool = FieldKind::Bool { default: false }
            => "1 = run a second direction backwards over each name (D = 2)",
        /// Adam learning rate (`lr`, 1e-5–1, default 0.001).
        lr: f64 = FieldKind::Float { min: 1e-5, max: 1.0, default: 1e-3 }
            => "Adam learning rate (betas 0.9/0.999, eps 1e-8)",
        /// Names per mini-batch B (`batch_size`, 1–512, default 64).
        batch_size: usize = FieldKind::Int { min: 1, max: 512, default: 64 } => "names per mini-batch",
        /// Passes over the training set (`epochs`, 1–100, default 5).
        epochs: u32 = FieldKind::Int { min: 1, max: 100, default: 5 }
            => "passes over the training set; training stops by itself after the last",
        /// Global-norm gradient clipping threshold; 0 = off (`max_norm`, 0–100, default 0).
        max_norm: f64 = FieldKind::Float { min: 0.0, max: 100.0, default: 0.0 }
            => "clip the global gradient norm to this value; 0 = off",
        /// LSTM only: added to the forget-gate block (rows H..2H) of every `bias_ih_l{k}` and
        /// `bias_ih_l{k}_reverse` at initialisation (`forget_bias`, −5 to 5, default 0 = PyTorch's
        /// default init).
        forget_bias: f64 = FieldKind::Float { min: -5.0, max: 5.0, default: 0.0 }
            => "LSTM only: added to the forget-gate block (rows H..2H) of every `bias_ih_l{k}` (and `_reverse`) after PyTorch's default init; 0 = PyTorch's default",
        /// Seed of initialisation, split and batch order (`seed`, 0–4294967295, default 0).
        seed: u32 = FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 }
            => "fixes initialisation, split and batch order",
        /// Which output the classifier reads (`head`, default `last`).
        head: Head = FieldKind::Choice { choices: Head::WORDS, default: Head::Last as usize }
            => "`last`: output at each name's last real character; `padded`: pad/truncate to 10 and read step 10",
        /// Compute backend (`backend`, default `auto`).
        backend: BackendChoice = FieldKind::Choice { choices: BackendChoice::WORDS, default: BackendChoice::Auto as usize }
            => "`auto`: the faster of WebGPU and the CPU, timed on a few steps at the run's shapes (the CPU without an adapter); `gpu`; `cpu`",
        /// Web Workers one run's batches are split across (`workers`, 0–8, default 0 = split
        /// only where it pays: see [`crate::engine::parallel::split_for`]).
        workers: usize = FieldKind::Int { min: 0, max: MAX_WORKERS as i64, default: 0 }
            => "Web Workers each batch is split across (its names' gradients computed side by side, summed in a fixed order, one Adam update): `0` = where it pays (enough cores, the CPU path); `1` = one worker; the run's numbers depend on the number of shares only, and a resumed run keeps its checkpoint's",
        /// Start training as soon as the data is loaded (`autostart`, 0/1, default 0).
        autostart: bool = FieldKind::Bool { default: false }
            => "1 = start training as soon as the data is loaded",
    }
}

/// The most Web Workers a sweep trains on, or a single run's batches are split across: each
/// holds its own copy of the engine's memory (about 16 MiB at hidden 64, docs/bench.md), and the
/// delay lab's largest sweep has 15 runs (3 cells × 5 seeds), so more workers than 8 would leave
/// most of them idle at its end while costing memory a phone lacks.
pub const MAX_WORKERS: usize = 8;

impl TrainConfig {
    /// Decodes a query string (`location.search`, with or without `?`); never fails: see
    /// [`query::decode`] for clamping, defaults and notices.
    pub fn from_query(query: &str) -> Decoded<TrainConfig> {
        query::decode(query)
    }

    /// The canonical query string without `lang` (no leading `?`), e.g. `v=1&lesson=names`.
    pub fn to_query(&self) -> String {
        query::encode(self, None)
    }

    /// The canonical query string with `lang` when the user chose a language.
    pub fn to_query_with_lang(&self, lang: Option<Lang>) -> String {
        query::encode(self, lang)
    }

    /// Gradient clipping threshold, `None` when `max_norm` is 0 (off).
    pub fn clip_norm(&self) -> Option<f64> {
        (self.max_norm > 0.0).then_some(self.max_norm)
    }

    /// The model's shape as the page's files carry it in their names: cell and hidden size,
    /// then the layers when more than one and `bi` when bidirectional, e.g. `lstm-h128`,
    /// `gru-h64-l2-bi`.
    pub fn file_tag(&self) -> String {
        let mut tag = format!("{}-h{}", self.cell.spec().key, self.hidden_size);
        if self.num_layers > 1 {
            tag.push_str(&format!("-l{}", self.num_layers));
        }
        if self.bidirectional {
            tag.push_str("-bi");
        }
        tag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_names_recipe() {
        let c = TrainConfig::default();
        assert_eq!(c.cell, CellKind::Lstm);
        assert_eq!(
            (c.hidden_size, c.batch_size, c.epochs, c.seed),
            (128, 64, 5, 0)
        );
        assert_eq!(
            (c.num_layers, c.bidirectional, c.autostart),
            (1, false, false)
        );
        assert_eq!((c.lr, c.max_norm, c.forget_bias), (0.001, 0.0, 0.0));
        assert_eq!((c.head, c.backend), (Head::Last, BackendChoice::Auto));
        assert_eq!(c.clip_norm(), None);
        assert_eq!(c.to_query(), "v=1&lesson=names");
        assert_eq!(c.file_tag(), "lstm-h128");
        let stacked = TrainConfig {
            cell: CellKind::Gru,
            hidden_size: 64,
            num_layers: 2,
            bidirectional: true,
            ..c
        };
        assert_eq!(stacked.file_tag(), "gru-h64-l2-bi");
    }
}
