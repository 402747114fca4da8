//! Where a run stands: the one status of the names page's session, compare mode's three runs
//! and the delay page's sweep, with the rules the pages and their run buttons share. Plain
//! data (it compiles natively; the tests below check the rules).
//!
//! Test hook: each page shows its status's [`RunStatus::key`] in `data-value` (`train-status`,
//! `compare-status`, `delay-status`).

/// Where a run stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RunStatus {
    /// No run (before the first start, or after Reset).
    #[default]
    Idle,
    /// A run is stepping.
    Running,
    /// A run is paused and can resume.
    Paused,
    /// The run did all it was asked to (compare mode: all three cells, some may have ended
    /// with an error).
    Finished,
    /// The user stopped the run before its end (compare mode's Stop).
    Stopped,
    /// The run stopped with an error (the names page shows it).
    Error,
}

impl RunStatus {
    /// The stable name used in `data-value`.
    pub fn key(self) -> &'static str {
        match self {
            RunStatus::Idle => "idle",
            RunStatus::Running => "running",
            RunStatus::Paused => "paused",
            RunStatus::Finished => "finished",
            RunStatus::Stopped => "stopped",
            RunStatus::Error => "error",
        }
    }

    /// The status pill's CSS modifier (`status-<pill>`): a stopped run looks paused.
    pub fn pill(self) -> &'static str {
        match self {
            RunStatus::Stopped => "paused",
            s => s.key(),
        }
    }

    /// A run is stepping or paused: it holds the form (and the data) it started with.
    pub fn busy(self) -> bool {
        matches!(self, RunStatus::Running | RunStatus::Paused)
    }

    /// Pause can be pressed.
    pub fn can_pause(self) -> bool {
        self == RunStatus::Running
    }

    /// A paused run can go on.
    pub fn can_resume(self) -> bool {
        self == RunStatus::Paused
    }

    /// A run ended (all done, stopped or failed): Start begins another.
    pub fn ended(self) -> bool {
        matches!(
            self,
            RunStatus::Finished | RunStatus::Stopped | RunStatus::Error
        )
    }
}

#[cfg(test)]
mod tests {
    use super::RunStatus::{self, *};

    const ALL: [RunStatus; 6] = [Idle, Running, Paused, Finished, Stopped, Error];

    #[test]
    fn keys_are_distinct_and_stable() {
        let keys = ALL.map(RunStatus::key);
        assert_eq!(
            keys,
            ["idle", "running", "paused", "finished", "stopped", "error"]
        );
        assert_eq!(ALL.map(RunStatus::pill)[4], "paused");
        assert_eq!(RunStatus::default(), Idle);
    }

    #[test]
    fn only_a_running_or_paused_run_is_busy() {
        for s in ALL {
            assert_eq!(s.busy(), s == Running || s == Paused, "{s:?}");
            assert_eq!(s.can_pause(), s == Running, "{s:?}");
            assert_eq!(s.can_resume(), s == Paused, "{s:?}");
            // A status is at most one of: idle, busy, ended.
            let states = [s == Idle, s.busy(), s.ended()];
            assert_eq!(states.iter().filter(|&&b| b).count(), 1, "{s:?}");
        }
    }
}
