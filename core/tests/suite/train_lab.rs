//! The training session's lab behaviour on a small slice of the real names data: the
//! confusion matrix after each epoch, gradient-flow events, head=padded on the GPU against
//! the CPU, device loss (training continues on the CPU with a continuous step sequence), and a
//! non-finite loss (stop with a suggestion, weights from before the bad step). GPU tests run on
//! lavapipe natively.

use std::path::Path;

use unroll_core::config::{BackendChoice, Head, TrainConfig};
use unroll_core::data::batches::Batches;
use unroll_core::data::names::{locate_names_dir, NamesDataset};
use unroll_core::data::normalize::VOCAB_SIZE;
use unroll_core::data::split::{Split, VAL_FRACTION};
use unroll_core::gpu::classifier::GpuClassifier;
use unroll_core::gpu::context::GpuContext;
use unroll_core::gpu::GpuError;
use unroll_core::math::classifier::{ClassifierModel, PADDED_LEN};
use unroll_core::math::init::init_params;
use unroll_core::train::cpu::CpuTrainer;
use unroll_core::train::session::{
    run_session, run_session_from, spec_of, BackendKind, Checkpoint, CpuReason, EpochReport,
    TrainControl, TrainError, TrainEvent, GRAD_FLOW_NAMES,
};
use unroll_core::train::Hyper;

/// The first `per_class` names of every language of the real data.
fn small_dataset(per_class: usize) -> NamesDataset {
    let dir = locate_names_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .expect("names data (run scripts/fetch-data.mjs)");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let text = std::fs::read_to_string(&path).unwrap();
            let head: Vec<&str> = text.lines().take(per_class).collect();
            let class = path.file_stem().unwrap().to_string_lossy().into_owned();
            files.push((class, head.join("\n")));
        }
    }
    NamesDataset::from_class_files(files).unwrap()
}

fn run(cfg: &TrainConfig, data: &NamesDataset, control: &TrainControl) -> Vec<TrainEvent> {
    let mut events = Vec::new();
    pollster::block_on(run_session(cfg, data, control, &mut |e| events.push(e)));
    events
}

fn steps(events: &[TrainEvent]) -> Vec<(u64, f32)> {
    events
        .iter()
        .filter_map(|e| match e {
            TrainEvent::Step { step, loss, .. } => Some((*step, *loss)),
            _ => None,
        })
        .collect()
}

/// Every `Epoch` is followed by its `Validation`: the matrix sums to the validation size and
/// its diagonal gives the epoch's val_acc; per-class accuracies and the majority baseline
/// come from the same counts. Every `Weights` is followed by a `GradFlow` for its step, of
/// the batch's read length, positive at the read-out step.
#[test]
fn validation_report_and_grad_flow_events() {
    let data = small_dataset(40);
    let split = Split::new(&data, 3, VAL_FRACTION);
    for head in [Head::Last, Head::Padded] {
        let cfg = TrainConfig {
            hidden_size: 12,
            batch_size: 32,
            epochs: 2,
            seed: 3,
            head,
            backend: BackendChoice::Cpu,
            ..TrainConfig::default()
        };
        let events = run(&cfg, &data, &TrainControl::new());
        let mut epochs = 0;
        for (i, e) in events.iter().enumerate() {
            if let TrainEvent::Epoch(r) = e {
                epochs += 1;
                let TrainEvent::Validation(v) = &events[i + 1] else {
                    panic!("Epoch not followed by Validation");
                };
                assert_eq!((v.epoch, v.num_classes), (r.epoch, 18));
                assert_eq!(v.total(), split.val.len());
                assert_eq!(v.accuracy(), r.val_acc);
                let counts = v.class_counts();
                let mut want = vec![0usize; 18];
                for &i in &split.val {
                    want[data.samples()[i].label as usize] += 1;
                }
                assert_eq!(counts, want, "row sums = validation names per class");
                let per_class = v.per_class_accuracy();
                for c in 0..18 {
                    let diag = v.confusion[c * 18 + c] as f32;
                    assert_eq!(per_class[c], Some(diag / want[c] as f32));
                }
                let majority = *want.iter().max().unwrap() as f32 / split.val.len() as f32;
                assert_eq!(v.majority_baseline(), majority);
            }
            if let TrainEvent::Weights(w) = e {
                assert_eq!(w.model.head, head);
                let Some(TrainEvent::Backend(_) | TrainEvent::GradFlow { .. }) = events.get(i + 1)
                else {
                    panic!("Weights at step {} not followed by GradFlow", w.step);
                };
                let flow = events[i + 1..]
                    .iter()
                    .find_map(|e| match e {
                        TrainEvent::GradFlow { step, norms } => Some((*step, norms.clone())),
                        _ => None,
                    })
                    .unwrap();
                assert_eq!(flow.0, w.step);
                let names = &split.val[..GRAD_FLOW_NAMES];
                let longest = names
                    .iter()
                    .map(|&i| data.samples()[i].tokens.len())
                    .max()
                    .unwrap();
                let want_len = if head == Head::Padded {
                    PADDED_LEN
                } else {
                    longest
                };
                assert_eq!(flow.1.len(), want_len);
                assert!(flow.1[0] > 0.0 && flow.1.iter().all(|g| g.is_finite()));
            }
        }
        assert_eq!(epochs, 2);
        assert!(matches!(events.last(), Some(TrainEvent::Finished)));
    }
}

/// head=padded on the GPU (lavapipe) equals the CPU: logits of short and long names, and the
/// gradients of one training step.
#[test]
fn gpu_padded_head_matches_cpu() {
    let data = small_dataset(10);
    let cfg = TrainConfig {
        hidden_size: 8,
        cell: unroll_core::math::params::CellKind::Lstm,
        bidirectional: true,
        ..TrainConfig::default()
    };
    let model =
        ClassifierModel::new(spec_of(&cfg, VOCAB_SIZE), data.num_classes()).with_head(Head::Padded);
    let params = init_params(&model.layout, &model.spec, 4);
    let indices: Vec<usize> = (0..data.len()).step_by(7).collect();
    let batch = Batches::eval(&data, &indices, 64).next().unwrap();
    assert!(batch.lengths.iter().any(|&l| l > 10) && batch.lengths.iter().any(|&l| l < 5));
    pollster::block_on(async {
        let ctx = GpuContext::new()
            .await
            .expect("a Vulkan adapter (lavapipe)");
        let mut gpu = GpuClassifier::new(
            &ctx,
            model.spec,
            model.num_classes,
            &params,
            64,
            batch.seq_len.max(PADDED_LEN),
        )
        .unwrap();
        gpu.set_head(Head::Padded).unwrap();
        let logits = gpu.evaluate(&batch).await.unwrap();
        let want = model.forward(&params, &batch).logits;
        let last = ClassifierModel::new(model.spec, model.num_classes).forward(&params, &batch);
        for (i, (a, b)) in logits.iter().zip(&want).enumerate() {
            assert!((a - b).abs() < 1e-4, "logit {i}: gpu {a} cpu {b}");
        }
        assert!(
            last.logits
                .iter()
                .zip(&want)
                .any(|(a, b)| (a - b).abs() > 1e-3),
            "the padded head reads another output than the last one"
        );
        gpu.train_step(&batch, 1e-3).unwrap();
        gpu.drain_results().await.unwrap();
        let grads = gpu.read_grads().await.unwrap();
        let (_, want, _) = model.loss_and_grads(&params, &batch);
        for e in &model.layout.entries {
            for (i, (a, b)) in grads[e.range()].iter().zip(&want[e.range()]).enumerate() {
                assert!(
                    (a - b).abs() < 1e-4 + 1e-3 * b.abs(),
                    "{}[{i}]: gpu {a} cpu {b}",
                    e.name
                );
            }
        }
    });
}

/// Device loss mid-training (lavapipe): `simulate_device_loss` destroys the device; one
/// `DeviceLost`, then `Backend(Cpu { notice })`; steps 1..N with no gap or repeat; training
/// finishes; the losses after the switch stay close to an uninterrupted CPU run of the same
/// seed (GPU and CPU sum floats in different orders).
#[test]
fn device_loss_continues_on_the_cpu() {
    let data = small_dataset(40);
    let cfg = TrainConfig {
        cell: unroll_core::math::params::CellKind::Gru,
        hidden_size: 16,
        batch_size: 32,
        epochs: 2,
        lr: 0.005,
        seed: 5,
        backend: BackendChoice::Gpu,
        ..TrainConfig::default()
    };
    let split = Split::new(&data, 5, VAL_FRACTION);
    let per_epoch = split.train.len().div_ceil(32) as u64;
    let control = TrainControl::new();
    let c = control.clone();
    let mut events = Vec::new();
    // In the second epoch: training resumes from the state read back at the end of the first
    // (not from the initial weights) and replays the steps reported since.
    let trigger = per_epoch + 3;
    pollster::block_on(run_session(&cfg, &data, &control, &mut |e| {
        if matches!(e, TrainEvent::Step { step, .. } if step == trigger) {
            c.simulate_device_loss();
        }
        events.push(e)
    }));
    let lost: Vec<usize> = (0..events.len())
        .filter(|&i| matches!(events[i], TrainEvent::DeviceLost(_)))
        .collect();
    assert_eq!(lost.len(), 1, "one DeviceLost");
    eprintln!("{:?}", events[lost[0]]);
    assert!(
        matches!(
            &events[lost[0] + 1],
            TrainEvent::Backend(BackendKind::Cpu {
                notice: Some(CpuReason::DeviceLost {
                    error: GpuError::DeviceLost(_),
                    ..
                })
            })
        ),
        "{:?}",
        events[lost[0] + 1]
    );
    assert!(matches!(
        events[1],
        TrainEvent::Backend(BackendKind::Gpu { .. })
    ));
    let gpu_steps = steps(&events);
    let numbers: Vec<u64> = gpu_steps.iter().map(|s| s.0).collect();
    assert_eq!(numbers, (1..=2 * per_epoch).collect::<Vec<_>>());
    let switch = steps(&events[..lost[0]]).len();
    assert!(
        (trigger as usize..2 * per_epoch as usize).contains(&switch),
        "switched after step {switch}"
    );
    assert!(matches!(events.last(), Some(TrainEvent::Finished)));

    let cpu_cfg = TrainConfig {
        backend: BackendChoice::Cpu,
        ..cfg
    };
    let cpu_events = run(&cpu_cfg, &data, &TrainControl::new());
    let cpu_steps = steps(&cpu_events);
    // Batch sizes per step: the GPU's (read back in bursts, then the CPU's after the switch)
    // are the CPU run's, which are the batches' own.
    let names = |events: &[TrainEvent]| -> Vec<u32> {
        events
            .iter()
            .filter_map(|e| match e {
                TrainEvent::Step { names, .. } => Some(*names),
                _ => None,
            })
            .collect()
    };
    let want: Vec<u32> = (0..2)
        .flat_map(|epoch| Batches::train_epoch(&data, &split.train, 32, 5, epoch))
        .map(|b| b.batch as u32)
        .collect();
    assert_eq!(names(&cpu_events), want);
    assert_eq!(names(&events), want);
    let diff = |range: std::ops::Range<usize>| {
        range
            .map(|i| (gpu_steps[i].1 - cpu_steps[i].1).abs())
            .fold(0.0f32, f32::max)
    };
    let (before, after) = (diff(0..switch), diff(switch..gpu_steps.len()));
    eprintln!("max |loss gpu-then-cpu − loss cpu|: before the switch {before}, after {after}");
    assert!(
        after < 5e-3,
        "after the switch the losses differ by up to {after}"
    );
    assert!(
        after > 0.0,
        "the CPU resumed from GPU weights, not from a CPU run"
    );
}

/// The divergence debug hook (the page's `window.unrollDebug.diverge()`) really trains with a
/// far too large learning rate: the run stops with the non-finite loss of a step, as a
/// diverging run does, followed by the weights from before that step.
#[test]
fn the_divergence_hook_stops_with_a_non_finite_loss() {
    let data = small_dataset(20);
    let cfg = TrainConfig {
        hidden_size: 16,
        batch_size: 32,
        epochs: 1,
        seed: 3,
        backend: BackendChoice::Cpu,
        ..TrainConfig::default()
    };
    let control = TrainControl::new();
    control.simulate_divergence();
    let events = run(&cfg, &data, &control);
    let n = events.len();
    let TrainEvent::Error(TrainError::BadLoss { loss, step, .. }) = &events[n - 2] else {
        panic!("no BadLoss before the end: {:?}", &events[n - 2]);
    };
    assert!(!loss.is_finite(), "{loss}");
    assert_eq!(*step, steps(&events).len() as u64 + 1);
    assert!(matches!(&events[n - 1], TrainEvent::Weights(w) if w.step == *step - 1));
}

/// A huge learning rate drives the loss to NaN/inf: the session ends with an `Error` that
/// suggests a lower learning rate and clipping, followed by the weights from before the bad
/// step: on the CPU exactly those of a trainer run for the steps before it; on the GPU those of
/// a `GpuClassifier` stepped exactly that far (the steps already in flight were skipped).
#[test]
fn non_finite_loss_stops_with_the_weights_before_it() {
    let data = small_dataset(40);
    for backend in [BackendChoice::Cpu, BackendChoice::Gpu] {
        let cfg = TrainConfig {
            hidden_size: 16,
            batch_size: 32,
            epochs: 1,
            lr: 1e37,
            max_norm: 0.0,
            seed: 2,
            backend,
            ..TrainConfig::default()
        };
        let events = run(&cfg, &data, &TrainControl::new());
        let n = events.len();
        let TrainEvent::Error(error) = &events[n - 2] else {
            panic!("{backend:?}: no Error before the end: {:?}", &events[n - 2]);
        };
        let &TrainError::BadLoss {
            loss,
            step: bad_step,
            clipping: false,
        } = error
        else {
            panic!("{backend:?}: {error:?}");
        };
        assert!(!loss.is_finite(), "{loss}");
        let msg = error.to_string();
        assert!(
            msg.contains("learning rate") && msg.contains("max_norm"),
            "{msg}"
        );
        let TrainEvent::Weights(w) = &events[n - 1] else {
            panic!("{backend:?}: the last event is not Weights");
        };
        let reported = steps(&events).len() as u64;
        assert_eq!(w.step, reported, "weights of the last good step");
        assert!(w.step >= 1, "step 1 is computed with the initial weights");
        eprintln!("{backend:?}: loss not finite at step {}: {msg}", w.step + 1);
        assert!(msg.contains(&format!("step {}", w.step + 1)), "{msg}");
        assert_eq!(bad_step, w.step + 1);

        // The same steps by hand.
        let split = Split::new(&data, 2, VAL_FRACTION);
        let model = ClassifierModel::new(spec_of(&cfg, VOCAB_SIZE), data.num_classes());
        let params = init_params(&model.layout, &model.spec, 2);
        let batches: Vec<_> = Batches::train_epoch(&data, &split.train, 32, 2, 0)
            .take(w.step as usize)
            .collect();
        let hyper = Hyper {
            lr: 1e37,
            max_norm: 0.0,
        };
        let want = pollster::block_on(async {
            if backend == BackendChoice::Cpu {
                let mut t = CpuTrainer::new(model.clone(), params.clone());
                for b in &batches {
                    t.step(b, &hyper);
                }
                t.params().to_vec()
            } else {
                let ctx = GpuContext::new().await.unwrap();
                let max_len = data.samples().iter().map(|s| s.tokens.len()).max().unwrap();
                let mut g =
                    GpuClassifier::new(&ctx, model.spec, model.num_classes, &params, 256, max_len)
                        .unwrap();
                for b in &batches {
                    g.train_step(b, hyper.lr).unwrap();
                }
                g.drain_results().await.unwrap();
                g.read_params().await.unwrap()
            }
        });
        assert_eq!(w.params.len(), want.len());
        let same = w
            .params
            .iter()
            .zip(&want)
            .all(|(a, b)| a.to_bits() == b.to_bits() || (a - b).abs() <= 1e-6 * b.abs());
        assert!(
            same,
            "{backend:?}: final weights are those after step {}",
            w.step
        );
    }
}

/// A head=padded session on the GPU (lavapipe) follows the CPU session of the same seed step
/// by step, and its validation accuracy matches.
#[test]
fn padded_session_gpu_follows_cpu() {
    let data = small_dataset(30);
    let cfg = TrainConfig {
        hidden_size: 16,
        batch_size: 32,
        epochs: 1,
        seed: 7,
        head: Head::Padded,
        backend: BackendChoice::Gpu,
        ..TrainConfig::default()
    };
    let gpu = run(&cfg, &data, &TrainControl::new());
    assert!(matches!(
        gpu[1],
        TrainEvent::Backend(BackendKind::Gpu { .. })
    ));
    let cpu = run(
        &TrainConfig {
            backend: BackendChoice::Cpu,
            ..cfg
        },
        &data,
        &TrainControl::new(),
    );
    let (g, c) = (steps(&gpu), steps(&cpu));
    assert_eq!(g.len(), c.len());
    for ((s, a), (_, b)) in g.iter().zip(&c) {
        assert!((a - b).abs() < 1e-3, "step {s}: gpu {a} cpu {b}");
    }
    let acc = |ev: &[TrainEvent]| {
        ev.iter()
            .find_map(|e| match e {
                TrainEvent::Validation(v) => Some(v.accuracy()),
                _ => None,
            })
            .unwrap()
    };
    let n_val = Split::new(&data, 7, VAL_FRACTION).val.len() as f32;
    assert!((acc(&gpu) - acc(&cpu)).abs() <= 1.0 / n_val + 1e-6);
}

/// The GPU optimizer halts at a non-finite loss: a batch whose logits overflow (loss inf/NaN)
/// is skipped and so are the ordinary batches submitted after it, until `reset`. Hand-made
/// weights: symbol 1 drives both hidden units to +1 and fc.weight[0] = [3e38, 3e38] overflows;
/// symbol 2 gives (+1, −1) and a finite loss.
#[test]
fn gpu_halts_after_a_non_finite_loss() {
    use unroll_core::math::classifier::ClassifierBatch;
    use unroll_core::math::params::{CellKind, RnnSpec};
    let spec = RnnSpec::new(CellKind::Rnn, 4, 2);
    let model = ClassifierModel::new(spec, 2);
    let mut params = vec![0.0f32; model.layout.total_len()];
    let w_ih = model.layout.get("rnn.weight_ih_l0").unwrap().offset;
    params[w_ih..w_ih + 8].copy_from_slice(&[0.0, 10.0, 10.0, 0.0, 0.0, 10.0, -10.0, 0.0]);
    let fc = model.layout.get("fc.weight").unwrap().offset;
    params[fc..fc + 2].copy_from_slice(&[3e38, 3e38]);
    let name = |s: u32| ClassifierBatch {
        batch: 1,
        seq_len: 1,
        tokens: vec![s],
        lengths: vec![1],
        labels: vec![1],
    };
    let (bad, good) = (name(1), name(2));
    assert!(!model.loss_and_grads(&params, &bad).0.is_finite());
    assert!(model.loss_and_grads(&params, &good).0.is_finite());
    pollster::block_on(async {
        let ctx = GpuContext::new()
            .await
            .expect("a Vulkan adapter (lavapipe)");
        let mut g = GpuClassifier::new(&ctx, spec, 2, &params, 4, 4).unwrap();
        for b in [&good, &bad, &good, &good] {
            g.train_step(b, 0.1).unwrap();
        }
        let r = g.drain_results().await.unwrap();
        assert!(r[0].loss.is_finite() && !r[0].skipped, "{:?}", r[0]);
        assert!(!r[1].loss.is_finite() && r[1].skipped, "{:?}", r[1]);
        assert!(
            r[2..].iter().all(|s| s.loss.is_finite() && s.skipped),
            "{r:?}"
        );
        let after_first = g.read_params().await.unwrap();
        let mut cpu = CpuTrainer::new(model.clone(), params.clone());
        let hyper = Hyper {
            lr: 0.1,
            max_norm: 0.0,
        };
        cpu.step(&good, &hyper);
        for (a, b) in after_first.iter().zip(cpu.params()) {
            assert!((a - b).abs() <= 1e-6 * b.abs().max(1.0), "{a} vs {b}");
        }
        assert_ne!(after_first, params, "the first step was applied");
        let state = g.read_state().await.unwrap();
        assert_eq!(state.adam.step, 1, "Adam counted the first step only");
        g.reset(&params).unwrap();
        g.train_step(&good, 0.1).unwrap();
        let r = g.drain_results().await.unwrap();
        assert!(!r[0].skipped, "reset lifts the halt");
    });
}

/// The configuration of the resume tests: a small GRU on the CPU, 2 epochs.
fn resume_cfg() -> TrainConfig {
    TrainConfig {
        cell: unroll_core::config::CellKind::Gru,
        hidden_size: 16,
        batch_size: 16,
        epochs: 2,
        seed: 3,
        backend: BackendChoice::Cpu,
        ..TrainConfig::default()
    }
}

fn last_val_acc(events: &[TrainEvent]) -> Option<f32> {
    events.iter().rev().find_map(|e| match e {
        TrainEvent::Epoch(r) => Some(r.val_acc),
        _ => None,
    })
}

/// A run paused at step 7 checkpoints there; a run resumed from that checkpoint gives exactly
/// the uninterrupted run's later steps, epoch reports and final weights.
#[test]
fn resuming_from_a_mid_epoch_checkpoint_gives_the_uninterrupted_run() {
    let data = small_dataset(20);
    let cfg = resume_cfg();
    let whole = run(&cfg, &data, &TrainControl::new());
    assert!(matches!(whole.last(), Some(TrainEvent::Finished)));

    let control = TrainControl::new();
    let ctl = control.clone();
    let mut checkpoint = None;
    pollster::block_on(run_session(&cfg, &data, &control, &mut |e| match e {
        TrainEvent::Step { step: 7, .. } => ctl.pause(),
        TrainEvent::Checkpoint(c) if ctl.is_paused() => {
            checkpoint = Some(c);
            ctl.stop();
        }
        _ => {}
    }));
    let checkpoint = checkpoint.expect("a checkpoint on pause");
    assert_eq!(
        (checkpoint.step, checkpoint.epoch, checkpoint.batches_done),
        (7, 1, 7)
    );
    assert_eq!(checkpoint.recent.len(), 7);

    let mut resumed = Vec::new();
    pollster::block_on(run_session_from(
        &cfg,
        &data,
        &TrainControl::new(),
        Some(&checkpoint),
        &mut |e| resumed.push(e),
    ));
    let after: Vec<(u64, f32)> = steps(&whole).into_iter().filter(|(s, _)| *s > 7).collect();
    assert_eq!(steps(&resumed), after);
    let epochs = |ev: &[TrainEvent]| -> Vec<EpochReport> {
        ev.iter()
            .filter_map(|e| match e {
                TrainEvent::Epoch(r) => Some(EpochReport { sec: 0.0, ..*r }),
                _ => None,
            })
            .collect()
    };
    assert_eq!(epochs(&resumed), epochs(&whole));
    assert_eq!(last_val_acc(&resumed), last_val_acc(&whole));
    let final_weights = |ev: &[TrainEvent]| {
        ev.iter().rev().find_map(|e| match e {
            TrainEvent::Weights(w) => Some(w.params.clone()),
            _ => None,
        })
    };
    assert_eq!(final_weights(&resumed), final_weights(&whole));
    assert!(matches!(resumed.last(), Some(TrainEvent::Finished)));
}

/// The checkpoint sent at an epoch's end resumes at the next epoch's first batch (the finished
/// epoch is not trained or validated again).
#[test]
fn an_epoch_end_checkpoint_resumes_at_the_next_epoch() {
    let data = small_dataset(20);
    let cfg = resume_cfg();
    let whole = run(&cfg, &data, &TrainControl::new());
    let first_epoch_end = whole
        .iter()
        .skip_while(|e| !matches!(e, TrainEvent::Epoch(_)))
        .find_map(|e| match e {
            TrainEvent::Checkpoint(c) => Some(c.clone()),
            _ => None,
        })
        .expect("a checkpoint after epoch 1");
    assert_eq!(
        (first_epoch_end.epoch, first_epoch_end.batches_done),
        (2, 0)
    );
    let mut resumed = Vec::new();
    pollster::block_on(run_session_from(
        &cfg,
        &data,
        &TrainControl::new(),
        Some(&first_epoch_end),
        &mut |e| resumed.push(e),
    ));
    let reports: Vec<u32> = resumed
        .iter()
        .filter_map(|e| match e {
            TrainEvent::Epoch(r) => Some(r.epoch),
            _ => None,
        })
        .collect();
    assert_eq!(reports, vec![2]);
    assert_eq!(last_val_acc(&resumed), last_val_acc(&whole));
    assert_eq!(
        steps(&resumed).first().map(|s| s.0),
        Some(first_epoch_end.step + 1)
    );
}

/// A checkpoint of another architecture is refused with a message, not a panic.
#[test]
fn a_checkpoint_of_another_model_is_refused() {
    let data = small_dataset(5);
    let cfg = resume_cfg();
    let bad = Checkpoint {
        step: 3,
        epoch: 1,
        batches_done: 3,
        epoch_loss: 0.0,
        epoch_correct: 0,
        epoch_names: 0,
        params: vec![0.0; 10],
        adam_step: 3,
        adam_m: vec![0.0; 10],
        adam_v: vec![0.0; 10],
        recent: vec![],
    };
    let mut events = Vec::new();
    pollster::block_on(run_session_from(
        &cfg,
        &data,
        &TrainControl::new(),
        Some(&bad),
        &mut |e| events.push(e),
    ));
    assert!(
        matches!(events.as_slice(), [TrainEvent::Error(e @ TrainError::ResumeMismatch { saved, expected })]
            if *saved != *expected && e.to_string().contains("cannot be resumed")),
        "{events:?}"
    );
}

/// The same configuration and seed give the same run: on the CPU identical per-step losses, on
/// the GPU (lavapipe) the same final validation accuracy and confusion matrix. A step's
/// arithmetic never depends on timing or machine load.
#[test]
fn the_same_configuration_trains_the_same_twice() {
    let data = small_dataset(15);
    let validation = |ev: &[TrainEvent]| {
        ev.iter().rev().find_map(|e| match e {
            TrainEvent::Validation(v) => Some((**v).clone()),
            _ => None,
        })
    };
    let cpu = resume_cfg();
    let (a, b) = (
        run(&cpu, &data, &TrainControl::new()),
        run(&cpu, &data, &TrainControl::new()),
    );
    assert!(!steps(&a).is_empty());
    assert_eq!(steps(&a), steps(&b));
    assert_eq!(validation(&a), validation(&b));
    let gpu = TrainConfig {
        backend: BackendChoice::Gpu,
        epochs: 1,
        ..cpu
    };
    let (a, b) = (
        run(&gpu, &data, &TrainControl::new()),
        run(&gpu, &data, &TrainControl::new()),
    );
    assert!(
        a.iter()
            .any(|e| matches!(e, TrainEvent::Backend(BackendKind::Gpu { .. }))),
        "the GPU path ran"
    );
    assert_eq!(last_val_acc(&a), last_val_acc(&b));
    assert!(validation(&a).is_some());
    assert_eq!(validation(&a), validation(&b));
}

/// "Train on from these weights": a run from a trained model's parameters with fresh Adam
/// moments starts at that model's level (its first step's loss is near the last epoch's
/// training loss, far below chance, ln C), numbers its steps from 1 again, and differs from a
/// resume (which keeps Adam's moments).
#[test]
fn a_run_started_from_trained_weights_goes_on_from_their_level() {
    let data = small_dataset(20);
    // A rate at which 4 epochs of this small set learn well past chance.
    let cfg = TrainConfig {
        lr: 0.03,
        epochs: 4,
        ..resume_cfg()
    };
    let whole = run(&cfg, &data, &TrainControl::new());
    let trained = whole
        .iter()
        .rev()
        .find_map(|e| match e {
            TrainEvent::Weights(w) => Some(w.params.clone()),
            _ => None,
        })
        .expect("final weights");
    let last_train_loss = whole
        .iter()
        .rev()
        .find_map(|e| match e {
            TrainEvent::Epoch(r) => Some(r.train_loss),
            _ => None,
        })
        .expect("an epoch report");
    let from = Checkpoint::start_from(trained.clone());
    assert_eq!((from.step, from.epoch, from.adam_step), (0, 1, 0));
    assert!(from.adam_m.iter().chain(&from.adam_v).all(|&x| x == 0.0));
    let mut on = Vec::new();
    pollster::block_on(run_session_from(
        &cfg,
        &data,
        &TrainControl::new(),
        Some(&from),
        &mut |e| on.push(e),
    ));
    let first = steps(&on)[0];
    let fresh = steps(&whole)[0];
    let chance = (data.num_classes() as f32).ln();
    assert_eq!(first.0, 1, "steps count from 1 again");
    assert!(
        first.1 < 0.8 * fresh.1 && first.1 < chance,
        "first step {} vs a fresh run's {} (chance {chance})",
        first.1,
        fresh.1
    );
    assert!(
        (first.1 - last_train_loss).abs() < 0.5 * last_train_loss,
        "first step {} near the trained model's last epoch {}",
        first.1,
        last_train_loss
    );
    assert!(matches!(on.last(), Some(TrainEvent::Finished)));
}
