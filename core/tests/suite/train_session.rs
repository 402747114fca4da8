//! The training loop on both backends: the same weights give the same validation metrics, and
//! a short session reports events in order.

use std::path::Path;

use unroll_core::config::{BackendChoice, TrainConfig};
use unroll_core::data::names::{locate_names_dir, NamesDataset};
use unroll_core::data::normalize::VOCAB_SIZE;
use unroll_core::data::split::{Split, VAL_FRACTION};
use unroll_core::gpu::classifier::GpuClassifier;
use unroll_core::gpu::context::GpuContext;
use unroll_core::math::classifier::ClassifierModel;
use unroll_core::math::init::init_params;
use unroll_core::train::cpu::CpuTrainer;
use unroll_core::train::session::{
    evaluate, run_session, spec_of, BackendKind, TrainControl, TrainEvent,
};
use unroll_core::train::Engine;

fn dataset() -> NamesDataset {
    let dir = locate_names_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .expect("names data (run scripts/fetch-data.mjs)");
    NamesDataset::load_dir(&dir).expect("names data loads")
}

/// Validation runs in batches of 256 names, longer than the training batches: the GPU's
/// forward-only path must give the CPU's numbers for the same weights.
#[test]
fn validation_metrics_agree_between_cpu_and_gpu() {
    let data = dataset();
    let split = Split::new(&data, 0, VAL_FRACTION);
    let cfg = TrainConfig {
        hidden_size: 32,
        ..TrainConfig::default()
    };
    let model = ClassifierModel::new(spec_of(&cfg, VOCAB_SIZE), data.num_classes());
    let params = init_params(&model.layout, &model.spec, 5);
    let max_len = data.samples().iter().map(|s| s.tokens.len()).max().unwrap();
    pollster::block_on(async {
        let mut cpu = Engine::Cpu(CpuTrainer::new(model.clone(), params.clone()));
        let ctx = GpuContext::new()
            .await
            .expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
        let gpu =
            GpuClassifier::new(&ctx, model.spec, model.num_classes, &params, 256, max_len).unwrap();
        let mut gpu = Engine::Gpu {
            gpu: Box::new(gpu),
            model: model.clone(),
        };
        let (cpu_loss, cpu_acc) = evaluate(&mut cpu, &data, &split.val).await.unwrap();
        let (gpu_loss, gpu_acc) = evaluate(&mut gpu, &data, &split.val).await.unwrap();
        assert!(
            (cpu_loss - gpu_loss).abs() <= 1e-4 + 1e-4 * cpu_loss.abs(),
            "val_loss cpu {cpu_loss} gpu {gpu_loss}"
        );
        assert!(
            (cpu_acc - gpu_acc).abs() <= 1.0 / split.val.len() as f32,
            "val_acc cpu {cpu_acc} gpu {gpu_acc}"
        );
    });
}

/// A two-epoch CPU session on a small model: events arrive in order, the step counter is
/// global, the loss starts near ln 18 and validation accuracy beats chance.
#[test]
fn cpu_session_reports_steps_epochs_and_weights() {
    let data = dataset();
    let cfg = TrainConfig {
        hidden_size: 16,
        batch_size: 256,
        epochs: 2,
        backend: BackendChoice::Cpu,
        ..TrainConfig::default()
    };
    let mut events = Vec::new();
    pollster::block_on(run_session(&cfg, &data, &TrainControl::new(), &mut |e| {
        events.push(e)
    }));
    assert!(matches!(events[0], TrainEvent::Weights(_)));
    assert!(matches!(
        events[1],
        TrainEvent::Backend(BackendKind::Cpu { notice: None })
    ));
    let steps: Vec<(u64, f32)> = events
        .iter()
        .filter_map(|e| {
            if let TrainEvent::Step { step, loss, .. } = e {
                Some((*step, *loss))
            } else {
                None
            }
        })
        .collect();
    let split = Split::new(&data, 0, VAL_FRACTION);
    let per_epoch = split.train.len().div_ceil(256) as u64;
    assert_eq!(steps.len() as u64, 2 * per_epoch);
    // Every epoch trains each training name once: full batches of 256 and one smaller batch
    // (the page marks its step on the loss curve).
    let names: Vec<(u32, u32)> = events
        .iter()
        .filter_map(|e| match e {
            TrainEvent::Step { epoch, names, .. } => Some((*epoch, *names)),
            _ => None,
        })
        .collect();
    let rest = (split.train.len() % 256) as u32;
    assert_ne!(rest, 0, "the test needs a smaller batch");
    for epoch in [1, 2] {
        let sizes: Vec<u32> = names.iter().filter(|n| n.0 == epoch).map(|n| n.1).collect();
        assert_eq!(sizes.iter().sum::<u32>() as usize, split.train.len());
        assert_eq!(sizes.iter().filter(|&&n| n == rest).count(), 1, "{sizes:?}");
        assert!(sizes.iter().all(|&n| n == 256 || n == rest));
    }
    assert!(steps
        .iter()
        .enumerate()
        .all(|(i, (s, _))| *s == i as u64 + 1));
    assert!(
        (2.6..3.0).contains(&steps[0].1),
        "first loss {} should be near ln 18",
        steps[0].1
    );
    let epochs: Vec<_> = events
        .iter()
        .filter_map(|e| {
            if let TrainEvent::Epoch(r) = e {
                Some(*r)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        epochs.iter().map(|r| r.epoch).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert!(epochs[1].val_acc > 1.0 / 18.0 && epochs[1].val_acc <= 1.0);
    assert!(matches!(events.last(), Some(TrainEvent::Finished)));
}

/// A stopped session ends without `Finished`.
#[test]
fn stopped_session_ends_early() {
    let data = dataset();
    let cfg = TrainConfig {
        hidden_size: 8,
        batch_size: 512,
        epochs: 3,
        backend: BackendChoice::Cpu,
        ..TrainConfig::default()
    };
    let control = TrainControl::new();
    let mut steps = 0;
    let mut finished = false;
    let c = control.clone();
    pollster::block_on(run_session(&cfg, &data, &control, &mut |e| match e {
        TrainEvent::Step { .. } => {
            steps += 1;
            if steps == 3 {
                c.stop();
            }
        }
        TrainEvent::Finished => finished = true,
        _ => {}
    }));
    assert_eq!(steps, 3);
    assert!(!finished);
}
