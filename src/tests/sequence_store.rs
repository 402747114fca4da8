//! The sequence lab's store: its records keep the keys and formats earlier versions wrote, so a
//! learner who reloads after an update finds them, and a damaged record is a typed error.

use crate::sequence::delay::store::{Kept, Unfinished};
use crate::sequence::memory::store::KeptSweep;
use crate::sequence::store::{point_of, sweeps_of, sweeps_text, DELAY, MEMORY};
use unroll_core::keep::StorageError;
use unroll_core::math::params::CellKind;

#[test]
fn the_records_keep_the_keys_earlier_versions_wrote() {
    assert_eq!(
        [
            DELAY.sweeps,
            DELAY.checkpoint,
            MEMORY.sweeps,
            MEMORY.checkpoint
        ],
        [
            "delay-sweep",
            "delay-checkpoint",
            "memory-sweeps",
            "memory-checkpoint"
        ]
    );
}

#[test]
fn a_delay_record_of_an_earlier_version_is_read() {
    // Written before a sweep in progress was kept: no `unfinished`.
    let old = r#"{"summaries":[],"runs":[{"query":"v=1&lesson=delay&delay=8","runs":[]}]}"#;
    let kept: Kept = sweeps_of(DELAY.sweeps, old).unwrap();
    assert_eq!(kept.runs.len(), 1);
    assert_eq!(kept.runs[0].query, "v=1&lesson=delay&delay=8");
    assert_eq!(kept.unfinished, None);
    let now =
        r#"{"summaries":[],"runs":[],"unfinished":{"query":"v=1&lesson=delay","elapsed":12.5}}"#;
    let kept: Kept = sweeps_of(DELAY.sweeps, now).unwrap();
    assert_eq!(
        kept.unfinished,
        Some(Unfinished {
            query: "v=1&lesson=delay".into(),
            elapsed: 12.5
        })
    );
    let again: Kept = sweeps_of(DELAY.sweeps, &sweeps_text(&kept).unwrap()).unwrap();
    assert_eq!(again, kept);
}

#[test]
fn a_memory_record_of_an_earlier_version_is_read() {
    let cell = serde_json::to_string(&CellKind::Lstm).unwrap();
    let old = format!(
        r#"[{{"query":"v=1&lesson=delay&task=adding","curves":[[{{"cell":{cell},"seed":2,"step":200,"acc":0.0,"loss":0.16,"solved":false,"train_loss":0.17,"train_acc":0.0}}],[]],"elapsed":3.25,"finished":false}}]"#
    );
    let kept: Vec<KeptSweep> = sweeps_of(MEMORY.sweeps, &old).unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].query, "v=1&lesson=delay&task=adding");
    assert_eq!(kept[0].curves.len(), 2);
    let h = kept[0].curves[0][0];
    assert_eq!(
        (h.cell, h.seed, h.step, h.loss),
        (CellKind::Lstm, 2, 200, 0.16)
    );
    assert_eq!(h.train_loss, Some(0.17));
    assert_eq!((kept[0].elapsed, kept[0].finished), (3.25, false));
    let again: Vec<KeptSweep> = sweeps_of(MEMORY.sweeps, &sweeps_text(&kept).unwrap()).unwrap();
    assert_eq!(again, kept);
}

#[test]
fn a_damaged_record_is_a_typed_error_naming_it() {
    match sweeps_of::<Kept>(DELAY.sweeps, "{not json") {
        Err(StorageError::Damaged { detail }) => {
            assert!(detail.contains("delay-sweep"), "{detail}")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        point_of::<crate::sequence::memory::store::ResumePoint>(&[1, 2, 3]),
        Err(StorageError::Damaged { .. })
    ));
}
