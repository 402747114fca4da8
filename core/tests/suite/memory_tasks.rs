//! The long-memory tasks: generator shapes and structure, seeded determinism, the fixed
//! held-out set, the memoryless baselines on it, the model's loss and gradients against
//! PyTorch (core/tests/fixtures/memory/*.json, float64), and a short training run.

use crate::common::{self, Tensor};
use unroll_core::math::loss::ReadoutSums;
use unroll_core::math::model::{SeqBatch, SeqModel, Targets};
use unroll_core::math::params::CellKind;
use unroll_core::math::recurrent::SeqData;
use unroll_core::memory::task::{
    HELDOUT_SEED, HELDOUT_SEQUENCES, ORDER_END, ORDER_START, ORDER_X, ORDER_Y,
};
use unroll_core::memory::{paper_copy_loss, MemoryTask, TaskKind};
use unroll_core::task::{BaselineRule, Criterion, Task};
use unroll_core::train::sweep::{solved_after, HeldOut};
use unroll_core::train::trainer::{at_once, model_of, Recipe, Trainer};

fn dense(b: &SeqBatch) -> &[f32] {
    match &b.input {
        SeqData::Dense(x) => x,
        SeqData::Tokens(_) => panic!("expected dense input"),
    }
}

fn tokens(b: &SeqBatch) -> &[u32] {
    match &b.input {
        SeqData::Tokens(x) => x,
        SeqData::Dense(_) => panic!("expected tokens"),
    }
}

fn values(b: &SeqBatch) -> &[f32] {
    match &b.targets {
        Targets::Values(v) => v,
        Targets::Classes(_) => panic!("expected values"),
    }
}

fn classes(b: &SeqBatch) -> &[u32] {
    match &b.targets {
        Targets::Classes(c) => c,
        Targets::Values(_) => panic!("expected classes"),
    }
}

#[test]
fn adding_sequences_have_two_markers_one_per_half_and_their_sum() {
    let task = MemoryTask::new(TaskKind::Adding, 10).unwrap();
    let b = task.batches(3, 5).next_batch();
    assert_eq!((b.batch, b.seq_len, b.readouts()), (5, 10, 1));
    assert_eq!(b.lengths, vec![10; 5]);
    let x = dense(&b);
    assert_eq!(x.len(), 10 * 5 * 2);
    for s in 0..5 {
        let at = |t: usize, f: usize| x[(t * 5 + s) * 2 + f];
        let marked: Vec<usize> = (0..10).filter(|&t| at(t, 1) == 1.0).collect();
        assert_eq!(marked.len(), 2, "sequence {s}: markers at {marked:?}");
        assert!(
            marked[0] < 5 && marked[1] >= 5,
            "one marker per half: {marked:?}"
        );
        assert!((0..10).all(|t| (0.0..1.0).contains(&at(t, 0))));
        assert!((0..10).all(|t| at(t, 1) == 0.0 || at(t, 1) == 1.0));
        assert_eq!(values(&b)[s], at(marked[0], 0) + at(marked[1], 0));
    }
}

#[test]
fn copy_sequences_are_symbols_blanks_delimiter_blanks() {
    let task = MemoryTask::new(TaskKind::Copy, 7).unwrap();
    let b = task.batches(3, 4).next_batch();
    assert_eq!((b.batch, b.seq_len, b.readouts()), (4, 27, 10));
    let tok = tokens(&b);
    assert_eq!(tok.len(), 27 * 4);
    for s in 0..4 {
        let seq: Vec<u32> = (0..27).map(|t| tok[t * 4 + s]).collect();
        assert!(seq[..10].iter().all(|&x| (1..=8).contains(&x)), "{seq:?}");
        assert!(
            seq[10..16].iter().all(|&x| x == 0),
            "T − 1 = 6 blanks: {seq:?}"
        );
        assert_eq!(seq[16], 9, "the delimiter after T − 1 blanks");
        assert!(
            seq[17..].iter().all(|&x| x == 0),
            "10 blanks to recall in: {seq:?}"
        );
        // Readout r of sequence s is step 17 + r and must give symbol r.
        for (r, &symbol) in seq[..10].iter().enumerate() {
            assert_eq!(task.readout().step(r, b.lengths[s] as usize), 17 + r);
            assert_eq!(classes(&b)[r * 4 + s], symbol);
        }
    }
}

#[test]
fn order_sequences_have_markers_two_relevant_symbols_and_their_class() {
    let task = MemoryTask::new(TaskKind::Order, 100).unwrap();
    let b = task.batches(3, 64).next_batch();
    assert_eq!((b.batch, b.seq_len, b.readouts()), (64, 110, 1));
    let tok = tokens(&b);
    let mut lengths_seen = std::collections::BTreeSet::new();
    for s in 0..64 {
        let len = b.lengths[s] as usize;
        lengths_seen.insert(len);
        assert!((100..=110).contains(&len));
        let seq: Vec<u32> = (0..len).map(|t| tok[t * 64 + s]).collect();
        assert_eq!((seq[0], seq[len - 1]), (ORDER_START, ORDER_END));
        let relevant: Vec<usize> = (0..len)
            .filter(|&t| seq[t] == ORDER_X || seq[t] == ORDER_Y)
            .collect();
        assert_eq!(relevant.len(), 2, "{seq:?}");
        assert!((10..=20).contains(&relevant[0]) && (50..=60).contains(&relevant[1]));
        assert!(seq[1..len - 1]
            .iter()
            .enumerate()
            .all(|(i, &x)| relevant.contains(&(i + 1)) || x < 4));
        let class =
            2 * u32::from(seq[relevant[0]] == ORDER_Y) + u32::from(seq[relevant[1]] == ORDER_Y);
        assert_eq!(classes(&b)[s], class);
        assert_eq!(task.readout().step(0, len), len - 1);
    }
    assert!(lengths_seen.len() > 5, "lengths vary: {lengths_seen:?}");
}

#[test]
fn lengths_below_the_minimum_are_refused() {
    let e = MemoryTask::new(TaskKind::Order, 61).unwrap_err();
    assert_eq!((e.length, e.min), (61, 62));
    assert_eq!(
        e.to_string(),
        "the order task needs a length of at least 62, got 61"
    );
    assert!(MemoryTask::new(TaskKind::Adding, 1).is_err());
    assert!(MemoryTask::new(TaskKind::Copy, 1).is_ok());
}

#[test]
fn a_seed_gives_the_same_batches_and_another_seed_others() {
    for kind in TaskKind::ALL {
        let task = MemoryTask::default_for(kind);
        let (mut a, mut b, mut c) = (task.batches(7, 4), task.batches(7, 4), task.batches(8, 4));
        for _ in 0..3 {
            let (x, y, z) = (a.next_batch(), b.next_batch(), c.next_batch());
            assert_eq!(x.lengths, y.lengths);
            assert_eq!(x.targets, y.targets, "{kind:?}");
            assert_ne!(x.targets, z.targets, "{kind:?}");
            match (&x.input, &y.input) {
                (SeqData::Dense(p), SeqData::Dense(q)) => assert_eq!(p, q),
                (SeqData::Tokens(p), SeqData::Tokens(q)) => assert_eq!(p, q),
                _ => panic!("inputs of different kinds"),
            }
        }
    }
}

#[test]
fn the_heldout_set_is_fixed() {
    // Sums that pin the held-out sequences: a change in the generator or its seed moves them.
    let adding = MemoryTask::default_for(TaskKind::Adding).heldout_batch();
    assert_eq!(adding.batch, HELDOUT_SEQUENCES);
    let sum: f64 = values(&adding).iter().map(|&v| f64::from(v)).sum();
    let copy = MemoryTask::default_for(TaskKind::Copy).heldout_batch();
    let copy_sum: u64 = classes(&copy).iter().map(|&c| u64::from(c)).sum();
    let order = MemoryTask::default_for(TaskKind::Order).heldout_batch();
    let order_len: u64 = order.lengths.iter().map(|&l| u64::from(l)).sum();
    let order_classes: u64 = classes(&order).iter().map(|&c| u64::from(c)).sum();
    assert_eq!(
        (format!("{sum:.3}"), copy_sum, order_len, order_classes),
        (
            PINNED_ADDING.to_owned(),
            PINNED_COPY,
            PINNED_ORDER_LEN,
            PINNED_ORDER_CLASSES
        )
    );
    // The same sequences from the stream of HELDOUT_SEED.
    let again = MemoryTask::default_for(TaskKind::Adding)
        .batches(HELDOUT_SEED, HELDOUT_SEQUENCES)
        .next_batch();
    assert_eq!(again.targets, adding.targets);
}

// 1024 sums of mean ≈ 1.004 (expected 1), 10 240 symbols of mean ≈ 4.49 (expected 4.5),
// lengths of mean ≈ 104.9 (expected 105), classes of mean ≈ 1.45 (expected 1.5).
const PINNED_ADDING: &str = "1028.428";
const PINNED_COPY: u64 = 45932;
const PINNED_ORDER_LEN: u64 = 107390;
const PINNED_ORDER_CLASSES: u64 = 1480;

/// A model whose weights are all 0 but the head's bias `bias`: the memoryless predictor that
/// answers the same at every readout.
fn constant_model(kind: TaskKind, bias: &[f32]) -> (MemoryTask, SeqModel, Vec<f32>) {
    let task = MemoryTask::default_for(kind);
    let recipe = Recipe {
        hidden_size: 8,
        ..Recipe::default()
    };
    let model = model_of(&task, CellKind::Lstm, &recipe);
    let mut params = vec![0.0f32; model.param_count()];
    let offset = model.layout.get("fc.bias").unwrap().offset;
    params[offset..][..bias.len()].copy_from_slice(bias);
    (task, model, params)
}

/// The model's sums over the task's held-out set, slice by slice.
fn heldout_sums(task: &MemoryTask, model: &SeqModel, params: &[f32]) -> ReadoutSums {
    let mut sums = ReadoutSums::default();
    for slice in task.heldout(32) {
        sums.add(model.evaluate(params, &slice));
    }
    sums
}

fn within_2_percent(got: f64, formula: f64) {
    assert!(
        ((got - formula) / formula).abs() < 0.02,
        "held-out {got} vs formula {formula}"
    );
}

#[test]
fn always_answering_one_scores_a_sixth_on_the_adding_heldout_set() {
    let (task, model, params) = constant_model(TaskKind::Adding, &[1.0]);
    let stats = heldout_sums(&task, &model, &params);
    assert_eq!(stats.count, HELDOUT_SEQUENCES as u64);
    within_2_percent(stats.mean_loss(), task.baseline_loss());
    assert!((task.baseline_loss() - 0.1667).abs() < 1e-4);
}

#[test]
fn guessing_among_the_eight_symbols_scores_ln_8_on_the_copy_heldout_set() {
    let mut bias = [0.0f32; 10];
    bias[0] = -40.0; // never a blank
    bias[9] = -40.0; // never the delimiter
    let (task, model, params) = constant_model(TaskKind::Copy, &bias);
    let stats = heldout_sums(&task, &model, &params);
    assert_eq!(stats.count, 10 * HELDOUT_SEQUENCES as u64);
    within_2_percent(stats.mean_loss(), task.baseline_loss());
    // Always symbol 1 (the arg-max of a tie): right an eighth of the time.
    let acc = stats.accuracy();
    assert!((acc - 0.125).abs() < 0.02, "accuracy {acc}");
    // The paper's count over all T + 20 positions: 10 · ln 8 / (T + 20), 0.173 at T = 100.
    assert!((paper_copy_loss(task.baseline_loss(), 100) - 0.1733).abs() < 1e-4);
    within_2_percent(
        paper_copy_loss(stats.mean_loss(), task.length()),
        10.0 * 8f64.ln() / (task.length() + 20) as f64,
    );
}

#[test]
fn a_uniform_guess_scores_ln_4_and_a_quarter_on_the_order_heldout_set() {
    let (task, model, params) = constant_model(TaskKind::Order, &[0.0; 4]);
    let stats = heldout_sums(&task, &model, &params);
    within_2_percent(stats.mean_loss(), task.baseline_loss());
    // Always class XX (the arg-max of a tie): 1024 sequences, σ ≈ 0.014.
    let acc = stats.accuracy();
    assert!((acc - 0.25).abs() < 0.04, "accuracy {acc}");
}

/// A PyTorch fixture of core/tests/fixtures/README.md's memory section.
#[derive(serde::Deserialize)]
struct Fixture {
    task: String,
    length: usize,
    cell: String,
    hidden_size: usize,
    batch: usize,
    seq_len: usize,
    lengths: Vec<u32>,
    readouts: usize,
    dense: Option<Vec<f32>>,
    tokens: Option<Vec<u32>>,
    values: Option<Vec<f32>>,
    classes: Option<Vec<u32>>,
    params: std::collections::BTreeMap<String, Tensor>,
    grads: std::collections::BTreeMap<String, Tensor>,
    loss: f64,
}

fn check_fixture(name: &str) {
    let path = format!(
        "{}/tests/fixtures/memory/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let f: Fixture = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let kind = TaskKind::parse(&f.task).unwrap();
    let task = MemoryTask::new(kind, f.length).unwrap();
    let recipe = Recipe {
        hidden_size: f.hidden_size,
        ..Recipe::default()
    };
    let model = model_of(&task, CellKind::parse(&f.cell).unwrap(), &recipe);
    let params = common::params_of(name, &model, &f.params);
    let batch = SeqBatch {
        batch: f.batch,
        seq_len: f.seq_len,
        lengths: f.lengths.clone(),
        input: match (f.dense, f.tokens) {
            (Some(x), None) => SeqData::Dense(x),
            (None, Some(t)) => SeqData::Tokens(t),
            _ => panic!("{name}: one of dense and tokens"),
        },
        targets: match (f.values, f.classes) {
            (Some(v), None) => Targets::Values(v),
            (None, Some(c)) => Targets::Classes(c),
            _ => panic!("{name}: one of values and classes"),
        },
        conditions: Vec::new(),
    };
    assert_eq!(batch.readouts(), f.readouts);
    common::check_loss_and_grads(name, &model, &params, &batch, &f.grads, f.loss);
}

#[test]
fn adding_loss_and_gradients_match_pytorch_lstm() {
    check_fixture("adding_lstm.json");
}

#[test]
fn copy_loss_and_gradients_match_pytorch_gru() {
    check_fixture("copy_gru.json");
}

#[test]
fn order_loss_and_gradients_match_pytorch_rnn_and_lstm_with_varying_lengths() {
    check_fixture("order_rnn.json");
    check_fixture("order_lstm.json");
}

#[test]
fn training_is_seeded_and_lowers_the_adding_loss() {
    let task = MemoryTask::new(TaskKind::Adding, 6).unwrap();
    let recipe = Recipe {
        hidden_size: 8,
        lr: 0.01,
        batch_size: 16,
        max_norm: Some(1.0),
        forget_bias: 1.0,
        ..Recipe::default()
    };
    let heldout = task.heldout(recipe.batch_size);
    let mut a = Trainer::new(&task, CellKind::Lstm, &recipe, 4);
    let mut b = Trainer::new(&task, CellKind::Lstm, &recipe, 4);
    let before = at_once(a.evaluate(&heldout, false)).sums;
    assert_eq!(before.count, HELDOUT_SEQUENCES as u64);
    for _ in 0..150 {
        let (x, y) = (at_once(a.step()), at_once(b.step()));
        assert_eq!(x, y);
        assert!(!x.skipped);
    }
    assert_eq!(a.params(), b.params());
    assert_eq!(a.steps_done(), 150);
    let after = at_once(a.evaluate(&heldout, false)).sums;
    assert!(
        after.mean_loss() < 0.5 * before.mean_loss(),
        "held-out MSE {} → {}",
        before.mean_loss(),
        after.mean_loss()
    );
}

#[test]
fn solved_after_counts_the_sequences_of_the_first_solved_point() {
    let p = |step: u64, solved: bool| HeldOut {
        cell: CellKind::Lstm,
        seed: 0,
        step,
        loss: 0.0,
        acc: 0.0,
        solved,
        train_loss: None,
        train_acc: None,
    };
    assert_eq!(
        solved_after(
            &[p(0, false), p(100, false), p(200, true), p(300, true)],
            32
        ),
        Some(6400)
    );
    assert_eq!(solved_after(&[p(0, false), p(100, false)], 32), None);
}

#[test]
fn each_task_is_solved_by_its_own_criterion() {
    let stats = |mean: f64, acc: f64| ReadoutSums {
        loss_sum: mean * 1000.0,
        correct: (acc * 1000.0).round() as u64,
        count: 1000,
    };
    let task = MemoryTask::default_for;
    assert!(task(TaskKind::Adding).solved(&stats(0.009, 0.0)));
    assert!(!task(TaskKind::Adding).solved(&stats(0.011, 0.0)));
    // Copy: a tenth of ln 8 = 0.2079 nats per recalled symbol.
    assert!(task(TaskKind::Copy).solved(&stats(0.207, 0.5)));
    assert!(!task(TaskKind::Copy).solved(&stats(0.209, 1.0)));
    assert!(task(TaskKind::Order).solved(&stats(1.0, 0.95)));
    assert!(!task(TaskKind::Order).solved(&stats(0.0, 0.949)));
}

/// Each task's seam: input, readout, loss and outputs, its baseline with the rule it comes from,
/// and its criterion, as the page and the sweep read them.
#[test]
fn each_task_describes_its_readout_loss_baseline_and_criterion() {
    use unroll_core::math::model::{Loss, Readout};
    use unroll_core::task::Input;
    let shape = |k| MemoryTask::default_for(k).shape();
    let adding = shape(TaskKind::Adding);
    assert_eq!(
        (adding.input, adding.outputs, adding.readout, adding.loss),
        (Input::Dense { features: 2 }, 1, Readout::Last, Loss::Mse)
    );
    let copy = shape(TaskKind::Copy);
    assert_eq!(
        (copy.input, copy.outputs, copy.readout, copy.loss),
        (
            Input::OneHot { vocab: 10 },
            10,
            Readout::LastK(10),
            Loss::CrossEntropy
        )
    );
    assert_eq!(copy.max_seq_len, 40);
    let order = shape(TaskKind::Order);
    assert_eq!(
        (order.input, order.outputs, order.readout, order.max_seq_len),
        (Input::OneHot { vocab: 8 }, 4, Readout::Last, 110)
    );
    let baseline = |k| MemoryTask::default_for(k).baseline();
    assert_eq!(
        baseline(TaskKind::Adding).rule,
        BaselineRule::Constant { answer: 1.0 }
    );
    assert_eq!(baseline(TaskKind::Adding).accuracy, None);
    assert_eq!(
        baseline(TaskKind::Copy).rule,
        BaselineRule::Uniform { choices: 8 }
    );
    assert!((baseline(TaskKind::Copy).loss - 8f64.ln()).abs() < 1e-12);
    assert_eq!(baseline(TaskKind::Order).accuracy, Some(0.25));
    let criterion = |k| MemoryTask::default_for(k).criterion();
    assert_eq!(
        criterion(TaskKind::Adding),
        Some(Criterion::LossBelow(0.01))
    );
    assert_eq!(
        criterion(TaskKind::Order),
        Some(Criterion::AccuracyAtLeast(0.95))
    );
    assert_eq!(
        TaskKind::ALL.map(|k| MemoryTask::default_for(k).key()),
        ["adding", "copy", "order"]
    );
    // The held-out set in slices of 256 whatever the batch size.
    let slices = MemoryTask::default_for(TaskKind::Order).heldout(32);
    assert_eq!(slices.iter().map(|b| b.batch).collect::<Vec<_>>(), [256; 4]);
}

#[test]
fn the_solved_line_is_the_criterions_loss_below_the_baseline() {
    let task = MemoryTask::default_for;
    let solved_loss = |t: &MemoryTask| t.criterion().and_then(Criterion::loss_below);
    let adding = task(TaskKind::Adding);
    assert_eq!(solved_loss(&adding), Some(0.01));
    // The adding problem's baseline (the MSE of always answering 1) lies above it.
    assert!((adding.baseline_loss() - 1.0 / 6.0).abs() < 1e-12);
    let copy = task(TaskKind::Copy);
    assert!((solved_loss(&copy).unwrap() - 0.1 * 8f64.ln()).abs() < 1e-12);
    assert_eq!(solved_loss(&task(TaskKind::Order)), None);
}
