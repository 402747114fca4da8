//! "Predict, then see": the questions of the lessons and the labs.
//!
//! A lesson's `question.rs` (and each lab's) defines its [`Question`]s; [`QuestionPanel`] asks
//! one. The question is asked about the page's state `S` ([`Asked`]): a lesson's
//! [`LessonState`], or a lab's results. The learner
//! sets a prediction (a slider or a choice), locks it, then reveals the page's own answer: it is
//! computed when revealed, from the page's state at that moment, by the core's
//! [`unroll_core::lessons::questions`] (the lesson's own computation) or
//! [`unroll_core::lessons::lab_questions`] (the lab's verdicts), with the gap and one
//! computed sentence of explanation. The state of the reveal is kept with the answer, so a later
//! change of the page's settings is pointed out instead of silently answering another question.
//!
//! Skippable (Skip reveals without a prediction); `quiz=0` in the URL hides every question
//! and the index's marks ([`quiz_shown`]). Answers are kept in the browser's IndexedDB, one record
//! per question ([`store`]); the index shows a mark per lesson and lab and a reset ([`ProgressMark`],
//! [`ProgressPanel`]).
//!
//! A lab's answer needs a finished run: until then Reveal waits, with the question's sentence
//! on what is missing ([`Question::until`]). A lab's question is a prediction only before its
//! run starts: one locked after that is kept and revealed as "answered after seeing", and the
//! index does not count it ([`QuestionPanel`]'s `started`, [`store::Record::seen`]).
//!
//! Test hooks: `data-testid="question"` with `data-key`, `data-state` = `open` / `locked` /
//! `revealed`, the answer's raw value in `data-value` once revealed, `data-kept` = `true`
//! once the browser has stored every answer given, and `data-seen` = `true` for a prediction
//! locked after its run had started (`question-late` warns while open, `question-seen` says
//! it once locked). A veiled readout's stand-in for screen readers is `veil-said`.

pub mod store;
pub mod text;

use super::fmt;
use super::nav::quiz_shown;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use store::{Phase, Record};
use text::QuestionText;
use unroll_core::config::lessons::LessonState;
use unroll_core::config::Lang;
use unroll_core::lessons::lab_questions::lab_keys;
use unroll_core::lessons::questions::{Answer, Gap, NumberRange, Prediction, QUESTIONS};

/// How a question is answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A number on a slider.
    Number(NumberRange),
    /// One of these choices.
    Choice(Vec<String>),
}

/// The page's answer, in words and as a number.
#[derive(Clone, Debug, PartialEq)]
pub struct Reveal {
    /// The answer (for the gap and `data-value`).
    pub answer: Answer,
    /// The answer in words (a number formatted, or the choice's label).
    pub shown: String,
    /// One sentence of explanation with the computed numbers.
    pub why: String,
}

/// The page state a question is asked about, and how it is kept with a revealed answer.
pub trait Asked: Clone + PartialEq + Send + Sync + 'static {
    /// The state as kept with the answer.
    fn keep(&self) -> String;
    /// The kept state of question `key` back (`None`: unreadable, the answer is not shown).
    fn restore(key: &str, kept: &str) -> Option<Self>;
}

impl Asked for LessonState {
    /// The lesson's canonical query.
    fn keep(&self) -> String {
        self.encode(None)
    }

    /// Decoded as the query of the question's lesson.
    fn restore(key: &str, kept: &str) -> Option<Self> {
        let (lesson, _) = QUESTIONS.iter().find(|(_, k)| *k == key)?;
        Some(LessonState::decode(*lesson, kept).config)
    }
}

/// One question, as its page's `question.rs` defines it. Every function takes the page's
/// state `S` and the language.
pub struct Question<S = LessonState> {
    /// The key of [`unroll_core::lessons::questions::QUESTIONS`] or
    /// [`unroll_core::lessons::lab_questions::LAB_QUESTIONS`].
    pub key: &'static str,
    /// The question, possibly quoting the state (e.g. the z asked about).
    pub ask: fn(&S, Lang) -> String,
    /// How it is answered.
    pub kind: fn(&S, Lang) -> Kind,
    /// The answer computed from the state; `None` when the page has none (an error the page
    /// shows).
    pub reveal: fn(&S, Lang) -> Option<Reveal>,
    /// What the page still needs before it can answer (Reveal waits, showing this sentence);
    /// `None` once it can. Lessons can always answer ([`ready`]).
    pub until: fn(&S, Lang) -> Option<String>,
}

impl<S> Clone for Question<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Question<S> {}

/// [`Question::until`] of a question that can always be answered.
pub fn ready<S>(_: &S, _: Lang) -> Option<String> {
    None
}

/// The questions of the page shown that still wait for their reveal: while one is open or
/// locked (and the questions are shown, a tour running or not), the page blurs the readouts that
/// would give its answer away ([`veiled`]). A lesson's frame provides it ([`provide_veil`]); the labs' answers
/// come from the learner's own run and need none.
#[derive(Clone, Copy)]
pub struct Veil {
    waiting: RwSignal<Vec<&'static str>>,
    /// Whether the page veils anything (the question then says so).
    used: RwSignal<bool>,
}

/// Gives the page shown its [`Veil`].
pub fn provide_veil() {
    provide_context(Veil {
        waiting: RwSignal::new(Vec::new()),
        used: RwSignal::new(false),
    });
}

/// Whether the readouts giving question `key`'s answer away are blurred now (reactive):
/// `class:lx-veiled` on the readout, with [`veil_hidden`] for screen readers.
pub fn veiled(key: &'static str) -> Signal<bool> {
    let veil = use_context::<Veil>();
    if let Some(v) = veil {
        v.used.set(true);
    }
    Signal::derive(move || veil.is_some_and(|v| v.waiting.with(|w| w.contains(&key))))
}

/// `aria-hidden` of a veiled readout (a screen reader would read the answer out otherwise).
pub fn veil_hidden(on: Signal<bool>) -> impl Fn() -> Option<&'static str> + Copy {
    move || on.get().then_some("true")
}

/// A readout that gives a question's answer away, veiled while `on`: blurred and hidden from
/// screen readers, which read "hidden until you answer" in its place, and `inert` (nothing
/// focusable sits in a region hidden from screen readers, e.g. a chart's download buttons).
/// `block` wraps it in a `<div>` (paragraphs, lists, charts), otherwise in a `<span>` (a
/// number, a table cell's content).
#[component]
pub fn Veiled(
    /// Whether the readout is veiled now ([`veiled`]).
    on: Signal<bool>,
    /// A block wrapper (`<div>`) instead of an inline one.
    #[prop(optional)]
    block: bool,
    /// The readout.
    children: Children,
) -> impl IntoView {
    let lang = use_lang();
    let said = move || {
        on.get()
            .then(|| view! { <span class="lx-veil-sr" data-testid="veil-said">{QuestionText::of(lang.get()).veiled_sr}</span> })
    };
    if block {
        view! { <div class:lx-veiled=on aria-hidden=veil_hidden(on) inert=move || on.get()>{children()}</div>{said} }
            .into_any()
    } else {
        view! { <span class:lx-veiled=on aria-hidden=veil_hidden(on) inert=move || on.get()>{children()}</span>{said} }
            .into_any()
    }
}

/// A prediction in words: a number with 2 decimals, or the choice's label.
fn prediction_text(p: Prediction, kind: &Kind) -> String {
    match (p, kind) {
        (Prediction::Number(v), _) => fmt::fixed64(v, 2),
        (Prediction::Choice(i), Kind::Choice(options)) => options
            .get(i)
            .cloned()
            .unwrap_or_else(|| (i + 1).to_string()),
        (Prediction::Choice(i), Kind::Number(_)) => (i + 1).to_string(),
    }
}

/// The gap `g` (answer − prediction) of a number said on a slider of step `step`, in words: a
/// float's noise (1.7e−8) is no gap at the 4 digits shown, and within half a step the slider could
/// not have come closer.
fn number_gap(t: &QuestionText, said: &str, g: f64, step: f64) -> String {
    let off = fmt::fixed64(g.abs(), 4);
    if g.abs() < 0.5e-4 {
        (t.exact)(said)
    } else if g.abs() <= step / 2.0 + 1e-9 {
        (t.near)(said, &off)
    } else {
        (t.off_by)(said, &off)
    }
}

/// The raw value of a prediction for `data-prediction`.
fn prediction_raw(p: Prediction) -> String {
    match p {
        Prediction::Number(v) => fmt::raw64(v),
        Prediction::Choice(i) => i.to_string(),
    }
}

/// The slider's starting value: the middle of the range, on the step grid.
fn middle(r: NumberRange) -> f64 {
    let mid = (r.min + r.max) / 2.0;
    ((mid - r.min) / r.step).round() * r.step + r.min
}

/// One question's state, shared by its parts (every field is a signal or a copy).
struct Cp<S: Asked> {
    question: Question<S>,
    /// The page's live state.
    state: Signal<S>,
    lang: crate::shell::i18n::Locale,
    phase: RwSignal<Phase>,
    number: RwSignal<f64>,
    choice: RwSignal<Option<usize>>,
    /// The committed prediction (None once locked means skipped).
    prediction: RwSignal<Option<Prediction>>,
    /// The page's state at the reveal.
    snapshot: RwSignal<Option<S>>,
    /// The state the question is about: the live one until the reveal, then the reveal's.
    asked: Signal<S>,
    kind: Memo<Kind>,
    reveal: Memo<Option<Reveal>>,
    /// What the page still needs before it can answer.
    waiting: Memo<Option<String>>,
    progress: RwSignal<store::Progress>,
    /// Whether the run the question asks about has started (a lab's; never for a lesson).
    started: Signal<bool>,
    /// The prediction was locked after that run had started: not counted as a prediction.
    seen: RwSignal<bool>,
    reveal_button: NodeRef<leptos::html::Button>,
    again_button: NodeRef<leptos::html::Button>,
}

impl<S: Asked> Clone for Cp<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S: Asked> Copy for Cp<S> {}

impl<S: Asked> Cp<S> {
    /// A fresh question on `state`; a kept answer comes back once the store is read.
    fn new(question: Question<S>, state: Signal<S>, started: Signal<bool>) -> Self {
        let lang = use_lang();
        let phase = RwSignal::new(Phase::Open);
        let snapshot = RwSignal::new(None::<S>);
        let asked = Signal::derive(move || match phase.get() {
            Phase::Revealed => snapshot.get().unwrap_or_else(|| state.get()),
            _ => state.get(),
        });
        let number = RwSignal::new(match (question.kind)(&state.get_untracked(), Lang::En) {
            Kind::Number(r) => middle(r),
            Kind::Choice(_) => 0.0,
        });
        let cp = Cp {
            question,
            state,
            lang,
            phase,
            number,
            choice: RwSignal::new(None),
            prediction: RwSignal::new(None),
            snapshot,
            asked,
            kind: Memo::new(move |_| (question.kind)(&asked.get(), lang.get())),
            reveal: Memo::new(move |_| {
                (phase.get() == Phase::Revealed)
                    .then(|| snapshot.get())
                    .flatten()
                    .and_then(|s| (question.reveal)(&s, lang.get()))
            }),
            waiting: Memo::new(move |_| (question.until)(&state.get(), lang.get())),
            progress: store::progress(),
            started,
            seen: RwSignal::new(false),
            reveal_button: NodeRef::new(),
            again_button: NodeRef::new(),
        };
        cp.restore_kept();
        cp
    }

    /// Takes the kept answer once the store is read (an answer given meanwhile wins).
    fn restore_kept(self) {
        let restored = StoredValue::new(false);
        Effect::new(move |_| {
            let p = self.progress.get();
            if !p.loaded || restored.get_value() {
                return;
            }
            restored.set_value(true);
            if self.phase.get_untracked() != Phase::Open {
                return;
            }
            if let Some(r) = p.records.get(self.question.key) {
                self.prediction.set(r.prediction());
                self.seen.set(r.seen);
                match r.prediction() {
                    Some(Prediction::Number(v)) => self.number.set(v),
                    Some(Prediction::Choice(i)) => self.choice.set(Some(i)),
                    None => {}
                }
                let kept = r
                    .query
                    .as_deref()
                    .and_then(|q| S::restore(self.question.key, q));
                let unreadable = kept.is_none();
                self.snapshot.set(kept);
                self.phase.set(if r.phase == Phase::Revealed && unreadable {
                    Phase::Locked
                } else {
                    r.phase
                });
            }
        });
    }

    /// The page's settings changed after the reveal (a lab's page without a run now, e.g.
    /// after a reload, keeps the reveal of the run it was given for, without the note).
    fn stale(self) -> bool {
        self.phase.get() == Phase::Revealed
            && self.waiting.get().is_none()
            && self
                .snapshot
                .with(|s| s.as_ref() != Some(&self.state.get()))
    }

    fn keep(self, ph: Phase) {
        let record = Record::new(
            ph,
            self.prediction.get_untracked(),
            self.snapshot.get_untracked().map(|s| s.keep()),
        )
        .seen(self.seen.get_untracked());
        store::put(self.question.key, record);
    }

    fn lock(self) {
        let p = match self.kind.get_untracked() {
            Kind::Number(_) => Some(Prediction::Number(self.number.get_untracked())),
            Kind::Choice(_) => self.choice.get_untracked().map(Prediction::Choice),
        };
        if p.is_none() {
            return;
        }
        self.prediction.set(p);
        self.seen.set(self.started.get_untracked());
        self.phase.set(Phase::Locked);
        self.keep(Phase::Locked);
        let button = self.reveal_button;
        request_animation_frame(move || {
            if let Some(b) = button.get_untracked() {
                let _ = b.focus();
            }
        });
    }

    fn do_reveal(self) {
        if self.waiting.get_untracked().is_some() {
            return;
        }
        self.snapshot.set(Some(self.state.get_untracked()));
        self.phase.set(Phase::Revealed);
        self.keep(Phase::Revealed);
        let button = self.again_button;
        request_animation_frame(move || {
            if let Some(b) = button.get_untracked() {
                let _ = b.focus();
            }
        });
    }

    fn skip(self) {
        self.prediction.set(None);
        self.seen.set(false);
        if self.waiting.get_untracked().is_some() {
            // Nothing to reveal yet: the skip is kept as a locked question without a prediction.
            self.phase.set(Phase::Locked);
            self.keep(Phase::Locked);
        } else {
            self.do_reveal();
        }
    }

    /// Back to an open question with nothing predicted: the slider in the middle again, no
    /// choice made (the old prediction does not stay set for a new answer).
    fn again(self) {
        self.prediction.set(None);
        self.seen.set(false);
        self.choice.set(None);
        if let Kind::Number(r) = self.kind.get_untracked() {
            self.number.set(middle(r));
        }
        self.snapshot.set(None);
        self.phase.set(Phase::Open);
        store::remove(self.question.key);
        // The button pressed is gone: focus goes to the prediction's input, not the page's body.
        let key = self.question.key;
        request_animation_frame(move || {
            let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
                return;
            };
            let selector = format!("#question-{key}-number, input[name='question-{key}']");
            if let Ok(Some(el)) = doc.query_selector(&selector) {
                if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                    let _ = el.focus();
                }
            }
        });
    }

    fn text(self) -> &'static QuestionText {
        QuestionText::of(self.lang.get())
    }

    /// The "locked" line while the answer waits.
    fn locked_line(self) -> Option<String> {
        let p = self.prediction.get()?;
        (self.phase.get() == Phase::Locked)
            .then(|| (self.text().locked)(&prediction_text(p, &self.kind.get())))
    }

    /// A prediction is held that was locked after the run had started (it is said so).
    fn after_seeing(self) -> bool {
        self.seen.get() && self.prediction.with(Option::is_some) && self.phase.get() != Phase::Open
    }

    /// The question is open while the run it asks about has started: an answer now would be
    /// given after seeing (the question says so before it is locked).
    fn late(self) -> bool {
        self.phase.get() == Phase::Open && self.started.get()
    }

    /// The gap in words and its raw value (`data-value`).
    fn gap_line(self, r: &Reveal) -> (String, String) {
        let t = self.text();
        let Some(p) = self.prediction.get() else {
            return (t.skipped.to_owned(), String::new());
        };
        let said = prediction_text(p, &self.kind.get());
        match r.answer.gap(p) {
            Gap::Number(g) => {
                let step = match self.kind.get() {
                    Kind::Number(r) => r.step,
                    Kind::Choice(_) => 0.0,
                };
                (number_gap(t, &said, g, step), fmt::raw64(g))
            }
            Gap::Choice(true) => ((t.right)(&said), "1".into()),
            Gap::Choice(false) => ((t.wrong)(&said), "0".into()),
            Gap::None => (t.skipped.to_owned(), String::new()),
        }
    }
}

/// The prediction's input: a slider for a number, radio buttons for a choice.
fn prediction_input<S: Asked>(cp: Cp<S>) -> impl IntoView {
    let key = cp.question.key;
    move || match cp.kind.get() {
        Kind::Number(r) => number_input(cp, key, r).into_any(),
        Kind::Choice(options) => choice_input(cp, key, options).into_any(),
    }
}

fn number_input<S: Asked>(cp: Cp<S>, key: &str, r: NumberRange) -> impl IntoView {
    let id = format!("question-{key}-number");
    let (for_id, out_for) = (id.clone(), id.clone());
    let number = cp.number;
    view! {
        <div class="lx-slider lx-q-slider">
            <label for=for_id>{move || cp.text().prediction}</label>
            <input
                type="range"
                id=id
                data-testid="question-number"
                min=r.min.to_string()
                max=r.max.to_string()
                step=r.step.to_string()
                disabled=move || cp.phase.get() != Phase::Open
                prop:value=move || number.get().clamp(r.min, r.max).to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                        if v.is_finite() {
                            number.set(v.clamp(r.min, r.max));
                        }
                    }
                }
            />
            <output for=out_for>{move || fmt::fixed64(number.get().clamp(r.min, r.max), 2)}</output>
        </div>
    }
}

fn choice_input<S: Asked>(cp: Cp<S>, key: &str, options: Vec<String>) -> impl IntoView {
    let name = format!("question-{key}");
    let choice = cp.choice;
    view! {
        <div class="lx-choice lx-q-choices" role="radiogroup" data-testid="question-choices" aria-label=move || cp.text().prediction>
            {options
                .into_iter()
                .enumerate()
                .map(|(i, label)| {
                    let id = format!("{name}-{i}");
                    let for_id = id.clone();
                    view! {
                        <label for=for_id>
                            <input
                                type="radio"
                                name=name.clone()
                                id=id
                                data-testid=format!("question-choice-{i}")
                                disabled=move || cp.phase.get() != Phase::Open
                                prop:checked=move || choice.get() == Some(i)
                                on:change=move |_| choice.set(Some(i))
                            />
                            {label}
                        </label>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// Lock / Skip, Reveal (waiting for what the page still needs), Try again.
fn buttons<S: Asked>(cp: Cp<S>) -> impl IntoView {
    let phase = cp.phase;
    view! {
        <div class="lx-q-buttons">
            <Show when=move || phase.get() == Phase::Open>
                <button
                    type="button"
                    class="btn btn-small btn-primary"
                    data-testid="question-lock"
                    disabled=move || matches!(cp.kind.get(), Kind::Choice(_)) && cp.choice.get().is_none()
                    on:click=move |_| cp.lock()
                >
                    {move || cp.text().lock}
                </button>
                <button type="button" class="btn btn-small" data-testid="question-skip" on:click=move |_| cp.skip()>
                    {move || cp.text().skip}
                </button>
            </Show>
            <Show when=move || phase.get() == Phase::Locked>
                <button
                    type="button"
                    class="btn btn-small btn-primary"
                    data-testid="question-reveal"
                    node_ref=cp.reveal_button
                    disabled=move || cp.waiting.get().is_some()
                    aria-describedby=format!("question-{}-waiting", cp.question.key)
                    on:click=move |_| cp.do_reveal()
                >
                    {move || cp.text().reveal}
                </button>
            </Show>
            <Show when=move || phase.get() == Phase::Revealed || (phase.get() == Phase::Locked && cp.waiting.get().is_some())>
                <button
                    type="button"
                    class="btn btn-small"
                    data-testid="question-again"
                    node_ref=cp.again_button
                    on:click=move |_| cp.again()
                >
                    {move || cp.text().try_again}
                </button>
            </Show>
        </div>
    }
}

/// The revealed answer, the gap and the explanation.
fn answer_view<S: Asked>(cp: Cp<S>) -> impl IntoView {
    move || {
        if cp.phase.get() != Phase::Revealed {
            return None;
        }
        let t = cp.text();
        Some(match cp.reveal.get() {
            Some(r) => {
                let (gap, gap_raw) = cp.gap_line(&r);
                let correct = match cp.prediction.get().map(|p| r.answer.gap(p)) {
                    Some(Gap::Choice(true)) => "right",
                    Some(Gap::Choice(false)) => "wrong",
                    _ => "",
                };
                view! {
                    <p class="lx-q-answer" data-testid="question-answer" data-value=fmt::raw64(r.answer.value())>
                        <strong>{(t.answer)(&r.shown)}</strong>
                    </p>
                    <p class="lx-q-gap" data-testid="question-gap" data-value=gap_raw data-correct=correct>{gap}</p>
                    <p class="lx-q-why" data-testid="question-why">{r.why}</p>
                }
                .into_any()
            }
            None => view! { <p data-testid="question-why">{t.no_answer}</p> }.into_any(),
        })
    }
}

/// The status region (announced): the locked line, what the answer waits for, the reveal, the
/// stale note and the store's refusal.
fn status_view<S: Asked>(cp: Cp<S>) -> impl IntoView {
    let waiting_id = format!("question-{}-waiting", cp.question.key);
    view! {
        <div class="lx-q-result" role="status" aria-live="polite" data-testid="question-status">
            {move || cp.locked_line().map(|l| view! { <p data-testid="question-locked">{l}</p> })}
            <Show when=move || cp.after_seeing()>
                <p class="lx-q-stale" data-testid="question-seen">{move || cp.text().after_seen}</p>
            </Show>
            <p class="lx-q-stale" id=waiting_id data-testid="question-waiting" hidden=move || cp.phase.get() == Phase::Revealed || cp.waiting.get().is_none()>
                {move || cp.waiting.get().unwrap_or_default()}
            </p>
            {answer_view(cp)}
            <Show when=move || cp.stale()>
                <p class="lx-q-stale" data-testid="question-stale">{move || cp.text().stale}</p>
            </Show>
        </div>
        <StorageNote failed=Signal::derive(move || cp.progress.with(|p| p.failed)) />
    }
}

/// Where the browser keeps no answers: a calm note under the question (each page has one),
/// outside its announced status, saying that answers last for this visit; an embedded page
/// (whose frame another site holds) says that its frame has no storage.
#[component]
fn StorageNote(failed: Signal<bool>) -> impl IntoView {
    let lang = use_lang();
    let text = move || {
        let t = QuestionText::of(lang.get());
        if crate::shell::embed::embedded() {
            t.not_kept_embedded
        } else {
            t.not_kept
        }
    };
    view! {
        <Show when=move || failed.get()>
            <p class="lx-q-note" data-testid="question-not-kept">{text}</p>
        </Show>
    }
}

/// One question: the question, the prediction, Lock / Skip, Reveal and the reveal
/// (announced to screen readers), kept across reloads. Renders nothing with `quiz=0`.
#[component]
pub fn QuestionPanel<S: Asked>(
    /// The question.
    question: Question<S>,
    /// The page's live state.
    #[prop(into)]
    state: Signal<S>,
    /// A lab's question: whether the run it asks about has started. A prediction locked
    /// after that is kept as answered after seeing and not counted by the index (the question
    /// says so while it is open). Lessons leave it out.
    #[prop(optional, into)]
    started: Option<Signal<bool>>,
) -> impl IntoView {
    let cp = Cp::new(question, state, started.unwrap_or(Signal::stored(false)));
    let key = question.key;
    let veil = use_context::<Veil>();
    // A running tour keeps the veil: it shows how to work the answer out, never the answer
    // (the question is asked about the tour's settings while it runs).
    if let Some(v) = veil {
        Effect::new(move |_| {
            let on = quiz_shown() && cp.phase.get() != Phase::Revealed;
            if v.waiting.with_untracked(|w| w.contains(&key)) != on {
                v.waiting.update(|w| {
                    w.retain(|k| *k != key);
                    if on {
                        w.push(key);
                    }
                });
            }
        });
        on_cleanup(move || {
            v.waiting.try_update(|w| w.retain(|k| *k != key));
        });
    }
    let veil_note = move || veil.is_some_and(|v| v.used.get()) && cp.phase.get() != Phase::Revealed;
    let body = move || {
        view! {
            <aside
                class="panel lx-panel lx-question"
                data-testid="question"
                data-key=key
                data-state=move || cp.phase.get().as_str()
                data-value=move || cp.reveal.get().map(|r| fmt::raw64(r.answer.value())).unwrap_or_default()
                data-prediction=move || cp.prediction.get().map(prediction_raw).unwrap_or_default()
                data-kept=move || cp.progress.with(|p| p.pending == 0).to_string()
                data-seen=move || cp.after_seeing().to_string()
                aria-labelledby=format!("question-{key}-title")
            >
                <h2 id=format!("question-{key}-title")>{move || cp.text().heading}</h2>
                <p class="lx-q-text" data-testid="question-text">{move || (question.ask)(&cp.asked.get(), cp.lang.get())}</p>
                {prediction_input(cp)}
                <Show when=move || cp.late()>
                    <p class="lx-q-veil-note" data-testid="question-late">{move || cp.text().after_note}</p>
                </Show>
                <Show when=veil_note>
                    <p class="lx-q-veil-note" data-testid="question-veil-note">{move || cp.text().veiled_note}</p>
                </Show>
                {buttons(cp)}
                {status_view(cp)}
            </aside>
        }
    };
    view! { <Show when=quiz_shown>{body}</Show> }
}

/// The question keys of the page `page` (a lesson's `lesson` key, or `names` / `delay`).
pub fn page_keys(page: &str) -> Vec<&'static str> {
    QUESTIONS
        .iter()
        .filter(|(l, _)| l.as_str() == page)
        .map(|(_, k)| *k)
        .chain(lab_keys(page))
        .collect()
}

/// The index's mark for a page: how many of its questions were revealed
/// (`data-testid="question-progress-<page>"`, `data-value` the count). Hidden with `quiz=0`.
#[component]
pub fn ProgressMark(
    /// The page's `lesson` key (`unroll` … `parallel`, `names`, `delay`).
    page: &'static str,
) -> impl IntoView {
    let lang = use_lang();
    let progress = store::progress();
    let keys = page_keys(page);
    let total = keys.len();
    let done = Memo::new(move |_| {
        progress.with(|p| {
            keys.iter()
                .filter(|k| p.records.get(**k).is_some_and(Record::answered))
                .count()
        })
    });
    let lesson = page;
    view! {
        <Show when=quiz_shown>
            <span
                class="lx-q-mark"
                class:lx-q-done=move || done.get() == total
                data-testid=format!("question-progress-{lesson}")
                data-value=move || done.get().to_string()
                title=move || (QuestionText::of(lang.get()).progress)(&done.get().to_string(), &total.to_string())
            >
                <span aria-hidden="true">{move || if done.get() == total { "✓ " } else { "" }}{move || format!("{}/{total}", done.get())}</span>
                <span class="lx-q-sr">{move || (QuestionText::of(lang.get()).progress)(&done.get().to_string(), &total.to_string())}</span>
            </span>
        </Show>
    }
}

/// The index's question panel: what the marks count, and the reset of every question
/// ([`ResetAnswers`]). Hidden with `quiz=0`.
#[component]
pub fn ProgressPanel() -> impl IntoView {
    let lang = use_lang();
    let progress = store::progress();
    let total = store::all_keys().count();
    let done =
        Memo::new(move |_| progress.with(|p| p.records.values().filter(|r| r.answered()).count()));
    let t = move || QuestionText::of(lang.get());
    view! {
        <Show when=quiz_shown>
            <section class="panel lx-train-card" data-testid="question-panel">
                <h2>{move || t().progress_title}</h2>
                <p class="lx-text">{move || t().progress_text}</p>
                <p class="lx-text" data-testid="question-total" data-value=move || done.get().to_string()>
                    {move || (t().progress)(&done.get().to_string(), &total.to_string())}
                </p>
                <ResetAnswers />
            </section>
        </Show>
    }
}

/// Reset (`data-testid="question-reset"`), which asks once more (`question-reset-confirm` /
/// `question-reset-cancel`, Esc cancels) and says when the browser has deleted the answers.
#[component]
fn ResetAnswers() -> impl IntoView {
    let lang = use_lang();
    let t = move || QuestionText::of(lang.get());
    let reset_done = RwSignal::new(false);
    let confirming = RwSignal::new(false);
    let (reset_button, keep_button) = (
        NodeRef::<leptos::html::Button>::new(),
        NodeRef::<leptos::html::Button>::new(),
    );
    // The button pressed goes away: focus moves to the one that takes its place, the harmless
    // "keep" when asking (Enter twice must not throw the answers away).
    let ask = move |on: bool| {
        confirming.set(on);
        request_animation_frame(move || {
            let b = if on { keep_button } else { reset_button };
            if let Some(b) = b.get_untracked() {
                let _ = b.focus();
            }
        });
    };
    let reset = move |_| {
        ask(false);
        store::clear(move || {
            reset_done.try_set(true);
        });
    };
    let escape = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            ask(false);
        }
    };
    view! {
        <Show
            when=move || confirming.get()
            fallback=move || view! {
                <button
                    type="button"
                    class="btn btn-small"
                    data-testid="question-reset"
                    node_ref=reset_button
                    on:click=move |_| {
                        reset_done.set(false);
                        ask(true);
                    }
                >
                    {move || t().reset}
                </button>
            }
        >
            <span class="lx-q-confirm" role="group" aria-label=move || t().reset_confirm on:keydown=escape>
                {move || t().reset_confirm}" "
                <button type="button" class="btn btn-small btn-primary" data-testid="question-reset-confirm" on:click=reset>
                    {move || t().reset_yes}
                </button>
                " "
                <button type="button" class="btn btn-small" data-testid="question-reset-cancel" node_ref=keep_button on:click=move |_| ask(false)>
                    {move || t().reset_no}
                </button>
            </span>
        </Show>
        <span role="status" class="lx-copy-status" data-testid="question-reset-status">
            {move || reset_done.get().then(|| t().reset_done)}
        </span>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_gap_is_said_at_the_digits_and_step_shown() {
        let t = &QuestionText::EN;
        assert_eq!(
            number_gap(t, "−0.42", 1.67e-8, 0.01),
            "You said −0.42: exactly right (to the digits shown)."
        );
        assert!(
            number_gap(t, "0.90", -0.0019, 0.01).starts_with("You said 0.90: right, as close as")
        );
        assert!(number_gap(t, "0.90", -0.0019, 0.01).ends_with("(off by 0.0019)."));
        assert_eq!(
            number_gap(t, "0.25", 0.6481, 0.01),
            "You said 0.25: off by 0.6481."
        );
        assert!(number_gap(&QuestionText::ZH, "0.90", 0.004, 0.01).contains("答对了"));
    }
}
