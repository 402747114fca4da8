//! The sequence lab page (`?lesson=delay`): delay-copy ([`delay`]), the classic long-memory
//! tasks, the adding problem, copy memory and temporal order ([`memory`], `&task=adding`,
//! `copy`, `order`), and names generation ([`generate`], `?lesson=generate`), on one page with
//! its task switcher ([`switcher`]). The page reads its
//! configuration from the URL and keeps the URL canonical; every task trains through the
//! core's one task seam ([`unroll_core::task`]), one sweep per task part at a time, in the
//! engine's Web Worker, on WebGPU or the CPU path (`backend`, `auto` by measurement).
//!
//! What the task parts share lives here: the engine session of a sweep with its run commands,
//! its lost-device hook and its clock ([`session`]), the run flow the lab's driver is built
//! on (status, seconds, cell paths, kept checkpoint; launch, pause, resume, the end, [`flow`]),
//! the store of every task's sweeps and resume checkpoints in IndexedDB ([`store`]), the page
//! model of a sweep's runs ([`runs`]), the kept held-out curves (and weights) of the parts
//! that keep whole sweeps ([`kept`]), the one lab driver over them ([`driver`]) and the lines
//! naming each cell's path and step-1 loss ([`cells`]). A task part
//! is a small [`driver::Part`] value (its records, what it keeps of its sweeps and checkpoints,
//! how it offers to go on after a reload), its panels reading the driver's signals and its
//! text catalogue; the delay-copy part also keeps its sweep summaries and asks its question
//! before the verdict.
//!
//! Test hooks: those of the parts ([`delay`], [`memory`], [`generate`]), the switcher's `task-switch-<key>`,
//! `window.unrollDebug.loseDevice()` (destroys the GPU device of the sweep in the engine,
//! whichever task it is of) and `window.unrollDebug.holdAt(step)` (the next sweep started is
//! held in the engine at that step, still shown running: a reload there is certainly mid-run).

pub mod cells;
pub mod delay;
pub mod driver;
pub mod flow;
pub mod generate;
pub mod kept;
pub mod memory;
pub mod runs;
pub mod session;
pub mod store;
pub(crate) mod switcher;

use self::delay::{DelayDriver, DelayPart};
use self::generate::GeneratePart;
use self::memory::{MemoryDriver, MemoryPart};
use self::switcher::TaskSwitcher;
use crate::kit::nav::use_nav;
use crate::shell::i18n::use_locale;
use crate::shell::url::{self, PageNotice, PageQueries};
use leptos::prelude::*;
use unroll_core::config::delay::LabTask;
use unroll_core::config::lessons::{route, Route};
use unroll_core::train::plan::encode_lab;

/// The sequence lab page: the switcher, then the part of the task the configuration names.
/// Both parts' sweeps live as long as the page (it stays mounted across navigation), so a
/// switch and back finds a sweep as it was; the switcher waits while either trains.
#[component]
pub fn SequencePage() -> impl IntoView {
    let loc = use_locale();
    let initial = unroll_core::train::plan::decode_lab(&url::current_search());
    let notices = RwSignal::new(
        initial
            .notices
            .into_iter()
            .map(PageNotice::Url)
            .collect::<Vec<_>>(),
    );
    let cfg = RwSignal::new(initial.config);
    // The URL follows the form while this page is shown, and is written again for every entry
    // the page is shown for (it stays mounted across entries); the shell's links return to it.
    let pages = PageQueries::get();
    let nav = use_nav();
    Effect::new(move |_| {
        let lang = loc.chosen.get();
        // `quiz=0` (the questions off) stays with the page's settings.
        let search = nav.search.get();
        let quiz = unroll_core::config::query::quiz_on(&search);
        let query = unroll_core::config::query::with_quiz(cfg.with(|c| encode_lab(c, lang)), quiz);
        pages.delay.set(Some(query.clone()));
        // An entry of another task is the form's only once the form has taken it (below): the
        // task left is not written into it.
        let same_task =
            unroll_core::train::plan::decode_lab(&search).config.task == cfg.with(|c| c.task);
        if pages.route.get() == Route::Delay && same_task {
            url::replace_query(url::Entry::shown(), &query);
        }
    });

    // The sweeps: their state, and the runs in the engine's worker.
    let delay = DelayDriver::new(cfg);
    let memory = MemoryDriver::new(cfg);
    let generate = generate::model(cfg);
    let busy = Signal::derive(move || delay.busy() || memory.busy() || generate.flow.busy());
    crate::shell::browser::install_debug_hook("loseDevice", move |_| {
        delay.flow.session.lose_device()
            || memory.flow.session.lose_device()
            || generate.flow.session.lose_device()
    });

    // Back/forward to an entry with other settings: the form takes them, unless a sweep is
    // running (then the entry is written with the settings shown).
    Effect::new(move |_| {
        let search = nav.search.get();
        if route(&search) != Route::Delay {
            return;
        }
        let wanted = unroll_core::train::plan::decode_lab(&search).config;
        if !untrack(|| busy.get()) && cfg.with_untracked(|c| *c != wanted) {
            cfg.set(wanted);
        }
    });

    let is_memory = Memo::new(move |_| cfg.with(|c| c.task.memory().is_some()));
    let is_generate = Memo::new(move |_| cfg.with(|c| c.task == LabTask::Generate));
    view! {
        <TaskSwitcher cfg=cfg notices=notices busy=busy on_switch=Callback::new(move |()| memory.clear()) />
        {move || if is_generate.get() {
            own_scope(move || view! { <GeneratePart cfg=cfg notices=notices model=generate /> }).into_any()
        } else if is_memory.get() {
            own_scope(move || view! { <MemoryPart cfg=cfg notices=notices driver=memory /> }).into_any()
        } else {
            own_scope(move || view! { <DelayPart cfg=cfg notices=notices driver=delay /> }).into_any()
        }}
    }
}

/// `part` built under an owner of its own, disposed with its view. The switch's closure keeps
/// one owner across its runs and cleaning it up leaves its contexts in place: a part's
/// contexts (the file tag of its exports, over signals of the part) would otherwise outlive
/// the part, and the next part would read them after they were disposed.
fn own_scope<V: IntoView + 'static>(part: impl FnOnce() -> V) -> impl IntoView {
    let owner = Owner::current().map_or_else(Owner::new, |o| o.child());
    let view = owner.with(part);
    leptos::tachys::reactive_graph::OwnedView::new_with_owner(view, owner)
}
