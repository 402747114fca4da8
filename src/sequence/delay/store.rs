//! What the delay-copy part keeps across reloads, in the lab's store
//! ([`crate::sequence::store::DELAY`]): the sweep summaries, the finished runs of the last
//! [`KEPT_CONFIGS`] configurations and the sweep in progress (so a reload can resume it), as
//! [`Kept`]; beside it the training seed's latest checkpoint
//! ([`crate::sequence::runs::ResumePoint`]).

use crate::sequence::runs::{plan_with, KeptShown, KeptSweeps, Mark, RunView};
use serde::{Deserialize, Serialize};
use unroll_core::config::delay::DelayConfig;
use unroll_core::delay::outcome::SweepSummary;
use unroll_core::train::sweep::{RunResult, Tick};

/// Configurations whose finished runs are kept (the oldest is dropped first).
pub const KEPT_CONFIGS: usize = 8;

/// The finished runs of one configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptRuns {
    /// The configuration's canonical query (without `lang`).
    pub query: String,
    /// Its finished runs, one per (cell, seed).
    pub runs: Vec<RunResult>,
}

/// A sweep that was training or paused when the record was written: after a reload the page
/// offers to resume it (its finished runs are in [`Kept::runs`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Unfinished {
    /// The configuration's canonical query (without `lang`).
    pub query: String,
    /// Seconds of training when the record was written.
    pub elapsed: f64,
}

/// The delay page's kept state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    /// One summary per set of settings ([`unroll_core::delay::outcome::SweepKey`]).
    pub summaries: Vec<SweepSummary>,
    /// Finished runs per configuration, the most recently used last.
    pub runs: Vec<KeptRuns>,
    /// The sweep in progress, if one was (records of earlier versions have none).
    #[serde(default)]
    pub unfinished: Option<Unfinished>,
}

impl Kept {
    /// The finished runs kept for the configuration with canonical query `query`.
    pub fn runs_of(&self, query: &str) -> &[RunResult] {
        self.runs
            .iter()
            .find(|k| k.query == query)
            .map_or(&[], |k| k.runs.as_slice())
    }

    /// Keeps `result` as a finished run of `query` (replacing the same cell and seed; a
    /// configuration's runs are deterministic), dropping the oldest configuration beyond
    /// [`KEPT_CONFIGS`].
    pub fn keep_run(&mut self, query: &str, result: RunResult) {
        let mut entry = match self.runs.iter().position(|k| k.query == query) {
            Some(i) => self.runs.remove(i),
            None => KeptRuns {
                query: query.to_owned(),
                runs: Vec::new(),
            },
        };
        entry.runs.retain(|r| r.run != result.run);
        entry.runs.push(result);
        self.runs.push(entry);
        let extra = self.runs.len().saturating_sub(KEPT_CONFIGS);
        self.runs.drain(..extra);
    }

    /// Adds what `other` holds and this does not (summary figures, configurations' runs);
    /// this one's entries win.
    pub fn merge(&mut self, other: Kept) {
        if self.unfinished.is_none() {
            self.unfinished = other.unfinished;
        }
        for s in other.summaries {
            match self.summaries.iter_mut().find(|m| m.key == s.key) {
                Some(m) => {
                    for f in s.figures {
                        if !m
                            .figures
                            .iter()
                            .any(|g| (g.delay, g.cell, g.seed) == (f.delay, f.cell, f.seed))
                        {
                            m.figures.push(f);
                        }
                    }
                }
                None => self.summaries.push(s),
            }
        }
        for k in other.runs.into_iter().rev() {
            if !self.runs.iter().any(|m| m.query == k.query) {
                self.runs.insert(0, k);
            }
        }
        let extra = self.runs.len().saturating_sub(KEPT_CONFIGS);
        self.runs.drain(..extra);
    }

    /// The summary for the settings of `config`, created when missing.
    pub fn summary_mut(
        &mut self,
        config: &unroll_core::config::delay::DelayConfig,
    ) -> &mut SweepSummary {
        let i = match self.summaries.iter().position(|s| s.accepts(config)) {
            Some(i) => i,
            None => {
                self.summaries.push(SweepSummary::new(config));
                self.summaries.len() - 1
            }
        };
        &mut self.summaries[i]
    }
}

/// The sweep summaries and finished runs; a sweep kept in progress is offered again.
impl KeptSweeps for Kept {
    fn merge_from(&mut self, loaded: Kept) {
        self.merge(loaded);
    }

    /// The sweep in progress of `config` (its plan, the kept runs finished), or else its kept
    /// finished runs.
    fn shown(&self, config: &DelayConfig, query: &str) -> Option<KeptShown> {
        let runs = self.runs_of(query);
        match &self.unfinished {
            Some(u) if u.query == query => Some(KeptShown {
                views: plan_with(config, runs),
                results: runs.to_vec(),
                elapsed: u.elapsed,
                unfinished: true,
            }),
            _ if runs.is_empty() => None,
            _ => Some(KeptShown {
                views: runs.iter().map(RunView::restored).collect(),
                results: runs.to_vec(),
                elapsed: 0.0,
                unfinished: false,
            }),
        }
    }

    /// A finished run goes into its summary and its configuration's runs.
    fn record(
        &mut self,
        config: &DelayConfig,
        query: &str,
        tick: &Tick,
        _: &[RunView],
        elapsed: f64,
    ) -> bool {
        let Some(result) = &tick.finished else {
            return false;
        };
        let _ = self.summary_mut(config).record(config, result);
        self.keep_run(query, result.clone());
        if let Some(u) = self.unfinished.as_mut() {
            u.elapsed = elapsed;
        }
        true
    }

    fn mark(&mut self, query: &str, mark: Mark, _: &[RunView], elapsed: f64) -> bool {
        match mark {
            Mark::Training => {
                self.unfinished = Some(Unfinished {
                    query: query.to_owned(),
                    elapsed,
                });
                true
            }
            Mark::Finished | Mark::Failed => {
                self.unfinished = None;
                true
            }
            Mark::Reset => {
                let stopped = self.unfinished.as_ref().is_some_and(|u| u.query == query);
                if stopped {
                    self.unfinished = None;
                }
                stopped
            }
        }
    }
}
