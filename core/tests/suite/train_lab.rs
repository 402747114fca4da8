//! The training session's lab behaviour on a small slice of the real names data: the
//! confusion matrix after each epoch, gradient-flow events, head=padded on the GPU against
//! the CPU, device loss (training continues on the CPU with a continuous step sequence), and a
//! non-finite loss (stop with a suggestion, weights from before the bad step). GPU tests run on
//! lavapipe natively.

use std::path::Path;
use std::sync::Arc;

use unroll_core::config::{BackendChoice, Head, TrainConfig};
use unroll_core::data::batches::Batches;
use unroll_core::data::names::{locate_names_dir, NamesDataset};
use unroll_core::data::normalize::VOCAB_SIZE;
use unroll_core::data::split::{Split, VAL_FRACTION};
use unroll_core::engine::protocol::{LabEvent, TrainRequest};
use unroll_core::engine::run::{run as run_loop, sweep_of, RunControl};
use unroll_core::gpu::context::GpuContext;
use unroll_core::gpu::{GpuError, GpuModel, InputKind};
use unroll_core::math::init::init_params;
use unroll_core::math::model::{SeqModel, PADDED_LEN};
use unroll_core::math::optim::{Adam, AdamConfig};
use unroll_core::task::names::{ValReport, GRAD_FLOW_NAMES};
use unroll_core::train::backend::BackendKind;
use unroll_core::train::messages::{CpuReason, TrainError};
use unroll_core::train::sweep::{HeldOut, ResumeRefused, Sweep, SweepCheckpoint, SweepPlan, Tick};
use unroll_core::train::trainer::{Recipe, Repeat, Trainer};

/// The first `per_class` names of every language of the real data.
fn small_dataset(per_class: usize) -> Arc<NamesDataset> {
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
    Arc::new(NamesDataset::from_class_files(files).unwrap())
}

/// The names page's request for `cfg`.
fn request(cfg: &TrainConfig) -> TrainRequest {
    TrainRequest {
        query: cfg.to_query(),
        data: None,
        resume: None,
        start_from: None,
        shares: 1,
    }
}

/// The events of the names run of `request` on `data`, driven by the engine's one loop.
fn run_request(
    request: &TrainRequest,
    data: &Arc<NamesDataset>,
    control: &RunControl,
    on: &mut dyn FnMut(&LabEvent),
) -> Vec<LabEvent> {
    let (sweep, backend) = sweep_of(request, Some(data.clone())).unwrap();
    let mut events = Vec::new();
    pollster::block_on(run_loop(sweep, backend, true, control, &mut |e| {
        on(&e);
        events.push(e)
    }));
    events
}

fn run(cfg: &TrainConfig, data: &Arc<NamesDataset>, control: &RunControl) -> Vec<LabEvent> {
    run_request(&request(cfg), data, control, &mut |_| {})
}

fn ticks(events: &[LabEvent]) -> Vec<Tick> {
    events
        .iter()
        .filter_map(|e| match e {
            LabEvent::Tick(t) => Some(t.as_ref().clone()),
            _ => None,
        })
        .collect()
}

/// Every step's number and loss.
fn steps(events: &[LabEvent]) -> Vec<(u64, f64)> {
    ticks(events)
        .iter()
        .flat_map(|t| t.steps.iter().map(|s| (s.step, s.loss)))
        .collect()
}

/// Every held-out evaluation (the epochs' ends) with its confusion matrix.
fn evals(events: &[LabEvent]) -> Vec<(HeldOut, Vec<u32>)> {
    ticks(events)
        .into_iter()
        .filter_map(|t| Some((t.heldout?, t.confusion?)))
        .collect()
}

/// The last weights published.
fn final_weights(events: &[LabEvent]) -> Option<Vec<f32>> {
    events.iter().rev().find_map(|e| match e {
        LabEvent::Weights { weights, .. } => Some(weights.params.clone()),
        _ => None,
    })
}

fn last_val_acc(events: &[LabEvent]) -> Option<f64> {
    evals(events).last().map(|(h, _)| h.acc)
}

/// Every epoch ends with a held-out evaluation and its confusion matrix: the matrix sums to
/// the validation size and its diagonal gives the epoch's accuracy; per-class accuracies and
/// the majority baseline come from the same counts. Every `Weights` is followed by a
/// `GradFlow` for its step, of the batch's read length, positive at the read-out step.
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
        let events = run(&cfg, &data, &RunControl::new());
        let per_epoch = split.train.len().div_ceil(32) as u64;
        let evaluations = evals(&events);
        assert_eq!(evaluations.len(), 2);
        for (k, (h, confusion)) in evaluations.iter().enumerate() {
            assert_eq!(h.step, (k as u64 + 1) * per_epoch);
            let v = ValReport {
                epoch: k as u32 + 1,
                num_classes: 18,
                confusion: confusion.clone(),
            };
            assert_eq!(v.total(), split.val.len());
            assert!((f64::from(v.accuracy()) - h.acc).abs() < 1e-6);
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
        let mut flows = 0;
        for (i, e) in events.iter().enumerate() {
            if let LabEvent::Weights { weights: w, .. } = e {
                assert_eq!(w.model.head, head);
                let Some(LabEvent::GradFlow { step, norms, .. }) = events.get(i + 1) else {
                    panic!("Weights at step {} not followed by GradFlow", w.step);
                };
                flows += 1;
                assert_eq!(*step, w.step);
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
                assert_eq!(norms.len(), want_len);
                assert!(norms[0] > 0.0 && norms.iter().all(|g| g.is_finite()));
            }
        }
        assert!(flows >= 3, "at the start and after each epoch");
        assert!(matches!(events.last(), Some(LabEvent::Finished)));
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
    let spec = Recipe::of_names(&cfg).spec(cfg.cell, VOCAB_SIZE);
    let model = SeqModel::new(spec, data.num_classes()).with_head(Head::Padded);
    let params = init_params(&model.layout, &model.spec, 4);
    let indices: Vec<usize> = (0..data.len()).step_by(7).collect();
    let batch = Batches::eval(&data, &indices, 64).next().unwrap();
    assert!(batch.lengths.iter().any(|&l| l > 10) && batch.lengths.iter().any(|&l| l < 5));
    pollster::block_on(async {
        let ctx = GpuContext::new()
            .await
            .expect("a Vulkan adapter (lavapipe)");
        let mut gpu =
            GpuModel::new(&ctx, &model, InputKind::OneHot, &params, 64, batch.seq_len).unwrap();
        assert_eq!(gpu.head(), Head::Padded);
        let logits = gpu.evaluate(&batch).await.unwrap();
        let want = model.forward(&params, &batch).outputs;
        let last = SeqModel::new(model.spec, model.outputs).forward(&params, &batch);
        for (i, (a, b)) in logits.iter().zip(&want).enumerate() {
            assert!((a - b).abs() < 1e-4, "logit {i}: gpu {a} cpu {b}");
        }
        assert!(
            last.outputs
                .iter()
                .zip(&want)
                .any(|(a, b)| (a - b).abs() > 1e-3),
            "the padded head reads another output than the last one"
        );
        gpu.train_step(&batch, 1e-3).unwrap();
        gpu.drain_results().await.unwrap();
        let grads = gpu.read_grads().await.unwrap();
        let (_, want) = model.loss_and_grads(&params, &batch);
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
/// `Backend(Cpu { notice: DeviceLost })`; steps 1..N with no gap or repeat; training finishes;
/// the losses after the switch stay close to an uninterrupted CPU run of the same seed (GPU
/// and CPU sum floats in different orders).
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
    let control = RunControl::new();
    let c = control.clone();
    // In the second epoch: training resumes from the state read back at the end of the first
    // (not from the initial weights) and runs again the steps reported since.
    let trigger = per_epoch + 3;
    let events = run_request(&request(&cfg), &data, &control, &mut |e| {
        if let LabEvent::Tick(t) = e {
            if t.steps.iter().any(|s| s.step == trigger) {
                c.simulate_device_loss();
            }
        }
    });
    let lost: Vec<usize> = (0..events.len())
        .filter(|&i| {
            matches!(&events[i], LabEvent::Backend(b) if matches!(b.kind, BackendKind::Cpu { .. }))
        })
        .collect();
    assert_eq!(lost.len(), 1, "one switch to the CPU");
    let LabEvent::Backend(b) = &events[lost[0]] else {
        unreachable!()
    };
    eprintln!("{b:?}");
    assert!(
        matches!(
            &b.kind,
            BackendKind::Cpu {
                notice: Some(CpuReason::DeviceLost {
                    error: GpuError::DeviceLost(_),
                    ..
                })
            }
        ),
        "{b:?}"
    );
    assert!(events
        .iter()
        .any(|e| matches!(e, LabEvent::Backend(b) if matches!(b.kind, BackendKind::Gpu { .. }))));
    let gpu_steps = steps(&events);
    let numbers: Vec<u64> = gpu_steps.iter().map(|s| s.0).collect();
    assert_eq!(numbers, (1..=2 * per_epoch).collect::<Vec<_>>());
    let switch = steps(&events[..lost[0]]).len();
    assert!(
        (trigger as usize..2 * per_epoch as usize).contains(&switch),
        "switched after step {switch}"
    );
    assert!(matches!(events.last(), Some(LabEvent::Finished)));

    let cpu_cfg = TrainConfig {
        backend: BackendChoice::Cpu,
        ..cfg
    };
    let cpu_events = run(&cpu_cfg, &data, &RunControl::new());
    let cpu_steps = steps(&cpu_events);
    // Batch sizes per step: the GPU's (read back in bursts, then the CPU's after the switch)
    // are the CPU run's, which are the batches' own.
    let names = |events: &[LabEvent]| -> Vec<u32> {
        ticks(events)
            .iter()
            .flat_map(|t| t.steps.iter().map(|s| s.sequences))
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
            .fold(0.0f64, f64::max)
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

/// The names recipe at `hidden_size`, batches of 32, `epochs` epochs from `seed`, on the CPU path.
fn on_cpu(hidden_size: usize, epochs: u32, seed: u32) -> TrainConfig {
    TrainConfig {
        hidden_size,
        batch_size: 32,
        epochs,
        seed,
        backend: BackendChoice::Cpu,
        ..TrainConfig::default()
    }
}

/// The divergence debug hook (the page's `window.unrollDebug.diverge()`) really trains with a
/// far too large learning rate: the run stops with the non-finite loss of a step, as a
/// diverging run does, followed by the weights from before that step.
#[test]
fn the_divergence_hook_stops_with_a_non_finite_loss() {
    let data = small_dataset(20);
    let cfg = on_cpu(16, 1, 3);
    let control = RunControl::new();
    control.simulate_divergence();
    let events = run(&cfg, &data, &control);
    let n = events.len();
    let LabEvent::Error(TrainError::BadLoss { loss, step, .. }) = &events[n - 2] else {
        panic!("no BadLoss before the end: {:?}", &events[n - 2]);
    };
    assert!(!loss.is_finite(), "{loss}");
    assert_eq!(*step, steps(&events).len() as u64 + 1);
    assert!(matches!(&events[n - 1], LabEvent::Weights { weights: w, .. } if w.step == *step - 1));
}

/// The hold hook pauses the loop at the first tick boundary at or after its step: a
/// checkpoint of that step comes before any later step, the loop waits until resumed, and the
/// run then ends with the steps and weights of a run never held.
#[test]
fn the_hold_hook_pauses_at_its_step_and_changes_no_number() {
    let data = small_dataset(40);
    let cfg = on_cpu(12, 2, 4);
    let whole = run(&cfg, &data, &RunControl::new());
    let per_epoch = Split::new(&data, 4, VAL_FRACTION).train.len().div_ceil(32) as u64;
    let hold = per_epoch + 2;
    let control = RunControl::new();
    control.hold_at(hold);
    let c = control.clone();
    let mut held = None;
    let mut after_hold = 0;
    let events = run_request(&request(&cfg), &data, &control, &mut |e| match e {
        LabEvent::Checkpoint(k) if c.is_paused() && held.is_none() => {
            held = Some(k.step());
            c.resume();
        }
        LabEvent::Tick(t) if held.is_some() => after_hold += t.steps.len(),
        _ => {}
    });
    let held = held.expect("a checkpoint while held");
    assert!(
        held >= hold && held < 2 * per_epoch,
        "held at step {held}, asked {hold}"
    );
    let before: Vec<u64> = steps(&events)
        .iter()
        .map(|s| s.0)
        .filter(|&s| s <= held)
        .collect();
    assert_eq!(
        before,
        (1..=held).collect::<Vec<_>>(),
        "no step past the hold before it"
    );
    assert_eq!(
        after_hold as u64,
        2 * per_epoch - held,
        "the steps after the hold"
    );
    assert_eq!(steps(&events), steps(&whole));
    assert_eq!(final_weights(&events), final_weights(&whole));
}

/// A huge learning rate drives the loss to NaN/inf: the run ends with an `Error` that suggests
/// a lower learning rate and clipping, followed by the weights from before the bad step: on the
/// CPU exactly those of a trainer run for the steps before it; on the GPU those of a
/// `GpuModel` stepped exactly that far (the steps already in flight were skipped).
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
        // The page's form caps `lr` at 1: the plan is built here, not from a query.
        let sweep = Sweep::new(SweepPlan::of_names(&cfg, data.clone()));
        let mut events = Vec::new();
        pollster::block_on(run_loop(
            sweep,
            backend,
            true,
            &RunControl::new(),
            &mut |e| events.push(e),
        ));
        let n = events.len();
        let LabEvent::Error(error) = &events[n - 2] else {
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
        let LabEvent::Weights { weights: w, .. } = &events[n - 1] else {
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
        let recipe = Recipe::of_names(&cfg);
        let model = SeqModel::new(recipe.spec(cfg.cell, VOCAB_SIZE), data.num_classes());
        let params = init_params(&model.layout, &model.spec, 2);
        let batches: Vec<_> = Batches::train_epoch(&data, &split.train, 32, 2, 0)
            .take(w.step as usize)
            .collect();
        let want = pollster::block_on(async {
            if backend == BackendChoice::Cpu {
                let adam = Adam::new(
                    AdamConfig {
                        lr: 1e37,
                        ..AdamConfig::default()
                    },
                    params.len(),
                );
                let stream = Box::new(Repeat(batches[0].clone()));
                let mut t = Trainer::of_model(model.clone(), params.clone(), adam, None, stream);
                for b in &batches {
                    t.step_on(b);
                }
                t.params().to_vec()
            } else {
                let ctx = GpuContext::new().await.unwrap();
                let max_len = data.samples().iter().map(|s| s.tokens.len()).max().unwrap();
                let mut g =
                    GpuModel::new(&ctx, &model, InputKind::OneHot, &params, 256, max_len).unwrap();
                for b in &batches {
                    g.train_step_clipped(b, 1e37, f32::INFINITY).unwrap();
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

/// A head=padded run on the GPU (lavapipe) follows the CPU run of the same seed step by step,
/// and its validation accuracy matches.
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
    let gpu = run(&cfg, &data, &RunControl::new());
    assert!(gpu
        .iter()
        .any(|e| matches!(e, LabEvent::Backend(b) if matches!(b.kind, BackendKind::Gpu { .. }))));
    let cpu = run(
        &TrainConfig {
            backend: BackendChoice::Cpu,
            ..cfg
        },
        &data,
        &RunControl::new(),
    );
    let (g, c) = (steps(&gpu), steps(&cpu));
    assert_eq!(g.len(), c.len());
    for ((s, a), (_, b)) in g.iter().zip(&c) {
        assert!((a - b).abs() < 1e-3, "step {s}: gpu {a} cpu {b}");
    }
    let n_val = Split::new(&data, 7, VAL_FRACTION).val.len() as f64;
    let (a, b) = (last_val_acc(&gpu).unwrap(), last_val_acc(&cpu).unwrap());
    assert!((a - b).abs() <= 1.0 / n_val + 1e-6);
}

/// The GPU optimizer halts at a non-finite loss: a batch whose logits overflow (loss inf/NaN)
/// is skipped and so are the ordinary batches submitted after it, until `reset` or
/// `resume_after_halt`. Hand-made weights: symbol 1 drives both hidden units to +1 and
/// fc.weight[0] = [3e38, 3e38] overflows; symbol 2 gives (+1, −1) and a finite loss.
#[test]
fn gpu_halts_after_a_non_finite_loss() {
    use unroll_core::math::model::SeqBatch;
    use unroll_core::math::params::{CellKind, RnnSpec};
    let spec = RnnSpec::new(CellKind::Rnn, 4, 2);
    let model = SeqModel::new(spec, 2);
    let mut params = vec![0.0f32; model.layout.total_len()];
    let w_ih = model.layout.get("rnn.weight_ih_l0").unwrap().offset;
    params[w_ih..w_ih + 8].copy_from_slice(&[0.0, 10.0, 10.0, 0.0, 0.0, 10.0, -10.0, 0.0]);
    let fc = model.layout.get("fc.weight").unwrap().offset;
    params[fc..fc + 2].copy_from_slice(&[3e38, 3e38]);
    let name = |s: u32| SeqBatch::of_batch_first(1, 1, &[s], vec![1], vec![1]);
    let (bad, good) = (name(1), name(2));
    assert!(!model
        .loss_and_grads(&params, &bad)
        .0
        .mean_loss()
        .is_finite());
    assert!(model
        .loss_and_grads(&params, &good)
        .0
        .mean_loss()
        .is_finite());
    pollster::block_on(async {
        let ctx = GpuContext::new()
            .await
            .expect("a Vulkan adapter (lavapipe)");
        let mut g = GpuModel::new(&ctx, &model, InputKind::OneHot, &params, 4, 4).unwrap();
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
        let adam = Adam::new(
            AdamConfig {
                lr: 0.1,
                ..AdamConfig::default()
            },
            params.len(),
        );
        let mut cpu = Trainer::of_model(
            model.clone(),
            params.clone(),
            adam,
            None,
            Box::new(Repeat(good.clone())),
        );
        cpu.step_on(&good);
        for (a, b) in after_first.iter().zip(cpu.params()) {
            assert!((a - b).abs() <= 1e-6 * b.abs().max(1.0), "{a} vs {b}");
        }
        assert_ne!(after_first, params, "the first step was applied");
        let state = g.read_state().await.unwrap();
        assert_eq!(state.adam.step, 1, "Adam counted the first step only");
        // Lifting the halt keeps the weights and Adam's state: the next step is applied.
        g.resume_after_halt();
        g.train_step(&good, 0.1).unwrap();
        let r = g.drain_results().await.unwrap();
        assert!(!r[0].skipped, "the halt is lifted");
        assert_eq!(g.read_state().await.unwrap().adam.step, 2);
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

/// The checkpoint a run of `cfg` sends on pause right after step `at`.
fn checkpoint_at(cfg: &TrainConfig, data: &Arc<NamesDataset>, at: u64) -> SweepCheckpoint {
    let control = RunControl::new();
    let ctl = control.clone();
    let mut checkpoint = None;
    run_request(&request(cfg), data, &control, &mut |e| match e {
        LabEvent::Tick(t) if t.steps.last().is_some_and(|s| s.step == at) => ctl.pause(),
        LabEvent::Checkpoint(c) if ctl.is_paused() => {
            checkpoint = Some(c.as_ref().clone());
            ctl.stop();
        }
        _ => {}
    });
    checkpoint.expect("a checkpoint on pause")
}

/// A run paused at step 7 checkpoints there; a run resumed from that checkpoint gives exactly
/// the uninterrupted run's later steps, epoch evaluations and final weights.
#[test]
fn resuming_from_a_mid_epoch_checkpoint_gives_the_uninterrupted_run() {
    let data = small_dataset(20);
    let cfg = resume_cfg();
    let whole = run(&cfg, &data, &RunControl::new());
    assert!(matches!(whole.last(), Some(LabEvent::Finished)));
    let checkpoint = checkpoint_at(&cfg, &data, 7);
    let c = &checkpoint.runs[0];
    assert_eq!((c.trainer.step, c.trainer.stream_position), (7, 7));
    assert!(c.curve.is_empty(), "no epoch ended yet");
    assert_eq!(c.window.steps, 7, "the epoch's 7 losses so far");
    let resumed = run_request(
        &TrainRequest {
            resume: Some(checkpoint.clone()),
            ..request(&cfg)
        },
        &data,
        &RunControl::new(),
        &mut |_| {},
    );
    let after: Vec<(u64, f64)> = steps(&whole).into_iter().filter(|(s, _)| *s > 7).collect();
    assert_eq!(steps(&resumed), after);
    assert_eq!(evals(&resumed), evals(&whole));
    assert_eq!(last_val_acc(&resumed), last_val_acc(&whole));
    assert_eq!(final_weights(&resumed), final_weights(&whole));
    assert!(matches!(resumed.last(), Some(LabEvent::Finished)));
}

/// The checkpoint sent right after an epoch's evaluation resumes at the next epoch's first
/// batch (the finished epoch is not trained or validated again).
#[test]
fn an_epoch_end_checkpoint_resumes_at_the_next_epoch() {
    let data = small_dataset(20);
    let cfg = resume_cfg();
    let whole = run(&cfg, &data, &RunControl::new());
    let first_epoch_end = whole
        .iter()
        .skip_while(|e| !matches!(e, LabEvent::Tick(t) if t.heldout.is_some()))
        .find_map(|e| match e {
            LabEvent::Checkpoint(c) => Some(c.as_ref().clone()),
            _ => None,
        })
        .expect("a checkpoint after epoch 1");
    let per_epoch = evals(&whole)[0].0.step;
    let r = &first_epoch_end.runs[0];
    assert_eq!((r.trainer.step, r.curve.len()), (per_epoch, 1));
    let resumed = run_request(
        &TrainRequest {
            resume: Some(first_epoch_end.clone()),
            ..request(&cfg)
        },
        &data,
        &RunControl::new(),
        &mut |_| {},
    );
    let reports: Vec<u64> = evals(&resumed).iter().map(|(h, _)| h.step).collect();
    assert_eq!(reports, vec![2 * per_epoch]);
    assert_eq!(last_val_acc(&resumed), last_val_acc(&whole));
    assert_eq!(steps(&resumed).first().map(|s| s.0), Some(per_epoch + 1));
}

/// A checkpoint of another architecture is refused with a message, not a panic.
#[test]
fn a_checkpoint_of_another_model_is_refused() {
    let data = small_dataset(5);
    let cfg = resume_cfg();
    let mut bad = checkpoint_at(&cfg, &data, 3);
    bad.runs[0].trainer.params.truncate(10);
    let Err(e) = sweep_of(
        &TrainRequest {
            resume: Some(bad),
            ..request(&cfg)
        },
        Some(data.clone()),
    ) else {
        panic!("the checkpoint was taken");
    };
    assert!(
        matches!(&e, TrainError::Resume(ResumeRefused::Shape { saved: 10, expected, .. }) if *expected > 10),
        "{e:?}"
    );
    assert!(e.to_string().contains("cannot be resumed"), "{e}");
}

/// The same configuration and seed give the same run: on the CPU identical per-step losses, on
/// the GPU (lavapipe) the same final validation accuracy and confusion matrix. A step's
/// arithmetic never depends on timing or machine load.
#[test]
fn the_same_configuration_trains_the_same_twice() {
    let data = small_dataset(15);
    let validation = |ev: &[LabEvent]| evals(ev).last().map(|(_, c)| c.clone());
    let cpu = resume_cfg();
    let (a, b) = (
        run(&cpu, &data, &RunControl::new()),
        run(&cpu, &data, &RunControl::new()),
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
        run(&gpu, &data, &RunControl::new()),
        run(&gpu, &data, &RunControl::new()),
    );
    assert!(
        a.iter().any(
            |e| matches!(e, LabEvent::Backend(b) if matches!(b.kind, BackendKind::Gpu { .. }))
        ),
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
    let whole = run(&cfg, &data, &RunControl::new());
    let trained = final_weights(&whole).expect("final weights");
    let last_train_loss = evals(&whole)
        .last()
        .and_then(|(h, _)| h.train_loss)
        .expect("an epoch's training loss");
    let on = run_request(
        &TrainRequest {
            start_from: Some(trained),
            ..request(&cfg)
        },
        &data,
        &RunControl::new(),
        &mut |_| {},
    );
    let first = steps(&on)[0];
    let fresh = steps(&whole)[0];
    let chance = (data.num_classes() as f64).ln();
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
    assert!(matches!(on.last(), Some(LabEvent::Finished)));
}
