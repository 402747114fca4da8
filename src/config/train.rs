//! The training page's configuration (`?lesson=names`), with the keys of the training lab, and
//! its URL field table.
//!
//! Canonical order of the keys: `cell`,
//! `hidden_size`, `num_layers`, `bidirectional`, `lr`, `batch_size`, `epochs`, `max_norm`,
//! `forget_bias`, `seed`, `head`, `backend`, `autostart`. Example: `?v=1&lesson=names&cell=gru&hidden_size=32&seed=3`.

use super::query::{self, Decoded, FieldKind, FieldSpec, Lang, UrlConfig, Value, Values};
use crate::math::params::CellKind;

pub use crate::math::classifier::Head;

/// Which compute backend to train on (`backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendChoice {
    /// WebGPU when an adapter is available, otherwise the CPU path with a notice.
    Auto,
    /// WebGPU (falls back to the CPU path with a notice when there is no adapter).
    Gpu,
    /// The Rust CPU path.
    Cpu,
}

impl BackendChoice {
    /// `auto`, `gpu` or `cpu`.
    pub fn as_str(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::Gpu => "gpu",
            BackendChoice::Cpu => "cpu",
        }
    }
}

/// Settings of the names classifier's training run. Every field is within the range of its
/// URL key after decoding (see [`TRAIN_FIELDS`] and `docs/url.md`).
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Recurrent cell (`cell`, default `lstm`).
    pub cell: CellKind,
    /// Features of the hidden state H (`hidden_size`, 8–256, default 128).
    pub hidden_size: usize,
    /// Stacked layers L (`num_layers`, 1–4, default 1).
    pub num_layers: usize,
    /// Two directions, D = 2 (`bidirectional`, 0/1, default 0).
    pub bidirectional: bool,
    /// Adam learning rate (`lr`, 1e-5–1, default 0.001).
    pub lr: f64,
    /// Names per mini-batch B (`batch_size`, 1–512, default 64).
    pub batch_size: usize,
    /// Passes over the training set (`epochs`, 1–100, default 5).
    pub epochs: u32,
    /// Global-norm gradient clipping threshold; 0 = off (`max_norm`, 0–100, default 0).
    pub max_norm: f64,
    /// LSTM only: added to the forget-gate block (rows H..2H) of every `bias_ih_l{k}` and
    /// `bias_ih_l{k}_reverse` at initialisation (`forget_bias`, −5 to 5, default 0 = PyTorch's
    /// default init).
    pub forget_bias: f64,
    /// Seed of initialisation, split and batch order (`seed`, 0–4294967295, default 0).
    pub seed: u32,
    /// Which output the classifier reads (`head`, default `last`).
    pub head: Head,
    /// Compute backend (`backend`, default `auto`).
    pub backend: BackendChoice,
    /// Start training as soon as the data is loaded (`autostart`, 0/1, default 0).
    pub autostart: bool,
}

/// The training page's URL keys in canonical order, with ranges and defaults.
pub const TRAIN_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "cell",
        kind: FieldKind::Choice { choices: &CellKind::KEYS, default: 1 },
        doc: "recurrent cell: `nn.RNN` (tanh), `nn.LSTM` or `nn.GRU`",
    },
    FieldSpec {
        key: "hidden_size",
        kind: FieldKind::Int { min: 8, max: 256, default: 128 },
        doc: "features of the hidden state h_t (H)",
    },
    FieldSpec {
        key: "num_layers",
        kind: FieldKind::Int { min: 1, max: 4, default: 1 },
        doc: "stacked recurrent layers",
    },
    FieldSpec {
        key: "bidirectional",
        kind: FieldKind::Bool { default: false },
        doc: "1 = run a second direction backwards over each name (D = 2)",
    },
    FieldSpec {
        key: "lr",
        kind: FieldKind::Float { min: 1e-5, max: 1.0, default: 1e-3 },
        doc: "Adam learning rate (betas 0.9/0.999, eps 1e-8)",
    },
    FieldSpec {
        key: "batch_size",
        kind: FieldKind::Int { min: 1, max: 512, default: 64 },
        doc: "names per mini-batch",
    },
    FieldSpec {
        key: "epochs",
        kind: FieldKind::Int { min: 1, max: 100, default: 5 },
        doc: "passes over the training set; training stops by itself after the last",
    },
    FieldSpec {
        key: "max_norm",
        kind: FieldKind::Float { min: 0.0, max: 100.0, default: 0.0 },
        doc: "clip the global gradient norm to this value; 0 = off",
    },
    FieldSpec {
        key: "forget_bias",
        kind: FieldKind::Float { min: -5.0, max: 5.0, default: 0.0 },
        doc: "LSTM only: added to the forget-gate block (rows H..2H) of every `bias_ih_l{k}` (and `_reverse`) after PyTorch's default init; 0 = PyTorch's default",
    },
    FieldSpec {
        key: "seed",
        kind: FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 },
        doc: "fixes initialisation, split and batch order",
    },
    FieldSpec {
        key: "head",
        kind: FieldKind::Choice { choices: &["last", "padded"], default: 0 },
        doc: "`last`: output at each name's last real character; `padded`: pad/truncate to 10 and read step 10",
    },
    FieldSpec {
        key: "backend",
        kind: FieldKind::Choice { choices: &["auto", "gpu", "cpu"], default: 0 },
        doc: "`auto`: WebGPU when available, else CPU; `gpu`; `cpu`",
    },
    FieldSpec {
        key: "autostart",
        kind: FieldKind::Bool { default: false },
        doc: "1 = start training as soon as the data is loaded",
    },
];

impl Default for TrainConfig {
    /// Every key at its default: LSTM, hidden 128, 1 layer, unidirectional, lr 0.001, batch 64,
    /// 5 epochs, no clipping, no forget-gate bias, seed 0, `last` head, `auto` backend, no
    /// autostart.
    fn default() -> Self {
        Self::from_values(&Values::defaults(TRAIN_FIELDS))
    }
}

impl UrlConfig for TrainConfig {
    const LESSON: &'static str = "names";
    const FIELDS: &'static [FieldSpec] = TRAIN_FIELDS;

    fn from_values(v: &Values) -> Self {
        TrainConfig {
            cell: CellKind::parse(v.choice("cell")).unwrap_or(CellKind::Lstm),
            hidden_size: v.int("hidden_size") as usize,
            num_layers: v.int("num_layers") as usize,
            bidirectional: v.flag("bidirectional"),
            lr: v.float("lr"),
            batch_size: v.int("batch_size") as usize,
            epochs: v.int("epochs") as u32,
            max_norm: v.float("max_norm"),
            forget_bias: v.float("forget_bias"),
            seed: v.int("seed") as u32,
            head: if v.choice("head") == "padded" {
                Head::Padded
            } else {
                Head::Last
            },
            backend: match v.choice("backend") {
                "gpu" => BackendChoice::Gpu,
                "cpu" => BackendChoice::Cpu,
                _ => BackendChoice::Auto,
            },
            autostart: v.flag("autostart"),
        }
    }

    fn to_values(&self) -> Values {
        let size = |n: usize| Value::Int(i64::try_from(n).unwrap_or(i64::MAX));
        Values::defaults(TRAIN_FIELDS)
            .with("cell", Value::Choice(self.cell.as_str()))
            .with("hidden_size", size(self.hidden_size))
            .with("num_layers", size(self.num_layers))
            .with("bidirectional", Value::Bool(self.bidirectional))
            .with("lr", Value::Float(self.lr))
            .with("batch_size", size(self.batch_size))
            .with("epochs", Value::Int(self.epochs.into()))
            .with("max_norm", Value::Float(self.max_norm))
            .with("forget_bias", Value::Float(self.forget_bias))
            .with("seed", Value::Int(self.seed.into()))
            .with("head", Value::Choice(self.head.as_str()))
            .with("backend", Value::Choice(self.backend.as_str()))
            .with("autostart", Value::Bool(self.autostart))
    }
}

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
    }
}
