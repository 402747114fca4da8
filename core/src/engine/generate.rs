//! Writing names with a trained generator's weights, as the engine does for the generation
//! lab's sampler and quality panel ([`super::protocol::Command::Sample`],
//! [`super::protocol::Command::Quality`]).
//!
//! A job carries the lab's canonical query (names generation, `lesson=generate`: its
//! `conditioning` says what the model reads), the names data set kept by the worker, the
//! weights of a run ([`Weights`], sent with the run's `LabEvent::Weights`) and the sampler's
//! request ([`SampleRequest`]). The task is rebuilt from the query and the data (its alphabet,
//! split and n-grams), the weights are checked against it, and the sampler of
//! [`crate::task::generate::sample`] writes the name, or the quality figures of a language.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::DataId;
use crate::config::delay::{DelayConfig, LabTask};
use crate::data::names::NamesDataset;
use crate::task::generate::sample::{
    quality, sample, Quality, Recogniser, SampleError, SampleRequest, Sampled, DEFAULT_MAX_LEN,
};
use crate::task::generate::GenerateTask;
use crate::task::GENERATE_SPLIT_SEED;
use crate::train::plan::decode_lab;
use crate::train::sweep::Weights;

/// Names written per language by the quality panel.
pub const QUALITY_SAMPLES: usize = 200;

/// What a [`super::protocol::Command::Sample`] or `Quality` asks for.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GenerateJob {
    /// The lab's canonical query (its `task` must be names generation).
    pub query: String,
    /// The names data set the run trained on (kept by the worker).
    pub data: DataId,
    /// The run's weights.
    pub weights: Weights,
    /// What to write (for `Quality`: the template of every sample, its language ignored).
    pub request: SampleRequest,
    /// For `Quality`: a names classifier to judge the samples with (the one the names lab
    /// keeps in the browser), if any.
    #[serde(default)]
    pub classifier: Option<KeptClassifier>,
}

/// A trained names classifier, as the names lab keeps it: its weights file and class names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeptClassifier {
    /// The `.safetensors` file ([`crate::keep::import_trained`] reads it).
    pub weights: Vec<u8>,
    /// Its class names in logit order.
    pub classes: Vec<String>,
}

impl KeptClassifier {
    /// The classifier as a [`Recogniser`] of `task`'s languages; `None` when its file cannot
    /// be read or it knows none of them.
    pub fn recogniser(&self, task: &GenerateTask) -> Option<Recogniser> {
        let m = crate::keep::import_trained(&self.weights).ok()?;
        let classes = m.classes.as_deref().unwrap_or(&self.classes);
        Recogniser::new(m.model, m.params, classes, task.data().classes())
    }
}

/// Why a job writes nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum GenerateError {
    /// The worker has no such data set.
    NoData,
    /// The query is not names generation's.
    NotGenerate,
    /// The weights are not a model of this task (another conditioning, alphabet or data).
    Weights {
        /// The task's input features per step.
        features: usize,
        /// The weights' `input_size`.
        input_size: usize,
    },
    /// The request cannot be written (language, temperature, prefix).
    Sample(SampleError),
    /// The engine failed before it answered (set by the page's client).
    Engine(crate::train::messages::EngineFault),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::NoData => f.write_str("the names data set is not loaded"),
            GenerateError::NotGenerate => f.write_str("this is not a names generation lab"),
            GenerateError::Weights {
                features,
                input_size,
            } => write!(
                f,
                "the weights read {input_size} features per step, the task gives {features}"
            ),
            GenerateError::Sample(e) => std::fmt::Display::fmt(e, f),
            GenerateError::Engine(e) => write!(f, "the engine failed: {e}"),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<SampleError> for GenerateError {
    fn from(e: SampleError) -> Self {
        GenerateError::Sample(e)
    }
}

/// The sampler's request of a lab configuration (`language`, `prefix`, `temperature`,
/// `top_k`, `sample_seed`, `greedy`; at most [`DEFAULT_MAX_LEN`] letters).
pub fn request_of(config: &DelayConfig) -> SampleRequest {
    SampleRequest {
        language: config.language as u32,
        prefix: config.prefix.first().cloned().unwrap_or_default(),
        temperature: config.temperature,
        top_k: config.top_k,
        seed: u64::from(config.sample_seed),
        greedy: config.greedy,
        max_len: DEFAULT_MAX_LEN,
    }
}

/// The generation task of `query` on `data`.
///
/// # Errors
/// [`GenerateError::NotGenerate`] when the query's task is another.
pub fn task_of(query: &str, data: Arc<NamesDataset>) -> Result<GenerateTask, GenerateError> {
    let config = decode_lab(query).config;
    if config.task != LabTask::Generate {
        return Err(GenerateError::NotGenerate);
    }
    Ok(GenerateTask::new(
        data,
        GENERATE_SPLIT_SEED,
        config.conditioning,
    ))
}

/// Checks that `weights` are a model of `task`.
///
/// # Errors
/// [`GenerateError::Weights`] when the input width, head or parameter count differ.
pub fn check_weights(task: &GenerateTask, weights: &Weights) -> Result<(), GenerateError> {
    let m = &weights.model;
    if m.spec.input_size != task.features()
        || m.outputs != task.alphabet().classes()
        || weights.params.len() != m.layout.total_len()
    {
        return Err(GenerateError::Weights {
            features: task.features(),
            input_size: m.spec.input_size,
        });
    }
    Ok(())
}

/// Writes the job's name: each step's top-10 distribution, choice and `h_t`.
///
/// # Errors
/// [`GenerateError`] as [`check_weights`] and [`sample`].
pub fn sample_job(task: &GenerateTask, job: &GenerateJob) -> Result<Sampled, GenerateError> {
    check_weights(task, &job.weights)?;
    Ok(sample(
        task,
        &job.weights.model,
        &job.weights.params,
        &job.request,
    )?)
}

/// The quality of `samples` names written for `language` with the job's template (name `i`
/// with seed `request.seed + i`), judged by `recogniser` too when given (the job's
/// classifier, [`KeptClassifier::recogniser`]).
///
/// # Errors
/// [`GenerateError`] as [`check_weights`] and [`quality`].
pub fn quality_job(
    task: &GenerateTask,
    job: &GenerateJob,
    language: u32,
    samples: usize,
    recogniser: Option<&Recogniser>,
) -> Result<Quality, GenerateError> {
    check_weights(task, &job.weights)?;
    let template = SampleRequest {
        language,
        ..job.request.clone()
    };
    Ok(quality(
        task,
        &job.weights.model,
        &job.weights.params,
        &template,
        samples,
        recogniser,
    )?)
}
