//! Keeping a trained model: the downloaded `.safetensors` round-trips to the
//! same predictions, carries head/step/classes, problems are reported by tensor name, classes
//! are reconciled with the loaded data, and the IndexedDB record survives JSON.

use unroll_core::config::Head;
use unroll_core::data::encode;
use unroll_core::keep::{
    export_trained, import_trained, match_classes, weights_file_name, ClassMatch, DataSource,
    SavedEpoch, SavedSession, SavedValReport, SAVED_VERSION,
};
use unroll_core::math::init::init_params;
use unroll_core::math::model::SeqModel;
use unroll_core::math::params::{CellKind, RnnSpec};
use unroll_core::weights::{export_params, read_metadata, WeightsError};

fn classes(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("Lang{i:02}")).collect()
}

fn model(cell: CellKind, hidden: usize, layers: usize, bi: bool, c: usize) -> (SeqModel, Vec<f32>) {
    let mut spec = RnnSpec::new(cell, 57, hidden);
    spec.num_layers = layers;
    spec.bidirectional = bi;
    let model = SeqModel::new(spec, c);
    let params = init_params(&model.layout, &spec, 11);
    (model, params)
}

#[test]
fn round_trip_same_predictions_and_metadata() {
    for (cell, layers, bi) in [
        (CellKind::Gru, 1, false),
        (CellKind::Lstm, 2, true),
        (CellKind::Rnn, 1, true),
    ] {
        let (m, p) = model(cell, 16, layers, bi, 3);
        let names = classes(3);
        let source = DataSource::Upload {
            files: vec!["three.tsv".into()],
        };
        let bytes = export_trained(&m, &p, &names, Head::Padded, 281, &source).unwrap();
        let meta = read_metadata(&bytes).unwrap();
        assert_eq!(meta["head"], "padded");
        assert_eq!(meta["step"], "281");
        assert_eq!(meta["data_source"], "upload");
        assert_eq!(meta["cell"], cell.as_str());
        let back = import_trained(&bytes).unwrap();
        assert_eq!(back.params, p, "{cell:?}: bit-identical parameters");
        assert_eq!(back.classes.as_deref(), Some(names.as_slice()));
        assert_eq!((back.head, back.step), (Head::Padded, 281));
        assert_eq!(back.model.spec, m.spec);
        let tokens = encode("Nguyen").unwrap();
        assert_eq!(
            back.model.predict(&back.params, &tokens).unwrap(),
            m.predict(&p, &tokens).unwrap()
        );
    }
    let (m, _) = model(CellKind::Gru, 32, 1, false, 18);
    assert_eq!(
        weights_file_name(&m, 281),
        "unroll-gru-h32-step281.safetensors"
    );
}

#[test]
fn export_rejects_wrong_class_count() {
    let (m, p) = model(CellKind::Gru, 8, 1, false, 3);
    let e = export_trained(&m, &p, &classes(2), Head::Last, 0, &DataSource::Builtin).unwrap_err();
    assert!(matches!(e, WeightsError::Metadata(_)), "{e}");
}

/// A file whose tensors do not fit its metadata is rejected with every tensor named; bad
/// metadata, another vocabulary and junk bytes are errors too (never a panic).
#[test]
fn import_errors_name_tensors() {
    let (m, p) = model(CellKind::Lstm, 8, 1, false, 3);
    let good = export_trained(&m, &p, &classes(3), Head::Last, 5, &DataSource::Builtin).unwrap();
    let mut meta = read_metadata(&good).unwrap();
    // Claim GRU: every rnn tensor has the wrong shape (4H rows instead of 3H).
    meta.insert("cell".into(), "gru".into());
    let lying = export_params(&m.layout, &p, &meta).unwrap();
    let e = import_trained(&lying).unwrap_err();
    let msg = e.to_string();
    for name in [
        "rnn.weight_ih_l0",
        "rnn.weight_hh_l0",
        "rnn.bias_ih_l0",
        "rnn.bias_hh_l0",
    ] {
        assert!(msg.contains(name), "{name} missing from: {msg}");
    }
    let mut meta = read_metadata(&good).unwrap();
    meta.insert("head".into(), "middle".into());
    let e = import_trained(&export_params(&m.layout, &p, &meta).unwrap()).unwrap_err();
    assert!(e.to_string().contains("head"), "{e}");
    let mut meta = read_metadata(&good).unwrap();
    meta.insert("step".into(), "-3".into());
    assert!(import_trained(&export_params(&m.layout, &p, &meta).unwrap()).is_err());
    for junk in [&b""[..], b"PK\x03\x04 not weights"] {
        assert_eq!(
            import_trained(junk).unwrap_err(),
            WeightsError::NotSafetensors
        );
    }
    for damaged in [&b"\x08\0\0\0\0\0\0\0{}"[..], &good[..good.len() / 2]] {
        assert!(matches!(
            import_trained(damaged),
            Err(WeightsError::Corrupt { .. })
        ));
    }
    // A tensor removed from the header: the parser only sees wrong offsets, the message names
    // the missing tensor first and keeps the parser's reason.
    let len = u64::from_le_bytes(good[..8].try_into().unwrap()) as usize;
    let mut header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&good[8..8 + len]).unwrap();
    assert!(header.remove("rnn.bias_hh_l0").is_some(), "test setup");
    let json = serde_json::to_vec(&header).unwrap();
    let cut = [
        &(json.len() as u64).to_le_bytes()[..],
        &json,
        &good[8 + len..],
    ]
    .concat();
    let e = import_trained(&cut).unwrap_err();
    let msg = e.to_string();
    assert_eq!(
        e,
        WeightsError::MissingTensors {
            names: vec!["rnn.bias_hh_l0".into()],
            detail: e.detail().unwrap().to_owned()
        }
    );
    assert!(
        msg.starts_with("not a valid .safetensors file: missing tensor rnn.bias_hh_l0 (")
            && msg.contains("invalid offset"),
        "{msg}"
    );
    // Another vocabulary size is not a names classifier.
    let spec = RnnSpec::new(CellKind::Gru, 10, 8);
    let other = SeqModel::new(spec, 3);
    let op = init_params(&other.layout, &spec, 1);
    let e = import_trained(&export_params(&other.layout, &op, &Default::default()).unwrap())
        .unwrap_err();
    assert!(e.to_string().contains("57"), "{e}");
}

#[test]
fn class_reconciliation() {
    let data = classes(3);
    let builtin = classes(18);
    assert_eq!(
        match_classes(Some(&data), 3, &data, Some(&builtin)),
        ClassMatch::Same
    );
    assert_eq!(
        match_classes(None, 3, &data, Some(&builtin)),
        ClassMatch::Same
    );
    assert_eq!(
        match_classes(Some(&builtin), 18, &data, Some(&builtin)),
        ClassMatch::Builtin
    );
    let other: Vec<String> = vec!["A".into(), "B".into(), "C".into()];
    match match_classes(Some(&other), 3, &data, Some(&builtin)) {
        ClassMatch::Mismatch(m) => {
            let m = m.to_string();
            assert!(m.contains("A, B, C") && m.contains("Lang00"), "{m}")
        }
        x => panic!("{x:?}"),
    }
    assert!(matches!(
        match_classes(None, 4, &data, None),
        ClassMatch::Mismatch(_)
    ));
}

#[test]
fn saved_session_json_round_trip() {
    let s = SavedSession {
        version: SAVED_VERSION,
        query: "v=1&lesson=names&cell=gru&hidden_size=16".into(),
        source: DataSource::Upload {
            files: vec!["a.tsv".into()],
        },
        classes: classes(3),
        step: 12,
        epoch: 1,
        step_loss: vec![(1, 1.25), (2, 1.0)],
        mean_loss: vec![(1, 1.25), (2, 1.125)],
        small_batches: vec![(2, 1.0, 7)],
        epochs: vec![SavedEpoch {
            epoch: 1,
            train_loss: 1.1,
            val_loss: 1.05,
            val_acc: 0.5,
            sec: 0.75,
        }],
        val_report: Some(SavedValReport {
            epoch: 1,
            num_classes: 3,
            confusion: vec![1, 0, 0, 0, 2, 0, 1, 0, 1],
        }),
        finished: true,
        backend: Some("webgpu".into()),
    };
    let json = s.to_json();
    assert_eq!(SavedSession::from_json(&json).unwrap(), s);
    let wrong = json.replace(&format!("\"version\":{SAVED_VERSION}"), "\"version\":99");
    assert_eq!(
        SavedSession::from_json(&wrong).unwrap_err(),
        unroll_core::keep::StorageError::Version { found: 99 }
    );
    // A record of the first format (no resume checkpoint beside it) is still read.
    let old = json.replace(&format!("\"version\":{SAVED_VERSION}"), "\"version\":1");
    assert_eq!(SavedSession::from_json(&old).unwrap().version, 1);
    // A record written before the smaller batches were kept reads with no marks.
    let before = json.replace(",\"small_batches\":[[2,1.0,7]]", "");
    assert_ne!(before, json);
    assert_eq!(
        SavedSession::from_json(&before).unwrap().small_batches,
        vec![]
    );
    assert!(SavedSession::from_json("{").is_err());
}

/// The saved confusion matrix comes back as the session's report (what the metrics panel shows
/// after a reload), and a record that does not fit the restored model is refused.
#[test]
fn saved_val_report_restores_the_report() {
    let mut report = unroll_core::task::names::ValReport::new(2, 3);
    for (label, predicted) in [(0, 0), (1, 1), (1, 1), (2, 0), (2, 2), (0, 2)] {
        report.add(label, predicted);
    }
    let saved = SavedValReport::from_report(&report);
    let json = serde_json::to_string(&saved).unwrap();
    let back: SavedValReport = serde_json::from_str(&json).unwrap();
    let restored = back.to_report(3).unwrap();
    assert_eq!(restored.epoch, 2);
    assert_eq!(restored.confusion, report.confusion);
    assert_eq!(restored.total(), 6);
    assert_eq!(restored.accuracy(), report.accuracy());
    assert_eq!(restored.per_class_accuracy(), report.per_class_accuracy());
    assert!(back.to_report(4).unwrap_err().contains("3 classes"));
    let short = SavedValReport {
        confusion: vec![1; 8],
        ..back
    };
    assert!(short.to_report(3).unwrap_err().contains("8 counts"));
}

/// The resume checkpoint stored beside the record reads back exactly; bytes that are not one
/// are refused with a message; a saved curve is cut at the checkpoint's step.
#[test]
fn checkpoint_bytes_round_trip_and_curves_end_at_its_step() {
    use unroll_core::keep::{curve_until, decode_checkpoint, encode_checkpoint};
    use unroll_core::math::params::CellKind;
    use unroll_core::train::sweep::{
        HeldOut, RunCheckpoint, RunId, RunSettings, SweepCheckpoint, Window,
    };
    use unroll_core::train::trainer::{Recipe, TrainerState};
    let run = RunId {
        cell: CellKind::Gru,
        seed: 3,
    };
    let c = SweepCheckpoint {
        settings: RunSettings {
            task: "names:head=last:split_seed=3:samples=20074:classes=18".into(),
            recipe: Recipe::default(),
            steps: 1270,
            eval_every: 254,
        },
        runs: vec![RunCheckpoint {
            run,
            trainer: TrainerState {
                step: 254,
                params: vec![0.25, -1.5, 3.0],
                adam_step: 254,
                adam_m: vec![1e-3, 2e-3, -3e-3],
                adam_v: vec![1e-6, 2e-6, 3e-6],
                stream_position: 254,
            },
            curve: vec![HeldOut {
                cell: run.cell,
                seed: run.seed,
                step: 254,
                acc: 0.625,
                loss: 1.25,
                solved: false,
                train_loss: Some(1.5),
                train_acc: None,
            }],
            skipped: 0,
            window: Window::default(),
        }],
        turn: 0,
        shares: 1,
    };
    assert_eq!(decode_checkpoint(&encode_checkpoint(&c)).unwrap(), c);
    assert!(decode_checkpoint(&[1, 2])
        .unwrap_err()
        .contains("checkpoint"));
    let curve = vec![(253, 1.0f32), (254, 0.9), (255, 0.8)];
    assert_eq!(curve_until(&curve, 254), vec![(253, 1.0), (254, 0.9)]);
}

/// A plain PyTorch export (`safetensors.torch.save_file(model.state_dict(), …)`: the tensors
/// only, or with PyTorch's own `format` key) has no training metadata: it imports with step 0
/// and `training_metadata == false`, so the page labels it as imported rather than as a random
/// initialisation; with the class count of the loaded data its classes come from the data.
#[test]
fn plain_pytorch_export_has_no_training_metadata() {
    let (m, p) = model(CellKind::Lstm, 8, 1, false, 4);
    let trained =
        export_trained(&m, &p, &classes(4), Head::Last, 12, &DataSource::Builtin).unwrap();
    assert!(import_trained(&trained).unwrap().training_metadata);
    for meta in [
        std::collections::BTreeMap::new(),
        std::collections::BTreeMap::from([("format".to_string(), "pt".to_string())]),
    ] {
        let plain = export_params(&m.layout, &p, &meta).unwrap();
        let back = import_trained(&plain).unwrap();
        assert!(!back.training_metadata, "{meta:?}");
        assert_eq!((back.step, back.classes.as_deref()), (0, None));
        assert_eq!(back.params, p);
        assert!(
            back.notes.iter().any(|n| n.contains("no metadata")),
            "{:?}",
            back.notes
        );
        assert_eq!(match_classes(None, 4, &classes(4), None), ClassMatch::Same);
    }
}
