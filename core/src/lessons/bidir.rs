//! Lesson 6, bidirectional concatenation: a 1-layer bidirectional `nn.RNN(2, 2)` (tanh) with
//! PyTorch's initialisation from a seed, over a seeded 2-d embedding of each token, run by
//! [`RnnModule`] with `batch_first=True` on a batch of one sentence.
//!
//! - `output[0, t, :H]` is the forward direction after reading tokens 1..=t;
//!   `output[0, t, H:]` is the backward direction after reading tokens T..=t.
//! - `h_n[0]` is the last forward state (= `output[0, T−1, :H]`); `h_n[1]` is the last backward
//!   state (= `output[0, 0, H:]`). So `output[:, −1, :]` holds the backward direction after one
//!   token only — not its summary of the sentence.

use rand::distr::{Distribution, Uniform};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::config::lessons::BidirConfig;
use crate::math::init::init_params;
use crate::math::params::{CellKind, ParamLayout, RnnSpec};
use crate::math::recurrent::{RnnModule, TensorRef};
use crate::math::shapes::RnnError;

/// Hidden size H of the lesson's RNN.
pub const HIDDEN: usize = 2;
/// Embedding width (input_size) of the lesson's RNN.
pub const EMBED: usize = 2;

/// 64-bit FNV-1a of a string's UTF-8 bytes (stable across platforms, wasm included).
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The seeded 2-d embedding of `token`: two values from U(−1, 1) drawn from
/// `ChaCha8Rng::seed_from_u64(fnv1a(token) ^ seed·φ)`. It depends only on the token and the
/// seed, so a token keeps its vector wherever it appears.
pub fn embedding(token: &str, seed: u32) -> [f32; EMBED] {
    let mut rng = ChaCha8Rng::seed_from_u64(
        fnv1a(token) ^ u64::from(seed).wrapping_mul(0x9e37_79b9_7f4a_7c15),
    );
    let dist = Uniform::new(-1.0f32, 1.0).expect("a finite non-empty range");
    [dist.sample(&mut rng), dist.sample(&mut rng)]
}

/// One named parameter tensor of the lesson's RNN.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedTensor {
    /// PyTorch name, e.g. `weight_hh_l0_reverse`.
    pub name: String,
    /// Shape, e.g. `[2, 2]`.
    pub shape: Vec<usize>,
    /// Row-major values.
    pub values: Vec<f32>,
}

/// Everything the lesson shows. Per-position vectors are in token order (t = 1..=T).
#[derive(Clone, Debug, PartialEq)]
pub struct Bidir {
    /// The tokens (user text).
    pub tokens: Vec<String>,
    /// Distinct tokens in order of first appearance, with their embeddings.
    pub vocabulary: Vec<(String, [f32; EMBED])>,
    /// `[T]` the embedding fed at each position.
    pub inputs: Vec<[f32; EMBED]>,
    /// The eight parameter tensors in PyTorch's order.
    pub params: Vec<NamedTensor>,
    /// `[T]` forward states `output[0, t, :H]`.
    pub forward: Vec<[f32; HIDDEN]>,
    /// `[T]` backward states `output[0, t, H:]`.
    pub backward: Vec<[f32; HIDDEN]>,
    /// `[T]` concatenations `output[0, t, :]` (2H).
    pub output: Vec<[f32; 2 * HIDDEN]>,
    /// `h_n [2, 1, H]`: `[forward last, backward last]`.
    pub h_n: [[f32; HIDDEN]; 2],
}

/// Runs the lesson.
///
/// # Errors
/// Those of [`RnnModule::forward`] (an empty token list: [`RnnError::EmptySequence`]).
pub fn bidir(config: &BidirConfig) -> Result<Bidir, RnnError> {
    let tokens = config.tokens.clone();
    let mut spec = RnnSpec::new(CellKind::Rnn, EMBED, HIDDEN);
    spec.bidirectional = true;
    let layout = ParamLayout::rnn(&spec, "");
    let params = init_params(&layout, &spec, u64::from(config.seed));
    let module = RnnModule::new(spec, &layout, "");

    let inputs: Vec<[f32; EMBED]> = tokens.iter().map(|t| embedding(t, config.seed)).collect();
    let mut vocabulary: Vec<(String, [f32; EMBED])> = Vec::new();
    for (token, e) in tokens.iter().zip(&inputs) {
        if !vocabulary.iter().any(|(t, _)| t == token) {
            vocabulary.push((token.clone(), *e));
        }
    }
    let data: Vec<f32> = inputs.iter().flatten().copied().collect();
    let shape = [1, tokens.len(), EMBED];
    let out = module.forward(
        &params,
        TensorRef::new(&shape, &data),
        true,
        None,
        None,
        None,
    )?;

    let output: Vec<[f32; 2 * HIDDEN]> = out
        .output
        .chunks_exact(2 * HIDDEN)
        .map(|row| {
            let mut r = [0.0f32; 2 * HIDDEN];
            r.copy_from_slice(row);
            r
        })
        .collect();
    let half = |row: &[f32; 2 * HIDDEN], d: usize| [row[d * HIDDEN], row[d * HIDDEN + 1]];
    let params = layout
        .entries
        .iter()
        .map(|e| NamedTensor {
            name: e.name.clone(),
            shape: e.shape.clone(),
            values: params[e.range()].to_vec(),
        })
        .collect();
    Ok(Bidir {
        tokens,
        vocabulary,
        inputs,
        params,
        forward: output.iter().map(|r| half(r, 0)).collect(),
        backward: output.iter().map(|r| half(r, 1)).collect(),
        h_n: [[out.h_n[0], out.h_n[1]], [out.h_n[2], out.h_n[3]]],
        output,
    })
}
