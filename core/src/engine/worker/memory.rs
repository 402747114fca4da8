//! The worker's loop for a long-memory run: every cell × seed of the plan, one step at a
//! time, reporting each held-out evaluation and, every few hundred milliseconds, the sweep's
//! progress.

use super::{report, spawn_session};
use crate::config::delay::DelayConfig;
use crate::config::query::decode as decode_query;
use crate::engine::protocol::{Report, SessionId};
use crate::memory::run::{MemoryEvent, MemoryPlan, MemorySweep};
use crate::train::clock::{check_in, now_ms, sleep_ms};

/// Milliseconds between two progress reports.
const PROGRESS_EVERY_MS: f64 = 250.0;

/// Runs the long-memory sweep of `query` as `session`, from its run `from_run`.
pub(super) fn start(session: SessionId, query: &str, from_run: usize) {
    let config = decode_query::<DelayConfig>(query).config;
    spawn_session(session, move |control| async move {
        let send =
            |event: MemoryEvent, urgent: bool| report(Report::Memory { session, event }, urgent);
        let plan = match MemoryPlan::of(&config) {
            Some(Ok(plan)) => plan,
            Some(Err(e)) => {
                send(MemoryEvent::Error(e.to_string()), true);
                return;
            }
            None => {
                send(MemoryEvent::Error("not a long-memory task".into()), true);
                return;
            }
        };
        let mut sweep = MemorySweep::from_run(plan, from_run);
        let progress = |sweep: &MemorySweep| MemoryEvent::Progress {
            done: sweep.done(),
            total: sweep.total(),
        };
        let mut last = f64::NEG_INFINITY;
        loop {
            if control.is_stopped() {
                return;
            }
            if control.is_paused() {
                send(progress(&sweep), true);
                while control.is_paused() && !control.is_stopped() {
                    sleep_ms(50).await;
                }
                continue;
            }
            let Some(events) = sweep.tick() else {
                send(progress(&sweep), false);
                send(MemoryEvent::Finished, true);
                return;
            };
            for event in events {
                send(event, false);
            }
            if now_ms() - last > PROGRESS_EVERY_MS {
                send(progress(&sweep), false);
                last = now_ms();
            }
            check_in().await;
        }
    });
}
