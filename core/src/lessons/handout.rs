//! Where the course's printed handout and the app disagree, computed.
//!
//! Where the handout prints a figure that PyTorch (and so the app) does not give for the same
//! example, each function below returns the handout's printed value (the only typed figures in
//! this module) next to the app's value, computed by the same functions the lessons use, and
//! the computed values that explain the difference (a doubled one-bias count and rows that
//! double the row above, a different W_hh, a mistyped tanh, one bias vector instead of two).
//! Lesson 6's note corrects a claim rather than a figure: what `output[:, -1, :]` holds, from
//! the page's own sentence. The lesson pages render each as one short note.
//!
//! The training lab's question (will the first epoch beat the majority-class baseline?) has
//! one too: the handout prints 0.4859 for its first epoch, the page's run reaches 62–63 %.
//! [`names_epoch1`] gathers the run's own figures for it; [`course_recipe_epoch`] trains one
//! epoch of the course's recipe with this trainer, which reproduces the printed figure (what
//! it counts, the head, the data and the split: `docs/handout-names.md` has the table).

use super::{bidir, lstm, shapes, unroll};
use crate::config::lessons::{BidirConfig, LstmConfig, ShapesConfig, UnrollConfig};
use crate::config::{Head, TrainConfig};
use crate::data::batches::make_batch;
use crate::data::names::NamesDataset;
use crate::data::normalize::{normalize, VOCAB_SIZE};
use crate::data::split::VAL_FRACTION;
use crate::math::classifier::{argmax, ClassifierModel};
use crate::math::init::init_params_with_forget_bias;
use crate::math::params::CellKind;
use crate::train::cpu::CpuTrainer;
use crate::train::session::{spec_of, ValReport};
use crate::train::Hyper;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// One figure: what the handout prints and what the app computes for the same example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// The handout's printed value (typed from the handout).
    pub printed: f64,
    /// The app's value (computed).
    pub app: f64,
}

/// PyTorch's parameter count (two bias vectors) and the one-bias count of a layer.
fn counts(
    cell: CellKind,
    input_size: usize,
    hidden_size: usize,
    layers: usize,
    bi: bool,
) -> (u64, u64) {
    let config = ShapesConfig {
        cell,
        input_size,
        hidden_size,
        num_layers: layers,
        bidirectional: bi,
        ..ShapesConfig::default()
    };
    // A decoded-range config never fails; 0 would show the failure instead of hiding it.
    shapes::shapes(&config).map_or((0, 0), |s| (s.shapes.param_count, s.one_bias_count))
}

/// The handout's table of `nn.RNN(10, 8)` counts, row by row as printed: `nn.RNN(10, 8)` 304,
/// `num_layers=2` 608, `num_layers=2, bidirectional=True` 1216. Its 304 is twice the one-bias
/// count (the same doubling as its per-layer RNN figure), and each further row doubles the one
/// above; PyTorch counts each layer by what it reads: the second layer reads h (size H), and in
/// a bidirectional stack both directions (2H).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RnnTenEight {
    /// `nn.RNN(10, 8)`: printed 304, app 160.
    pub one_layer: Figure,
    /// `nn.RNN(10, 8, num_layers=2)`: printed 608, app 304.
    pub two_layers: Figure,
    /// `nn.RNN(10, 8, num_layers=2, bidirectional=True)`: printed 1216, app 736.
    pub two_layers_bi: Figure,
    /// The one-bias count of `nn.RNN(10, 8)` (152): the handout's 304 is twice it.
    pub one_bias: u64,
    /// Input size (10).
    pub input_size: usize,
    /// Hidden size (8).
    pub hidden_size: usize,
    /// PyTorch's count of the second layer, which reads h (input H): 144.
    pub second_layer: u64,
    /// Input of the bidirectional stack's second layer (2H = 16).
    pub second_input_bi: usize,
    /// PyTorch's count of the bidirectional first layer (two directions): 320.
    pub first_layer_bi: u64,
    /// PyTorch's count of the bidirectional second layer (input 2H, two directions): 416.
    pub second_layer_bi: u64,
}

/// The `nn.RNN(10, 8)` note of the shapes lesson (input 10 and hidden 8 are the lesson's
/// default example).
pub fn rnn_ten_eight() -> RnnTenEight {
    let d = ShapesConfig::default();
    let (i, h) = (d.input_size, d.hidden_size);
    let rnn = |input, layers, bi| counts(CellKind::Rnn, input, h, layers, bi);
    RnnTenEight {
        one_layer: Figure {
            printed: 304.0,
            app: rnn(i, 1, false).0 as f64,
        },
        two_layers: Figure {
            printed: 608.0,
            app: rnn(i, 2, false).0 as f64,
        },
        two_layers_bi: Figure {
            printed: 1216.0,
            app: rnn(i, 2, true).0 as f64,
        },
        one_bias: rnn(i, 1, false).1,
        input_size: i,
        hidden_size: h,
        second_layer: rnn(h, 1, false).0,
        second_input_bi: 2 * h,
        first_layer_bi: rnn(i, 1, true).0,
        second_layer_bi: rnn(2 * h, 1, true).0,
    }
}

/// Per-layer counts of the names classifier's recurrent layer (input 57 = the alphabet,
/// hidden 128): the handout uses one bias vector for the LSTM and GRU and doubles the one-bias
/// count for the RNN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerLayer {
    /// `nn.LSTM(57, 128)`: printed 95,232, app 95,744.
    pub lstm: Figure,
    /// `nn.GRU(57, 128)`: printed 71,424, app 71,808.
    pub gru: Figure,
    /// `nn.RNN(57, 128)`: printed 47,616, app 23,936.
    pub rnn: Figure,
    /// One-bias counts (LSTM, GRU, RNN): 95,232, 71,424, 23,808.
    pub one_bias: [u64; 3],
    /// Input size (the alphabet of the names data, 57).
    pub input_size: usize,
    /// Hidden size (128).
    pub hidden_size: usize,
}

/// Hidden size of the handout's per-layer counts (the training page's default).
pub const PER_LAYER_HIDDEN: usize = 128;

/// The per-layer note of the shapes lesson.
pub fn per_layer() -> PerLayer {
    let (i, h) = (VOCAB_SIZE, PER_LAYER_HIDDEN);
    let lstm = counts(CellKind::Lstm, i, h, 1, false);
    let gru = counts(CellKind::Gru, i, h, 1, false);
    let rnn = counts(CellKind::Rnn, i, h, 1, false);
    PerLayer {
        lstm: Figure {
            printed: 95_232.0,
            app: lstm.0 as f64,
        },
        gru: Figure {
            printed: 71_424.0,
            app: gru.0 as f64,
        },
        rnn: Figure {
            printed: 47_616.0,
            app: rnn.0 as f64,
        },
        one_bias: [lstm.1, gru.1, rnn.1],
        input_size: i,
        hidden_size: h,
    }
}

/// Lesson 1: x₁'s share of z₂ in the worked example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnrollShare {
    /// Printed 0.2311, app 0.4621 (at the example's W_hh = 1).
    pub share: Figure,
    /// The example's W_hh (1).
    pub w_hh: f64,
    /// The W_hh the handout's value belongs to (0.5, read off the handout).
    pub handout_w_hh: f64,
    /// The app's share at the handout's W_hh (0.2311).
    pub at_handout_w_hh: f64,
}

fn share_at(config: &UnrollConfig) -> f64 {
    unroll::unroll(config)
        .ok()
        .and_then(|r| r.steps.get(1).map(|s| f64::from(s.from_x1[0])))
        .unwrap_or(f64::NAN)
}

/// The note of lesson 1.
pub fn unroll_share() -> UnrollShare {
    let example = UnrollConfig::default();
    let handout_w_hh = 0.5;
    UnrollShare {
        share: Figure {
            printed: 0.2311,
            app: share_at(&example),
        },
        w_hh: example.w_hh,
        handout_w_hh,
        at_handout_w_hh: share_at(&UnrollConfig {
            w_hh: handout_w_hh,
            ..example
        }),
    }
}

/// Lesson 4: h₂ of the two-step worked example. The handout prints tanh(C₂) = tanh(−0.42) as
/// −0.3965; it is −0.3969, and o₂ times each gives the two h₂.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LstmH2 {
    /// Printed −0.2775, app −0.2779.
    pub h2: Figure,
    /// tanh(C₂): printed −0.3965, app −0.3969.
    pub tanh_c2: Figure,
    /// C₂ of the example (−0.42).
    pub c2: f64,
    /// o₂ of the example (0.7).
    pub o2: f64,
    /// o₂ times the handout's tanh(C₂) (−0.27755: its h₂ before its rounding).
    pub h2_from_printed_tanh: f64,
}

/// The note of lesson 4.
pub fn lstm_h2() -> LstmH2 {
    let example = LstmConfig::default();
    let step = lstm::lstm(&example)
        .ok()
        .and_then(|r| r.steps.get(1).copied());
    let c2 = step.map_or(f64::NAN, |s| f64::from(s.c));
    let o2 = step.map_or(f64::NAN, |s| f64::from(s.o));
    let printed_tanh = -0.3965;
    LstmH2 {
        h2: Figure {
            printed: -0.2775,
            app: step.map_or(f64::NAN, |s| f64::from(s.h)),
        },
        tanh_c2: Figure {
            printed: printed_tanh,
            app: c2.tanh(),
        },
        c2,
        o2,
        h2_from_printed_tanh: o2 * printed_tanh,
    }
}

/// Lesson 6: what `output[:, -1, :]` holds. §7.3 of the handout says it holds both directions;
/// its forward half is the forward direction's last step (= `h_n[0]`), its backward half the
/// backward direction's first step, after reading only the last token (the same vector a
/// one-token sentence of that token gives), while `h_n[1]` holds the backward direction's read
/// of the whole sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct BidirLast {
    /// Tokens in the sentence (T).
    pub tokens: usize,
    /// The last position, T − 1.
    pub last: usize,
    /// The last token.
    pub last_token: String,
    /// `output[0, T−1, :H]`.
    pub last_forward: [f32; bidir::HIDDEN],
    /// `output[0, T−1, H:]`.
    pub last_backward: [f32; bidir::HIDDEN],
    /// The backward state of the one-token sentence made of the last token.
    pub backward_of_last_token_alone: [f32; bidir::HIDDEN],
    /// `h_n[0]`, the forward direction after the whole sentence.
    pub h_n_forward: [f32; bidir::HIDDEN],
    /// `h_n[1]`, the backward direction after the whole sentence (= `output[0, 0, H:]`).
    pub h_n_backward: [f32; bidir::HIDDEN],
}

/// The note of lesson 6 for the page's sentence and seed (`None` for an empty sentence).
pub fn bidir_last(config: &BidirConfig) -> Option<BidirLast> {
    let full = bidir::bidir(config).ok()?;
    let last = full.tokens.len().checked_sub(1)?;
    let last_token = full.tokens[last].clone();
    let alone = bidir::bidir(&BidirConfig {
        tokens: vec![last_token.clone()],
        ..config.clone()
    })
    .ok()?;
    Some(BidirLast {
        tokens: full.tokens.len(),
        last,
        last_token,
        last_forward: full.forward[last],
        last_backward: full.backward[last],
        backward_of_last_token_alone: alone.backward[0],
        h_n_forward: full.h_n[0],
        h_n_backward: full.h_n[1],
    })
}

/// The first epoch's accuracy the handout prints for the names classifier (typed from it).
pub const NAMES_EPOCH1_PRINTED: f64 = 0.4859;

/// The training lab's note: the handout's first-epoch figure next to the run's, and the
/// figures that explain the gap, all but the printed one computed from the run and its data.
#[derive(Clone, Debug, PartialEq)]
pub struct NamesEpoch1 {
    /// The handout's printed first-epoch accuracy (0.4859).
    pub printed: f64,
    /// The run's validation accuracy after its first epoch, 0–1.
    pub val_acc: f64,
    /// The run's accuracy over its first epoch's training batches, each counted before its
    /// update (what a training loop counts while it learns); `None` when not known (a model
    /// restored after a reload).
    pub train_acc: Option<f64>,
    /// The majority class's share of the run's validation names (the page's baseline), 0–1.
    pub val_baseline: f64,
    /// Lines in the class files (the course's recipe keeps every line, repeats included).
    pub raw_lines: usize,
    /// The largest class by raw lines (its index).
    pub raw_majority: usize,
    /// That class's share of the raw lines, 0–1.
    pub raw_baseline: f64,
}

/// The note's figures for a run: its first validation report, its first epoch's training
/// accuracy (when known) and the lines of each class file (`[C]` in class order, the loader's
/// [`crate::data::names::ClassReport::raw_lines`]). `None` for a report of another epoch or
/// an empty one.
pub fn names_epoch1(
    first: &ValReport,
    train_acc: Option<f32>,
    raw_lines: &[usize],
) -> Option<NamesEpoch1> {
    let total: usize = raw_lines.iter().sum();
    if first.epoch != 1 || first.total() == 0 || total == 0 {
        return None;
    }
    let (raw_majority, most) = raw_lines
        .iter()
        .copied()
        .enumerate()
        .fold((0, 0), |best, c| if c.1 > best.1 { c } else { best });
    Some(NamesEpoch1 {
        printed: NAMES_EPOCH1_PRINTED,
        val_acc: f64::from(first.accuracy()),
        train_acc: train_acc.filter(|a| a.is_finite()).map(f64::from),
        val_baseline: f64::from(first.majority_baseline()),
        raw_lines: total,
        raw_majority,
        raw_baseline: most as f64 / total as f64,
    })
}

/// How many lines of the class files each sample of `data` stands for: `files` are
/// `(class, text)` pairs, each line normalised as the loader does; the course's recipe trains
/// on the lines, repeats included (`Arabic.txt` has 2,000 lines of 108 names).
pub fn raw_multiplicity(data: &NamesDataset, files: &[(String, String)]) -> Vec<usize> {
    let index: HashMap<(&str, u32), usize> = data
        .samples()
        .iter()
        .enumerate()
        .map(|(i, s)| ((s.name.as_str(), s.label), i))
        .collect();
    let mut count = vec![0usize; data.len()];
    for (class, text) in files {
        let Some(label) = data.class_index(class) else {
            continue;
        };
        for line in text.lines() {
            let name = normalize(line.trim());
            if let Some(&i) = index.get(&(name.as_str(), label)) {
                count[i] += 1;
            }
        }
    }
    count
}

/// One epoch of a recipe: the accuracy counted over its training batches before each update,
/// the validation accuracy after it, and the validation set's majority share.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecipeEpoch {
    /// Over the epoch's training batches, each counted before its update, 0–1.
    pub train_acc: f64,
    /// On the held-out rows after the epoch, 0–1.
    pub val_acc: f64,
    /// The largest class's share of the held-out rows, 0–1.
    pub baseline: f64,
}

/// One epoch of the course's recipe with this trainer (CPU path, Adam at the page's lr, the
/// page's model): every line of the class files a row (`multiplicity` from
/// [`raw_multiplicity`]), rows shuffled with `seed` and the first 10 % held out, every name
/// padded to 10 and read at step 10 ([`Head::Padded`]), shuffled batches of the page's size.
pub fn course_recipe_epoch(
    data: &NamesDataset,
    multiplicity: &[usize],
    cell: CellKind,
    seed: u64,
) -> RecipeEpoch {
    let cfg = TrainConfig {
        cell,
        head: Head::Padded,
        seed: seed as u32,
        ..TrainConfig::default()
    };
    let mut rows: Vec<usize> = multiplicity
        .iter()
        .enumerate()
        .flat_map(|(i, &n)| std::iter::repeat_n(i, n))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rows.shuffle(&mut rng);
    let held_out = (rows.len() as f64 * VAL_FRACTION).round() as usize;
    let (val, train) = rows.split_at(held_out);
    let mut train = train.to_vec();
    train.shuffle(&mut rng);
    let model =
        ClassifierModel::new(spec_of(&cfg, VOCAB_SIZE), data.num_classes()).with_head(cfg.head);
    let params = init_params_with_forget_bias(&model.layout, &model.spec, seed, 0.0);
    let mut trainer = CpuTrainer::new(model.clone(), params);
    let hyper = Hyper {
        lr: cfg.lr as f32,
        max_norm: 0.0,
    };
    let (mut correct, mut seen) = (0usize, 0usize);
    for rows in train.chunks(cfg.batch_size) {
        let r = trainer.step(&make_batch(data, rows), &hyper);
        correct += r.correct as usize;
        seen += r.names as usize;
    }
    let classes = data.num_classes();
    let mut right = 0usize;
    let mut per_class = vec![0usize; classes];
    for rows in val.chunks(256) {
        let batch = make_batch(data, rows);
        let logits = trainer.logits(&batch);
        for (b, &label) in batch.labels.iter().enumerate() {
            per_class[label as usize] += 1;
            right += usize::from(argmax(&logits[b * classes..(b + 1) * classes]) == label as usize);
        }
    }
    let n = val.len().max(1) as f64;
    RecipeEpoch {
        train_acc: correct as f64 / seen.max(1) as f64,
        val_acc: right as f64 / n,
        baseline: per_class.iter().copied().max().unwrap_or(0) as f64 / n,
    }
}
