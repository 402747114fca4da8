//! The delay-copy page's configuration (`?lesson=delay`) and its URL field table.
//!
//! Canonical order of the keys: `task`, `conditioning`, `cell`, `delay`, `length`, `vocab`,
//! `hidden_size`, `layers`, `bidirectional`, `lr`, `batch_size`, `max_norm`, `forget_bias`,
//! `steps`, `seed`, `seeds`, `backend`, `workers`, then the generation sampler's `language`,
//! `prefix`, `temperature`, `top_k`, `sample_seed`, `greedy`. Example (the delay-64
//! preset): `?v=1&lesson=delay&delay=64`.
//!
//! The defaults are **recipe R** (hidden 128, batch 32, Adam lr 0.003, global-norm clipping at
//! 1.0, LSTM forget-gate bias +1, 3000 steps, 3 seeds): with it the delay-copy task comes out as
//! it does in PyTorch (the LSTM learns delays the RNN cannot). Links written before these keys
//! existed carry only the keys they changed, so they open with recipe R for the rest.
//!
//! `delay` and `length` are decoded independently (each within its own range); the pair must
//! satisfy `0 < delay < length` ([`check_delay`]). A URL that breaks the rule keeps its values
//! (so the page can show what was asked), gets one [`NoticeKind::Inconsistent`] notice, and the
//! page shows the rule instead of training.

use super::fields::{url_config, ChoiceField};
use super::query::{Accepted, FieldKind, NoticeKind, TiedBy, UrlNotice};
use super::train::BackendChoice;
use crate::math::cell::{CellKind, CELL_COUNT};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The `lesson` value of names generation's page: the lab page's configuration with
/// `task=generate` (that key is then not written).
pub const GENERATE_LESSON: &str = "generate";
/// Lowest sampling temperature accepted.
pub const MIN_TEMPERATURE: f64 = 0.1;
/// Highest sampling temperature accepted.
pub const MAX_TEMPERATURE: f64 = 2.0;

/// How the language reaches the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Conditioning {
    /// The language's one-hot concatenated to every step's input (PyTorch's tutorial).
    Input,
    /// The language as the initial hidden state of every layer and direction:
    /// `h0 = init(onehot(language)).view(B, L·D, H).transpose(0, 1)` with
    /// `init = nn.Linear(C, L·D·H)` ([`crate::math::model::SeqModel::with_initial_state`]);
    /// the steps read the letters alone.
    State,
}

impl Conditioning {
    /// Both modes, in the order of [`Conditioning::KEYS`].
    pub const ALL: [Conditioning; 2] = [Conditioning::Input, Conditioning::State];
    /// The URL words of [`Conditioning::ALL`].
    pub const KEYS: [&'static str; 2] = ["input", "state"];

    /// `input` or `state`.
    pub fn as_str(self) -> &'static str {
        match self {
            Conditioning::Input => "input",
            Conditioning::State => "state",
        }
    }
}

/// Which cells the page trains side by side (`cell`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellSet {
    /// RNN (tanh) and LSTM at the same hidden size (the course's comparison; default).
    Both,
    /// One cell alone (its key: `rnn`, `lstm`, `gru`).
    One(CellKind),
    /// Every cell of [`CellKind::ALL`].
    All,
}

/// Number of [`CellSet`] choices: `both`, one per cell, `all`.
const SET_COUNT: usize = CELL_COUNT + 2;

impl CellSet {
    /// Every choice, in the order of the URL table: `both`, each cell of [`CellKind::ALL`], `all`.
    pub const ALL: [CellSet; SET_COUNT] = {
        let mut all = [CellSet::Both; SET_COUNT];
        let mut k = 0;
        while k < CELL_COUNT {
            all[k + 1] = CellSet::One(CellKind::ALL[k]);
            k += 1;
        }
        all[SET_COUNT - 1] = CellSet::All;
        all
    };

    /// The URL words of [`CellSet::ALL`], in that order.
    pub const KEYS: [&'static str; SET_COUNT] = {
        let mut keys = ["both"; SET_COUNT];
        let mut k = 0;
        while k < CELL_COUNT {
            keys[k + 1] = CellKind::KEYS[k];
            k += 1;
        }
        keys[SET_COUNT - 1] = "all";
        keys
    };

    /// The URL word: `both`, a cell's key, `all`.
    pub fn as_str(self) -> &'static str {
        match self {
            CellSet::Both => "both",
            CellSet::One(cell) => cell.as_str(),
            CellSet::All => "all",
        }
    }

    /// Parses a URL word (case-insensitive).
    pub fn parse(s: &str) -> Option<CellSet> {
        CellSet::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(s.trim()))
    }

    /// The cells trained, in display order (that of [`CellKind::ALL`]).
    pub fn cells(self) -> &'static [CellKind] {
        match self {
            CellSet::Both => &[CellKind::Rnn, CellKind::Lstm],
            CellSet::One(cell) => {
                static CELLS: [CellKind; CELL_COUNT] = CellKind::ALL;
                std::slice::from_ref(&CELLS[cell.index()])
            }
            CellSet::All => &CellKind::ALL,
        }
    }
}

impl ChoiceField for CellSet {
    const ALL: &'static [Self] = &CellSet::ALL;
    const WORDS: &'static [&'static str] = &CellSet::KEYS;
}

/// Which task the long-memory page runs (`task`): delay-copy (the default, so links written
/// before the key existed keep their meaning) or one of the classic long-memory tasks of
/// [`crate::memory`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabTask {
    /// The delay-copy task ([`crate::delay`]).
    Delay,
    /// The adding problem ([`crate::task::memory::TaskKind::Adding`]).
    Adding,
    /// Copy memory ([`crate::task::memory::TaskKind::Copy`]).
    Copy,
    /// Temporal order ([`crate::task::memory::TaskKind::Order`]).
    Order,
    /// Names generation ([`crate::task::generate::GenerateTask`]): a next-character model of
    /// the names conditioned on the language (`lesson=generate`).
    Generate,
}

impl LabTask {
    /// Every choice, in the order of the URL table.
    pub const ALL: [LabTask; 5] = [
        LabTask::Delay,
        LabTask::Adding,
        LabTask::Copy,
        LabTask::Order,
        LabTask::Generate,
    ];

    /// The URL words of [`LabTask::ALL`], in that order.
    pub const KEYS: [&'static str; 5] = ["delay", "adding", "copy", "order", "generate"];

    // `LabTask::memory` (the long-memory task of a choice) is defined with the tasks, in
    // `crate::task::memory`, so that the configuration imports no task.
}

impl ChoiceField for LabTask {
    const ALL: &'static [Self] = &LabTask::ALL;
    const WORDS: &'static [&'static str] = &LabTask::KEYS;
}

impl ChoiceField for Conditioning {
    const ALL: &'static [Self] = &Conditioning::ALL;
    const WORDS: &'static [&'static str] = &Conditioning::KEYS;
}

/// Largest `language` (class index of the names data; the built-in data has 18).
pub const MAX_LANGUAGE: usize = 63;

/// Largest `length` (and the upper end of the `delay` key's range).
pub const MAX_LENGTH: usize = 256;

url_config! {
    /// Settings of the delay-copy task. Every field is within the range of its URL key after
    /// decoding; `delay < length` is **not** guaranteed (see [`DelayConfig::check`]). The
    /// default is the delay-8 preset with recipe R: RNN + LSTM, length 96, vocab 10, H 128, lr
    /// 0.003, batch 32, max_norm 1, forget_bias 1, 3000 steps, seeds 0, 1, 2.
    #[derive(Clone, Debug, PartialEq)]
    pub struct DelayConfig {
        lesson: "delay",
        fields: DELAY_FIELDS,
        reconcile: DelayConfig::reconcile_delay,
    } {
        /// The task (`task`, default `delay`).
        task: LabTask = FieldKind::Choice { choices: &LabTask::KEYS, default: 0 }
            => "the task: `delay` = delay-copy; `adding`, `copy`, `order` = the adding problem, copy memory and temporal order (docs/memory-tasks.md): the page trains RNN, LSTM and GRU on it with its baseline, T from `length`, the budget from `steps`, runs from `seeds`; a key left at its delay-copy default takes the task's default (T 50/20/100, 1500/1000/800 steps, hidden 64, all three cells; `seeds` as given, 3 by default); the task page has a form for these keys; `generate` = names generation, written `lesson=generate` (docs/generation.md): a key left at its delay-copy default takes the generation recipe (GRU, hidden 64, lr 0.005, 1500 steps, one seed)",
        /// How the language reaches the generator (`conditioning`, default `input`; names
        /// generation only).
        conditioning: Conditioning = FieldKind::Choice { choices: &Conditioning::KEYS, default: 0 }
            => "names generation only: `input` = the language's one-hot concatenated to every step's input (PyTorch's tutorial); `state` = the language sets the initial hidden state through `nn.Linear(C, L·D·H)` (trains on the CPU path)",
        /// Cells trained side by side (`cell`, default `both` = RNN + LSTM).
        cell: CellSet = FieldKind::Choice { choices: &CellSet::KEYS, default: 0 }
            => "cells trained side by side: `both` = RNN (tanh) and LSTM; `rnn`, `lstm` or `gru` alone; `all` = the three",
        /// How many steps back the target is (`delay`, 0–256 in the URL, valid when
        /// `0 < delay < length`; default 8).
        delay: usize = FieldKind::Int { min: 0, max: MAX_LENGTH as i64, default: 8 }
            => "the target at position t is the token at t − delay; must satisfy 0 < delay < length (otherwise the page shows the rule and does not train)",
        /// Tokens per sequence T (`length`, 2–256, default 96).
        length: usize = FieldKind::Int { min: 2, max: MAX_LENGTH as i64, default: 96 }
            => "tokens per sequence (seq_len T)",
        /// Vocabulary size V (`vocab`, 2–64, default 10).
        vocab: usize = FieldKind::Int { min: 2, max: 64, default: 10 }
            => "vocabulary size V (tokens are one-hot, so input_size = V)",
        /// Hidden size H of every cell (`hidden_size`, 4–128, default 128).
        hidden_size: usize = FieldKind::Int { min: 4, max: 128, default: 128 }
            => "hidden size H, the same for every cell (at most 128, so a step stays short on the CPU path)",
        /// Stacked recurrent layers L (`layers`, 1–3, default 1; names generation only).
        layers: usize = FieldKind::Int { min: 1, max: 3, default: 1 }
            => "names generation only: stacked recurrent layers (L)",
        /// A backward direction beside the forward one (`bidirectional`, default 0; names
        /// generation only).
        bidirectional: bool = FieldKind::Bool { default: false }
            => "names generation only: 1 = train with a second, backward direction (D = 2), which reads the letter it must predict",
        /// Adam learning rate (`lr`, 0.00001–1, default 0.003).
        lr: f64 = FieldKind::Float { min: 0.00001, max: 1.0, default: 0.003 }
            => "Adam learning rate (betas 0.9/0.999, eps 1e-8)",
        /// Sequences per optimisation step (`batch_size`, 1–256, default 32).
        batch_size: usize = FieldKind::Int { min: 1, max: 256, default: 32 }
            => "sequences per optimisation step (fresh random sequences every step)",
        /// Global-norm gradient clipping threshold (`max_norm`, 0–100, default 1; 0 = off).
        max_norm: f64 = FieldKind::Float { min: 0.0, max: 100.0, default: 1.0 }
            => "clip the global gradient norm to this value before each Adam step (`clip_grad_norm_`); 0 = off",
        /// Added to the LSTM's forget-gate block of `bias_ih_l0` at initialisation
        /// (`forget_bias`, −5 to 5, default 1; 0 = PyTorch's default init; no effect on RNN/GRU).
        forget_bias: f64 = FieldKind::Float { min: -5.0, max: 5.0, default: 1.0 }
            => "LSTM only: added to the forget-gate block (rows H..2H) of `bias_ih_l0` after PyTorch's default init; 0 = PyTorch's default",
        /// Optimisation steps of every run, the training budget (`steps`, 1–20000, default 3000).
        steps: u64 = FieldKind::Int { min: 1, max: MAX_STEPS as i64, default: 3000 }
            => "optimisation steps of every run (the training budget); the held-out set is evaluated before the first step, every min(100, max(1, ⌊steps / 10⌋)) steps (every 100 from a budget of 1 000 up) and after the last",
        /// Seed of the first run: its weights and its token stream (`seed`).
        seed: u32 = FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 }
            => "seed of the first run: its initial weights and its token stream (every cell of a run sees the same sequences)",
        /// Runs per cell, with seeds `seed`, `seed + 1`, … (`seeds`, 1–5, default 3).
        seeds: usize = FieldKind::Int { min: 1, max: MAX_SEEDS as i64, default: 3 }
            => "runs per cell, with seeds `seed`, `seed`+1, …",
        /// Compute backend (`backend`, default `auto`), as on the names page.
        backend: BackendChoice = FieldKind::Choice { choices: BackendChoice::WORDS, default: BackendChoice::Auto as usize }
            => "`auto`: for each cell the faster of WebGPU and the CPU, timed on a few steps at the run's shapes (the CPU without an adapter); `gpu`; `cpu`",
        /// Web Workers the sweep's runs train on side by side (`workers`, 0–8, default 0 =
        /// the machine's cores less one for the page, at most 8 and at most the runs).
        workers: usize = FieldKind::Int { min: 0, max: MAX_WORKERS as i64, default: 0 }
            => "Web Workers the sweep's runs (cells × seeds) train on side by side: `0` = the machine's cores less one for the page (at most 8 and at most the runs); `1` = one worker, the runs taking turns; on the CPU path only (runs that may train on WebGPU use one worker); each run's numbers are the same, bit for bit, on any number; a sweep of one run (one cell, one seed) has its batches split across the workers instead, as the names page's `workers`",
        /// The language a name is written in (`language`, its class index, default 0; names
        /// generation's sampler).
        language: usize = FieldKind::Int { min: 0, max: MAX_LANGUAGE as i64, default: 0 }
            => "names generation's sampler: the language of the name written, as the data's class index (0 = the first language in alphabetical order)",
        /// Letters the written name starts with (`prefix`, at most one token of 16 characters,
        /// default none).
        prefix: Vec<String> = FieldKind::TextList { min_len: 0, max_len: 1, max_chars: 16, default: &[] }
            => "names generation's sampler: the letters the name starts with (normalised as the data is; empty = none)",
        /// Divides the logits before the softmax (`temperature`, 0.1–2, default 0.5).
        temperature: f64 = FieldKind::Float { min: MIN_TEMPERATURE, max: MAX_TEMPERATURE, default: 0.5 }
            => "names generation's sampler: p = softmax(logits / temperature)",
        /// Draw among the k most likely symbols only (`top_k`, 0–64, default 0 = all).
        top_k: usize = FieldKind::Int { min: 0, max: 64, default: 0 }
            => "names generation's sampler: draw among the k most likely symbols only (0 = all)",
        /// Seed of the sampler's draws (`sample_seed`, default 0).
        sample_seed: u32 = FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 }
            => "names generation's sampler: seed of the draws (the same seed, weights and settings write the same name)",
        /// Always the most likely symbol (`greedy`, default 0).
        greedy: bool = FieldKind::Bool { default: false }
            => "names generation's sampler: 1 = always the most likely symbol instead of a draw",
    }
}

/// Largest `steps` (the run budget).
pub const MAX_STEPS: u64 = 20_000;

/// Largest `seeds`.
pub const MAX_SEEDS: usize = 5;

pub use super::train::MAX_WORKERS;

/// `delay` and `length` do not satisfy `0 < delay < length`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DelayRangeError {
    /// The delay asked for.
    pub delay: usize,
    /// The sequence length asked for.
    pub length: usize,
}

impl DelayRangeError {
    /// The largest delay this length allows (`length − 1`, at least 1).
    pub fn max_delay(&self) -> usize {
        self.length.saturating_sub(1).max(1)
    }

    /// The allowed delays for this length, e.g. `1–95`.
    pub fn allowed(&self) -> String {
        format!("1–{}", self.max_delay())
    }
}

impl fmt::Display for DelayRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (d, l) = (self.delay, self.length);
        if d == 0 {
            write!(
                f,
                "delay must be at least 1 (got 0): with delay 0 the target is the current token, nothing to remember"
            )
        } else {
            write!(
                f,
                "delay must be below the sequence length: delay {d} with length {l} leaves no position to supervise \
                 (need 0 < delay < length, i.e. delay {})",
                self.allowed()
            )
        }
    }
}

impl std::error::Error for DelayRangeError {}

/// Checks `0 < delay < length`.
///
/// # Errors
/// [`DelayRangeError`] when the rule is broken.
pub fn check_delay(delay: usize, length: usize) -> Result<(), DelayRangeError> {
    if delay == 0 || delay >= length {
        Err(DelayRangeError { delay, length })
    } else {
        Ok(())
    }
}

impl DelayConfig {
    /// Checks `0 < delay < length` ([`check_delay`]).
    ///
    /// # Errors
    /// [`DelayRangeError`] when the rule is broken.
    pub fn check(&self) -> Result<(), DelayRangeError> {
        check_delay(self.delay, self.length)
    }

    /// This configuration with a preset's delay applied: `delay` is set; `length` changes only
    /// when it would break `0 < delay < length`, and then becomes the default length (96) or
    /// `delay + 1` if that is longer; every other key (cells, vocab, hidden_size, lr,
    /// batch_size, seed) is kept. What the preset buttons do.
    pub fn with_preset_delay(&self, delay: usize) -> DelayConfig {
        let mut c = self.clone();
        c.delay = delay;
        if c.length <= delay {
            c.length = DelayConfig::default()
                .length
                .max(delay.saturating_add(1))
                .min(MAX_LENGTH);
        }
        c
    }

    /// The presets of the delay sweep, applied to the defaults: delays [`PRESET_DELAYS`]
    /// (8, 16, 32, 64), other keys at their defaults. On the page a button applies its delay
    /// to the current settings ([`DelayConfig::with_preset_delay`]).
    pub fn presets() -> [DelayConfig; PRESET_DELAYS.len()] {
        PRESET_DELAYS.map(|delay| DelayConfig {
            delay,
            ..DelayConfig::default()
        })
    }

    /// The seeds of the runs, `seed`, `seed + 1`, … (`seeds` of them, at least one; they wrap
    /// past `u32::MAX`).
    pub fn run_seeds(&self) -> Vec<u32> {
        (0..self.seeds.max(1) as u32)
            .map(|i| self.seed.wrapping_add(i))
            .collect()
    }

    /// Gradient clipping threshold, `None` when `max_norm` is 0 (off).
    pub fn clip_norm(&self) -> Option<f64> {
        (self.max_norm > 0.0).then_some(self.max_norm)
    }

    /// The delay-copy settings as the page's files carry them in their names: the delay and
    /// the cells, e.g. `d8-both`, `d64-gru` (a task page's files carry the task's plan instead,
    /// [`crate::train::sweep::SweepPlan::file_tag`]).
    pub fn file_tag(&self) -> String {
        format!("d{}-{}", self.delay, self.cell.as_str())
    }
}

/// The delays of the sweep presets (length 96 fits each).
pub const PRESET_DELAYS: [usize; 4] = [8, 16, 32, 64];

impl DelayConfig {
    /// `0 < delay < length`: when broken, the values are kept and one notice on `delay` says
    /// which delays the length allows.
    fn reconcile_delay(&mut self, notices: &mut Vec<UrlNotice>) {
        if let Err(e) = self.check() {
            notices.push(UrlNotice {
                field: "delay".into(),
                raw: self.delay.to_string(),
                kind: NoticeKind::Inconsistent {
                    allowed: Accepted::Tied {
                        min: 1.0,
                        max: e.max_delay() as f64,
                        rule: TiedBy::DelayBelowLength {
                            length: self.length,
                        },
                    },
                },
            });
        }
    }
}
