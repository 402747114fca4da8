//! The long-memory run's driver: starts, pauses, resumes and resets the sweep in the engine's
//! Web Worker, applies its reports to the page's signals and times the training. A run in
//! progress is marked in the browser's local storage, so that after a reload the page can say
//! that the reload stopped it (runs are not kept: Start trains again). Not a component.

use crate::shell::engine_client::EngineClient;
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::memory::run::{MemoryEvent, MemoryPlan};
use unroll_core::memory::HeldOutPoint;

/// The local-storage key of the run in progress.
const RUNNING_KEY: &str = "unroll.memory.running";

/// The long-memory run shown on the page.
#[derive(Clone, Copy)]
pub struct MemoryDriver {
    /// Where the run stands (`memory-status`).
    pub status: RwSignal<RunStatus>,
    /// The plan of the run shown.
    pub plan: RwSignal<Option<MemoryPlan>>,
    /// Held-out curve of each run of the plan, in its order.
    pub curves: RwSignal<Vec<Vec<HeldOutPoint>>>,
    /// Steps done and in all.
    pub progress: RwSignal<(u64, u64)>,
    /// Seconds of training so far.
    pub elapsed: RwSignal<f64>,
    /// Why the run failed.
    pub error: RwSignal<Option<String>>,
    /// A reload stopped a run in progress.
    pub interrupted: RwSignal<bool>,
    session: StoredValue<Option<u64>>,
    /// When the current stretch of training began (ms), and the seconds before it.
    clock: StoredValue<(Option<f64>, f64)>,
}

/// `localStorage`, when the browser gives it.
fn storage() -> Option<JsValue> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &"localStorage".into())
        .ok()
        .filter(|s| !s.is_null() && !s.is_undefined())
}

/// Calls `method` of `localStorage` with `args` (errors are ignored: the mark is a courtesy).
fn storage_call(method: &str, args: &[&str]) -> JsValue {
    use wasm_bindgen::JsCast;
    let Some(s) = storage() else {
        return JsValue::NULL;
    };
    let Some(f) = js_sys::Reflect::get(&s, &method.into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return JsValue::NULL;
    };
    let array: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    f.apply(&s, &array).unwrap_or(JsValue::NULL)
}

use wasm_bindgen::JsValue;

impl MemoryDriver {
    /// No run; notes whether a reload stopped one.
    pub fn new() -> Self {
        let interrupted = storage_call("getItem", &[RUNNING_KEY]).is_string();
        storage_call("removeItem", &[RUNNING_KEY]);
        MemoryDriver {
            status: RwSignal::new(RunStatus::Idle),
            plan: RwSignal::new(None),
            curves: RwSignal::new(Vec::new()),
            progress: RwSignal::new((0, 0)),
            elapsed: RwSignal::new(0.0),
            error: RwSignal::new(None),
            interrupted: RwSignal::new(interrupted),
            session: StoredValue::new(None),
            clock: StoredValue::new((None, 0.0)),
        }
    }

    fn now() -> f64 {
        js_sys::Date::now()
    }

    /// Seconds trained, counting the current stretch.
    fn seconds(&self) -> f64 {
        let (since, before) = self.clock.get_value();
        before + since.map_or(0.0, |t| (Self::now() - t) / 1000.0)
    }

    fn clock_stop(&self) {
        let s = self.seconds();
        self.clock.set_value((None, s));
        self.elapsed.set(s);
    }

    /// Trains every cell × seed of `config`'s plan.
    pub fn start(&self, config: DelayConfig) {
        let Some(Ok(plan)) = MemoryPlan::of(&config) else {
            return;
        };
        self.stop_session();
        let runs = plan.runs();
        self.curves.set(vec![Vec::new(); runs]);
        self.progress.set((0, runs as u64 * plan.steps));
        self.plan.set(Some(plan));
        self.error.set(None);
        self.interrupted.set(false);
        self.status.set(RunStatus::Running);
        self.clock.set_value((Some(Self::now()), 0.0));
        self.elapsed.set(0.0);
        let query = encode(&config, None);
        storage_call("setItem", &[RUNNING_KEY, &query]);
        let client = EngineClient::get();
        let id = client.new_session();
        self.session.set_value(Some(id));
        let d = *self;
        spawn_local(async move {
            client.run_memory(id, query, move |e| d.apply(id, e)).await;
        });
    }

    fn apply(&self, id: u64, event: MemoryEvent) {
        if self.session.get_value() != Some(id) {
            return;
        }
        match event {
            MemoryEvent::Point { run, point } => self.curves.update(|c| {
                if let Some(curve) = c.get_mut(run) {
                    curve.push(point);
                }
            }),
            MemoryEvent::Progress { done, total } => {
                self.progress.set((done, total));
                self.elapsed.set(self.seconds());
            }
            MemoryEvent::Finished => self.end(RunStatus::Finished, None),
            MemoryEvent::Error(e) => self.end(RunStatus::Error, Some(e)),
        }
    }

    fn end(&self, status: RunStatus, error: Option<String>) {
        self.clock_stop();
        self.status.set(status);
        self.error.set(error);
        self.session.set_value(None);
        storage_call("removeItem", &[RUNNING_KEY]);
    }

    fn stop_session(&self) {
        if let Some(id) = self.session.get_value() {
            EngineClient::get().send(vec![unroll_core::engine::protocol::Command::Stop(id)]);
        }
        self.session.set_value(None);
    }

    /// Pauses the run at its next step.
    pub fn pause(&self) {
        if let Some(id) = self.session.get_value() {
            EngineClient::get().send(vec![unroll_core::engine::protocol::Command::Pause(id)]);
            self.clock_stop();
            self.status.set(RunStatus::Paused);
        }
    }

    /// Resumes a paused run.
    pub fn resume(&self) {
        if let Some(id) = self.session.get_value() {
            EngineClient::get().send(vec![unroll_core::engine::protocol::Command::Resume(id)]);
            self.clock.update_value(|c| c.0 = Some(Self::now()));
            self.status.set(RunStatus::Running);
        }
    }

    /// Stops the run and clears what it showed.
    pub fn reset(&self) {
        self.stop_session();
        storage_call("removeItem", &[RUNNING_KEY]);
        self.status.set(RunStatus::Idle);
        self.plan.set(None);
        self.curves.set(Vec::new());
        self.progress.set((0, 0));
        self.elapsed.set(0.0);
        self.error.set(None);
        self.clock.set_value((None, 0.0));
    }

    /// Seconds left at the pace so far (`None` before the first step).
    pub fn time_left(&self) -> Option<f64> {
        let (done, total) = self.progress.get();
        let elapsed = self.elapsed.get();
        (done > 0 && elapsed > 0.0)
            .then(|| elapsed * (total - done.min(total)) as f64 / done as f64)
    }
}
