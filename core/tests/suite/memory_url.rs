//! The `task` key of the long-memory page (`lesson=delay`): its default keeps older links on
//! delay-copy, and every task survives an encode/decode round trip.

use unroll_core::config::delay::{DelayConfig, LabTask};
use unroll_core::config::query::{decode, encode, NoticeKind};
use unroll_core::memory::TaskKind;

#[test]
fn links_without_task_open_delay_copy() {
    let d = decode::<DelayConfig>("v=1&lesson=delay&delay=16");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.config.task, LabTask::Delay);
    assert_eq!(d.config.task.memory(), None);
    assert_eq!(encode(&d.config, None), "v=1&lesson=delay&delay=16");
}

#[test]
fn every_task_round_trips_through_the_url() {
    for (word, task, kind) in [
        ("adding", LabTask::Adding, Some(TaskKind::Adding)),
        ("copy", LabTask::Copy, Some(TaskKind::Copy)),
        ("order", LabTask::Order, Some(TaskKind::Order)),
    ] {
        let query = format!("v=1&lesson=delay&task={word}");
        let d = decode::<DelayConfig>(&query);
        assert!(d.notices.is_empty(), "{word}: {:?}", d.notices);
        assert_eq!(d.config.task, task);
        assert_eq!(d.config.task.memory(), kind);
        assert_eq!(kind.map(TaskKind::as_str), Some(word));
        assert_eq!(encode(&d.config, None), query);
        let config = DelayConfig {
            task,
            ..DelayConfig::default()
        };
        assert_eq!(decode::<DelayConfig>(&encode(&config, None)).config, config);
    }
    // The default is not written out.
    let delay = DelayConfig {
        task: LabTask::Delay,
        ..DelayConfig::default()
    };
    assert_eq!(encode(&delay, None), "v=1&lesson=delay");
}

#[test]
fn an_unknown_task_falls_back_to_delay_copy_with_a_notice() {
    let d = decode::<DelayConfig>("v=1&lesson=delay&task=parity");
    assert_eq!(d.config.task, LabTask::Delay);
    assert_eq!(d.notices.len(), 1, "{:?}", d.notices);
    assert_eq!(
        (d.notices[0].field.as_str(), d.notices[0].raw.as_str()),
        ("task", "parity")
    );
    assert!(
        matches!(d.notices[0].kind, NoticeKind::Invalid { .. }),
        "{:?}",
        d.notices[0].kind
    );
}

#[test]
fn a_task_pages_notices_name_the_default_the_task_uses() {
    use unroll_core::memory::run::{decode_lab, MemoryPlan};
    for (task, length, steps) in [
        ("adding", 50, 1500),
        ("copy", 20, 1000),
        ("order", 100, 800),
    ] {
        let d = decode_lab(&format!(
            "v=1&lesson=delay&task={task}&length=NaN&steps=abc&hidden_size=x&cell=tanh"
        ));
        let plan = MemoryPlan::of(&d.config).unwrap().unwrap();
        assert_eq!((plan.task.length(), plan.steps), (length, steps));
        assert_eq!(plan.recipe.hidden_size, 64);
        assert_eq!(plan.cells.len(), 3);
        let text: Vec<String> = d.notices.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                format!("length: “NaN” is not valid (expected 2–256); using the default {length}"),
                format!("steps: “abc” is not valid (expected 1–20000); using the default {steps}"),
                "hidden_size: “x” is not valid (expected 4–128); using the default 64".to_owned(),
                "cell: “tanh” is not valid (expected both, rnn, lstm, gru, all); using the default all"
                    .to_owned(),
            ],
            "{task}"
        );
    }
    // A value clamped onto delay-copy's default reads as the key left at it: the task's own
    // is used, and the notice says so.
    let d = decode_lab("v=1&lesson=delay&task=adding&hidden_size=500");
    assert_eq!(
        MemoryPlan::of(&d.config)
            .unwrap()
            .unwrap()
            .recipe
            .hidden_size,
        64
    );
    assert_eq!(
        d.notices[0].to_string(),
        "hidden_size: “500” is outside 4–128; using 64"
    );
    // Delay-copy keeps its own defaults and its rule 0 < delay < length; a task page drops
    // that rule's notice.
    let d = decode_lab("v=1&lesson=delay&length=NaN");
    assert_eq!(
        d.notices[0].to_string(),
        "length: “NaN” is not valid (expected 2–256); using the default 96"
    );
    assert_eq!(
        decode_lab("v=1&lesson=delay&delay=50&length=20")
            .notices
            .len(),
        1
    );
    assert!(decode_lab("v=1&lesson=delay&task=copy&delay=50&length=20")
        .notices
        .is_empty());
}
