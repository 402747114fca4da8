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
