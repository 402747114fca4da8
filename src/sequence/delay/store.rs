//! What the delay-copy part keeps across reloads, in the lab's store
//! ([`crate::sequence::store::DELAY`]): the sweep summaries, the finished runs of the last
//! [`KEPT_CONFIGS`] configurations and the sweep in progress (so a reload can resume it), as
//! [`Kept`]; beside it the training seed's latest checkpoint
//! ([`super::sweep::ResumePoint`]).

use serde::{Deserialize, Serialize};
use unroll_core::delay::outcome::SweepSummary;
use unroll_core::train::sweep::RunResult;

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
    pub fn merge_from(&mut self, other: Kept) {
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
