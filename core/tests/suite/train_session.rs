//! The names lab through the one training loop (`engine::run`): the same weights give the
//! same validation metrics on both paths, and a short run reports its events in order.

use std::path::Path;
use std::sync::Arc;

use unroll_core::config::{BackendChoice, TrainConfig};
use unroll_core::data::names::{locate_names_dir, NamesDataset};
use unroll_core::data::split::{Split, VAL_FRACTION};
use unroll_core::engine::protocol::{LabEvent, TrainRequest};
use unroll_core::engine::run::{run, sweep_of, RunControl};
use unroll_core::gpu::context::GpuContext;
use unroll_core::task::names::NamesTask;
use unroll_core::task::Task;
use unroll_core::train::backend::{gpu_sizes, BackendKind};
use unroll_core::train::trainer::{Recipe, Trainer};

fn dataset() -> Arc<NamesDataset> {
    let dir = locate_names_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .expect("names data (run scripts/fetch-data.mjs)");
    Arc::new(NamesDataset::load_dir(&dir).expect("names data loads"))
}

/// Runs the names page's sweep of `cfg` on `data` to its end (or its control's stop), handing
/// its events to `on`.
pub(crate) fn run_names(
    cfg: &TrainConfig,
    data: &Arc<NamesDataset>,
    control: &RunControl,
    on: &mut dyn FnMut(LabEvent),
) {
    let request = TrainRequest {
        query: cfg.to_query(),
        data: None,
        resume: None,
        start_from: None,
        shares: 1,
    };
    let (sweep, backend) = sweep_of(&request, Some(data.clone())).unwrap();
    pollster::block_on(run(sweep, backend, true, control, on));
}

/// Validation runs in batches of 256 names, longer than the training batches: the GPU's
/// forward-only path must give the CPU's numbers for the same weights.
#[test]
fn validation_metrics_agree_between_cpu_and_gpu() {
    let data = dataset();
    let cfg = TrainConfig {
        hidden_size: 32,
        ..TrainConfig::default()
    };
    let task = NamesTask::new(data.clone(), 0, cfg.head);
    let recipe = Recipe::of_names(&cfg);
    let heldout = task.heldout(recipe.batch_size);
    pollster::block_on(async {
        let mut cpu = Trainer::new(&task, cfg.cell, &recipe, 5);
        let mut gpu = Trainer::new(&task, cfg.cell, &recipe, 5);
        let ctx = GpuContext::new()
            .await
            .expect("a Vulkan adapter (lavapipe: apt-get install mesa-vulkan-drivers)");
        let (max_batch, max_len) = gpu_sizes(&task, &recipe);
        gpu.attach_gpu(&ctx, task.shape().input.kind(), max_batch, max_len)
            .unwrap();
        let c = cpu.evaluate(&heldout, true).await;
        let g = gpu.evaluate(&heldout, true).await;
        assert!(gpu.take_fallback().is_none(), "the GPU evaluated");
        let (cpu_loss, gpu_loss) = (c.sums.mean_loss(), g.sums.mean_loss());
        assert!(
            (cpu_loss - gpu_loss).abs() <= 1e-4 + 1e-4 * cpu_loss.abs(),
            "val_loss cpu {cpu_loss} gpu {gpu_loss}"
        );
        let val = Split::new(&data, 0, VAL_FRACTION).val.len();
        assert_eq!(c.sums.count as usize, val);
        assert!(
            (c.sums.accuracy() - g.sums.accuracy()).abs() <= 1.0 / val as f64,
            "val_acc cpu {} gpu {}",
            c.sums.accuracy(),
            g.sums.accuracy()
        );
        let counts = |m: &Option<Vec<u32>>| m.as_ref().unwrap().iter().sum::<u32>() as usize;
        assert_eq!((counts(&c.confusion), counts(&g.confusion)), (val, val));
    });
}

/// A two-epoch CPU run on a small model: events arrive in order, the step counter is global,
/// every epoch trains each training name once, the loss starts near ln 18 and validation
/// accuracy beats chance.
#[test]
fn cpu_run_reports_steps_epochs_and_weights() {
    let data = dataset();
    let cfg = TrainConfig {
        hidden_size: 16,
        batch_size: 256,
        epochs: 2,
        backend: BackendChoice::Cpu,
        ..TrainConfig::default()
    };
    let mut events = Vec::new();
    run_names(&cfg, &data, &RunControl::new(), &mut |e| events.push(e));
    let split = Split::new(&data, 0, VAL_FRACTION);
    let per_epoch = split.train.len().div_ceil(256) as u64;
    let LabEvent::Plan(plan) = &events[0] else {
        panic!("{:?}", events[0])
    };
    assert_eq!(
        (plan.steps, plan.eval_every, plan.runs.len()),
        (2 * per_epoch, per_epoch, 1)
    );
    assert!(matches!(&events[1], LabEvent::Weights { weights, .. } if weights.step == 0));
    assert!(matches!(&events[2], LabEvent::GradFlow { step: 0, .. }));
    assert!(matches!(
        &events[3],
        LabEvent::Backend(b) if b.kind == BackendKind::Cpu { notice: None }
    ));
    let ticks: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            LabEvent::Tick(t) => Some(t.as_ref().clone()),
            _ => None,
        })
        .collect();
    let steps: Vec<_> = ticks.iter().flat_map(|t| t.steps.clone()).collect();
    assert_eq!(steps.len() as u64, 2 * per_epoch);
    assert!(steps
        .iter()
        .enumerate()
        .all(|(i, s)| s.step == i as u64 + 1));
    // Every epoch trains each training name once: full batches of 256 and one smaller batch
    // (the page marks its step on the loss curve).
    let rest = (split.train.len() % 256) as u32;
    assert_ne!(rest, 0, "the test needs a smaller batch");
    for epoch in steps.chunks(per_epoch as usize) {
        let sizes: Vec<u32> = epoch.iter().map(|s| s.sequences).collect();
        assert_eq!(sizes.iter().sum::<u32>() as usize, split.train.len());
        assert_eq!(sizes.iter().filter(|&&n| n == rest).count(), 1, "{sizes:?}");
        assert!(sizes.iter().all(|&n| n == 256 || n == rest));
    }
    assert!(
        (2.6..3.0).contains(&steps[0].loss),
        "first loss {} should be near ln 18",
        steps[0].loss
    );
    // One held-out evaluation per epoch, at its end, with the confusion matrix of the
    // validation names; none before training.
    let evals: Vec<_> = ticks
        .iter()
        .filter_map(|t| t.heldout.map(|h| (h, t.confusion.clone())))
        .collect();
    assert_eq!(
        evals.iter().map(|(h, _)| h.step).collect::<Vec<_>>(),
        [per_epoch, 2 * per_epoch]
    );
    for (h, confusion) in &evals {
        let confusion = confusion
            .as_ref()
            .expect("names evaluations count the matrix");
        assert_eq!(confusion.len(), 18 * 18);
        assert_eq!(
            confusion.iter().sum::<u32>() as usize,
            split.val.len(),
            "{h:?}"
        );
        let diagonal: u32 = (0..18).map(|i| confusion[i * 18 + i]).sum();
        assert!((h.acc - diagonal as f64 / split.val.len() as f64).abs() < 1e-12);
        let train_loss = h.train_loss.expect("the epoch's mean training loss");
        assert!(train_loss.is_finite() && train_loss > 0.0);
    }
    assert!(evals[1].0.acc > 1.0 / 18.0 && evals[1].0.acc <= 1.0);
    // The epoch's training loss is the mean of its steps' losses.
    let mean = steps[..per_epoch as usize]
        .iter()
        .map(|s| s.loss)
        .sum::<f64>()
        / per_epoch as f64;
    assert!((evals[0].0.train_loss.unwrap() - mean).abs() < 1e-12);
    assert!(matches!(events.last(), Some(LabEvent::Finished)));
}

/// A stopped run ends without `Finished`.
#[test]
fn stopped_run_ends_early() {
    let data = dataset();
    let cfg = TrainConfig {
        hidden_size: 8,
        batch_size: 512,
        epochs: 3,
        backend: BackendChoice::Cpu,
        ..TrainConfig::default()
    };
    let control = RunControl::new();
    let mut steps = 0;
    let mut finished = false;
    let c = control.clone();
    run_names(&cfg, &data, &control, &mut |e| match e {
        LabEvent::Tick(t) => {
            steps += t.steps.len();
            if steps == 3 {
                c.stop();
            }
        }
        LabEvent::Finished => finished = true,
        _ => {}
    });
    assert_eq!(steps, 3);
    assert!(!finished);
}
