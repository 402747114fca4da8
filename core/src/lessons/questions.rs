//! "Predict, then see": each lesson's question questions and their answers, computed from a
//! lesson's state with the lesson's own computation (the same code the page shows).
//!
//! A question asks for a number (a slider) or a choice. Its answer is never stored text: the
//! page calls one of the functions below with its state at the moment of the reveal, so a
//! learner who moved a slider gets the answer for what they set. Each function returns the
//! answer with the numbers the page's one-sentence explanation quotes, and
//! [`Answer::gap`] measures a prediction against it.

use crate::config::lessons::{
    BidirConfig, BpttConfig, GruConfig, LessonId, LstmConfig, ParallelConfig, ShapesConfig,
    SoftmaxConfig, UnrollConfig,
};
use crate::math::shapes::RnnError;

use super::{bidir, bptt, gru, lstm, parallel, shapes, softmax, unroll};

/// Every question of the lessons: `(lesson, key)`, in course order. The key names the
/// question in the browser's store and in the page's test hooks.
pub const QUESTIONS: &[(LessonId, &str)] = &[
    (LessonId::Unroll, "unroll-h"),
    (LessonId::Shapes, "shapes-seq-len"),
    (LessonId::Bptt, "bptt-product"),
    (LessonId::Lstm, "lstm-c"),
    (LessonId::Gru, "gru-nearer"),
    (LessonId::Bidir, "bidir-last"),
    (LessonId::Softmax, "softmax-lowest"),
    (LessonId::Parallel, "parallel-growth"),
];

/// The question keys of `lesson`.
pub fn keys(lesson: LessonId) -> impl Iterator<Item = &'static str> {
    QUESTIONS
        .iter()
        .filter(move |(l, _)| *l == lesson)
        .map(|(_, k)| *k)
}

/// What the learner commits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Prediction {
    /// A number (the slider's value).
    Number(f64),
    /// The index of a choice.
    Choice(usize),
}

/// The product's answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Answer {
    /// A number.
    Number(f64),
    /// The index of the right choice.
    Choice(usize),
}

/// How far a prediction was from the answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gap {
    /// Prediction − answer.
    Number(f64),
    /// Whether the chosen option is the answer.
    Choice(bool),
    /// The prediction was of the other kind (a stale record): no gap.
    None,
}

impl Answer {
    /// The raw value for `data-value`: the number, or the choice's index.
    pub fn value(self) -> f64 {
        match self {
            Answer::Number(v) => v,
            Answer::Choice(i) => i as f64,
        }
    }

    /// The gap between `prediction` and this answer.
    pub fn gap(self, prediction: Prediction) -> Gap {
        match (self, prediction) {
            (Answer::Number(a), Prediction::Number(p)) => Gap::Number(p - a),
            (Answer::Choice(a), Prediction::Choice(p)) => Gap::Choice(a == p),
            _ => Gap::None,
        }
    }
}

/// A number question's slider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberRange {
    /// Lowest value.
    pub min: f64,
    /// Highest value.
    pub max: f64,
    /// Slider step.
    pub step: f64,
}

// ------------------------------------------------------------------------------------ 1. unroll

/// Lesson 1: "h_t at the scrubber's step t?" (unit 1 of h_t in vector mode).
#[derive(Clone, Debug, PartialEq)]
pub struct UnrollH {
    /// The step asked about, from 1.
    pub t: usize,
    /// W_xh·x_t (unit 1).
    pub input_term: f32,
    /// W_hh·h_{t−1} (unit 1).
    pub recurrent_term: f32,
    /// Both biases (unit 1).
    pub bias: f32,
    /// The pre-activation z_t.
    pub z: f32,
    /// h_t = tanh(z_t), the answer.
    pub h: f32,
}

/// The slider of lesson 1's question: tanh's range.
pub const UNROLL_RANGE: NumberRange = NumberRange {
    min: -1.0,
    max: 1.0,
    step: 0.01,
};

/// Lesson 1's answer for `config`.
///
/// # Errors
/// Those of [`unroll::unroll`].
pub fn unroll_h(config: &UnrollConfig) -> Result<UnrollH, RnnError> {
    let run = unroll::unroll(config)?;
    let t = config.t.clamp(1, run.steps.len().max(1));
    let step = run.steps.get(t - 1).ok_or(RnnError::EmptySequence)?;
    Ok(UnrollH {
        t,
        input_term: step.input_term[0],
        recurrent_term: step.recurrent_term[0],
        bias: step.bias[0],
        z: step.z[0],
        h: step.h[0],
    })
}

impl UnrollH {
    /// The answer: h_t.
    pub fn answer(&self) -> Answer {
        Answer::Number(f64::from(self.h))
    }
}

// ------------------------------------------------------------------------------------ 2. shapes

/// Lesson 2: "does a longer sequence change the parameter count?" Choice 0: it changes;
/// 1: it stays the same.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapesSeqLen {
    /// seq_len T of the page.
    pub seq_len: usize,
    /// The other length compared: 2·T (T / 2 at the top of the range).
    pub other_len: usize,
    /// The parameter count at T.
    pub count: u64,
    /// The parameter count at the other length.
    pub other_count: u64,
    /// What one more layer would add (none at the most layers the page allows).
    pub layer_adds: Option<u64>,
}

/// Lesson 2's answer for `config`.
///
/// # Errors
/// Those of [`shapes::shapes`].
pub fn shapes_seq_len(config: &ShapesConfig) -> Result<ShapesSeqLen, RnnError> {
    let count = shapes::shapes(config)?.shapes.param_count;
    let other_len = if config.seq_len * 2 <= 4096 {
        config.seq_len * 2
    } else {
        (config.seq_len / 2).max(1)
    };
    let other = ShapesConfig {
        seq_len: other_len,
        ..config.clone()
    };
    let other_count = shapes::shapes(&other)?.shapes.param_count;
    let layer_adds = if config.num_layers < 8 {
        let deeper = ShapesConfig {
            num_layers: config.num_layers + 1,
            ..config.clone()
        };
        Some(shapes::shapes(&deeper)?.shapes.param_count - count)
    } else {
        None
    };
    Ok(ShapesSeqLen {
        seq_len: config.seq_len,
        other_len,
        count,
        other_count,
        layer_adds,
    })
}

impl ShapesSeqLen {
    /// The answer: 0 when the count changes with the length, 1 when it stays.
    pub fn answer(&self) -> Answer {
        Answer::Choice(if self.count == self.other_count { 1 } else { 0 })
    }
}

// -------------------------------------------------------------------------------------- 3. bptt

/// The threshold of lesson 3's question.
pub const BPTT_THRESHOLD: f32 = 1e-3;

/// Lesson 3: "after T steps, is |∂h_T/∂h_0| above or below 10⁻³?" Choice 0: above (or at);
/// 1: below.
#[derive(Clone, Debug, PartialEq)]
pub struct BpttProduct {
    /// Steps T.
    pub steps: usize,
    /// W_hh.
    pub w_hh: f32,
    /// The running product after T steps, ∂h_T/∂h_0.
    pub product: f32,
    /// The geometric mean of the T local factors' magnitudes, |∂h_T/∂h_0|^(1/T).
    pub mean_factor: f32,
}

/// Lesson 3's answer for `config`.
pub fn bptt_product(config: &BpttConfig) -> BpttProduct {
    let run = bptt::bptt(config);
    let product = run.steps.last().map_or(1.0, |s| s.product);
    let steps = run.steps.len().max(1);
    BpttProduct {
        steps,
        w_hh: config.w_hh as f32,
        product,
        mean_factor: product.abs().powf(1.0 / steps as f32),
    }
}

impl BpttProduct {
    /// The answer: 0 above (or at) 10⁻³, 1 below.
    pub fn answer(&self) -> Answer {
        Answer::Choice(if self.product.abs() >= BPTT_THRESHOLD {
            0
        } else {
            1
        })
    }
}

// -------------------------------------------------------------------------------------- 4. lstm

/// Lesson 4: "C_T at the last step?"
#[derive(Clone, Debug, PartialEq)]
pub struct LstmC {
    /// The last step T.
    pub t: usize,
    /// f_T.
    pub f: f32,
    /// i_T.
    pub i: f32,
    /// g_T.
    pub g: f32,
    /// C_{T−1}.
    pub c_prev: f32,
    /// C_T = f·C_{T−1} + i·g, the answer.
    pub c: f32,
}

/// Lesson 4's answer for `config`.
///
/// # Errors
/// Those of [`lstm::lstm`].
pub fn lstm_c(config: &LstmConfig) -> Result<LstmC, RnnError> {
    let run = lstm::lstm(config)?;
    let last = run.steps.last().ok_or(RnnError::EmptySequence)?;
    Ok(LstmC {
        t: last.t,
        f: last.f,
        i: last.i,
        g: last.g,
        c_prev: last.c_prev,
        c: last.c,
    })
}

/// The slider of lesson 4's question: |C_T| ≤ |C_0| + T (f ≤ 1 and |i·g| ≤ 1), rounded out to a
/// whole number. It depends on C_0 and the number of steps, never on the answer.
pub fn lstm_range(config: &LstmConfig) -> NumberRange {
    let steps = lstm::lstm(config).map_or(1, |r| r.steps.len().max(1));
    let bound = (config.c0.abs() + steps as f64).ceil();
    NumberRange {
        min: -bound,
        max: bound,
        step: 0.01,
    }
}

impl LstmC {
    /// The answer: C_T.
    pub fn answer(&self) -> Answer {
        Answer::Number(f64::from(self.c))
    }
}

// --------------------------------------------------------------------------------------- 5. gru

/// Lesson 5: "with this z, is h_t nearer h_{t−1} or the candidate h̃?" Choice 0: h_{t−1};
/// 1: h̃; 2: equally near.
#[derive(Clone, Debug, PartialEq)]
pub struct GruNearer {
    /// z (the course's meaning).
    pub z: f32,
    /// h_{t−1}.
    pub h_prev: f32,
    /// h̃.
    pub n: f32,
    /// h_t.
    pub h: f32,
    /// |h_t − h_{t−1}|.
    pub to_prev: f32,
    /// |h_t − h̃|.
    pub to_candidate: f32,
}

/// Lesson 5's answer for `config`.
pub fn gru_nearer(config: &GruConfig) -> GruNearer {
    let run = gru::gru(config);
    let (h_prev, n) = (config.h_prev as f32, config.n as f32);
    GruNearer {
        z: config.z as f32,
        h_prev,
        n,
        h: run.h,
        to_prev: (run.h - h_prev).abs(),
        to_candidate: (run.h - n).abs(),
    }
}

impl GruNearer {
    /// The answer: 0 nearer h_{t−1}, 1 nearer h̃, 2 equally near (within 10⁻⁶).
    pub fn answer(&self) -> Answer {
        Answer::Choice(if (self.to_prev - self.to_candidate).abs() <= 1e-6 {
            2
        } else if self.to_prev < self.to_candidate {
            0
        } else {
            1
        })
    }
}

// ------------------------------------------------------------------------------------- 6. bidir

/// Lesson 6: "which half of output[:, −1, :] has read the whole sequence?" Choice 0: the
/// forward half; 1: the backward half; 2: both.
#[derive(Clone, Debug, PartialEq)]
pub struct BidirLast {
    /// Tokens T.
    pub tokens: usize,
    /// The last token.
    pub last_token: String,
    /// Hidden size H of each direction (the halves are `:H` and `H:`).
    pub hidden: usize,
    /// Whether the forward half at the last position equals the forward direction's final
    /// state h_n[0] (after every token).
    pub forward_full: bool,
    /// Whether the backward half at the last position equals the backward direction's final
    /// state h_n[1] (after every token).
    pub backward_full: bool,
    /// Largest |output[0, −1, H:] − h_n[1]|: how far the backward half is from having read
    /// everything.
    pub backward_gap: f32,
}

/// Lesson 6's answer for `config`.
///
/// # Errors
/// Those of [`bidir::bidir`].
pub fn bidir_last(config: &BidirConfig) -> Result<BidirLast, RnnError> {
    let run = bidir::bidir(config)?;
    let last = run.output.last().ok_or(RnnError::EmptySequence)?;
    let h = bidir::HIDDEN;
    let differs = |half: &[f32], full: &[f32; bidir::HIDDEN]| {
        half.iter()
            .zip(full)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max)
    };
    let forward_gap = differs(&last[..h], &run.h_n[0]);
    let backward_gap = differs(&last[h..], &run.h_n[1]);
    Ok(BidirLast {
        tokens: run.tokens.len(),
        last_token: run.tokens.last().cloned().unwrap_or_default(),
        hidden: h,
        forward_full: forward_gap == 0.0,
        backward_full: backward_gap == 0.0 || run.tokens.len() == 1,
        backward_gap,
    })
}

impl BidirLast {
    /// The answer: 0 the forward half, 1 the backward half, 2 both.
    pub fn answer(&self) -> Answer {
        Answer::Choice(match (self.forward_full, self.backward_full) {
            (true, true) => 2,
            (false, true) => 1,
            _ => 0,
        })
    }
}

// ----------------------------------------------------------------------------------- 7. softmax

/// Lesson 7: "which class has the lowest NLL (were it the target)?" Choice: the class index.
#[derive(Clone, Debug, PartialEq)]
pub struct SoftmaxLowest {
    /// −log p_k of every class.
    pub nll: Vec<f32>,
    /// The class with the lowest NLL (the first one on a tie).
    pub class: usize,
    /// Its logit.
    pub logit: f32,
    /// Its probability.
    pub prob: f32,
    /// The lowest NLL among the other classes (none with one class).
    pub runner_up: Option<(usize, f32)>,
}

/// Lesson 7's answer for `config`.
pub fn softmax_lowest(config: &SoftmaxConfig) -> SoftmaxLowest {
    let run = softmax::softmax(config);
    let nll: Vec<f32> = run.log_softmax.iter().map(|v| -v).collect();
    let lowest = |skip: Option<usize>| {
        nll.iter()
            .enumerate()
            .filter(|(k, _)| Some(*k) != skip)
            .fold(None::<(usize, f32)>, |best, (k, &v)| match best {
                Some((_, b)) if b <= v => best,
                _ => Some((k, v)),
            })
    };
    let class = lowest(None).map_or(0, |(k, _)| k);
    SoftmaxLowest {
        class,
        logit: run.logits.get(class).copied().unwrap_or(0.0),
        prob: run.probs.get(class).copied().unwrap_or(0.0),
        runner_up: lowest(Some(class)),
        nll,
    }
}

impl SoftmaxLowest {
    /// The answer: the class index.
    pub fn answer(&self) -> Answer {
        Answer::Choice(self.class)
    }
}

// ---------------------------------------------------------------------------------- 8. parallel

/// Lesson 8: "as L grows, whose serial depth grows faster: the recurrent cell's or the
/// all-pairs scores'?" Choice 0: the recurrent cell's; 1: the all-pairs scores'; 2: neither.
#[derive(Clone, Debug, PartialEq)]
pub struct ParallelGrowth {
    /// The shortest length measured.
    pub first_len: usize,
    /// The longest length measured.
    pub last_len: usize,
    /// The recurrent cell's dependent steps at both lengths.
    pub recurrent: (usize, usize),
    /// The all-pairs scores' dependent steps at both lengths.
    pub all_pairs: (usize, usize),
}

/// Lesson 8's answer for `config`: the serial depths of the page's two workloads at the
/// shortest and the longest length it measures.
pub fn parallel_growth(config: &ParallelConfig) -> ParallelGrowth {
    let lengths = parallel::lengths(config.max_len);
    let first_len = lengths.first().copied().unwrap_or(8);
    let last_len = lengths.last().copied().unwrap_or(first_len);
    let depth = |len: usize| {
        (
            parallel::Sequential::new(config.cell, config.hidden_size, len).serial_depth(),
            parallel::AllPairs::new(len, config.hidden_size).serial_depth(),
        )
    };
    let (r0, a0) = depth(first_len);
    let (r1, a1) = depth(last_len);
    ParallelGrowth {
        first_len,
        last_len,
        recurrent: (r0, r1),
        all_pairs: (a0, a1),
    }
}

impl ParallelGrowth {
    /// The answer: 0 the recurrent cell's depth grows faster, 1 the all-pairs', 2 neither.
    pub fn answer(&self) -> Answer {
        let growth = |(a, b): (usize, usize)| b as f64 / a.max(1) as f64;
        let (r, a) = (growth(self.recurrent), growth(self.all_pairs));
        Answer::Choice(if r > a {
            0
        } else if a > r {
            1
        } else {
            2
        })
    }
}
