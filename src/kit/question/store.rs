//! The questions' answers in the browser's IndexedDB: one record per question under
//! `question-<key>`, a JSON text of [`Record`], written with the app's store helpers. The
//! records are read once per document into [`progress`], which the questions and the
//! index's marks follow. A browser that refuses (private mode, no IndexedDB) sets
//! [`Progress::failed`]: the questions still work on the page, and say they are not kept.

use crate::kit::persist::{delete_record, get_record, put_record};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use unroll_core::lessons::lab_questions::LAB_QUESTIONS;
use unroll_core::lessons::questions::{Prediction, QUESTIONS};
use wasm_bindgen::JsValue;

/// Where a question stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Waiting for a prediction.
    Open,
    /// The prediction is locked; the answer is not shown yet.
    Locked,
    /// The answer is shown.
    Revealed,
}

impl Phase {
    /// `open`, `locked` or `revealed` (the `data-state` hook).
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Open => "open",
            Phase::Locked => "locked",
            Phase::Revealed => "revealed",
        }
    }
}

/// One question's kept answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Locked or revealed.
    pub phase: Phase,
    /// A number prediction.
    #[serde(default)]
    pub number: Option<f64>,
    /// A choice prediction.
    #[serde(default)]
    pub choice: Option<usize>,
    /// The page's state at the reveal, as the question keeps it (a lesson's canonical query,
    /// a lab's results as JSON).
    #[serde(default)]
    pub query: Option<String>,
    /// Locked after the run the question asks about had started (a lab's question answered
    /// after seeing): kept and revealed, but not counted as a prediction.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seen: bool,
}

impl Record {
    /// A record of `phase` with `prediction` (none: skipped) and the reveal's state.
    pub fn new(phase: Phase, prediction: Option<Prediction>, query: Option<String>) -> Record {
        let (number, choice) = match prediction {
            Some(Prediction::Number(v)) => (Some(v), None),
            Some(Prediction::Choice(i)) => (None, Some(i)),
            None => (None, None),
        };
        Record {
            phase,
            number,
            choice,
            query,
            seen: false,
        }
    }

    /// The record, marked as answered after seeing (`seen`) or not.
    pub fn seen(self, seen: bool) -> Record {
        Record { seen, ..self }
    }

    /// The kept prediction.
    pub fn prediction(&self) -> Option<Prediction> {
        match (self.number, self.choice) {
            (Some(v), _) if v.is_finite() => Some(Prediction::Number(v)),
            (_, Some(i)) => Some(Prediction::Choice(i)),
            _ => None,
        }
    }

    /// Revealed after a prediction made before seeing: what the index's marks count (a skip is
    /// not an answer, nor is a lab's question answered after its run had started).
    pub fn answered(&self) -> bool {
        self.phase == Phase::Revealed && self.prediction().is_some() && !self.seen
    }

    /// The record as stored (JSON text).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A stored record; `None` when it cannot be read (it is then treated as absent).
    pub fn from_json(text: &str) -> Option<Record> {
        serde_json::from_str(text).ok()
    }
}

/// Every kept answer of this document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// The store was read.
    pub loaded: bool,
    /// The browser refused to read or write.
    pub failed: bool,
    /// Records by question key.
    pub records: HashMap<String, Record>,
    /// Writes not yet finished by the browser (a page left meanwhile may lose them).
    pub pending: u32,
}

thread_local! {
    static PROGRESS: ArcRwSignal<Progress> = ArcRwSignal::new(Progress::default());
    static STARTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Every question's key: the lessons', then the labs'.
pub fn all_keys() -> impl Iterator<Item = &'static str> {
    QUESTIONS
        .iter()
        .map(|(_, k)| *k)
        .chain(LAB_QUESTIONS.iter().map(|(_, k)| *k))
}

/// The prefix of an answer's record in the browser's store. It keeps the name the questions
/// had when answers were first kept, so that every answer kept since is still found.
const RECORD_PREFIX: &str = "checkpoint-";

fn store_key(key: &str) -> String {
    format!("{RECORD_PREFIX}{key}")
}

const WHAT: &str = "could not keep the question's answer";

/// The kept answers (reactive, owned by the caller's component); the first call starts
/// reading them.
pub fn progress() -> RwSignal<Progress> {
    RwSignal::from(shared())
}

/// The document's kept answers; the first call starts reading them.
fn shared() -> ArcRwSignal<Progress> {
    let signal = PROGRESS.with(Clone::clone);
    if !STARTED.replace(true) {
        let s = signal.clone();
        leptos::task::spawn_local(async move {
            let mut records = HashMap::new();
            let mut failed = false;
            for key in all_keys() {
                match get_record(&store_key(key), WHAT).await {
                    Ok(Some(v)) => {
                        if let Some(r) = v.as_string().as_deref().and_then(Record::from_json) {
                            records.insert(key.to_owned(), r);
                        }
                    }
                    Ok(None) => {}
                    Err(_) => {
                        failed = true;
                        break;
                    }
                }
            }
            s.update(|p| {
                // Answers given while reading win over the kept ones.
                for (k, r) in records {
                    p.records.entry(k).or_insert(r);
                }
                p.failed |= failed;
                p.loaded = true;
            });
        });
    }
    signal
}

/// Keeps `record` for question `key`.
pub fn put(key: &'static str, record: Record) {
    let signal = shared();
    let json = record.to_json();
    signal.update(|p| {
        p.records.insert(key.to_owned(), record);
        p.pending += 1;
    });
    leptos::task::spawn_local(async move {
        let failed = put_record(&store_key(key), &JsValue::from_str(&json), WHAT)
            .await
            .is_err();
        signal.update(|p| {
            p.failed |= failed;
            p.pending -= 1;
        });
    });
}

/// Forgets question `key`'s answer.
pub fn remove(key: &'static str) {
    let signal = shared();
    signal.update(|p| {
        p.records.remove(key);
        p.pending += 1;
    });
    leptos::task::spawn_local(async move {
        let failed = delete_record(&store_key(key), WHAT).await.is_err();
        signal.update(|p| {
            p.failed |= failed;
            p.pending -= 1;
        });
    });
}

/// Forgets every question's answer, then calls `done` once the browser has deleted them all
/// (a page left before that could keep some).
pub fn clear(done: impl FnOnce() + 'static) {
    let signal = shared();
    signal.update(|p| p.records.clear());
    leptos::task::spawn_local(async move {
        for key in all_keys() {
            if delete_record(&store_key(key), WHAT).await.is_err() {
                signal.update(|p| p.failed = true);
            }
        }
        done();
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_keep_the_record_keys_they_were_first_kept_under() {
        // A shared link's state and a kept answer outlive a rename: the record of the first
        // lesson's question is where the first release wrote it.
        assert_eq!(store_key("unroll-h"), "checkpoint-unroll-h");
        assert!(all_keys().any(|k| k == "unroll-h"));
    }

    #[test]
    fn a_record_reads_back() {
        for (p, q) in [
            (
                Some(Prediction::Number(-0.42)),
                Some("v=1&lesson=lstm".to_owned()),
            ),
            (Some(Prediction::Choice(2)), None),
            (None, Some("v=1&lesson=gru&z=0.9".to_owned())),
        ] {
            let r = Record::new(Phase::Revealed, p, q);
            let back = Record::from_json(&r.to_json()).unwrap();
            assert_eq!(back, r);
            assert_eq!(back.prediction(), p);
        }
        assert_eq!(Record::from_json("{not json"), None);
    }

    #[test]
    fn a_skip_is_not_an_answer() {
        let said = Some(Prediction::Choice(1));
        assert!(Record::new(Phase::Revealed, said, None).answered());
        assert!(!Record::new(Phase::Revealed, None, None).answered());
        assert!(!Record::new(Phase::Locked, said, None).answered());
    }

    #[test]
    fn an_answer_after_seeing_is_kept_but_not_counted() {
        let said = Some(Prediction::Choice(0));
        let r = Record::new(Phase::Revealed, said, Some("{}".into())).seen(true);
        assert!(!r.answered());
        let back = Record::from_json(&r.to_json()).unwrap();
        assert!(back.seen);
        assert_eq!(back.prediction(), said);
        // Records kept before the mark existed read as answered before seeing.
        let old = r#"{"phase":"revealed","choice":1,"query":null}"#;
        assert!(Record::from_json(old).unwrap().answered());
        assert!(!Record::new(Phase::Revealed, said, None)
            .to_json()
            .contains("seen"));
    }
}
