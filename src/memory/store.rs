//! What the long-memory tasks keep across reloads, in the browser's local storage under
//! [`KEY`]: the held-out curves of the last [`KEPT_SWEEPS`] sweeps, each under its
//! configuration's canonical query, and whether it had finished. A sweep a reload stopped is
//! kept with the runs it had finished, so the page can show them and offer to go on from the
//! first unfinished run (runs are deterministic: the earlier ones would come out the same).
//! Storage failures (private mode, quota, an unreadable record) leave the page as it was.

use serde::{Deserialize, Serialize};
use unroll_core::memory::run::MemoryPlan;
use unroll_core::memory::HeldOutPoint;
use wasm_bindgen::{JsCast, JsValue};

/// The local-storage key.
pub const KEY: &str = "unroll.memory.sweeps";

/// Sweeps kept (the oldest is dropped first).
pub const KEPT_SWEEPS: usize = 8;

/// One sweep as kept.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptSweep {
    /// The configuration's canonical query (without `lang`).
    pub query: String,
    /// Held-out curve of each run of the plan, in its order.
    pub curves: Vec<Vec<HeldOutPoint>>,
    /// Seconds of training.
    pub elapsed: f64,
    /// Every run trained its budget.
    pub finished: bool,
}

impl KeptSweep {
    /// Runs finished in a row from the first (the run a resumed sweep starts from).
    pub fn finished_runs(&self, plan: &MemoryPlan) -> usize {
        self.curves
            .iter()
            .take(plan.runs())
            .take_while(|c| c.last().is_some_and(|p| p.step >= plan.steps))
            .count()
    }

    /// The curves with only the finished runs' (the others start again on resume).
    pub fn finished_curves(&self, plan: &MemoryPlan) -> Vec<Vec<HeldOutPoint>> {
        let n = self.finished_runs(plan);
        (0..plan.runs())
            .map(|k| match self.curves.get(k) {
                Some(c) if k < n => c.clone(),
                _ => Vec::new(),
            })
            .collect()
    }
}

/// Puts `sweep` last in `kept` (replacing the same query), dropping the oldest beyond
/// [`KEPT_SWEEPS`].
pub fn keep(kept: &mut Vec<KeptSweep>, sweep: KeptSweep) {
    kept.retain(|k| k.query != sweep.query);
    kept.push(sweep);
    let extra = kept.len().saturating_sub(KEPT_SWEEPS);
    kept.drain(..extra);
}

/// `localStorage`, when the browser gives it.
fn storage() -> Option<JsValue> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &"localStorage".into())
        .ok()
        .filter(|s| !s.is_null() && !s.is_undefined())
}

/// Calls `method` of `localStorage` with `args` (`None` when storage or the call fails).
fn call(method: &str, args: &[&str]) -> Option<JsValue> {
    let s = storage()?;
    let f = js_sys::Reflect::get(&s, &method.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let array: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    f.apply(&s, &array).ok()
}

/// The kept sweeps (none when storage fails or the record is unreadable).
pub fn load() -> Vec<KeptSweep> {
    call("getItem", &[KEY])
        .and_then(|v| v.as_string())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// The kept sweep of `query`.
pub fn find(query: &str) -> Option<KeptSweep> {
    load().into_iter().find(|k| k.query == query)
}

/// Keeps `sweep` (see [`keep`]).
pub fn save(sweep: KeptSweep) {
    let mut kept = load();
    keep(&mut kept, sweep);
    write(&kept);
}

/// Forgets the sweep of `query`.
pub fn forget(query: &str) {
    let mut kept = load();
    kept.retain(|k| k.query != query);
    write(&kept);
}

fn write(kept: &[KeptSweep]) {
    if let Ok(text) = serde_json::to_string(kept) {
        call("setItem", &[KEY, &text]);
    }
}
