//! The URL state of every lesson: one plain struct per lesson implementing
//! [`UrlConfig`], its field table (keys in canonical order, ranges, defaults) and the routing
//! enum [`LessonState`].
//!
//! Each default is the course's worked example. Ranges are the slider ranges: decoding clamps
//! to them, so no URL can make a lesson allocate more than `max_len` list entries, 12 tokens of
//! 16 characters, or compute a shape beyond 4096 per dimension.

use super::fields::{choice_enum, url_config, ChoiceField};
use super::query::{
    self, Accepted, Decoded, Fallback, FieldKind, FieldSpec, Lang, NoticeKind, TiedBy, UrlConfig,
    UrlNotice, Value, Values,
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
                .eq_ignore_ascii_case(super::delay::DelayConfig::LESSON)
                || l.trim().eq_ignore_ascii_case(super::delay::GENERATE_LESSON) =>
        {
            Route::Delay
        }
        Some(l) => match LessonId::parse(&l) {
            Some(id) => Route::Lesson(id),
            None => Route::Unknown(l),
        },
    }
}

impl Route {
    /// The page that shows this route: an unknown `lesson` shows the index.
    pub fn page(&self) -> Route {
        match self {
            Route::Unknown(_) => Route::Index,
            r => r.clone(),
        }
    }
}

/// Whether two query strings show the same page (the same lesson, the training page, the
/// delay page, or the index). A page writes its canonical query only into a history entry that
/// shows it: writing another page's query would change what the entry opens.
pub fn same_page(a: &str, b: &str) -> bool {
    route(a).page() == route(b).page()
}

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
            expected: Accepted::Choices(
                LessonId::ALL
                    .iter()
                    .map(|l| l.as_str())
                    .chain(["names", "delay", super::delay::GENERATE_LESSON])
                    .collect(),
            ),
            default: Fallback::LessonIndex,
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

fn fmt_list(list: &[f64]) -> String {
    query::format_value(&Value::FloatList(list.to_vec()))
}

// ---------------------------------------------------------------------------------------------
// 1. unroll
// ---------------------------------------------------------------------------------------------

url_config! {
    /// Lesson 1 (`unroll`): a 1-d `nn.RNN(1, 1)` whose weights are the sliders, run over `x`.
    /// With `hidden_size` ≥ 2 (vector mode) the weights come from PyTorch's initialisation with
    /// `seed` instead.
    ///
    /// Default: the course's example: W_xh 0.5, W_hh 1, b 0, h0 0, x = 1, 2, −1, t = 2.
    #[derive(Clone, Debug, PartialEq)]
    pub struct UnrollConfig {
        lesson: "unroll",
        fields: UNROLL_FIELDS,
        reconcile: UnrollConfig::reconcile_fields,
    } {
        /// `weight_ih_l0` (W_xh) of the 1-d RNN, [−3, 3], default 0.5.
        w_xh: f64 = FieldKind::Float { min: -3.0, max: 3.0, default: 0.5 }
            => "input weight W_xh (`weight_ih_l0` of `nn.RNN(1, 1)`)",
        /// `weight_hh_l0` (W_hh), [−3, 3], default 1.0.
        w_hh: f64 = FieldKind::Float { min: -3.0, max: 3.0, default: 1.0 }
            => "recurrent weight W_hh (`weight_hh_l0`)",
        /// Bias b = `bias_ih_l0` (`bias_hh_l0` is 0), [−3, 3], default 0.
        b: f64 = FieldKind::Float { min: -3.0, max: 3.0, default: 0.0 }
            => "bias b (`bias_ih_l0`; `bias_hh_l0` stays 0)",
        /// Initial hidden state h_0 (every entry in vector mode), [−3, 3], default 0.
        h0: f64 = FieldKind::Float { min: -3.0, max: 3.0, default: 0.0 }
            => "initial hidden state h_0",
        /// Input sequence x_1..x_T, 1–12 values in [−5, 5], default 1, 2, −1.
        x: Vec<f64> = FieldKind::FloatList { min: -5.0, max: 5.0, min_len: 1, max_len: 12, default: &[1.0, 2.0, -1.0] }
            => "input sequence x_1, …, x_T (T = number of values)",
        /// The time step shown by the scrubber, from 1, at most `x.len()`; default 2.
        t: usize = FieldKind::Int { min: 1, max: 12, default: 2 }
            => "time step shown by the scrubber (at most the number of inputs)",
        /// Hidden size H: 1 = the scalar lesson; 2–8 = vector mode with seeded weights.
        hidden_size: usize = FieldKind::Int { min: 1, max: 8, default: 1 }
            => "1 = scalar lesson; 2–8 = vector mode (weights from PyTorch's init with `seed`, shown as heatmaps)",
        /// Seed of the vector mode's weights.
        seed: u32 = FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 }
            => "seed of the vector mode's weights",
    }
}

impl UnrollConfig {
    fn reconcile_fields(&mut self, notices: &mut Vec<UrlNotice>) {
        let steps = self.x.len().max(1);
        if self.t > steps {
            notices.push(UrlNotice {
                field: "t".into(),
                raw: self.t.to_string(),
                kind: NoticeKind::Clamped {
                    range: Accepted::Tied {
                        min: 1.0,
                        max: steps as f64,
                        rule: TiedBy::OnePerInput,
                    },
                    to: steps.to_string(),
                },
            });
            self.t = steps;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. shapes
// ---------------------------------------------------------------------------------------------

url_config! {
    /// Lesson 2 (`shapes`): the arguments of `nn.RNN`/`nn.LSTM`/`nn.GRU` and of the input. Only
    /// shapes and counts are computed; nothing of these sizes is allocated.
    ///
    /// Default: `nn.RNN(10, 8, batch_first=True)` on a batch of 1 sequence of 3 steps.
    #[derive(Clone, Debug, PartialEq)]
    pub struct ShapesConfig {
        lesson: "shapes",
        fields: SHAPES_FIELDS,
    } {
        /// Cell, default `rnn`.
        cell: CellKind = FieldKind::Choice { choices: CellKind::WORDS, default: CellKind::Rnn as usize }
            => "`nn.RNN`, `nn.LSTM` or `nn.GRU`",
        /// `input_size` I, 1–4096, default 10.
        input_size: usize = FieldKind::Int { min: 1, max: 4096, default: 10 }
            => "features per input step (I)",
        /// `hidden_size` H, 1–4096, default 8.
        hidden_size: usize = FieldKind::Int { min: 1, max: 4096, default: 8 }
            => "features of the hidden state (H)",
        /// `num_layers` L, 1–8, default 1.
        num_layers: usize = FieldKind::Int { min: 1, max: 8, default: 1 }
            => "stacked layers (L)",
        /// `bidirectional` (D = 2), default 0.
        bidirectional: bool = FieldKind::Bool { default: false }
            => "1 = two directions (D = 2)",
        /// `batch_first`, default 1.
        batch_first: bool = FieldKind::Bool { default: true }
            => "1 = input and output are (batch, seq_len, ·); h_n is never batch-first",
        /// Batch B, 1–4096, default 1.
        batch: usize = FieldKind::Int { min: 1, max: 4096, default: 1 }
            => "batch size (B)",
        /// seq_len T, 1–4096, default 3.
        seq_len: usize = FieldKind::Int { min: 1, max: 4096, default: 3 }
            => "time steps (T); never changes the parameter count",
    }
}

// ---------------------------------------------------------------------------------------------
// 3. bptt
// ---------------------------------------------------------------------------------------------

choice_enum! {
    /// The recurrence's nonlinearity in the `bptt` lesson (`act`).
    pub enum BpttAct {
        /// `tanh` (nn.RNN's default): the running product vanishes.
        Tanh = "tanh",
        /// `relu` (`nonlinearity='relu'`): derivative 0 or 1, so |W_hh| > 1 explodes.
        Relu = "relu",
        /// No nonlinearity (h_t = z_t): the product is W_hh^t.
        Linear = "linear",
    }
}

url_config! {
    /// Lesson 3 (`bptt`): a 1-d RNN (b = 0, h_0 = 0) over `steps` steps of `x` (repeated
    /// cyclically), the running product of the local derivatives, and clipping.
    ///
    /// Default: the course's example: W_hh 1, W_xh 0.5, x = 1, 2, −1 over 3 steps, tanh, no clipping.
    #[derive(Clone, Debug, PartialEq)]
    pub struct BpttConfig {
        lesson: "bptt",
        fields: BPTT_FIELDS,
    } {
        /// W_hh, [−3, 3], default 1.0.
        w_hh: f64 = FieldKind::Float { min: -3.0, max: 3.0, default: 1.0 }
            => "recurrent weight W_hh",
        /// W_xh, [−3, 3], default 0.5.
        w_xh: f64 = FieldKind::Float { min: -3.0, max: 3.0, default: 0.5 }
            => "input weight W_xh",
        /// Inputs, 1–100 values in [−5, 5], default 1, 2, −1; repeated cyclically up to `steps`.
        x: Vec<f64> = FieldKind::FloatList { min: -5.0, max: 5.0, min_len: 1, max_len: 100, default: &[1.0, 2.0, -1.0] }
            => "inputs; a list shorter than `steps` repeats (`x=0.3&steps=20` is a constant input)",
        /// Steps T, 1–100, default 3.
        steps: usize = FieldKind::Int { min: 1, max: 100, default: 3 }
            => "time steps T",
        /// Nonlinearity, default tanh.
        act: BpttAct = FieldKind::Choice { choices: BpttAct::WORDS, default: BpttAct::Tanh as usize }
            => "nonlinearity of the recurrence",
        /// Global gradient-norm clipping threshold; 0 = off. [0, 100], default 0.
        max_norm: f64 = FieldKind::Float { min: 0.0, max: 100.0, default: 0.0 }
            => "`clip_grad_norm_` threshold for the gradient of h_T; 0 = off",
    }
}

// ---------------------------------------------------------------------------------------------
// 4. lstm
// ---------------------------------------------------------------------------------------------

choice_enum! {
    /// How the `lstm` lesson sets its gates (`mode`).
    pub enum LstmMode {
        /// Every gate of every step is a slider (`f`, `i`, `g`, `o` lists).
        Gates = "gates",
        /// Gates computed from x and h by a seeded `nn.LSTM(1, 1)` (`x`, `seed`).
        Weights = "weights",
        /// The first step's gates held constant for `n` steps (C_t → i·g / (1 − f)).
        Run = "run",
    }
}

url_config! {
    /// Lesson 4 (`lstm`): the conveyor belt C_t = f_t·C_{t−1} + i_t·g_t, h_t = o_t·tanh(C_t).
    /// In `gates` mode the four lists have one value per step (equal lengths after decoding).
    ///
    /// Default: the course's two steps: f = 0.9, 0.3; i = 0.5, 0.9; g = 0.8, −0.6; o = 0.4, 0.7; C_0 = 0.
    #[derive(Clone, Debug, PartialEq)]
    pub struct LstmConfig {
        lesson: "lstm",
        fields: LSTM_FIELDS,
        reconcile: LstmConfig::reconcile_fields,
    } {
        /// Forget gate per step, values in [0, 1], default 0.9, 0.3.
        f: Vec<f64> = FieldKind::FloatList { min: 0.0, max: 1.0, min_len: 1, max_len: 30, default: &[0.9, 0.3] }
            => "forget gate f_t, one value per step",
        /// Input gate per step, [0, 1], default 0.5, 0.9.
        i: Vec<f64> = FieldKind::FloatList { min: 0.0, max: 1.0, min_len: 1, max_len: 30, default: &[0.5, 0.9] }
            => "input gate i_t, one value per step",
        /// Candidate g = c̃ per step, [−1, 1], default 0.8, −0.6.
        g: Vec<f64> = FieldKind::FloatList { min: -1.0, max: 1.0, min_len: 1, max_len: 30, default: &[0.8, -0.6] }
            => "candidate g_t = c̃_t, one value per step",
        /// Output gate per step, [0, 1], default 0.4, 0.7.
        o: Vec<f64> = FieldKind::FloatList { min: 0.0, max: 1.0, min_len: 1, max_len: 30, default: &[0.4, 0.7] }
            => "output gate o_t, one value per step",
        /// Initial cell state C_0, [−5, 5], default 0.
        c0: f64 = FieldKind::Float { min: -5.0, max: 5.0, default: 0.0 }
            => "initial cell state C_0",
        /// Gate source, default `gates`.
        mode: LstmMode = FieldKind::Choice { choices: LstmMode::WORDS, default: LstmMode::Gates as usize }
            => "`gates`: gates are sliders; `weights`: computed from x and h by a seeded `nn.LSTM(1, 1)`; `run`: step 1's gates held for `n` steps",
        /// Steps of the `run` mode, 1–30, default 20.
        n: usize = FieldKind::Int { min: 1, max: 30, default: 20 }
            => "steps of the `run` mode",
        /// Inputs of the `weights` mode, 1–30 values in [−5, 5], default 1, 2, −1.
        x: Vec<f64> = FieldKind::FloatList { min: -5.0, max: 5.0, min_len: 1, max_len: 30, default: &[1.0, 2.0, -1.0] }
            => "inputs of the `weights` mode",
        /// Seed of the `weights` mode's `nn.LSTM(1, 1)`.
        seed: u32 = FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 }
            => "seed of the `weights` mode's weights",
        /// The time step shown by the scrubber, from 1, at most [`LstmConfig::steps`]; default 1.
        t: usize = FieldKind::Int { min: 1, max: 30, default: 1 }
            => "time step shown by the scrubber (at most the mode's number of steps: the gate lists' length, `n`, or the number of inputs `x`)",
    }
}

impl LstmConfig {
    /// The gate lists must have one value per step: a shorter list is repeated cyclically up to
    /// the longest one (like `bptt`'s inputs), with a notice.
    fn reconcile_fields(&mut self, notices: &mut Vec<UrlNotice>) {
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
                    kind: NoticeKind::Cycled {
                        steps,
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
                    range: Accepted::Tied {
                        min: 1.0,
                        max: steps as f64,
                        rule: TiedBy::StepsOfMode(self.mode.as_str()),
                    },
                    to: steps.to_string(),
                },
            });
            self.t = steps;
        }
    }
}

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

choice_enum! {
    /// Which GRU update convention the `gru` lesson shows next to the course's (`convention`).
    pub enum GruConvention {
        /// The course's h_t = (1 − z)·h_{t−1} + z·h̃ only.
        Course = "course",
        /// Also PyTorch's h' = (1 − z)·n + z·h, side by side.
        Pytorch = "pytorch",
    }
}

url_config! {
    /// Lesson 5 (`gru`): the update-gate blend and the reset gate inside the candidate.
    ///
    /// Default: the course's example: h_{t−1} 0.2, z 0.3, h̃ 0.7 (→ h_t 0.35).
    #[derive(Clone, Debug, PartialEq)]
    pub struct GruConfig {
        lesson: "gru",
        fields: GRU_FIELDS,
    } {
        /// h_{t−1}, [−1, 1], default 0.2.
        h_prev: f64 = FieldKind::Float { min: -1.0, max: 1.0, default: 0.2 }
            => "previous hidden state h_{t−1}",
        /// Update gate z, [0, 1], default 0.3.
        z: f64 = FieldKind::Float { min: 0.0, max: 1.0, default: 0.3 }
            => "update gate z (the course's meaning: share of the new candidate)",
        /// Candidate h̃ (PyTorch's n), [−1, 1], default 0.7.
        n: f64 = FieldKind::Float { min: -1.0, max: 1.0, default: 0.7 }
            => "candidate h̃ (PyTorch calls it n)",
        /// Show PyTorch's convention too; default `course`.
        convention: GruConvention = FieldKind::Choice { choices: GruConvention::WORDS, default: GruConvention::Course as usize }
            => "`pytorch` also shows h' = (1 − z)·n + z·h side by side",
        /// Reset gate r of the reset panel, [0, 1], default 0.5.
        r: f64 = FieldKind::Float { min: 0.0, max: 1.0, default: 0.5 }
            => "reset gate r (reset panel)",
        /// Input x of the reset panel, [−1, 1], default 0.5.
        x: f64 = FieldKind::Float { min: -1.0, max: 1.0, default: 0.5 }
            => "input x (reset panel)",
        /// W_in of the reset panel, [−1, 1], default 0.8.
        w_in: f64 = FieldKind::Float { min: -1.0, max: 1.0, default: 0.8 }
            => "W_in (reset panel)",
        /// W_hn of the reset panel, [−1, 1], default 0.6.
        w_hn: f64 = FieldKind::Float { min: -1.0, max: 1.0, default: 0.6 }
            => "W_hn (reset panel)",
        /// b_hn of the reset panel, [−1, 1], default 0.1.
        b_hn: f64 = FieldKind::Float { min: -1.0, max: 1.0, default: 0.1 }
            => "b_hn, inside the reset product (reset panel)",
    }
}

// ---------------------------------------------------------------------------------------------
// 6. bidir
// ---------------------------------------------------------------------------------------------

url_config! {
    /// Lesson 6 (`bidir`): a 1-layer bidirectional `nn.RNN(2, 2)` over seeded 2-d token embeddings.
    ///
    /// Default: the course's sentence 我 爱 中国, seed 0.
    #[derive(Clone, Debug, PartialEq)]
    pub struct BidirConfig {
        lesson: "bidir",
        fields: BIDIR_FIELDS,
        reconcile: BidirConfig::reconcile_fields,
    } {
        /// Tokens, 1–12, each at most 16 characters; default 我, 爱, 中国. User text: render as text.
        tokens: Vec<String> = FieldKind::TextList { min_len: 1, max_len: 12, max_chars: 16, default: &["我", "爱", "中国"] }
            => "the token sequence (shown as text only)",
        /// Seed of the weights and the embeddings.
        seed: u32 = FieldKind::Int { min: 0, max: u32::MAX as i64, default: 0 }
            => "seed of the weights and of the token embeddings",
        /// The scrubber's step k, from 1: each direction has read k tokens (the forward one
        /// positions 0..k, the backward one the last k); 0 (the default) = every token.
        t: usize = FieldKind::Int { min: 0, max: 12, default: 0 }
            => "the scrubber's step k, from 1 (at most the number of tokens T): the forward direction has read positions 0 to k − 1, the backward direction positions T − k to T − 1 (positions count from 0, as in `output[0, t]`); 0 = step T",
    }
}

impl BidirConfig {
    fn reconcile_fields(&mut self, notices: &mut Vec<UrlNotice>) {
        let steps = self.tokens.len().max(1);
        if self.t > steps {
            notices.push(UrlNotice {
                field: "t".into(),
                raw: self.t.to_string(),
                kind: NoticeKind::Clamped {
                    range: Accepted::Tied {
                        min: 0.0,
                        max: steps as f64,
                        rule: TiedBy::OnePerTokenZeroLast,
                    },
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

// ---------------------------------------------------------------------------------------------
// 7. softmax
// ---------------------------------------------------------------------------------------------

url_config! {
    /// Lesson 7 (`softmax`): logits → log-softmax → softmax → NLL of a target class.
    ///
    /// Default: the course's logits 3.2, 5.1, −1.7 with target class 1.
    #[derive(Clone, Debug, PartialEq)]
    pub struct SoftmaxConfig {
        lesson: "softmax",
        fields: SOFTMAX_FIELDS,
        reconcile: SoftmaxConfig::reconcile_fields,
    } {
        /// Logits, 1–10 values in [−50, 50], default 3.2, 5.1, −1.7.
        logits: Vec<f64> = FieldKind::FloatList { min: -50.0, max: 50.0, min_len: 1, max_len: 10, default: &[3.2, 5.1, -1.7] }
            => "the logits, one per class",
        /// Target class index from 0 (PyTorch's class index), below `logits.len()`; default 1.
        target: usize = FieldKind::Int { min: 0, max: 9, default: 1 }
            => "target class index from 0 (as `CrossEntropyLoss` takes it), below the number of logits",
    }
}

impl SoftmaxConfig {
    fn reconcile_fields(&mut self, notices: &mut Vec<UrlNotice>) {
        let classes = self.logits.len().max(1);
        if self.target >= classes {
            notices.push(UrlNotice {
                field: "target".into(),
                raw: self.target.to_string(),
                kind: NoticeKind::Clamped {
                    range: Accepted::Tied {
                        min: 0.0,
                        max: (classes - 1) as f64,
                        rule: TiedBy::OnePerLogit,
                    },
                    to: (classes - 1).to_string(),
                },
            });
            self.target = classes - 1;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 8. parallel
// ---------------------------------------------------------------------------------------------

url_config! {
    /// Lesson 8 (`parallel`): sequential recurrent forward vs one all-pairs operation, measured.
    ///
    /// Default: an LSTM with hidden size 64, L from 8 to 512.
    #[derive(Clone, Debug, PartialEq)]
    pub struct ParallelConfig {
        lesson: "parallel",
        fields: PARALLEL_FIELDS,
    } {
        /// Recurrent cell timed, default `lstm`.
        cell: CellKind = FieldKind::Choice { choices: CellKind::WORDS, default: CellKind::Lstm as usize }
            => "recurrent cell timed",
        /// Hidden size (also the feature width of the all-pairs product), 8–256, default 64.
        hidden_size: usize = FieldKind::Int { min: 8, max: 256, default: 64 }
            => "hidden size H (and feature width of the all-pairs scores)",
        /// Longest sequence L measured (powers of two from 8), 8–512, default 512.
        max_len: usize = FieldKind::Int { min: 8, max: 512, default: 512 }
            => "longest sequence L measured (L = 8, 16, … up to this)",
    }
}
