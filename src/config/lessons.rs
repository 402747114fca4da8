//! The URL state of every lesson: one plain struct per lesson implementing
//! [`UrlConfig`], its field table (keys in canonical order, ranges, defaults) and the routing
//! enum [`LessonState`].
//!
//! Each default is the course's worked example. Ranges are the slider ranges: decoding clamps
//! to them, so no URL can make a lesson allocate more than `max_len` list entries, 12 tokens of
//! 16 characters, or compute a shape beyond 4096 per dimension.

use super::query::{
    self, Decoded, FieldKind, FieldSpec, Lang, NoticeKind, UrlConfig, UrlNotice, Value, Values,
};
use crate::math::params::CellKind;

/// Every lesson, in course order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LessonId {
    /// 1. Recurrence and time unrolling (`unroll`).
    Unroll,
    /// 2. Unrolling is not stacking: shapes and parameter counts (`shapes`).
    Shapes,
    /// 3. Why gradients vanish (`bptt`).
    Bptt,
    /// 4. The LSTM conveyor belt (`lstm`).
    Lstm,
    /// 5. GRU update-gate fusion (`gru`).
    Gru,
    /// 6. Bidirectional concatenation (`bidir`).
    Bidir,
    /// 7. logits → softmax → log → NLL (`softmax`).
    Softmax,
    /// 8. Why Transformers replaced RNNs: serial depth, measured (`parallel`).
    Parallel,
}

impl LessonId {
    /// All lessons in course order.
    pub const ALL: [LessonId; 8] = [
        LessonId::Unroll,
        LessonId::Shapes,
        LessonId::Bptt,
        LessonId::Lstm,
        LessonId::Gru,
        LessonId::Bidir,
        LessonId::Softmax,
        LessonId::Parallel,
    ];

    /// The `lesson` value, e.g. `unroll`.
    pub fn as_str(self) -> &'static str {
        match self {
            LessonId::Unroll => UnrollConfig::LESSON,
            LessonId::Shapes => ShapesConfig::LESSON,
            LessonId::Bptt => BpttConfig::LESSON,
            LessonId::Lstm => LstmConfig::LESSON,
            LessonId::Gru => GruConfig::LESSON,
            LessonId::Bidir => BidirConfig::LESSON,
            LessonId::Softmax => SoftmaxConfig::LESSON,
            LessonId::Parallel => ParallelConfig::LESSON,
        }
    }

    /// Parses a `lesson` value (case-insensitive, surrounding spaces ignored).
    pub fn parse(s: &str) -> Option<LessonId> {
        let s = s.trim();
        LessonId::ALL
            .into_iter()
            .find(|l| l.as_str().eq_ignore_ascii_case(s))
    }

    /// Position in the course, from 1.
    pub fn number(self) -> usize {
        LessonId::ALL
            .iter()
            .position(|&l| l == self)
            .map_or(0, |i| i + 1)
    }

    /// The lesson's URL field table.
    pub fn fields(self) -> &'static [FieldSpec] {
        match self {
            LessonId::Unroll => UNROLL_FIELDS,
            LessonId::Shapes => SHAPES_FIELDS,
            LessonId::Bptt => BPTT_FIELDS,
            LessonId::Lstm => LSTM_FIELDS,
            LessonId::Gru => GRU_FIELDS,
            LessonId::Bidir => BIDIR_FIELDS,
            LessonId::Softmax => SOFTMAX_FIELDS,
            LessonId::Parallel => PARALLEL_FIELDS,
        }
    }
}

/// A decoded lesson page: which lesson and its state.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonState {
    /// `lesson=unroll`.
    Unroll(UnrollConfig),
    /// `lesson=shapes`.
    Shapes(ShapesConfig),
    /// `lesson=bptt`.
    Bptt(BpttConfig),
    /// `lesson=lstm`.
    Lstm(LstmConfig),
    /// `lesson=gru`.
    Gru(GruConfig),
    /// `lesson=bidir`.
    Bidir(BidirConfig),
    /// `lesson=softmax`.
    Softmax(SoftmaxConfig),
    /// `lesson=parallel`.
    Parallel(ParallelConfig),
}

fn wrap<T: UrlConfig>(d: Decoded<T>, f: fn(T) -> LessonState) -> Decoded<LessonState> {
    Decoded {
        config: f(d.config),
        lang: d.lang,
        notices: d.notices,
    }
}

impl LessonState {
    /// The default state (the course's worked example) of `id`.
    pub fn default_for(id: LessonId) -> LessonState {
        match id {
            LessonId::Unroll => LessonState::Unroll(UnrollConfig::default()),
            LessonId::Shapes => LessonState::Shapes(ShapesConfig::default()),
            LessonId::Bptt => LessonState::Bptt(BpttConfig::default()),
            LessonId::Lstm => LessonState::Lstm(LstmConfig::default()),
            LessonId::Gru => LessonState::Gru(GruConfig::default()),
            LessonId::Bidir => LessonState::Bidir(BidirConfig::default()),
            LessonId::Softmax => LessonState::Softmax(SoftmaxConfig::default()),
            LessonId::Parallel => LessonState::Parallel(ParallelConfig::default()),
        }
    }

    /// Which lesson.
    pub fn id(&self) -> LessonId {
        match self {
            LessonState::Unroll(_) => LessonId::Unroll,
            LessonState::Shapes(_) => LessonId::Shapes,
            LessonState::Bptt(_) => LessonId::Bptt,
            LessonState::Lstm(_) => LessonId::Lstm,
            LessonState::Gru(_) => LessonId::Gru,
            LessonState::Bidir(_) => LessonId::Bidir,
            LessonState::Softmax(_) => LessonId::Softmax,
            LessonState::Parallel(_) => LessonId::Parallel,
        }
    }

    /// Decodes `query` as the state of lesson `id` (never fails; see [`query::decode`]).
    pub fn decode(id: LessonId, query: &str) -> Decoded<LessonState> {
        match id {
            LessonId::Unroll => wrap(query::decode::<UnrollConfig>(query), LessonState::Unroll),
            LessonId::Shapes => wrap(query::decode::<ShapesConfig>(query), LessonState::Shapes),
            LessonId::Bptt => wrap(query::decode::<BpttConfig>(query), LessonState::Bptt),
            LessonId::Lstm => wrap(query::decode::<LstmConfig>(query), LessonState::Lstm),
            LessonId::Gru => wrap(query::decode::<GruConfig>(query), LessonState::Gru),
            LessonId::Bidir => wrap(query::decode::<BidirConfig>(query), LessonState::Bidir),
            LessonId::Softmax => wrap(query::decode::<SoftmaxConfig>(query), LessonState::Softmax),
            LessonId::Parallel => wrap(
                query::decode::<ParallelConfig>(query),
                LessonState::Parallel,
            ),
        }
    }

    /// The canonical query string (no leading `?`), with `lang` when the user chose one.
    pub fn encode(&self, lang: Option<Lang>) -> String {
        match self {
            LessonState::Unroll(c) => query::encode(c, lang),
            LessonState::Shapes(c) => query::encode(c, lang),
            LessonState::Bptt(c) => query::encode(c, lang),
            LessonState::Lstm(c) => query::encode(c, lang),
            LessonState::Gru(c) => query::encode(c, lang),
            LessonState::Bidir(c) => query::encode(c, lang),
            LessonState::Softmax(c) => query::encode(c, lang),
            LessonState::Parallel(c) => query::encode(c, lang),
        }
    }
}

/// What a query string routes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    /// No `lesson` key, or `lesson=index`: the index page of lessons.
    Index,
    /// `lesson=names`: the training page (decoded by [`super::TrainConfig`]).
    Training,
    /// `lesson=delay`: the delay-copy task (decoded by [`super::delay::DelayConfig`]).
    Delay,
    /// A lesson page with its decoded state.
    Lesson(LessonId),
    /// A `lesson` that names no page: the index is shown with a notice.
    Unknown(String),
}

/// Routes a query string by its `lesson` key (the last one when repeated).
pub fn route(query: &str) -> Route {
    match query::query_lesson(query) {
        None => Route::Index,
        Some(l) if l.trim().is_empty() || l.trim().eq_ignore_ascii_case("index") => Route::Index,
        Some(l)
            if l.trim()
                .eq_ignore_ascii_case(super::train::TrainConfig::LESSON) =>
        {
            Route::Training
        }
        Some(l)
            if l.trim()
                .eq_ignore_ascii_case(super::delay::DelayConfig::LESSON) =>
        {
            Route::Delay
        }
        Some(l) => match LessonId::parse(&l) {
            Some(id) => Route::Lesson(id),
            None => Route::Unknown(l),
        },
    }
}

/// The `default` of [`unknown_lesson_notice`] (English; the Chinese notice translates it).
pub const UNKNOWN_LESSON_DEFAULT: &str = "the index";

/// The notice shown when `lesson` names no page (the raw value is cut like other notices and
/// must be rendered as text).
pub fn unknown_lesson_notice(raw: &str) -> UrlNotice {
    let raw: String = match raw.char_indices().nth(query::MAX_RAW_CHARS) {
        Some((i, _)) => format!("{}…", &raw[..i]),
        None => raw.to_owned(),
    };
    UrlNotice {
        field: "lesson".into(),
        raw,
        kind: NoticeKind::Invalid {
            expected: LessonId::ALL
                .iter()
                .map(|l| l.as_str())
                .collect::<Vec<_>>()
                .join(", ")
                + ", names, delay",
            default: UNKNOWN_LESSON_DEFAULT.into(),
        },
    }
}

/// The index's URL: only the common keys (`v`, `lesson`, `lang`).
struct IndexKeys;

impl UrlConfig for IndexKeys {
    const LESSON: &'static str = "index";
    const FIELDS: &'static [FieldSpec] = &[];

    fn from_values(_: &Values) -> Self {
        IndexKeys
    }

    fn to_values(&self) -> Values {
        Values::defaults(&[])
    }
}

/// The notices of the index page's query: keys that are not the common keys, a bad `v`, bytes
/// that are not UTF-8, and, for a `lesson` that names no page, [`unknown_lesson_notice`].
pub fn index_notices(query: &str) -> Vec<UrlNotice> {
    let mut notices = query::decode::<IndexKeys>(query).notices;
    notices.retain(|n| !matches!(n.kind, NoticeKind::OtherLesson { .. }));
    if let Route::Unknown(raw) = route(query) {
        notices.insert(0, unknown_lesson_notice(&raw));
    }
    notices
}

fn float_list(v: &Values, key: &str) -> Vec<f64> {
    v.list(key)
}

fn int_key(n: usize) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn fmt_list(list: &[f64]) -> String {
    query::format_value(&Value::FloatList(list.to_vec()))
}

macro_rules! default_from_fields {
    ($t:ty, $fields:expr, $doc:literal) => {
        impl Default for $t {
            #[doc = $doc]
            fn default() -> Self {
                <$t as UrlConfig>::from_values(&Values::defaults($fields))
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// 1. unroll
// ---------------------------------------------------------------------------------------------

/// Lesson 1 (`unroll`): a 1-d `nn.RNN(1, 1)` whose weights are the sliders, run over `x`.
/// With `hidden_size` ≥ 2 (vector mode) the weights come from PyTorch's initialisation with
/// `seed` instead.
#[derive(Clone, Debug, PartialEq)]
pub struct UnrollConfig {
    /// `weight_ih_l0` (W_xh) of the 1-d RNN, [−3, 3], default 0.5.
    pub w_xh: f64,
    /// `weight_hh_l0` (W_hh), [−3, 3], default 1.0.
    pub w_hh: f64,
    /// Bias b = `bias_ih_l0` (`bias_hh_l0` is 0), [−3, 3], default 0.
    pub b: f64,
    /// Initial hidden state h_0 (every entry in vector mode), [−3, 3], default 0.
    pub h0: f64,
    /// Input sequence x_1..x_T, 1–12 values in [−5, 5], default 1, 2, −1.
    pub x: Vec<f64>,
    /// The time step shown by the scrubber, from 1, at most `x.len()`; default 2.
    pub t: usize,
    /// Hidden size H: 1 = the scalar lesson; 2–8 = vector mode with seeded weights.
    pub hidden_size: usize,
    /// Seed of the vector mode's weights.
    pub seed: u32,
}

/// The `unroll` lesson's URL keys in canonical order.
pub const UNROLL_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "w_xh",
        kind: FieldKind::Float { min: -3.0, max: 3.0, default: 0.5 },
        doc: "input weight W_xh (`weight_ih_l0` of `nn.RNN(1, 1)`)",
    },
    FieldSpec {
        key: "w_hh",
        kind: FieldKind::Float { min: -3.0, max: 3.0, default: 1.0 },
        doc: "recurrent weight W_hh (`weight_hh_l0`)",
    },
    FieldSpec {
        key: "b",
        kind: FieldKind::Float { min: -3.0, max: 3.0, default: 0.0 },
        doc: "bias b (`bias_ih_l0`; `bias_hh_l0` stays 0)",
    },
    FieldSpec {
        key: "h0",
        kind: FieldKind::Float { min: -3.0, max: 3.0, default: 0.0 },
        doc: "initial hidden state h_0",
    },
    FieldSpec {
        key: "x",
        kind: FieldKind::FloatList { min: -5.0, max: 5.0, min_len: 1, max_len: 12, default: &[1.0, 2.0, -1.0] },
        doc: "input sequence x_1, …, x_T (T = number of values)",
    },
    FieldSpec {
        key: "t",
        kind: FieldKind::Int { min: 1, max: 12, default: 2 },
        doc: "time step shown by the scrubber (at most the number of inputs)",
    },
    FieldSpec {
        key: "hidden_size",
        kind: FieldKind::Int { min: 1, max: 8, default: 1 },
        doc: "1 = scalar lesson; 2–8 = vector mode (weights from PyTorch's init with `seed`, shown as heatmaps)",
    },
    FieldSpec {
        key: "seed",
        kind: FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 },
        doc: "seed of the vector mode's weights",
    },
];

impl UrlConfig for UnrollConfig {
    const LESSON: &'static str = "unroll";
    const FIELDS: &'static [FieldSpec] = UNROLL_FIELDS;

    fn from_values(v: &Values) -> Self {
        UnrollConfig {
            w_xh: v.float("w_xh"),
            w_hh: v.float("w_hh"),
            b: v.float("b"),
            h0: v.float("h0"),
            x: float_list(v, "x"),
            t: v.int("t") as usize,
            hidden_size: v.int("hidden_size") as usize,
            seed: v.int("seed") as u32,
        }
    }

    fn to_values(&self) -> Values {
        Values::defaults(UNROLL_FIELDS)
            .with("w_xh", Value::Float(self.w_xh))
            .with("w_hh", Value::Float(self.w_hh))
            .with("b", Value::Float(self.b))
            .with("h0", Value::Float(self.h0))
            .with("x", Value::FloatList(self.x.clone()))
            .with("t", int_key(self.t))
            .with("hidden_size", int_key(self.hidden_size))
            .with("seed", Value::Int(self.seed.into()))
    }

    fn reconcile(&mut self, notices: &mut Vec<UrlNotice>) {
        let steps = self.x.len().max(1);
        if self.t > steps {
            notices.push(UrlNotice {
                field: "t".into(),
                raw: self.t.to_string(),
                kind: NoticeKind::Clamped {
                    range: format!("1–{steps} (one per input)"),
                    to: steps.to_string(),
                },
            });
            self.t = steps;
        }
    }
}
default_from_fields!(
    UnrollConfig,
    UNROLL_FIELDS,
    "The course's example: W_xh 0.5, W_hh 1, b 0, h0 0, x = 1, 2, −1, t = 2."
);

// ---------------------------------------------------------------------------------------------
// 2. shapes
// ---------------------------------------------------------------------------------------------

/// Lesson 2 (`shapes`): the arguments of `nn.RNN`/`nn.LSTM`/`nn.GRU` and of the input. Only
/// shapes and counts are computed; nothing of these sizes is allocated.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapesConfig {
    /// Cell, default `rnn`.
    pub cell: CellKind,
    /// `input_size` I, 1–4096, default 10.
    pub input_size: usize,
    /// `hidden_size` H, 1–4096, default 8.
    pub hidden_size: usize,
    /// `num_layers` L, 1–8, default 1.
    pub num_layers: usize,
    /// `bidirectional` (D = 2), default 0.
    pub bidirectional: bool,
    /// `batch_first`, default 1.
    pub batch_first: bool,
    /// Batch B, 1–4096, default 1.
    pub batch: usize,
    /// seq_len T, 1–4096, default 3.
    pub seq_len: usize,
}

/// The `shapes` lesson's URL keys in canonical order.
pub const SHAPES_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "cell",
        kind: FieldKind::Choice {
            choices: &CellKind::KEYS,
            default: 0,
        },
        doc: "`nn.RNN`, `nn.LSTM` or `nn.GRU`",
    },
    FieldSpec {
        key: "input_size",
        kind: FieldKind::Int {
            min: 1,
            max: 4096,
            default: 10,
        },
        doc: "features per input step (I)",
    },
    FieldSpec {
        key: "hidden_size",
        kind: FieldKind::Int {
            min: 1,
            max: 4096,
            default: 8,
        },
        doc: "features of the hidden state (H)",
    },
    FieldSpec {
        key: "num_layers",
        kind: FieldKind::Int {
            min: 1,
            max: 8,
            default: 1,
        },
        doc: "stacked layers (L)",
    },
    FieldSpec {
        key: "bidirectional",
        kind: FieldKind::Bool { default: false },
        doc: "1 = two directions (D = 2)",
    },
    FieldSpec {
        key: "batch_first",
        kind: FieldKind::Bool { default: true },
        doc: "1 = input and output are (batch, seq_len, ·); h_n is never batch-first",
    },
    FieldSpec {
        key: "batch",
        kind: FieldKind::Int {
            min: 1,
            max: 4096,
            default: 1,
        },
        doc: "batch size (B)",
    },
    FieldSpec {
        key: "seq_len",
        kind: FieldKind::Int {
            min: 1,
            max: 4096,
            default: 3,
        },
        doc: "time steps (T); never changes the parameter count",
    },
];

impl UrlConfig for ShapesConfig {
    const LESSON: &'static str = "shapes";
    const FIELDS: &'static [FieldSpec] = SHAPES_FIELDS;

    fn from_values(v: &Values) -> Self {
        ShapesConfig {
            cell: CellKind::parse(v.choice("cell")).unwrap_or(CellKind::Rnn),
            input_size: v.int("input_size") as usize,
            hidden_size: v.int("hidden_size") as usize,
            num_layers: v.int("num_layers") as usize,
            bidirectional: v.flag("bidirectional"),
            batch_first: v.flag("batch_first"),
            batch: v.int("batch") as usize,
            seq_len: v.int("seq_len") as usize,
        }
    }

    fn to_values(&self) -> Values {
        Values::defaults(SHAPES_FIELDS)
            .with("cell", Value::Choice(self.cell.as_str()))
            .with("input_size", int_key(self.input_size))
            .with("hidden_size", int_key(self.hidden_size))
            .with("num_layers", int_key(self.num_layers))
            .with("bidirectional", Value::Bool(self.bidirectional))
            .with("batch_first", Value::Bool(self.batch_first))
            .with("batch", int_key(self.batch))
            .with("seq_len", int_key(self.seq_len))
    }
}
default_from_fields!(
    ShapesConfig,
    SHAPES_FIELDS,
    "`nn.RNN(10, 8, batch_first=True)` on a batch of 1 sequence of 3 steps."
);

// ---------------------------------------------------------------------------------------------
// 3. bptt
// ---------------------------------------------------------------------------------------------

/// The recurrence's nonlinearity in the `bptt` lesson (`act`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BpttAct {
    /// `tanh` (nn.RNN's default): the running product vanishes.
    Tanh,
    /// `relu` (`nonlinearity='relu'`): derivative 0 or 1, so |W_hh| > 1 explodes.
    Relu,
    /// No nonlinearity (h_t = z_t): the product is W_hh^t.
    Linear,
}

impl BpttAct {
    /// `tanh`, `relu` or `linear`.
    pub fn as_str(self) -> &'static str {
        match self {
            BpttAct::Tanh => "tanh",
            BpttAct::Relu => "relu",
            BpttAct::Linear => "linear",
        }
    }
}

/// Lesson 3 (`bptt`): a 1-d RNN (b = 0, h_0 = 0) over `steps` steps of `x` (repeated
/// cyclically), the running product of the local derivatives, and clipping.
#[derive(Clone, Debug, PartialEq)]
pub struct BpttConfig {
    /// W_hh, [−3, 3], default 1.0.
    pub w_hh: f64,
    /// W_xh, [−3, 3], default 0.5.
    pub w_xh: f64,
    /// Inputs, 1–100 values in [−5, 5], default 1, 2, −1; repeated cyclically up to `steps`.
    pub x: Vec<f64>,
    /// Steps T, 1–100, default 3.
    pub steps: usize,
    /// Nonlinearity, default tanh.
    pub act: BpttAct,
    /// Global gradient-norm clipping threshold; 0 = off. [0, 100], default 0.
    pub max_norm: f64,
}

/// The `bptt` lesson's URL keys in canonical order.
pub const BPTT_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "w_hh",
        kind: FieldKind::Float {
            min: -3.0,
            max: 3.0,
            default: 1.0,
        },
        doc: "recurrent weight W_hh",
    },
    FieldSpec {
        key: "w_xh",
        kind: FieldKind::Float {
            min: -3.0,
            max: 3.0,
            default: 0.5,
        },
        doc: "input weight W_xh",
    },
    FieldSpec {
        key: "x",
        kind: FieldKind::FloatList {
            min: -5.0,
            max: 5.0,
            min_len: 1,
            max_len: 100,
            default: &[1.0, 2.0, -1.0],
        },
        doc: "inputs; a list shorter than `steps` repeats (`x=0.3&steps=20` is a constant input)",
    },
    FieldSpec {
        key: "steps",
        kind: FieldKind::Int {
            min: 1,
            max: 100,
            default: 3,
        },
        doc: "time steps T",
    },
    FieldSpec {
        key: "act",
        kind: FieldKind::Choice {
            choices: &["tanh", "relu", "linear"],
            default: 0,
        },
        doc: "nonlinearity of the recurrence",
    },
    FieldSpec {
        key: "max_norm",
        kind: FieldKind::Float {
            min: 0.0,
            max: 100.0,
            default: 0.0,
        },
        doc: "`clip_grad_norm_` threshold for the gradient of h_T; 0 = off",
    },
];

impl UrlConfig for BpttConfig {
    const LESSON: &'static str = "bptt";
    const FIELDS: &'static [FieldSpec] = BPTT_FIELDS;

    fn from_values(v: &Values) -> Self {
        BpttConfig {
            w_hh: v.float("w_hh"),
            w_xh: v.float("w_xh"),
            x: float_list(v, "x"),
            steps: v.int("steps") as usize,
            act: match v.choice("act") {
                "relu" => BpttAct::Relu,
                "linear" => BpttAct::Linear,
                _ => BpttAct::Tanh,
            },
            max_norm: v.float("max_norm"),
        }
    }

    fn to_values(&self) -> Values {
        Values::defaults(BPTT_FIELDS)
            .with("w_hh", Value::Float(self.w_hh))
            .with("w_xh", Value::Float(self.w_xh))
            .with("x", Value::FloatList(self.x.clone()))
            .with("steps", int_key(self.steps))
            .with("act", Value::Choice(self.act.as_str()))
            .with("max_norm", Value::Float(self.max_norm))
    }
}
default_from_fields!(
    BpttConfig,
    BPTT_FIELDS,
    "The course's example: W_hh 1, W_xh 0.5, x = 1, 2, −1 over 3 steps, tanh, no clipping."
);

// ---------------------------------------------------------------------------------------------
// 4. lstm
// ---------------------------------------------------------------------------------------------

/// How the `lstm` lesson sets its gates (`mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LstmMode {
    /// Every gate of every step is a slider (`f`, `i`, `g`, `o` lists).
    Gates,
    /// Gates computed from x and h by a seeded `nn.LSTM(1, 1)` (`x`, `seed`).
    Weights,
    /// The first step's gates held constant for `n` steps (C_t → i·g / (1 − f)).
    Run,
}

impl LstmMode {
    /// `gates`, `weights` or `run`.
    pub fn as_str(self) -> &'static str {
        match self {
            LstmMode::Gates => "gates",
            LstmMode::Weights => "weights",
            LstmMode::Run => "run",
        }
    }
}

/// Lesson 4 (`lstm`): the conveyor belt C_t = f_t·C_{t−1} + i_t·g_t, h_t = o_t·tanh(C_t).
/// In `gates` mode the four lists have one value per step (equal lengths after decoding).
#[derive(Clone, Debug, PartialEq)]
pub struct LstmConfig {
    /// Forget gate per step, values in [0, 1], default 0.9, 0.3.
    pub f: Vec<f64>,
    /// Input gate per step, [0, 1], default 0.5, 0.9.
    pub i: Vec<f64>,
    /// Candidate g = c̃ per step, [−1, 1], default 0.8, −0.6.
    pub g: Vec<f64>,
    /// Output gate per step, [0, 1], default 0.4, 0.7.
    pub o: Vec<f64>,
    /// Initial cell state C_0, [−5, 5], default 0.
    pub c0: f64,
    /// Gate source, default `gates`.
    pub mode: LstmMode,
    /// Steps of the `run` mode, 1–30, default 20.
    pub n: usize,
    /// Inputs of the `weights` mode, 1–30 values in [−5, 5], default 1, 2, −1.
    pub x: Vec<f64>,
    /// Seed of the `weights` mode's `nn.LSTM(1, 1)`.
    pub seed: u32,
    /// The time step shown by the scrubber, from 1, at most [`LstmConfig::steps`]; default 1.
    pub t: usize,
}

/// The `lstm` lesson's URL keys in canonical order.
pub const LSTM_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "f",
        kind: FieldKind::FloatList { min: 0.0, max: 1.0, min_len: 1, max_len: 30, default: &[0.9, 0.3] },
        doc: "forget gate f_t, one value per step",
    },
    FieldSpec {
        key: "i",
        kind: FieldKind::FloatList { min: 0.0, max: 1.0, min_len: 1, max_len: 30, default: &[0.5, 0.9] },
        doc: "input gate i_t, one value per step",
    },
    FieldSpec {
        key: "g",
        kind: FieldKind::FloatList { min: -1.0, max: 1.0, min_len: 1, max_len: 30, default: &[0.8, -0.6] },
        doc: "candidate g_t = c̃_t, one value per step",
    },
    FieldSpec {
        key: "o",
        kind: FieldKind::FloatList { min: 0.0, max: 1.0, min_len: 1, max_len: 30, default: &[0.4, 0.7] },
        doc: "output gate o_t, one value per step",
    },
    FieldSpec { key: "c0", kind: FieldKind::Float { min: -5.0, max: 5.0, default: 0.0 }, doc: "initial cell state C_0" },
    FieldSpec {
        key: "mode",
        kind: FieldKind::Choice { choices: &["gates", "weights", "run"], default: 0 },
        doc: "`gates`: gates are sliders; `weights`: computed from x and h by a seeded `nn.LSTM(1, 1)`; `run`: step 1's gates held for `n` steps",
    },
    FieldSpec { key: "n", kind: FieldKind::Int { min: 1, max: 30, default: 20 }, doc: "steps of the `run` mode" },
    FieldSpec {
        key: "x",
        kind: FieldKind::FloatList { min: -5.0, max: 5.0, min_len: 1, max_len: 30, default: &[1.0, 2.0, -1.0] },
        doc: "inputs of the `weights` mode",
    },
    FieldSpec { key: "seed", kind: FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 }, doc: "seed of the `weights` mode's weights" },
    FieldSpec {
        key: "t",
        kind: FieldKind::Int { min: 1, max: 30, default: 1 },
        doc: "time step shown by the scrubber (at most the mode's number of steps: the gate lists' length, `n`, or the number of inputs `x`)",
    },
];

impl UrlConfig for LstmConfig {
    const LESSON: &'static str = "lstm";
    const FIELDS: &'static [FieldSpec] = LSTM_FIELDS;

    fn from_values(v: &Values) -> Self {
        LstmConfig {
            f: float_list(v, "f"),
            i: float_list(v, "i"),
            g: float_list(v, "g"),
            o: float_list(v, "o"),
            c0: v.float("c0"),
            mode: match v.choice("mode") {
                "weights" => LstmMode::Weights,
                "run" => LstmMode::Run,
                _ => LstmMode::Gates,
            },
            n: v.int("n") as usize,
            x: float_list(v, "x"),
            seed: v.int("seed") as u32,
            t: v.int("t") as usize,
        }
    }

    fn to_values(&self) -> Values {
        Values::defaults(LSTM_FIELDS)
            .with("f", Value::FloatList(self.f.clone()))
            .with("i", Value::FloatList(self.i.clone()))
            .with("g", Value::FloatList(self.g.clone()))
            .with("o", Value::FloatList(self.o.clone()))
            .with("c0", Value::Float(self.c0))
            .with("mode", Value::Choice(self.mode.as_str()))
            .with("n", int_key(self.n))
            .with("x", Value::FloatList(self.x.clone()))
            .with("seed", Value::Int(self.seed.into()))
            .with("t", int_key(self.t))
    }

    /// The gate lists must have one value per step: a shorter list is repeated cyclically up to
    /// the longest one (like `bptt`'s inputs), with a notice.
    fn reconcile(&mut self, notices: &mut Vec<UrlNotice>) {
        let steps = [&self.f, &self.i, &self.g, &self.o]
            .iter()
            .map(|l| l.len())
            .max()
            .unwrap_or(1);
        for (key, list) in [
            ("f", &mut self.f),
            ("i", &mut self.i),
            ("g", &mut self.g),
            ("o", &mut self.o),
        ] {
            if list.len() < steps && !list.is_empty() {
                let raw = fmt_list(list);
                let extended: Vec<f64> = (0..steps).map(|t| list[t % list.len()]).collect();
                *list = extended;
                notices.push(UrlNotice {
                    field: key.into(),
                    raw,
                    kind: NoticeKind::Clamped {
                        range: format!("one value per step ({steps} steps)"),
                        to: fmt_list(list),
                    },
                });
            }
        }
        let steps = self.steps();
        if self.t > steps {
            notices.push(UrlNotice {
                field: "t".into(),
                raw: self.t.to_string(),
                kind: NoticeKind::Clamped {
                    range: format!("1–{steps} (steps of the `{}` mode)", self.mode.as_str()),
                    to: steps.to_string(),
                },
            });
            self.t = steps;
        }
    }
}
default_from_fields!(
    LstmConfig,
    LSTM_FIELDS,
    "The course's two steps: f = 0.9, 0.3; i = 0.5, 0.9; g = 0.8, −0.6; o = 0.4, 0.7; C_0 = 0."
);

impl LstmConfig {
    /// Number of steps in `gates` mode (the length of the gate lists).
    pub fn gate_steps(&self) -> usize {
        self.f
            .len()
            .min(self.i.len())
            .min(self.g.len())
            .min(self.o.len())
    }

    /// Number of steps the lesson computes in the current mode (at least 1): the gate lists'
    /// length (`gates`), `n` (`run`) or the number of inputs (`weights`).
    pub fn steps(&self) -> usize {
        match self.mode {
            LstmMode::Gates => self.gate_steps(),
            LstmMode::Run => self.n.clamp(1, 30),
            LstmMode::Weights => self.x.len(),
        }
        .max(1)
    }

    /// The scrubber's step clamped to [`LstmConfig::steps`].
    pub fn step_shown(&self) -> usize {
        self.t.clamp(1, self.steps())
    }
}

// ---------------------------------------------------------------------------------------------
// 5. gru
// ---------------------------------------------------------------------------------------------

/// Which GRU update convention the `gru` lesson shows next to the course's (`convention`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GruConvention {
    /// The course's h_t = (1 − z)·h_{t−1} + z·h̃ only.
    Course,
    /// Also PyTorch's h' = (1 − z)·n + z·h, side by side.
    Pytorch,
}

impl GruConvention {
    /// `course` or `pytorch`.
    pub fn as_str(self) -> &'static str {
        match self {
            GruConvention::Course => "course",
            GruConvention::Pytorch => "pytorch",
        }
    }
}

/// Lesson 5 (`gru`): the update-gate blend and the reset gate inside the candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct GruConfig {
    /// h_{t−1}, [−1, 1], default 0.2.
    pub h_prev: f64,
    /// Update gate z, [0, 1], default 0.3.
    pub z: f64,
    /// Candidate h̃ (PyTorch's n), [−1, 1], default 0.7.
    pub n: f64,
    /// Show PyTorch's convention too; default `course`.
    pub convention: GruConvention,
    /// Reset gate r of the reset panel, [0, 1], default 0.5.
    pub r: f64,
    /// Input x of the reset panel, [−1, 1], default 0.5.
    pub x: f64,
    /// W_in of the reset panel, [−1, 1], default 0.8.
    pub w_in: f64,
    /// W_hn of the reset panel, [−1, 1], default 0.6.
    pub w_hn: f64,
    /// b_hn of the reset panel, [−1, 1], default 0.1.
    pub b_hn: f64,
}

/// The `gru` lesson's URL keys in canonical order.
pub const GRU_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "h_prev",
        kind: FieldKind::Float {
            min: -1.0,
            max: 1.0,
            default: 0.2,
        },
        doc: "previous hidden state h_{t−1}",
    },
    FieldSpec {
        key: "z",
        kind: FieldKind::Float {
            min: 0.0,
            max: 1.0,
            default: 0.3,
        },
        doc: "update gate z (the course's meaning: share of the new candidate)",
    },
    FieldSpec {
        key: "n",
        kind: FieldKind::Float {
            min: -1.0,
            max: 1.0,
            default: 0.7,
        },
        doc: "candidate h̃ (PyTorch calls it n)",
    },
    FieldSpec {
        key: "convention",
        kind: FieldKind::Choice {
            choices: &["course", "pytorch"],
            default: 0,
        },
        doc: "`pytorch` also shows h' = (1 − z)·n + z·h side by side",
    },
    FieldSpec {
        key: "r",
        kind: FieldKind::Float {
            min: 0.0,
            max: 1.0,
            default: 0.5,
        },
        doc: "reset gate r (reset panel)",
    },
    FieldSpec {
        key: "x",
        kind: FieldKind::Float {
            min: -1.0,
            max: 1.0,
            default: 0.5,
        },
        doc: "input x (reset panel)",
    },
    FieldSpec {
        key: "w_in",
        kind: FieldKind::Float {
            min: -1.0,
            max: 1.0,
            default: 0.8,
        },
        doc: "W_in (reset panel)",
    },
    FieldSpec {
        key: "w_hn",
        kind: FieldKind::Float {
            min: -1.0,
            max: 1.0,
            default: 0.6,
        },
        doc: "W_hn (reset panel)",
    },
    FieldSpec {
        key: "b_hn",
        kind: FieldKind::Float {
            min: -1.0,
            max: 1.0,
            default: 0.1,
        },
        doc: "b_hn, inside the reset product (reset panel)",
    },
];

impl UrlConfig for GruConfig {
    const LESSON: &'static str = "gru";
    const FIELDS: &'static [FieldSpec] = GRU_FIELDS;

    fn from_values(v: &Values) -> Self {
        GruConfig {
            h_prev: v.float("h_prev"),
            z: v.float("z"),
            n: v.float("n"),
            convention: if v.choice("convention") == "pytorch" {
                GruConvention::Pytorch
            } else {
                GruConvention::Course
            },
            r: v.float("r"),
            x: v.float("x"),
            w_in: v.float("w_in"),
            w_hn: v.float("w_hn"),
            b_hn: v.float("b_hn"),
        }
    }

    fn to_values(&self) -> Values {
        Values::defaults(GRU_FIELDS)
            .with("h_prev", Value::Float(self.h_prev))
            .with("z", Value::Float(self.z))
            .with("n", Value::Float(self.n))
            .with("convention", Value::Choice(self.convention.as_str()))
            .with("r", Value::Float(self.r))
            .with("x", Value::Float(self.x))
            .with("w_in", Value::Float(self.w_in))
            .with("w_hn", Value::Float(self.w_hn))
            .with("b_hn", Value::Float(self.b_hn))
    }
}
default_from_fields!(
    GruConfig,
    GRU_FIELDS,
    "The course's example: h_{t−1} 0.2, z 0.3, h̃ 0.7 (→ h_t 0.35)."
);

// ---------------------------------------------------------------------------------------------
// 6. bidir
// ---------------------------------------------------------------------------------------------

/// Lesson 6 (`bidir`): a 1-layer bidirectional `nn.RNN(2, 2)` over seeded 2-d token embeddings.
#[derive(Clone, Debug, PartialEq)]
pub struct BidirConfig {
    /// Tokens, 1–12, each at most 16 characters; default 我, 爱, 中国. User text: render as text.
    pub tokens: Vec<String>,
    /// Seed of the weights and the embeddings.
    pub seed: u32,
    /// The token position shown by the scrubber, from 1; 0 (the default) = the last token.
    pub t: usize,
}

/// The `bidir` lesson's URL keys in canonical order.
pub const BIDIR_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "tokens",
        kind: FieldKind::TextList {
            min_len: 1,
            max_len: 12,
            max_chars: 16,
            default: &["我", "爱", "中国"],
        },
        doc: "the token sequence (shown as text only)",
    },
    FieldSpec {
        key: "seed",
        kind: FieldKind::Int {
            min: 0,
            max: u32::MAX as i64,
            default: 0,
        },
        doc: "seed of the weights and of the token embeddings",
    },
    FieldSpec {
        key: "t",
        kind: FieldKind::Int {
            min: 0,
            max: 12,
            default: 0,
        },
        doc: "token position shown by the scrubber, from 1 (at most the number of tokens); 0 = the last token",
    },
];

impl UrlConfig for BidirConfig {
    const LESSON: &'static str = "bidir";
    const FIELDS: &'static [FieldSpec] = BIDIR_FIELDS;

    fn from_values(v: &Values) -> Self {
        BidirConfig {
            tokens: v.texts("tokens"),
            seed: v.int("seed") as u32,
            t: v.int("t") as usize,
        }
    }

    fn to_values(&self) -> Values {
        Values::defaults(BIDIR_FIELDS)
            .with("tokens", Value::TextList(self.tokens.clone()))
            .with("seed", Value::Int(self.seed.into()))
            .with("t", int_key(self.t))
    }

    fn reconcile(&mut self, notices: &mut Vec<UrlNotice>) {
        let steps = self.tokens.len().max(1);
        if self.t > steps {
            notices.push(UrlNotice {
                field: "t".into(),
                raw: self.t.to_string(),
                kind: NoticeKind::Clamped {
                    range: format!("0–{steps} (one per token; 0 = the last)"),
                    to: steps.to_string(),
                },
            });
            self.t = steps;
        }
    }
}

impl BidirConfig {
    /// The token position shown, from 1: `t` clamped to the number of tokens, the last one
    /// when `t` is 0.
    pub fn step_shown(&self) -> usize {
        let n = self.tokens.len().max(1);
        if self.t == 0 {
            n
        } else {
            self.t.min(n)
        }
    }

    /// Sets the shown position `k` (from 1), writing 0 when it is the last token so the
    /// default link stays short and follows the last token when tokens change.
    pub fn set_step(&mut self, k: usize) {
        let n = self.tokens.len().max(1);
        self.t = if k >= n { 0 } else { k.max(1) };
    }
}
default_from_fields!(
    BidirConfig,
    BIDIR_FIELDS,
    "The course's sentence 我 爱 中国, seed 0."
);

// ---------------------------------------------------------------------------------------------
// 7. softmax
// ---------------------------------------------------------------------------------------------

/// Lesson 7 (`softmax`): logits → log-softmax → softmax → NLL of a target class.
#[derive(Clone, Debug, PartialEq)]
pub struct SoftmaxConfig {
    /// Logits, 1–10 values in [−50, 50], default 3.2, 5.1, −1.7.
    pub logits: Vec<f64>,
    /// Target class index from 0 (PyTorch's class index), below `logits.len()`; default 1.
    pub target: usize,
}

/// The `softmax` lesson's URL keys in canonical order.
pub const SOFTMAX_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "logits",
        kind: FieldKind::FloatList {
            min: -50.0,
            max: 50.0,
            min_len: 1,
            max_len: 10,
            default: &[3.2, 5.1, -1.7],
        },
        doc: "the logits, one per class",
    },
    FieldSpec {
        key: "target",
        kind: FieldKind::Int {
            min: 0,
            max: 9,
            default: 1,
        },
        doc:
            "target class index from 0 (as `CrossEntropyLoss` takes it), below the number of logits",
    },
];

impl UrlConfig for SoftmaxConfig {
    const LESSON: &'static str = "softmax";
    const FIELDS: &'static [FieldSpec] = SOFTMAX_FIELDS;

    fn from_values(v: &Values) -> Self {
        SoftmaxConfig {
            logits: float_list(v, "logits"),
            target: v.int("target") as usize,
        }
    }

    fn to_values(&self) -> Values {
        Values::defaults(SOFTMAX_FIELDS)
            .with("logits", Value::FloatList(self.logits.clone()))
            .with("target", int_key(self.target))
    }

    fn reconcile(&mut self, notices: &mut Vec<UrlNotice>) {
        let classes = self.logits.len().max(1);
        if self.target >= classes {
            notices.push(UrlNotice {
                field: "target".into(),
                raw: self.target.to_string(),
                kind: NoticeKind::Clamped {
                    range: format!("0–{} (one per logit)", classes - 1),
                    to: (classes - 1).to_string(),
                },
            });
            self.target = classes - 1;
        }
    }
}
default_from_fields!(
    SoftmaxConfig,
    SOFTMAX_FIELDS,
    "The course's logits 3.2, 5.1, −1.7 with target class 1."
);

// ---------------------------------------------------------------------------------------------
// 8. parallel
// ---------------------------------------------------------------------------------------------

/// Lesson 8 (`parallel`): sequential recurrent forward vs one all-pairs operation, measured.
#[derive(Clone, Debug, PartialEq)]
pub struct ParallelConfig {
    /// Recurrent cell timed, default `lstm`.
    pub cell: CellKind,
    /// Hidden size (also the feature width of the all-pairs product), 8–256, default 64.
    pub hidden_size: usize,
    /// Longest sequence L measured (powers of two from 8), 8–512, default 512.
    pub max_len: usize,
}

/// The `parallel` lesson's URL keys in canonical order.
pub const PARALLEL_FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "cell",
        kind: FieldKind::Choice {
            choices: &CellKind::KEYS,
            default: 1,
        },
        doc: "recurrent cell timed",
    },
    FieldSpec {
        key: "hidden_size",
        kind: FieldKind::Int {
            min: 8,
            max: 256,
            default: 64,
        },
        doc: "hidden size H (and feature width of the all-pairs scores)",
    },
    FieldSpec {
        key: "max_len",
        kind: FieldKind::Int {
            min: 8,
            max: 512,
            default: 512,
        },
        doc: "longest sequence L measured (L = 8, 16, … up to this)",
    },
];

impl UrlConfig for ParallelConfig {
    const LESSON: &'static str = "parallel";
    const FIELDS: &'static [FieldSpec] = PARALLEL_FIELDS;

    fn from_values(v: &Values) -> Self {
        ParallelConfig {
            cell: CellKind::parse(v.choice("cell")).unwrap_or(CellKind::Lstm),
            hidden_size: v.int("hidden_size") as usize,
            max_len: v.int("max_len") as usize,
        }
    }

    fn to_values(&self) -> Values {
        Values::defaults(PARALLEL_FIELDS)
            .with("cell", Value::Choice(self.cell.as_str()))
            .with("hidden_size", int_key(self.hidden_size))
            .with("max_len", int_key(self.max_len))
    }
}
default_from_fields!(
    ParallelConfig,
    PARALLEL_FIELDS,
    "An LSTM with hidden size 64, L from 8 to 512."
);
