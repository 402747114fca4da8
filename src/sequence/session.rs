//! The engine session of the lab's sweep, whichever task it is of: starting a sweep in the
//! engine's Web Worker with its reports going to the driver while it is the one shown, the run
//! buttons' commands (pause, resume, stop), the debug hook that loses its GPU device, and the
//! sweep's training clock. Each task part's driver holds one; not a component.

use super::delay::sweep::SweepClock;
use crate::shell::engine_client::EngineClient;
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
    /// running; its reports go to `on_event` while it is the session shown. Returns its id.
    pub fn launch(
        &self,
        request: TrainRequest,
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
                .run_lab(id, request, None, move |e| {
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
