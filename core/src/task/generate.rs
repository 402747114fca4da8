//! Names generation as a [`Task`]: a next-character language model on the names, conditioned
//! on the language (PyTorch's char-RNN generation tutorial, with a start marker so the first
//! letter is predicted too).
//!
//! The symbols are the data's [`Alphabet`] (the vocabulary symbols its names use, A of them)
//! plus two markers: **start** (an input only, index A of the letter slots) and **end** (an
//! output only, class A). A name of n letters `c₁…cₙ` of language `ℓ` is n + 1 steps,
//! read with teacher forcing:
//!
//! ```text
//! step t        0          1          …   n
//! input x_t     [start|ℓ]  [c₁|ℓ]     …   [cₙ|ℓ]       [A + 1 + C]  dense (or [A + 1])
//! target        c₁         c₂         …   end          class in 0..=A
//! ```
//!
//! The input of a step is the one-hot of its symbol (A letters + start) concatenated with the
//! one-hot of the language (C languages): [`Conditioning::Input`], the tutorial's
//! `torch.cat((category, input), 1)` fed to every step. With [`Conditioning::State`] the steps
//! read the letters alone (A + 1) and the language sets the initial hidden state instead,
//! through a learned linear map (`init = nn.Linear(C, L·D·H)`; the GPU path does not take it
//! yet, so such runs train on the CPU path). The head reads every step
//! ([`Readout::From`]`(0)`) with `nn.CrossEntropyLoss()`, so the loss is the mean per-character
//! cross-entropy over the batch's real characters (the end marker counted as one, as every
//! name must be ended). Batches hold names of one length only, so no step is padding and no
//! padded position is ever scored.
//!
//! The training stream is the split's training names in seeded length buckets
//! ([`crate::data::batches::Batches::train_epoch_by_length`], the classifier's stream with
//! other batches); the held-out set is the split's validation names (exactly the names
//! classifier's validation split: [`Split::new`] at [`VAL_FRACTION`] with the same seed), by
//! length, in slices of [`EVAL_BATCH`]. The baselines ([`LmBaselines`]) are
//! n-gram models fitted on the training names; the task's memoryless baseline is the unigram,
//! and a run counts as solved when its held-out loss per character is below the bigram's.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::names::{EpochStream, EVAL_BATCH};
use super::{Baseline, BaselineRule, BatchStream, Criterion, Input, Task, TaskShape};
use crate::data::names::NamesDataset;
use crate::data::normalize::{symbol, VOCAB_SIZE};
use crate::data::split::{Split, VAL_FRACTION};
use crate::math::model::{Head, Loss, Readout, SeqBatch, Targets};
use crate::math::recurrent::SeqData;

pub mod sample;

pub use crate::config::delay::Conditioning;

/// The symbols the data's names use, in vocabulary order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alphabet {
    /// `[A]` vocabulary indices ([`crate::data::normalize::VOCAB`]) of the letters.
    symbols: Vec<u32>,
    /// `[VOCAB_SIZE]` the letter index of each vocabulary symbol, if the data uses it.
    letter_of: Vec<Option<u32>>,
}

impl Alphabet {
    /// The vocabulary symbols used by at least one name of `data`.
    pub fn of_data(data: &NamesDataset) -> Alphabet {
        let mut used = [false; VOCAB_SIZE];
        for s in data.samples() {
            for &t in &s.tokens {
                used[t as usize] = true;
            }
        }
        let symbols: Vec<u32> = (0..VOCAB_SIZE as u32)
            .filter(|&t| used[t as usize])
            .collect();
        let mut letter_of = vec![None; VOCAB_SIZE];
        for (i, &t) in symbols.iter().enumerate() {
            letter_of[t as usize] = Some(i as u32);
        }
        Alphabet { symbols, letter_of }
    }

    /// Letters A (the end marker is class A, the start marker input slot A).
    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    /// True for an alphabet without letters (an empty data set).
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    /// The end marker's class (= A).
    pub fn end(&self) -> u32 {
        self.symbols.len() as u32
    }

    /// Output classes of the model: A letters + end.
    pub fn classes(&self) -> usize {
        self.symbols.len() + 1
    }

    /// The letter index of the vocabulary symbol `token`, `None` when the data never uses it.
    pub fn letter(&self, token: u32) -> Option<u32> {
        self.letter_of.get(token as usize).copied().flatten()
    }

    /// The letter indices of vocabulary `tokens`, `None` if one is outside the alphabet.
    pub fn letters(&self, tokens: &[u32]) -> Option<Vec<u32>> {
        tokens.iter().map(|&t| self.letter(t)).collect()
    }

    /// The character of letter `index` (`None` for the end marker or beyond).
    pub fn char(&self, index: u32) -> Option<char> {
        self.symbols.get(index as usize).and_then(|&t| symbol(t))
    }

    /// The text of letter indices (markers and unknown indices left out).
    pub fn text(&self, letters: &[u32]) -> String {
        letters.iter().filter_map(|&l| self.char(l)).collect()
    }
}

/// Held-out loss per character (nats) of three models that need no training, each fitted on
/// the training names (every name counted as its letters followed by the end marker, K =
/// A + 1 outcomes), none of them reading the language.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LmBaselines {
    /// Every outcome equally likely: `ln K`.
    pub uniform: f64,
    /// Each outcome at its training frequency with add-one (Laplace) smoothing:
    /// `p(c) = (n(c) + 1) / (N + K)`.
    pub unigram: f64,
    /// The next outcome given the previous symbol (a letter or the start marker) with add-one
    /// smoothing: `p(c | a) = (n(a, c) + 1) / (n(a) + K)`.
    pub bigram: f64,
    /// Held-out characters the losses are averaged over (Σ (n + 1) over the held-out names).
    pub characters: u64,
}

impl LmBaselines {
    /// The baselines of `train` scored on `heldout` (letter-index sequences, letters < `a`),
    /// K = a + 1 outcomes. With no held-out character every loss is NaN.
    pub fn fit(train: &[&[u32]], heldout: &[&[u32]], a: usize) -> LmBaselines {
        let counts = Ngrams::fit(train, a);
        let (mut unigram, mut bigram, mut characters) = (0.0f64, 0.0f64, 0u64);
        for name in heldout {
            for (p, c) in counts.pairs(name) {
                unigram -= counts.unigram(c).ln();
                bigram -= counts.bigram(p, c).ln();
                characters += 1;
            }
        }
        let n = characters as f64;
        LmBaselines {
            uniform: if characters == 0 {
                f64::NAN
            } else {
                ((a + 1) as f64).ln()
            },
            unigram: unigram / n,
            bigram: bigram / n,
            characters,
        }
    }
}

/// Unigram and bigram counts of names (letter indices < A; previous symbols: the letters and
/// start = A; outcomes: the letters and end = A), with add-one smoothed probabilities.
#[derive(Clone, Debug, PartialEq)]
pub struct Ngrams {
    letters: usize,
    /// `[K]` outcome counts.
    uni: Vec<u64>,
    /// `[K, K]` counts of (previous, outcome).
    bi: Vec<u64>,
    /// Σ `uni`.
    total: u64,
    /// `[K]` row sums of `bi`.
    from: Vec<u64>,
}

impl Ngrams {
    /// The counts of `names` over `a` letters.
    pub fn fit(names: &[&[u32]], a: usize) -> Ngrams {
        let k = a + 1;
        let mut out = Ngrams {
            letters: a,
            uni: vec![0; k],
            bi: vec![0; k * k],
            total: 0,
            from: vec![0; k],
        };
        for name in names {
            for (p, c) in out.pairs(name) {
                out.uni[c as usize] += 1;
                out.bi[p as usize * k + c as usize] += 1;
                out.from[p as usize] += 1;
                out.total += 1;
            }
        }
        out
    }

    /// The `n + 1` (previous, outcome) pairs of a name of n letters: (start, c₁), (c₁, c₂), …,
    /// (cₙ, end).
    pub fn pairs(&self, name: &[u32]) -> Vec<(u32, u32)> {
        let a = self.letters as u32;
        let prev = std::iter::once(a).chain(name.iter().copied());
        let next = name.iter().copied().chain(std::iter::once(a));
        prev.zip(next).collect()
    }

    /// `p(c) = (n(c) + 1) / (N + K)`.
    pub fn unigram(&self, c: u32) -> f64 {
        let k = self.letters as u64 + 1;
        (self.uni[c as usize] + 1) as f64 / (self.total + k) as f64
    }

    /// `p(c | prev) = (n(prev, c) + 1) / (n(prev) + K)`.
    pub fn bigram(&self, prev: u32, c: u32) -> f64 {
        let k = self.letters + 1;
        (self.bi[prev as usize * k + c as usize] + 1) as f64
            / (self.from[prev as usize] + k as u64) as f64
    }

    /// The bigram model's mean loss per character of a name (letters and end, nats): how
    /// ordinary its letter pairs are in the training names.
    pub fn bigram_loss(&self, name: &[u32]) -> f64 {
        let pairs = self.pairs(name);
        -pairs
            .iter()
            .map(|&(p, c)| self.bigram(p, c).ln())
            .sum::<f64>()
            / pairs.len() as f64
    }
}

/// The names as a conditioned next-character language model (see the module docs).
#[derive(Clone, Debug)]
pub struct GenerateTask {
    data: Arc<NamesDataset>,
    split: Arc<Split>,
    alphabet: Arc<Alphabet>,
    conditioning: Conditioning,
    split_seed: u64,
    baselines: LmBaselines,
    ngrams: Arc<Ngrams>,
}

impl GenerateTask {
    /// The task on `data` split with `split_seed` (the names classifier's split).
    pub fn new(data: Arc<NamesDataset>, split_seed: u64, conditioning: Conditioning) -> Self {
        let split = Arc::new(Split::new(&data, split_seed, VAL_FRACTION));
        let alphabet = Arc::new(Alphabet::of_data(&data));
        let letters = |idx: &[usize]| -> Vec<Vec<u32>> {
            idx.iter()
                .map(|&i| {
                    alphabet
                        .letters(&data.samples()[i].tokens)
                        .expect("the alphabet holds every symbol of the data")
                })
                .collect()
        };
        let (train, val) = (letters(&split.train), letters(&split.val));
        let baselines = LmBaselines::fit(&as_slices(&train), &as_slices(&val), alphabet.len());
        let ngrams = Arc::new(Ngrams::fit(&as_slices(&train), alphabet.len()));
        GenerateTask {
            data,
            split,
            alphabet,
            conditioning,
            split_seed,
            baselines,
            ngrams,
        }
    }

    /// The data set.
    pub fn data(&self) -> &NamesDataset {
        &self.data
    }

    /// The split (the names classifier's).
    pub fn split(&self) -> &Split {
        &self.split
    }

    /// The letters.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// How the language reaches the model.
    pub fn conditioning(&self) -> Conditioning {
        self.conditioning
    }

    /// Training steps in one epoch at batches of `batch_size` (at least 1): the training
    /// names in batches of one length each, every length's remainder a batch of its own
    /// ([`crate::data::batches::Batches::train_epoch_by_length`]), the same in every epoch.
    pub fn steps_per_epoch(&self, batch_size: usize) -> u64 {
        crate::data::batches::Batches::train_epoch_by_length(
            &self.data,
            &self.split.train,
            batch_size,
            0,
            0,
        )
        .len() as u64
    }

    /// The n-gram baselines (held-out loss per character).
    pub fn baselines(&self) -> LmBaselines {
        self.baselines
    }

    /// The n-gram counts of the training names.
    pub fn ngrams(&self) -> &Ngrams {
        &self.ngrams
    }

    /// Languages C.
    pub fn languages(&self) -> usize {
        self.data.num_classes()
    }

    /// Features per step: A letters + start, + C languages with [`Conditioning::Input`].
    pub fn features(&self) -> usize {
        match self.conditioning {
            Conditioning::Input => self.alphabet.len() + 1 + self.languages(),
            Conditioning::State => self.alphabet.len() + 1,
        }
    }

    /// The teacher-forced batch of names given as letter indices with their languages, all of
    /// one length n ≥ 0: `n + 1` steps, dense input `[n + 1, B, features]`, targets
    /// `[(n + 1)·B]` step-major (see the module docs), and with [`Conditioning::State`] the
    /// languages as the batch's `[B]` conditions.
    ///
    /// # Panics
    /// If `names` is empty, the names differ in length, or a letter or language is out of range.
    pub fn batch_of(&self, names: &[(&[u32], u32)]) -> SeqBatch {
        assert!(!names.is_empty(), "generate: an empty batch");
        let n = names[0].0.len();
        assert!(
            names.iter().all(|(l, _)| l.len() == n),
            "generate: names of different lengths in one batch"
        );
        let (a, c, f) = (self.alphabet.len(), self.languages(), self.features());
        let (b_len, t_len) = (names.len(), n + 1);
        let mut x = vec![0.0f32; t_len * b_len * f];
        let mut targets = vec![0u32; t_len * b_len];
        for (b, &(letters, lang)) in names.iter().enumerate() {
            assert!((lang as usize) < c, "generate: language {lang} of {c}");
            for t in 0..t_len {
                let row = &mut x[(t * b_len + b) * f..][..f];
                let slot = if t == 0 { a } else { letters[t - 1] as usize };
                assert!(slot <= a, "generate: letter {slot} of {a}");
                row[slot] = 1.0;
                if self.conditioning == Conditioning::Input {
                    row[a + 1 + lang as usize] = 1.0;
                }
                targets[t * b_len + b] = letters.get(t).copied().unwrap_or(a as u32);
            }
        }
        SeqBatch {
            batch: b_len,
            seq_len: t_len,
            lengths: vec![t_len as u32; b_len],
            input: SeqData::Dense(x),
            targets: Targets::Classes(targets),
            conditions: match self.conditioning {
                Conditioning::Input => Vec::new(),
                Conditioning::State => names.iter().map(|&(_, lang)| lang).collect(),
            },
        }
    }

    /// The batch of data set samples `indices` (all of one length).
    fn samples_batch(&self, indices: &[usize]) -> SeqBatch {
        let letters: Vec<(Vec<u32>, u32)> = indices
            .iter()
            .map(|&i| {
                let s = &self.data.samples()[i];
                let l = self
                    .alphabet
                    .letters(&s.tokens)
                    .expect("alphabet of the data");
                (l, s.label)
            })
            .collect();
        let refs: Vec<(&[u32], u32)> = letters.iter().map(|(l, c)| (l.as_slice(), *c)).collect();
        self.batch_of(&refs)
    }
}

impl Task for GenerateTask {
    fn key(&self) -> &'static str {
        "generate"
    }

    fn settings(&self) -> String {
        format!(
            "generate:conditioning={}:split_seed={}:samples={}:classes={}:letters={}",
            self.conditioning.as_str(),
            self.split_seed,
            self.data.samples().len(),
            self.data.num_classes(),
            self.alphabet.len()
        )
    }

    fn shape(&self) -> TaskShape {
        TaskShape {
            input: Input::Dense {
                features: self.features(),
            },
            outputs: self.alphabet.classes(),
            readout: Readout::From(0),
            loss: Loss::CrossEntropy,
            head: Head::Last,
            max_seq_len: self
                .data
                .samples()
                .iter()
                .map(|s| s.tokens.len() + 1)
                .max()
                .unwrap_or(1),
            conditions: match self.conditioning {
                Conditioning::Input => None,
                Conditioning::State => Some(self.languages()),
            },
        }
    }

    fn stream(&self, seed: u32, batch_size: usize) -> Box<dyn BatchStream> {
        let task = self.clone();
        Box::new(EpochStream::new(
            self.data.clone(),
            self.split.clone(),
            batch_size,
            u64::from(seed),
            true,
            move |indices: &[usize]| task.samples_batch(indices),
        ))
    }

    /// The validation names by length (shortest first, in split order within a length), in
    /// slices of at most [`EVAL_BATCH`].
    fn heldout(&self, _batch_size: usize) -> Vec<SeqBatch> {
        let mut by_len: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &i in &self.split.val {
            by_len
                .entry(self.data.samples()[i].tokens.len())
                .or_default()
                .push(i);
        }
        by_len
            .values()
            .flat_map(|idx| idx.chunks(EVAL_BATCH))
            .map(|chunk| self.samples_batch(chunk))
            .collect()
    }

    /// The unigram model's held-out loss per character and accuracy (always answering the
    /// most frequent training outcome is not counted: `None`).
    fn baseline(&self) -> Baseline {
        Baseline {
            loss: self.baselines.unigram,
            accuracy: None,
            rule: BaselineRule::Unigram {
                outcomes: self.alphabet.classes(),
            },
        }
    }

    /// Held-out loss per character below the bigram baseline's.
    fn criterion(&self) -> Option<Criterion> {
        Some(Criterion::LossBelow(self.baselines.bigram))
    }

    fn stops_on_bad_loss(&self) -> bool {
        true
    }
}

fn as_slices(v: &[Vec<u32>]) -> Vec<&[u32]> {
    v.iter().map(Vec::as_slice).collect()
}
