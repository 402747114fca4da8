//! The name classifier: one-hot symbols → recurrent module (batch_first) → `fc` on the output
//! at each name's last real character → log-softmax → NLL (mean over the batch).
//!
//! This is the model of the PyTorch recipe in `shared/reference/names-pytorch.md` and of the
//! `clf_*.json` fixtures: `logits[b] = fc(output[b, lengths[b] - 1, :])`.

/// A mini-batch of names as symbol indices.
///
/// - `tokens`: `[batch, seq_len]` row-major symbol indices in `0..vocab_size`; positions at or
///   past `lengths[b]` are padding (value 0) and are never read by the model.
/// - `lengths`: `[batch]`, each in `1..=seq_len` (an empty name is never batched).
/// - `labels`: `[batch]` class indices in `0..num_classes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifierBatch {
    /// Number of names B.
    pub batch: usize,
    /// Padded length T = max(lengths).
    pub seq_len: usize,
    /// `[batch, seq_len]` symbol indices.
    pub tokens: Vec<u32>,
    /// `[batch]` real lengths.
    pub lengths: Vec<u32>,
    /// `[batch]` target classes.
    pub labels: Vec<u32>,
}
