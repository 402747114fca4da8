//! Writing names with a trained generator, letter by letter, and the quality of what it
//! writes.
//!
//! At each step the model reads the language and the letters so far (the start marker, the
//! prefix, then its own choices: the same teacher-forced input as in training, with the model's
//! letters as the teacher) and its head gives logits `y [A + 1]` over the letters and the end
//! marker. The next symbol is drawn from
//!
//! ```text
//! p = softmax(y / temperature)   restricted to the top_k largest and renormalised
//! ```
//!
//! with one uniform draw `u ∈ [0, 1)` per step from `ChaCha8Rng::seed_from_u64(seed)` (the
//! first symbol whose cumulative probability exceeds `u`), or, greedy, the first arg-max of
//! `y`. Writing stops at the end marker or after `max_len` letters. A bidirectional model
//! is run on the letters written so far only: at generation time its backward direction has
//! no future to read.

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::GenerateTask;
use crate::data::normalize::{encode, NameError};
use crate::math::loss::softmax;
use crate::math::model::{argmax, SeqModel};

pub use crate::config::delay::{MAX_TEMPERATURE, MIN_TEMPERATURE};
/// Symbols of a step's distribution kept for display, most likely first.
pub const SHOWN: usize = 10;
/// Letters written at most when a request does not say (longer than any name of the data).
pub const DEFAULT_MAX_LEN: usize = 24;

/// What to write.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleRequest {
    /// The language's class index.
    pub language: u32,
    /// Letters the name starts with (normalised as the data is; may be empty).
    pub prefix: String,
    /// Divides the logits, [`MIN_TEMPERATURE`]–[`MAX_TEMPERATURE`] (ignored when greedy).
    pub temperature: f64,
    /// Draw among the `top_k` most likely symbols only (0: all of them).
    pub top_k: usize,
    /// Seed of the draws.
    pub seed: u64,
    /// Always the most likely symbol instead of a draw.
    pub greedy: bool,
    /// Letters at most, the prefix included.
    pub max_len: usize,
}

impl SampleRequest {
    /// A draw at `temperature` for `language` with `seed`: no prefix, all symbols, at most
    /// [`DEFAULT_MAX_LEN`] letters.
    pub fn new(language: u32, temperature: f64, seed: u64) -> Self {
        SampleRequest {
            language,
            prefix: String::new(),
            temperature,
            top_k: 0,
            seed,
            greedy: false,
            max_len: DEFAULT_MAX_LEN,
        }
    }
}

/// Why a request cannot be written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SampleError {
    /// The language index is not one of the data's.
    Language {
        /// The index given.
        language: u32,
        /// Languages of the data.
        languages: usize,
    },
    /// The temperature is outside [`MIN_TEMPERATURE`]–[`MAX_TEMPERATURE`] or not a number.
    Temperature {
        /// The temperature given.
        temperature: f64,
    },
    /// The prefix has no usable letter after normalisation.
    Prefix {
        /// The prefix given.
        prefix: String,
    },
    /// The prefix uses a symbol no name of the data uses.
    NotInAlphabet {
        /// The symbol.
        symbol: char,
    },
    /// The prefix is longer than `max_len`.
    TooLong {
        /// Letters of the prefix.
        letters: usize,
        /// The request's `max_len`.
        max_len: usize,
    },
}

impl std::fmt::Display for SampleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SampleError::Language {
                language,
                languages,
            } => write!(
                f,
                "language {language} does not exist: the data has {languages} languages"
            ),
            SampleError::Temperature { temperature } => write!(
                f,
                "temperature {temperature} is outside {MIN_TEMPERATURE}–{MAX_TEMPERATURE}"
            ),
            SampleError::Prefix { prefix } => write!(
                f,
                "{}",
                NameError::NoUsableLetters {
                    input: prefix.clone()
                }
            ),
            SampleError::NotInAlphabet { symbol } => write!(
                f,
                "“{symbol}” appears in no name of the data, so the model cannot read it"
            ),
            SampleError::TooLong { letters, max_len } => write!(
                f,
                "the prefix has {letters} letters, more than the {max_len} a name may have"
            ),
        }
    }
}

impl std::error::Error for SampleError {}

/// One written symbol and the distribution it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleStep {
    /// The chosen class (a letter index, or A for the end marker).
    pub chosen: u32,
    /// Its character (`None` for the end marker).
    pub symbol: Option<char>,
    /// Up to [`SHOWN`] `(class, probability)` of the distribution drawn from (after
    /// temperature and top-k), most likely first (ties: lower class first).
    pub top: Vec<(u32, f32)>,
    /// `[D·H]` the top layer's output h_t at the step that chose it (both directions of a
    /// bidirectional model, forward first).
    pub hidden: Vec<f32>,
}

/// A written name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sampled {
    /// The name, prefix included.
    pub name: String,
    /// Whether the model chose the end marker (else it stopped at `max_len`).
    pub ended: bool,
    /// The steps after the prefix, in order (the last one chose the end marker when `ended`).
    pub steps: Vec<SampleStep>,
}

/// The distribution a step draws from: `softmax(logits / temperature)` over the `top_k`
/// largest logits (0: all), the others 0 (`[K]`, sums to 1).
pub fn step_distribution(logits: &[f32], temperature: f64, top_k: usize) -> Vec<f32> {
    let scaled: Vec<f32> = logits
        .iter()
        .map(|&y| (f64::from(y) / temperature) as f32)
        .collect();
    let k = if top_k == 0 {
        logits.len()
    } else {
        top_k.min(logits.len())
    };
    let order = ranked(&scaled);
    let mut masked = vec![f32::NEG_INFINITY; logits.len()];
    for &i in &order[..k] {
        masked[i] = scaled[i];
    }
    softmax(&masked)
}

/// Indices of `values` from the largest down (ties: lower index first).
fn ranked(values: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
    order
}

/// Writes one name with `model` (the task's, [`crate::train::trainer::model_of`]) at
/// `params` as `request` says (see the module docs).
///
/// # Errors
/// [`SampleError`] for a language, temperature or prefix the request cannot use.
pub fn sample(
    task: &GenerateTask,
    model: &SeqModel,
    params: &[f32],
    request: &SampleRequest,
) -> Result<Sampled, SampleError> {
    let languages = task.languages();
    if request.language as usize >= languages {
        return Err(SampleError::Language {
            language: request.language,
            languages,
        });
    }
    let t = request.temperature;
    if !request.greedy && !(MIN_TEMPERATURE..=MAX_TEMPERATURE).contains(&t) {
        return Err(SampleError::Temperature { temperature: t });
    }
    let alphabet = task.alphabet();
    let mut letters = if request.prefix.trim().is_empty() {
        Vec::new()
    } else {
        let tokens = encode(&request.prefix).map_err(|_| SampleError::Prefix {
            prefix: request.prefix.clone(),
        })?;
        let mut out = Vec::with_capacity(tokens.len());
        for tok in tokens {
            out.push(alphabet.letter(tok).ok_or(SampleError::NotInAlphabet {
                symbol: crate::data::normalize::symbol(tok).unwrap_or('?'),
            })?);
        }
        out
    };
    if letters.len() > request.max_len {
        return Err(SampleError::TooLong {
            letters: letters.len(),
            max_len: request.max_len,
        });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(request.seed);
    let (classes, width) = (alphabet.classes(), model.feature_size());
    let end = alphabet.end();
    let mut steps = Vec::new();
    let mut ended = false;
    while letters.len() < request.max_len {
        let batch = task.batch_of(&[(&letters, request.language)]);
        let fwd = model.forward(params, &batch);
        let logits = &fwd.outputs[fwd.outputs.len() - classes..];
        let hidden = fwd.features[fwd.features.len() - width..].to_vec();
        let p = if request.greedy {
            softmax(logits)
        } else {
            step_distribution(logits, t, request.top_k)
        };
        let chosen = if request.greedy {
            argmax(logits) as u32
        } else {
            let u: f64 = rng.random();
            let mut acc = 0.0f64;
            let mut pick = None;
            for (i, &pi) in p.iter().enumerate() {
                acc += f64::from(pi);
                if pi > 0.0 && u < acc {
                    pick = Some(i as u32);
                    break;
                }
            }
            // Rounding can leave the sum just under u: the last symbol with mass.
            pick.unwrap_or_else(|| p.iter().rposition(|&pi| pi > 0.0).unwrap_or(0) as u32)
        };
        let top = ranked(&p)
            .into_iter()
            .take(SHOWN)
            .map(|i| (i as u32, p[i]))
            .collect();
        steps.push(SampleStep {
            chosen,
            symbol: alphabet.char(chosen),
            top,
            hidden,
        });
        if chosen == end {
            ended = true;
            break;
        }
        letters.push(chosen);
    }
    Ok(Sampled {
        name: alphabet.text(&letters),
        ended,
        steps,
    })
}

/// What `samples` names written for one language are like.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quality {
    /// The language's class index.
    pub language: u32,
    /// Names written.
    pub samples: usize,
    /// Share that are a training name as it is (of any language), 0–1.
    pub training: f64,
    /// Share that are a held-out name and no training name, 0–1.
    pub heldout: f64,
    /// Share that are no name of the data, 0–1 (`training + heldout + new = 1`).
    pub new: f64,
    /// Share stopped at the length limit without an end marker, 0–1.
    pub unended: f64,
    /// Mean letters per written name.
    pub mean_length: f64,
    /// Mean letters per training name of the language.
    pub data_mean_length: f64,
    /// Mean over the names written of their bigram loss per character
    /// ([`super::Ngrams::bigram_loss`], nats): lower is more like the training names' letter
    /// pairs (a measure of pronounceability that needs no model of the page).
    pub bigram_loss: f64,
    /// The same mean over the training names of the language.
    pub data_bigram_loss: f64,
    /// Share of the names written that a names classifier ([`Recogniser`]) assigns to the
    /// language asked for, 0–1; `None` without a classifier, or when it has no class of that
    /// language.
    #[serde(default)]
    pub recognised: Option<f64>,
}

/// A names classifier that judges whether a written name is of the language asked for: the
/// names lab's model (a sequence classifier over the vocabulary, `[C']` logits) and, for each
/// language of the generation data, its class among the classifier's, matched by name.
#[derive(Clone, Debug)]
pub struct Recogniser {
    model: SeqModel,
    params: Vec<f32>,
    /// `[C]` the classifier's class of each language of the generation data (None: it has none).
    class_of: Vec<Option<usize>>,
}

impl Recogniser {
    /// The classifier `model` with `params` (`[model.layout.total_len()]`), its class names
    /// `classes` in logit order, for the generation data's languages `languages`. `None` when
    /// the model's outputs are not `classes.len()`, the parameters do not fit it, or no
    /// language is one of its classes.
    pub fn new(
        model: SeqModel,
        params: Vec<f32>,
        classes: &[String],
        languages: &[String],
    ) -> Option<Recogniser> {
        if model.outputs != classes.len() || params.len() != model.layout.total_len() {
            return None;
        }
        let class_of: Vec<Option<usize>> = languages
            .iter()
            .map(|l| classes.iter().position(|c| c == l))
            .collect();
        class_of.iter().any(Option::is_some).then_some(Recogniser {
            model,
            params,
            class_of,
        })
    }

    /// Whether the classifier's most likely class for `name` is `language`'s (the first
    /// arg-max on a tie); `None` when it has no class of that language. A name it cannot read
    /// (no letters, or a symbol outside the vocabulary) is not recognised.
    pub fn recognises(&self, name: &str, language: u32) -> Option<bool> {
        let class = (*self.class_of.get(language as usize)?)?;
        let probs = encode(name)
            .ok()
            .and_then(|tokens| self.model.predict(&self.params, &tokens).ok());
        Some(probs.is_some_and(|p| argmax(&p) == class))
    }
}

/// The quality of `samples` names written for `language` with `template`'s temperature,
/// top-k, greedy flag and length limit (its prefix too), name `i` drawn with seed
/// `template.seed + i`; with a `recogniser`, the share of them it assigns to the language.
///
/// # Errors
/// As [`sample`].
pub fn quality(
    task: &GenerateTask,
    model: &SeqModel,
    params: &[f32],
    template: &SampleRequest,
    samples: usize,
    recogniser: Option<&Recogniser>,
) -> Result<Quality, SampleError> {
    let data = task.data().samples();
    let train: HashSet<&str> = task
        .split()
        .train
        .iter()
        .map(|&i| data[i].name.as_str())
        .collect();
    let heldout: HashSet<&str> = task
        .split()
        .val
        .iter()
        .map(|&i| data[i].name.as_str())
        .collect();
    let (mut in_train, mut in_heldout, mut unended, mut letters) = (0usize, 0usize, 0usize, 0usize);
    let mut bigram = 0.0f64;
    let mut recognised: Option<usize> = None;
    let alphabet = task.alphabet();
    let ngrams = task.ngrams();
    for i in 0..samples {
        let request = SampleRequest {
            seed: template.seed.wrapping_add(i as u64),
            ..template.clone()
        };
        let s = sample(task, model, params, &request)?;
        if train.contains(s.name.as_str()) {
            in_train += 1;
        } else if heldout.contains(s.name.as_str()) {
            in_heldout += 1;
        }
        unended += usize::from(!s.ended);
        if let Some(yes) = recogniser.and_then(|r| r.recognises(&s.name, template.language)) {
            *recognised.get_or_insert(0) += usize::from(yes);
        }
        letters += s.name.chars().count();
        let written = s
            .steps
            .iter()
            .map(|st| st.chosen)
            .filter(|&c| c != alphabet.end());
        let prefix = encode(&template.prefix)
            .ok()
            .and_then(|t| alphabet.letters(&t))
            .unwrap_or_default();
        let name: Vec<u32> = prefix.into_iter().chain(written).collect();
        bigram += ngrams.bigram_loss(&name);
    }
    let own: Vec<usize> = task
        .split()
        .train
        .iter()
        .copied()
        .filter(|&i| data[i].label == template.language)
        .collect();
    let data_bigram = own
        .iter()
        .map(|&i| {
            let l = alphabet.letters(&data[i].tokens).unwrap_or_default();
            ngrams.bigram_loss(&l)
        })
        .sum::<f64>();
    let n = samples.max(1) as f64;
    Ok(Quality {
        language: template.language,
        samples,
        training: in_train as f64 / n,
        heldout: in_heldout as f64 / n,
        new: (samples - in_train - in_heldout) as f64 / n,
        unended: unended as f64 / n,
        mean_length: letters as f64 / n,
        data_mean_length: own.iter().map(|&i| data[i].tokens.len()).sum::<usize>() as f64
            / own.len().max(1) as f64,
        bigram_loss: bigram / n,
        data_bigram_loss: data_bigram / own.len().max(1) as f64,
        recognised: recognised.map(|r| r as f64 / n),
    })
}
