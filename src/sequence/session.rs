//! The engine session of the lab's sweep, whichever task it is of: starting a sweep in the
//! engine's Web Worker with its reports going to the driver while it is the one shown, the run
//! buttons' commands (pause, resume, stop), the debug hook that loses its GPU device, and the
//! sweep's training clock ([`SweepClock`]). The run flow ([`super::flow::RunFlow`]) holds one; not a component.

use crate::shell::engine_client::{DataRef, EngineClient};
use leptos::prelude::*;
use leptos::task::spawn_local;
use unroll_core::engine::protocol::{Command, LabEvent, TrainRequest};

/// The sweep in the engine (if any) and its clock.
#[derive(Clone, Copy)]
pub struct LabSession {
    /// The engine session of the sweep shown (None when none is in the engine).
    id: StoredValue<Option<u64>>,
    /// Seconds of training of the sweep shown.
    clock: StoredValue<SweepClock>,
}

impl Default for LabSession {
    fn default() -> Self {
        Self::new()
    }
}

impl LabSession {
    /// No sweep, 0 s.
    pub fn new() -> Self {
        LabSession {
            id: StoredValue::new(None),
            clock: StoredValue::new(SweepClock::default()),
        }
    }

    /// The engine session of the sweep shown.
    pub fn id(&self) -> Option<u64> {
        self.id.try_get_value().flatten()
    }

    /// Starts `request` in the engine as a new session (stopping the one before), the clock
    /// running, on the names `data` when the task reads them (names generation); its reports
    /// go to `on_event` while it is the session shown. Returns its id.
    pub fn launch(
        &self,
        request: TrainRequest,
        data: Option<DataRef>,
        mut on_event: impl FnMut(LabEvent) + 'static,
    ) -> u64 {
        self.stop();
        let client = EngineClient::get();
        let id = client.new_session();
        self.id.set_value(Some(id));
        self.clock.update_value(|c| c.run(js_sys::Date::now()));
        let me = *self;
        spawn_local(async move {
            client
                .run_lab(id, request, data.as_ref(), move |e| {
                    if me.id() == Some(id) {
                        on_event(e)
                    }
                })
                .await;
        });
        id
    }

    /// Stops the sweep in the engine (its later reports are dropped) and the clock.
    pub fn stop(&self) {
        if let Some(id) = self.id() {
            EngineClient::get().send(vec![Command::Stop(id)]);
        }
        self.id.set_value(None);
        self.clock_stop();
    }

    /// The sweep ended in the engine (finished or failed): no session, the clock stopped.
    pub fn ended(&self) {
        self.id.set_value(None);
        self.clock_stop();
    }

    /// Pauses the sweep at its next step; false when none is in the engine.
    pub fn pause(&self) -> bool {
        self.command(Command::Pause)
            .inspect(|_| self.clock_stop())
            .is_some()
    }

    /// Resumes the paused sweep; false when none is in the engine.
    pub fn resume(&self) -> bool {
        self.command(Command::Resume)
            .inspect(|_| self.clock.update_value(|c| c.run(js_sys::Date::now())))
            .is_some()
    }

    /// Debug hook (`window.unrollDebug.loseDevice()`): destroys the sweep's GPU device, as a
    /// driver reset would; its runs go on on the CPU from the step they reached. False when no
    /// sweep is in the engine.
    pub fn lose_device(&self) -> bool {
        self.command(Command::LoseDevice).is_some()
    }

    fn command(&self, command: fn(u64) -> Command) -> Option<u64> {
        let id = self.id()?;
        EngineClient::get().send(vec![command(id)]);
        Some(id)
    }

    /// Seconds trained, counting the stretch in progress.
    pub fn seconds(&self) -> f64 {
        self.clock.get_value().seconds(js_sys::Date::now())
    }

    /// Sets the seconds trained before (a kept sweep shown, or 0), the clock stopped.
    pub fn set_seconds(&self, elapsed: f64) {
        self.clock.set_value(SweepClock {
            elapsed,
            since: None,
        });
    }

    fn clock_stop(&self) {
        self.clock.update_value(|c| c.stop(js_sys::Date::now()));
    }
}

/// Seconds of training of a sweep: closed intervals plus the open one since `since`
/// (milliseconds of the clock the caller passes, e.g. `Date.now()`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SweepClock {
    /// Seconds of the closed intervals.
    pub elapsed: f64,
    /// Start of the open interval, ms.
    pub since: Option<f64>,
}

impl SweepClock {
    /// Opens an interval at `now_ms` (Start, Resume).
    pub fn run(&mut self, now_ms: f64) {
        self.since = Some(now_ms);
    }

    /// Closes the open interval at `now_ms` (Pause, the end, an error).
    pub fn stop(&mut self, now_ms: f64) {
        if let Some(t) = self.since.take() {
            self.elapsed += (now_ms - t) / 1000.0;
        }
    }

    /// Seconds trained at `now_ms`.
    pub fn seconds(&self, now_ms: f64) -> f64 {
        self.elapsed + self.since.map_or(0.0, |t| (now_ms - t) / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_counts_only_running_intervals() {
        let mut clock = SweepClock::default();
        clock.run(1_000.0);
        assert_eq!(clock.seconds(3_500.0), 2.5);
        clock.stop(4_000.0);
        // Paused: the time does not move.
        assert_eq!(clock.seconds(60_000.0), 3.0);
        clock.stop(70_000.0);
        assert_eq!(clock.seconds(70_000.0), 3.0);
        clock.run(100_000.0);
        assert_eq!(clock.seconds(101_000.0), 4.0);
    }
}
