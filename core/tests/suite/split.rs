//! One run split across workers: a batch's rows cut into shares, their gradients summed in
//! share order. One share is the unsplit step bit for bit; the shares' sum in order is the
//! reference sum exactly and the whole batch's gradient to float rounding; helpers on other
//! threads give the same numbers, bit for bit, as the engine's worker computing every share
//! itself; a split run resumes from its checkpoint (which records the split) bit for bit; a
//! checkpoint kept before runs could be split reads as unsplit.

use std::rc::Rc;

use crate::gpu_support::small_names;

use unroll_core::config::{Head, TrainConfig};
use unroll_core::keep::{decode_checkpoint, encode_checkpoint};
use unroll_core::math::model::{SeqBatch, Targets};
use unroll_core::math::params::CellKind;
use unroll_core::math::recurrent::SeqData;
use unroll_core::train::split::{
    rows_from_words, rows_to_words, share_gradient, share_rows, split_gradient, sum_shares,
    ShareGradient, ThreadHelpers,
};
use unroll_core::train::sweep::{Sweep, SweepCheckpoint, SweepPlan, Tick};
use unroll_core::train::trainer::at_once;

/// The names lab's plan with `cell`, a small model and batches of 15 (not a multiple of the
/// share counts tried).
fn plan(cell: CellKind, head: Head) -> SweepPlan {
    let cfg = TrainConfig {
        cell,
        hidden_size: 12,
        batch_size: 15,
        epochs: 2,
        head,
        seed: 5,
        ..TrainConfig::default()
    };
    SweepPlan::of_names(&cfg, small_names())
}

/// Every tick of a sweep, to its end, without its timing.
fn drain(sweep: &mut Sweep) -> Vec<Tick> {
    std::iter::from_fn(|| {
        sweep.tick().map(|mut t| {
            t.ms = 0.0;
            t.eval_ms = 0.0;
            t
        })
    })
    .collect()
}

#[test]
fn shares_cover_the_batch_in_order() {
    assert_eq!(share_rows(64, 1), vec![0..64]);
    assert_eq!(share_rows(64, 2), vec![0..32, 32..64]);
    assert_eq!(share_rows(15, 4), vec![0..4, 4..8, 8..12, 12..15]);
    assert_eq!(share_rows(2, 5), vec![0..1, 1..2]);
    assert_eq!(share_rows(7, 0), vec![0..7]);
    for (b, k) in [(1, 1), (17, 3), (64, 7), (512, 8)] {
        let r = share_rows(b, k);
        assert_eq!(r.first().unwrap().start, 0);
        assert_eq!(r.last().unwrap().end, b);
        assert!(r.windows(2).all(|w| w[0].end == w[1].start));
        let lens: Vec<usize> = r.iter().map(|r| r.len()).collect();
        assert!(lens.iter().max().unwrap() - lens.iter().min().unwrap() <= 1);
    }
}

#[test]
fn shares_sum_in_order_to_the_batch_gradient() {
    for cell in [CellKind::Rnn, CellKind::Lstm, CellKind::Gru] {
        for head in [Head::Last, Head::Padded] {
            let plan = plan(cell, head);
            let model = plan.model(cell);
            let params = model.init(3, 1.0);
            let mut stream = plan.task.stream(5, 15);
            let batch = stream.next_batch();
            let (whole_sums, whole) = model.loss_and_grads(&params, &batch);
            // One share is the whole batch's gradient, bit for bit.
            let one = at_once(split_gradient(
                &model,
                || unreachable!("no helper"),
                &params,
                &batch,
                1,
                None,
            ));
            assert_eq!(one.grads, whole, "{cell:?} {head:?}: one share");
            assert_eq!(one.sums, whole_sums);
            for shares in [2, 3, 4] {
                let divisor = batch.targets.len();
                let parts: Vec<ShareGradient> = share_rows(batch.batch, shares)
                    .into_iter()
                    .map(|r| share_gradient(&model, &params, &batch.rows(r), divisor))
                    .collect();
                // The reference: share 0, plus share 1, plus share 2 …, element by element.
                let mut reference = parts[0].grads.clone();
                for p in &parts[1..] {
                    for (r, g) in reference.iter_mut().zip(&p.grads) {
                        *r += *g;
                    }
                }
                let split = at_once(split_gradient(
                    &model,
                    || unreachable!("no helper"),
                    &params,
                    &batch,
                    shares,
                    None,
                ));
                assert_eq!(split.grads, reference, "{cell:?} {head:?}: {shares} shares");
                assert_eq!(sum_shares(parts).unwrap().grads, reference);
                assert_eq!(split.sums.count, whole_sums.count);
                assert_eq!(split.sums.correct, whole_sums.correct);
                assert!(
                    (split.sums.loss_sum - whole_sums.loss_sum).abs()
                        <= 1e-6 * whole_sums.loss_sum.abs()
                );
                // The whole batch's gradient to float rounding (the rows are summed in
                // another order), within the project's tolerance.
                for (i, (s, w)) in split.grads.iter().zip(&whole).enumerate() {
                    let tol = 1e-6 + 1e-4 * w.abs();
                    assert!(
                        (s - w).abs() <= tol,
                        "{cell:?} {head:?} {shares} shares: grad {i} {s} vs {w}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_share_travels_to_a_helper_as_words_unchanged() {
    // Tokens and classes: a names share.
    let plan = plan(CellKind::Lstm, Head::Last);
    let batch = plan.task.stream(5, 15).next_batch();
    for r in share_rows(batch.batch, 3) {
        let share = batch.rows(r);
        let words = rows_to_words(&share);
        assert_eq!(words[..2], [share.batch as u32, share.seq_len as u32]);
        assert_eq!(rows_from_words(&words).as_ref(), Some(&share));
    }
    // Features and real values, with a condition per sequence; -0.0 and a NaN keep their bits.
    let dense = SeqBatch {
        batch: 2,
        seq_len: 3,
        lengths: vec![3, 2],
        input: SeqData::Dense(vec![0.5, -0.0, 1e-30, 2.0, f32::NAN, -7.25]),
        targets: Targets::Values(vec![0.25, -1.5]),
        conditions: vec![4, 0],
    };
    let words = rows_to_words(&dense);
    assert_eq!(words.len(), 6 + 2 + 6 + 2 + 2);
    let back = rows_from_words(&words).expect("the words rows_to_words wrote");
    let bits = |d: &SeqData| match d {
        SeqData::Dense(x) => x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        SeqData::Tokens(t) => t.clone(),
    };
    assert_eq!(bits(&back.input), bits(&dense.input));
    assert_eq!(
        (back.batch, back.seq_len, &back.lengths),
        (2, 3, &dense.lengths)
    );
    assert_eq!(
        (&back.targets, &back.conditions),
        (&dense.targets, &dense.conditions)
    );
    // Words it cannot have written.
    assert_eq!(rows_from_words(&words[..5]), None, "shorter than the head");
    assert_eq!(rows_from_words(&words[..12]), None, "input cut short");
    assert_eq!(
        rows_from_words(&[&words[..], &[9]].concat()),
        None,
        "3 conditions for 2 rows"
    );
}

#[test]
fn one_share_is_the_unsplit_run_bit_for_bit() {
    let plan = plan(CellKind::Lstm, Head::Padded);
    let unsplit = drain(&mut Sweep::new(plan.clone()));
    let mut one = Sweep::new(plan.clone());
    one.split(1);
    one.set_helpers(Some(Rc::new(ThreadHelpers::new(2))));
    assert_eq!(drain(&mut one), unsplit);
    // A split run is another run: the same to float rounding, not bit for bit.
    let mut two = Sweep::new(plan);
    two.split(2);
    let split = drain(&mut two);
    assert_eq!(split.len(), unsplit.len());
    assert_ne!(split, unsplit);
    let loss = |t: &[Tick]| t.iter().rev().find_map(|t| t.heldout).unwrap().loss;
    assert!((loss(&split) - loss(&unsplit)).abs() < 1e-3 * loss(&unsplit));
}

#[test]
fn helpers_change_no_number() {
    for cell in [CellKind::Lstm, CellKind::Gru] {
        let plan = plan(cell, Head::Last);
        for shares in [2, 3] {
            let mut alone = Sweep::new(plan.clone());
            alone.split(shares);
            let expected = drain(&mut alone);
            // As many helpers as shares after the first, and fewer (this worker computes the
            // rest).
            for helpers in [shares - 1, 1] {
                let mut helped = Sweep::new(plan.clone());
                helped.split(shares);
                helped.set_helpers(Some(Rc::new(ThreadHelpers::new(helpers))));
                let got = std::iter::from_fn(|| at_once(helped.tick_async()))
                    .map(|mut t| {
                        t.ms = 0.0;
                        t.eval_ms = 0.0;
                        t
                    })
                    .collect::<Vec<_>>();
                assert_eq!(
                    got, expected,
                    "{cell:?}: {shares} shares, {helpers} helpers"
                );
            }
        }
    }
}

#[test]
fn a_split_run_resumes_with_its_split() {
    let plan = plan(CellKind::Lstm, Head::Padded);
    let mut whole = Sweep::new(plan.clone());
    whole.split(3);
    let full = drain(&mut whole);
    // The first tick is the evaluation before training (no checkpoint yet).
    assert!(full.len() > 8, "{} ticks", full.len());
    for n in [2, full.len() / 2, full.len() - 2] {
        let mut start = Sweep::new(plan.clone());
        start.split(3);
        for _ in 0..n {
            start.tick().unwrap();
        }
        let c = at_once(start.checkpoint()).unwrap();
        assert_eq!(c.shares, 3);
        let back = decode_checkpoint(&encode_checkpoint(&c)).unwrap();
        assert_eq!(back, c);
        // The page's engine resumes on however many workers it has: the checkpoint's split
        // wins over the sweep's own.
        let mut resumed = Sweep::new(plan.clone());
        resumed.split(1);
        resumed.set_helpers(Some(Rc::new(ThreadHelpers::new(1))));
        resumed.restore(&back).unwrap();
        assert_eq!(resumed.shares(), 3);
        let after: Vec<Tick> = std::iter::from_fn(|| at_once(resumed.tick_async()))
            .map(|mut t| {
                t.ms = 0.0;
                t.eval_ms = 0.0;
                t
            })
            .collect();
        assert_eq!(after, full[n..], "resumed after {n} ticks");
    }
}

#[test]
fn a_checkpoint_kept_before_splits_reads_as_unsplit() {
    let plan = plan(CellKind::Gru, Head::Last);
    let mut sweep = Sweep::new(plan);
    sweep.tick().unwrap();
    let c = at_once(sweep.checkpoint()).unwrap();
    assert_eq!(c.shares, 1);
    // The bytes of the layout without a share count.
    #[derive(serde::Serialize)]
    struct Unsplit<'a> {
        settings: &'a unroll_core::train::sweep::RunSettings,
        runs: &'a [unroll_core::train::sweep::RunCheckpoint],
        turn: usize,
    }
    let old = postcard::to_allocvec(&Unsplit {
        settings: &c.settings,
        runs: &c.runs,
        turn: c.turn,
    })
    .unwrap();
    let read: SweepCheckpoint = decode_checkpoint(&old).unwrap();
    assert_eq!(read, c);
    assert!(decode_checkpoint(&old[..old.len() - 3]).is_err());
}

#[test]
fn the_engine_loop_trains_the_split() {
    use unroll_core::config::BackendChoice;
    use unroll_core::engine::protocol::LabEvent;
    use unroll_core::engine::run::{run, RunControl};
    let plan = plan(CellKind::Lstm, Head::Last);
    let losses = |shares: usize| {
        let mut sweep = Sweep::new(plan.clone());
        sweep.split(shares);
        sweep.set_helpers(Some(Rc::new(ThreadHelpers::new(shares - 1))));
        let mut out = Vec::new();
        pollster::block_on(run(
            sweep,
            BackendChoice::Cpu,
            false,
            &RunControl::new(),
            &mut |e| {
                if let LabEvent::Tick(t) = e {
                    out.extend(t.steps.iter().map(|s| s.loss));
                }
            },
        ));
        out
    };
    let mut alone = Sweep::new(plan.clone());
    alone.split(2);
    let expected: Vec<f64> = drain(&mut alone)
        .iter()
        .flat_map(|t| t.steps.iter().map(|s| s.loss))
        .collect();
    assert_eq!(losses(2), expected);
    assert_ne!(losses(1), expected);
}
