//! The slow-motion panel's model: which weights and Adam state the step starts from, the step
//! itself ([`unroll_core::train::slowmo::slow_step`]), the frames the learner steps through
//! and the maps each frame draws. Plain data, tested natively.

use crate::charts::step_heatmap::{Scale, StepMap};
use std::rc::Rc;
use unroll_core::data::normalize::symbol;
use unroll_core::data::split::{Split, VAL_FRACTION};
use unroll_core::data::NamesDataset;
use unroll_core::math::optim::{Adam, AdamConfig};
use unroll_core::math::params::CellKind;
use unroll_core::train::slowmo::{slow_step, SlowStep, SlowmoInput};
use unroll_core::train::sweep::{SweepCheckpoint, Weights};
use unroll_core::train::Hyper;

/// The stages, in order; [`Stage::key`] is the panel's `data-stage`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Per character: h_t and the gates.
    Forward,
    /// The head's scores.
    Logits,
    /// Their softmax.
    Softmax,
    /// −ln p[label].
    Loss,
    /// Per character, backwards: ∂L/∂h_t and the gradients accumulating.
    Backward,
    /// Global-norm clipping.
    Clip,
    /// Adam's update.
    Adam,
    /// The name through the new weights.
    New,
}

impl Stage {
    /// Every stage in order.
    pub const ALL: [Stage; 8] = [
        Stage::Forward,
        Stage::Logits,
        Stage::Softmax,
        Stage::Loss,
        Stage::Backward,
        Stage::Clip,
        Stage::Adam,
        Stage::New,
    ];

    /// `data-stage`.
    pub fn key(self) -> &'static str {
        match self {
            Stage::Forward => "forward",
            Stage::Logits => "logits",
            Stage::Softmax => "softmax",
            Stage::Loss => "loss",
            Stage::Backward => "backward",
            Stage::Clip => "clip",
            Stage::Adam => "adam",
            Stage::New => "new",
        }
    }

    /// Position in [`Stage::ALL`].
    pub fn index(self) -> usize {
        Stage::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }
}

/// One frame of the walk: a stage and, for the forward and backward stages, the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The stage.
    pub stage: Stage,
    /// Layer, direction and time step (forward and backward frames); `(0, 0, 0)` otherwise.
    pub at: (usize, usize, usize),
}

/// Where Adam's state came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdamSource {
    /// The run's moments (a checkpoint of the same step as the weights), after this many
    /// updates.
    Run(u32),
    /// Fresh moments: the page holds none for these weights.
    Fresh,
}

/// A computed slow-motion step and what the panel says about it.
#[derive(Clone, Debug)]
pub struct Slowmo {
    /// Every stage's numbers.
    pub step: Rc<SlowStep>,
    /// The walk's frames, in order.
    pub frames: Vec<Frame>,
    /// Where Adam's state came from.
    pub adam: AdamSource,
    /// The step of the weights it started from.
    pub weights_step: u64,
    /// Learning rate and clipping threshold used.
    pub hyper: Hyper,
    /// One label per step read (the character; empty for padding).
    pub col_labels: Vec<String>,
    /// First padding step (`head=padded`), if any.
    pub padded_from: Option<usize>,
    /// The class names (class-index order).
    pub classes: Vec<String>,
    /// The model's cell.
    pub cell: CellKind,
}

/// Why there is no step to show.
#[derive(Clone, Debug, PartialEq)]
pub enum NoSlowmo {
    /// No weights yet.
    BeforeStart,
    /// The data set (class names) is not loaded yet.
    WaitingForData,
    /// No name typed or picked.
    Empty,
    /// The typed name has nothing the model reads.
    NoLetters(String),
    /// The model's classes are not the data set's.
    ClassesDiffer,
    /// Computed, but for another name or language than the fields now hold.
    Stale,
    /// The model refused the input (its message).
    Error(String),
}

/// The parameters and Adam state the step starts from: the weights, with the run's moments
/// when the page holds a checkpoint of the same step, else fresh moments.
pub fn start_state(weights: &Weights, checkpoint: Option<&SweepCheckpoint>) -> (Adam, AdamSource) {
    let n = weights.params.len();
    match checkpoint.and_then(|c| c.runs.first()).map(|r| &r.trainer) {
        Some(c) if c.step == weights.step && c.adam_m.len() == n && c.adam_v.len() == n => (
            Adam {
                config: AdamConfig::default(),
                step: c.adam_step,
                m: c.adam_m.clone(),
                v: c.adam_v.clone(),
            },
            AdamSource::Run(c.adam_step),
        ),
        _ => (Adam::new(AdamConfig::default(), n), AdamSource::Fresh),
    }
}

/// The slow-motion step of `tokens` (language `label`) from `weights`.
///
/// Errors: the model's message for a name it cannot read; [`NoSlowmo::ClassesDiffer`] when
/// `classes` are not the model's or `label` is not one of them.
pub fn compute(
    weights: &Weights,
    checkpoint: Option<&SweepCheckpoint>,
    hyper: Hyper,
    tokens: &[u32],
    (label, classes): (usize, &[String]),
) -> Result<Slowmo, NoSlowmo> {
    let model = &weights.model;
    if label >= model.outputs || classes.len() != model.outputs {
        return Err(NoSlowmo::ClassesDiffer);
    }
    let (adam, source) = start_state(weights, checkpoint);
    let step = slow_step(SlowmoInput {
        model,
        params: &weights.params,
        adam: &adam,
        hyper,
        tokens,
        label: label as u32,
    })
    .map_err(|e| NoSlowmo::Error(e.to_string()))?;
    let col_labels = step
        .read
        .iter()
        .map(|&s| match symbol(s) {
            Some(' ') => "␣".to_owned(),
            Some(c) => c.to_string(),
            None => String::new(),
        })
        .collect();
    let padded_from = (tokens.len() < step.read.len()).then_some(tokens.len());
    Ok(Slowmo {
        frames: frames(&step),
        step: Rc::new(step),
        adam: source,
        weights_step: weights.step,
        hyper,
        col_labels,
        padded_from,
        classes: classes.to_vec(),
        cell: model.spec.cell,
    })
}

/// The frames of `step`: one per forward step of every (layer, direction) in the order the
/// forward pass runs them, one each for logits, softmax and loss, one per backward step in
/// BPTT's order, one each for clipping, Adam and the new prediction.
pub fn frames(step: &SlowStep) -> Vec<Frame> {
    let len = step.read.len();
    let mut out = Vec::new();
    for d in &step.forward {
        for k in 0..len {
            let t = if d.direction == 0 { k } else { len - 1 - k };
            out.push(Frame {
                stage: Stage::Forward,
                at: (d.layer, d.direction, t),
            });
        }
    }
    let single = |stage| Frame {
        stage,
        at: (0, 0, 0),
    };
    out.extend([Stage::Logits, Stage::Softmax, Stage::Loss].map(single));
    out.extend(step.backward.iter().map(|b| Frame {
        stage: Stage::Backward,
        at: (b.layer, b.direction, b.t),
    }));
    out.extend([Stage::Clip, Stage::Adam, Stage::New].map(single));
    out
}

/// Index of the first frame of `stage`.
pub fn first_frame(frames: &[Frame], stage: Stage) -> usize {
    frames.iter().position(|f| f.stage == stage).unwrap_or(0)
}

/// Whether step `t` of a direction has been visited once the walk is at step `now` (steps
/// run upwards in time for `ascending`, downwards otherwise).
fn visited(t: usize, now: usize, ascending: bool) -> bool {
    if ascending {
        t <= now
    } else {
        t >= now
    }
}

/// Index of `(layer, direction)` in the step's per-direction lists.
fn direction_index(step: &SlowStep, layer: usize, direction: usize) -> usize {
    step.forward
        .iter()
        .position(|d| d.layer == layer && d.direction == direction)
        .unwrap_or(0)
}

/// The h_t map of the forward frame `at`: units × steps, the steps not computed yet NaN (drawn
/// grey).
pub fn h_map(s: &Slowmo, at: (usize, usize, usize)) -> StepMap {
    let (layer, d, now) = at;
    let trace = &s.step.forward[direction_index(&s.step, layer, d)];
    let hid = trace.h.len() / s.col_labels.len().max(1);
    let masked = mask_steps(&trace.h, hid, |t| visited(t, now, d == 0));
    StepMap::from_time_major(
        &masked,
        hid,
        s.col_labels.clone(),
        s.padded_from,
        Scale::Diverging { abs_max: 1.0 },
    )
}

/// The gates of the forward frame `at` at its step: units × gates (`None` for an RNN cell).
pub fn gates_map(s: &Slowmo, at: (usize, usize, usize), letters: &[&str]) -> Option<StepMap> {
    let (layer, d, t) = at;
    let trace = &s.step.forward[direction_index(&s.step, layer, d)];
    let gates = trace.gates.as_ref()?;
    let n = letters.len().max(1);
    let width = gates.len() / s.col_labels.len().max(1);
    let hid = width / n;
    let row = &gates[t * width..][..width];
    // The step's gates as [gates, units] time-major rows: one column per gate.
    Some(StepMap::from_time_major(
        row,
        hid,
        letters.iter().map(|l| (*l).to_owned()).collect(),
        None,
        Scale::Diverging { abs_max: 1.0 },
    ))
}

/// The ∂L/∂h_t map of the backward frame `at`: units × steps of its (layer, direction), the
/// steps the gradient has not reached yet NaN; scaled to the largest |∂L/∂h| of the direction.
pub fn dh_map(s: &Slowmo, at: (usize, usize, usize)) -> StepMap {
    let (layer, d, now) = at;
    let len = s.col_labels.len();
    let steps: Vec<_> = s
        .step
        .backward
        .iter()
        .filter(|b| b.layer == layer && b.direction == d)
        .collect();
    let hid = steps.first().map_or(0, |b| b.dh.len());
    let mut time_major = vec![0.0f32; len * hid];
    for b in &steps {
        time_major[b.t * hid..][..hid].copy_from_slice(&b.dh);
    }
    let abs_max = time_major.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    // BPTT walks the forward direction downwards in time, the reverse one upwards.
    let masked = mask_steps(&time_major, hid, |t| visited(t, now, d != 0));
    StepMap::from_time_major(
        &masked,
        hid,
        s.col_labels.clone(),
        s.padded_from,
        Scale::Diverging {
            abs_max: if abs_max > 0.0 { abs_max } else { 1.0 },
        },
    )
}

/// `[steps, units]` values with the steps where `keep(t)` is false set to NaN.
fn mask_steps(time_major: &[f32], units: usize, keep: impl Fn(usize) -> bool) -> Vec<f32> {
    time_major
        .chunks(units.max(1))
        .enumerate()
        .flat_map(|(t, row)| {
            let k = keep(t);
            row.iter().map(move |&v| if k { v } else { f32::NAN })
        })
        .collect()
}

/// The Δ map of tensor `index`: rows × columns (a bias as one column), diverging, scaled to
/// its largest |Δ|. The columns of `weight_ih_l0` are the vocabulary's symbols.
pub fn delta_map(s: &Slowmo, index: usize, vocab: &str) -> Option<StepMap> {
    let entry = s.step.tensors.get(index)?;
    let delta = &s.step.delta[entry.range()];
    let (rows, cols) = match entry.shape[..] {
        [r, c] => (r, c),
        [r] => (r, 1),
        _ => return None,
    };
    let col_labels = if entry.name.ends_with("weight_ih_l0") && cols == vocab.chars().count() {
        vocab.chars().map(|c| c.to_string()).collect()
    } else {
        vec![String::new(); cols]
    };
    let abs_max = delta.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    Some(StepMap {
        rows,
        cols,
        values: delta.to_vec(),
        col_labels,
        padded_from: None,
        scale: Scale::Diverging {
            abs_max: if abs_max > 0.0 { abs_max } else { 1.0 },
        },
    })
}

/// Where element `i` of a tensor of `shape` sits: `[r, c]` or `[r]`.
pub fn element_index(shape: &[usize], i: usize) -> String {
    match shape {
        [_, c] => format!("[{}, {}]", i / c, i % c),
        _ => format!("[{i}]"),
    }
}

/// Class indices by probability, highest first (ties by index).
pub fn ranked(probs: &[f32]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..probs.len()).collect();
    idx.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    idx
}

/// Up to `count` validation names of `dataset`'s split for `seed`, spread over the split
/// (every k-th), with their labels.
pub fn validation_names(dataset: &NamesDataset, seed: u32, count: usize) -> Vec<(String, u32)> {
    let split = Split::new(dataset, seed as u64, VAL_FRACTION);
    let every = (split.val.len() / count.max(1)).max(1);
    split
        .val
        .iter()
        .step_by(every)
        .take(count)
        .map(|&i| {
            let s = &dataset.samples()[i];
            (s.name.clone(), s.label)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::data::{encode, VOCAB, VOCAB_SIZE};
    use unroll_core::math::init::init_params;
    use unroll_core::math::model::SeqModel;
    use unroll_core::math::params::RnnSpec;

    fn classes() -> Vec<String> {
        ["A", "B", "C", "D"].map(String::from).to_vec()
    }

    fn weights(cell: CellKind, layers: usize, bidir: bool) -> Weights {
        let mut spec = RnnSpec::new(cell, VOCAB_SIZE, 6);
        spec.num_layers = layers;
        spec.bidirectional = bidir;
        let model = SeqModel::new(spec, 4);
        let params = init_params(&model.layout, &model.spec, 3);
        Weights {
            model,
            params,
            step: 12,
        }
    }

    const HYPER: Hyper = Hyper {
        lr: 0.01,
        max_norm: 1.0,
    };

    /// Frames: every forward and backward step of every (layer, direction), stages in order.
    #[test]
    fn frames_walk_every_step_in_order() {
        let w = weights(CellKind::Gru, 2, true);
        let tokens = encode("Abe").unwrap();
        let s = compute(&w, None, HYPER, &tokens, (1, &classes())).unwrap();
        let count = |st| s.frames.iter().filter(|f| f.stage == st).count();
        assert_eq!(count(Stage::Forward), 4 * 3);
        assert_eq!(count(Stage::Backward), 4 * 3);
        for st in [
            Stage::Logits,
            Stage::Softmax,
            Stage::Loss,
            Stage::Clip,
            Stage::Adam,
            Stage::New,
        ] {
            assert_eq!(count(st), 1, "{st:?}");
        }
        let order: Vec<usize> = s.frames.iter().map(|f| f.stage.index()).collect();
        assert!(order.windows(2).all(|p| p[0] <= p[1]), "{order:?}");
        // The reverse direction's forward steps run from the last character.
        let rev: Vec<usize> = s
            .frames
            .iter()
            .filter(|f| f.stage == Stage::Forward && f.at.0 == 0 && f.at.1 == 1)
            .map(|f| f.at.2)
            .collect();
        assert_eq!(rev, [2, 1, 0]);
        assert_eq!(first_frame(&s.frames, Stage::Logits), 12);
        assert_eq!(s.col_labels, ["A", "b", "e"]);
    }

    /// The maps hide what is not computed yet: h at step 1 of the forward direction shows
    /// steps 0–1; ∂L/∂h at step 1 of the forward direction shows steps 1–2.
    #[test]
    fn maps_show_the_steps_computed_so_far() {
        let w = weights(CellKind::Lstm, 1, false);
        let tokens = encode("Abe").unwrap();
        let s = compute(&w, None, HYPER, &tokens, (2, &classes())).unwrap();
        let h = h_map(&s, (0, 0, 1));
        assert_eq!((h.rows, h.cols), (6, 3));
        for j in 0..6 {
            let row = &h.values[j * 3..][..3];
            assert!(
                row[0].is_finite() && row[1].is_finite() && row[2].is_nan(),
                "{row:?}"
            );
            assert_eq!(row[1], s.step.forward[0].h[6 + j]);
        }
        let dh = dh_map(&s, (0, 0, 1));
        for j in 0..6 {
            let row = &dh.values[j * 3..][..3];
            assert!(
                row[0].is_nan() && row[1].is_finite() && row[2].is_finite(),
                "{row:?}"
            );
        }
        let g = gates_map(&s, (0, 0, 2), &["i", "f", "g", "o"]).unwrap();
        assert_eq!((g.rows, g.cols), (6, 4));
        let gates = s.step.forward[0].gates.as_ref().unwrap();
        assert_eq!(
            g.values[5 * 4 + 1],
            gates[2 * 24 + 6 + 5],
            "unit 5, gate f, t = 2"
        );
        let d = delta_map(&s, 0, VOCAB).unwrap();
        assert_eq!((d.rows, d.cols), (24, VOCAB_SIZE));
        assert_eq!(d.col_labels[1], "b");
        assert_eq!(element_index(&[24, 57], 60), "[1, 3]");
    }

    /// Adam's state is the run's only with a checkpoint of the same step.
    #[test]
    fn adam_state_is_the_runs_only_for_the_same_step() {
        let w = weights(CellKind::Rnn, 1, false);
        let n = w.params.len();
        use unroll_core::train::sweep::{RunCheckpoint, RunId, RunSettings};
        use unroll_core::train::trainer::{Recipe, TrainerState};
        let mut c = SweepCheckpoint {
            settings: RunSettings {
                task: "names".into(),
                recipe: Recipe::default(),
                steps: 100,
                eval_every: 50,
            },
            runs: vec![RunCheckpoint {
                run: RunId {
                    cell: CellKind::Rnn,
                    seed: 0,
                },
                trainer: TrainerState {
                    step: 12,
                    params: w.params.clone(),
                    adam_step: 12,
                    adam_m: vec![0.1; n],
                    adam_v: vec![0.2; n],
                    stream_position: 12,
                },
                curve: Vec::new(),
                skipped: 0,
                window: Default::default(),
            }],
            turn: 0,
            shares: 1,
        };
        assert_eq!(start_state(&w, Some(&c)).1, AdamSource::Run(12));
        assert_eq!(start_state(&w, Some(&c)).0.m, vec![0.1; n]);
        let tokens = encode("Abe").unwrap();
        let s = compute(&w, Some(&c), HYPER, &tokens, (0, &classes())).unwrap();
        assert_eq!(s.step.new_adam.step, 13);
        c.runs[0].trainer.step = 11;
        assert_eq!(start_state(&w, Some(&c)).1, AdamSource::Fresh);
        assert_eq!(start_state(&w, None).1, AdamSource::Fresh);
        assert_eq!(
            compute(&w, None, HYPER, &tokens, (4, &classes())).unwrap_err(),
            NoSlowmo::ClassesDiffer
        );
    }
}
