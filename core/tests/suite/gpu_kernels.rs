//! Each WGSL kernel against its CPU twin (or a plain CPU loop), on lavapipe.

use crate::gpu_support;
use crate::tol;

use crate::common::EXTREMES;
use gpu_support::{context, f32_bytes, random_vec, rng, run_cell_kernel, run_kernel};
use tol::Tol;
use unroll_core::gpu::kernels::activation::{Activation, ActivationDims, ActivationKind};
use unroll_core::gpu::kernels::matmul::{Matmul, MatmulDims};

fn activation_on_gpu(kind: ActivationKind, x: &[f32]) -> Vec<f32> {
    let ctx = context();
    let dims = ActivationDims {
        len: x.len() as u32,
        kind: kind as u32,
        _pad: [0; 2],
    };
    run_kernel::<Activation>(
        &ctx,
        &[f32_bytes(x), f32_bytes(&vec![0.0; x.len()])],
        &[dims],
    )
    .remove(1)
}

/// `f` of each of [`EXTREMES`].
fn on_extremes(f: impl Fn(f32) -> f32) -> Vec<f32> {
    EXTREMES.iter().map(|&x| f(x)).collect()
}

/// tanh saturates to ±1 and never returns NaN (SwiftShader's tanh(±100) is NaN without the
/// clamp); reference: f64 tanh rounded to f32, tolerance 1e-6 absolute, NaN fails.
#[test]
fn tanh_kernel_saturates_without_nan() {
    let y = activation_on_gpu(ActivationKind::Tanh, &EXTREMES);
    let reference = on_extremes(|x| (x as f64).tanh() as f32);
    assert_eq!(reference[0], -1.0);
    assert_eq!(reference[14], 1.0);
    Tol::ROUNDING.assert("tanh", &y, &reference);
    let twin = on_extremes(unroll_core::math::activation::tanh);
    Tol::ROUNDING.assert("tanh vs math::activation::tanh", &y, &twin);
    assert_eq!(y[7], 0.0);
}

/// sigmoid gives 0 / 1 at the extremes and never NaN; reference f64 1/(1+e^{−x}) rounded to
/// f32, tolerance 1e-6 absolute (tiny values may flush to 0), NaN fails.
#[test]
fn sigmoid_kernel_saturates_without_nan() {
    let y = activation_on_gpu(ActivationKind::Sigmoid, &EXTREMES);
    let reference = on_extremes(|x| (1.0 / (1.0 + (-(x as f64)).exp())) as f32);
    Tol::ROUNDING.assert("sigmoid", &y, &reference);
    let twin = on_extremes(unroll_core::math::activation::sigmoid);
    Tol::ROUNDING.assert("sigmoid vs math::activation::sigmoid", &y, &twin);
    assert!(y[0] >= 0.0 && y[0] < 1e-30, "sigmoid(-inf) = {}", y[0]);
    assert!(y[1] >= 0.0 && y[1] < 1e-30, "sigmoid(-1000) = {}", y[1]);
    assert_eq!(y[7], 0.5);
    assert_eq!(y[14], 1.0);
}

/// relu passes positives, zeroes negatives, and maps ±inf to 0 / inf.
#[test]
fn relu_kernel_matches_definition() {
    let y = activation_on_gpu(ActivationKind::Relu, &EXTREMES);
    assert_eq!(y, on_extremes(unroll_core::math::activation::relu));
}

/// Plain CPU loop in f64: C (+)= op(A)·op(B) with the kernel's stride conventions.
fn matmul_reference(d: &MatmulDims, a: &[f32], b: &[f32], c: &mut [f32]) {
    for m in 0..d.m as usize {
        for n in 0..d.n as usize {
            let mut s = 0.0f64;
            for k in 0..d.k as usize {
                let av = if d.trans_a == 0 {
                    a[d.a_offset as usize + m * d.lda as usize + k]
                } else {
                    a[d.a_offset as usize + k * d.lda as usize + m]
                };
                let bv = if d.trans_b == 0 {
                    b[d.b_offset as usize + k * d.ldb as usize + n]
                } else {
                    b[d.b_offset as usize + n * d.ldb as usize + k]
                };
                s += av as f64 * bv as f64;
            }
            let idx = d.c_offset as usize + m * d.ldc as usize + n;
            c[idx] = if d.accumulate != 0 {
                (c[idx] as f64 + s) as f32
            } else {
                s as f32
            };
        }
    }
}

/// The matmul kernel against a CPU loop on shapes that are not multiples of the 64×128 tile
/// (and some that are), with every transpose combination, element offsets, padded row strides
/// and both accumulate modes; elements of C outside the product must stay untouched.
#[test]
fn matmul_matches_cpu_loop_on_odd_shapes_and_transposes() {
    let ctx = context();
    let mut r = rng(7);
    let shapes = [
        (1, 1, 1),
        (3, 5, 7),
        (64, 128, 64),
        (65, 129, 17),
        (130, 257, 33),
        (7, 300, 130),
        (200, 9, 1),
        (5, 6, 0),
    ];
    let mut cases = 0;
    for &(m, n, k) in &shapes {
        for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
            let accumulate = (m + n + k + ta as u32) % 2;
            let mut d = MatmulDims::packed(m, n, k, ta, tb);
            // Padding in every stride and an offset in every buffer.
            d.lda += 3;
            d.ldb += 1;
            d.ldc += 2;
            d.a_offset = 5;
            d.b_offset = 11;
            d.c_offset = 2;
            d.accumulate = accumulate;
            let a_rows = if ta { k } else { m } as usize;
            let b_rows = if tb { n } else { k } as usize;
            let a = random_vec(
                &mut r,
                d.a_offset as usize + a_rows * d.lda as usize + 4,
                1.0,
            );
            let b = random_vec(
                &mut r,
                d.b_offset as usize + b_rows * d.ldb as usize + 4,
                1.0,
            );
            let c0 = random_vec(
                &mut r,
                d.c_offset as usize + m as usize * d.ldc as usize + 4,
                1.0,
            );
            let mut expected = c0.clone();
            matmul_reference(&d, &a, &b, &mut expected);
            let out =
                run_kernel::<Matmul>(&ctx, &[f32_bytes(&a), f32_bytes(&b), f32_bytes(&c0)], &[d]);
            Tol::FIXTURE.assert(
                &format!("matmul m{m} n{n} k{k} ta{ta} tb{tb} acc{accumulate}"),
                &out[2],
                &expected,
            );
            assert_eq!(out[0], a, "A must not change");
            cases += 1;
        }
    }
    assert_eq!(cases, shapes.len() * 4);
}

/// A product with large cancelling terms: the GPU's summation order differs from the CPU's,
/// so parity checks need a tolerance (summation order, FMA) — but the result must still be close.
#[test]
fn matmul_with_cancelling_terms_stays_within_tolerance() {
    let ctx = context();
    let a = vec![1e4f32, 1.0, -1e4, 1.0];
    let b = vec![1.0f32; 4];
    let d = MatmulDims::packed(1, 1, 4, false, false);
    let out = run_kernel::<Matmul>(
        &ctx,
        &[f32_bytes(&a), f32_bytes(&b), f32_bytes(&[0.0])],
        &[d],
    );
    Tol::FIXTURE.assert("cancelling sum", &out[2], &[2.0]);
}

use gpu_support::{as_u32, u32_bytes};
use rand::Rng;
use unroll_core::gpu::kernels::adam_update::{AdamDims, AdamUpdate};
use unroll_core::gpu::kernels::cell_sequence::{
    CellBuffer, CellPass, CellSequence, SequenceLayout,
};
use unroll_core::gpu::kernels::classifier_head::{ClassifierHead, HeadDims};
use unroll_core::gpu::kernels::clip_grad_norm::{ClipDims, ClipGradNorm};
use unroll_core::gpu::kernels::col_sum::{ColSum, ColSumDims};
use unroll_core::gpu::kernels::input_projection::{InputProjection, ProjectionDims};
use unroll_core::gpu::kernels::last_step::{LastStep, LastStepDims};
use unroll_core::gpu::kernels::onehot_weight_grad::{OnehotGradDims, OnehotWeightGrad};
use unroll_core::gpu::kernels::pack_w_hh::{self, PackDims, PackWHh};
use unroll_core::gpu::kernels::{Dispatch, SequenceDims};
use unroll_core::math::cell::{backward_step, forward_step, StepCache, StepGrads, StepIn, StepOut};
use unroll_core::math::layer::{Direction, LayerDirection, SeqDims, SeqInput};
use unroll_core::math::linalg::col_sum_acc;
use unroll_core::math::loss::softmax_cross_entropy;
use unroll_core::math::optim::{adam_update, clip_grad_norm, AdamConfig, ClipOutcome};
use unroll_core::math::params::{CellKind, Nonlinearity, ParamLayout, RnnSpec};

/// B = 5, H = 7 (not multiples of anything), T = 4, and lengths that leave padding at the end
/// of three of the five samples.
const B: usize = 5;
const H: usize = 7;
const T: usize = 4;
const LENGTHS: [u32; B] = [4, 2, 3, 1, 4];

/// Rows `[slot, b]` of a `[slots, B, width]` buffer.
fn row(buf: &[f32], slot: usize, b: usize, width: usize) -> &[f32] {
    &buf[(slot * B + b) * width..][..width]
}

/// One whole-sequence kernel case: a cell at hidden size `hidden`, one direction, `[T, B, 2H]`
/// outputs (two directions, so the column placement is checked too), `W_hh` and the in-loop
/// hidden biases (GRU's `b_hn`) at offsets inside a larger parameter vector.
#[derive(Clone, Copy, Debug)]
struct SeqCase {
    cell: CellKind,
    nonlinearity: Nonlinearity,
    hidden: usize,
    reverse: bool,
    layout: SequenceLayout,
}

/// Offset of `W_hh` in the test's parameter vector (something sits before it).
const W_HH_AT: usize = 3;

impl SeqCase {
    fn gates(&self) -> usize {
        self.cell.gates()
    }
    fn out_w(&self) -> usize {
        2 * self.hidden
    }
    fn b_hn_at(&self) -> usize {
        W_HH_AT + self.gates() * self.hidden * self.hidden
    }
    fn dims(&self, pass: CellPass) -> SequenceDims {
        let h = self.hidden;
        let (rows_per_group, rows_per_lane, split) = self.layout.dims(pass);
        SequenceDims {
            batch: B as u32,
            hidden: h as u32,
            seq_len: T as u32,
            rows_per_group,
            rows_per_lane,
            split,
            nonlinearity: match self.nonlinearity {
                Nonlinearity::Tanh => 0,
                Nonlinearity::Relu => 1,
            },
            reverse: self.reverse as u32,
            out_stride: self.out_w() as u32,
            out_offset: if self.reverse { h as u32 } else { 0 },
            _pad: [0; 2],
        }
    }
    /// What the host's `pack_w_hh` dispatch gets for this case: `b_hh` placed so that its
    /// in-loop blocks (`hidden_bias_blocks..G`) start at `b_hn_at`.
    fn pack_dims(&self) -> PackDims {
        let spec = self.cell.spec();
        PackDims {
            hidden: self.hidden as u32,
            gates: self.gates() as u32,
            bias_from: spec.hidden_bias_blocks as u32,
            w_hh_offset: W_HH_AT as u32,
            b_hh_offset: (self.b_hn_at() - spec.hidden_bias_blocks * self.hidden) as u32,
            _pad: [0; 3],
        }
    }
    /// Time processed at step `s` by sample `b`: `s` forward, `len − 1 − s` in reverse.
    fn time_at(&self, s: usize, b: usize) -> usize {
        if self.reverse {
            LENGTHS[b] as usize - 1 - s
        } else {
            s
        }
    }
    /// This direction's columns of `[t, b]` in a `[T, B, 2H]` output.
    fn out_range(&self, t: usize, b: usize) -> std::ops::Range<usize> {
        let start = (t * B + b) * self.out_w() + if self.reverse { self.hidden } else { 0 };
        start..start + self.hidden
    }
    fn tag(&self) -> String {
        format!(
            "{:?} {:?} H={} R={} RI={} split={}/{} reverse={}",
            self.cell,
            self.nonlinearity,
            self.hidden,
            self.layout.rows_per_group,
            self.layout.rows_per_lane,
            self.layout.forward_split,
            self.layout.backward_split,
            self.reverse
        )
    }
}

/// `W_hh h` for one sample: `[G·H]` from `W_hh [G·H, H]` at `W_HH_AT`.
fn w_hh_times(params: &[f32], gh_rows: usize, h: &[f32]) -> Vec<f32> {
    let hid = h.len();
    (0..gh_rows)
        .map(|r| {
            let w = &params[W_HH_AT + r * hid..][..hid];
            w.iter().zip(h).map(|(a, b)| a * b).sum()
        })
        .collect()
}

/// `d_gh · W_hh` for one sample: `[H]`.
fn times_w_hh(params: &[f32], d_gh: &[f32], hid: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; hid];
    for (r, &d) in d_gh.iter().enumerate() {
        for (j, o) in out.iter_mut().enumerate() {
            *o += d * params[W_HH_AT + r * hid + j];
        }
    }
    out
}

/// What the forward kernel writes: caches by step, output by time (`gate_cache` as the GPU
/// lays it out: one vec4 per unit, the unit's gates, then the cached part of the step's extra
/// cache), and the CPU step's own extra cache for the backward loop.
struct SeqForward {
    h_cache: Vec<f32>,
    c_cache: Vec<f32>,
    gate_cache: Vec<f32>,
    output: Vec<f32>,
    gates: Vec<f32>,
    aux: Vec<f32>,
}

/// Widths per (step, sample) of the CPU step's gates and extra cache (as `math::layer` sizes
/// them) and of the GPU's gate cache (a vec4 per unit, when the cell has one).
fn cache_widths(c: &SeqCase) -> (usize, usize, usize) {
    let spec = c.cell.spec();
    let has_gates = !spec.gates.is_empty();
    let gates = if has_gates { spec.blocks * c.hidden } else { 0 };
    let aux = if has_gates { c.hidden } else { 0 };
    let cache = if spec.gate_cache_blocks > 0 {
        4 * c.hidden
    } else {
        0
    };
    (gates, aux, cache)
}

/// The CPU loop the forward kernel runs: the cell's step twin (`math::cell::forward_step`) at
/// each existing step, the state carried over at padded ones. The hidden-bias blocks the input
/// projection does not hold (`hidden_bias_blocks..blocks`, at `b_hn_at`) join `W_hh h` here.
fn reference_forward(
    c: &SeqCase,
    xproj: &[f32],
    params: &[f32],
    h0: &[f32],
    c0: &[f32],
) -> SeqForward {
    let spec = c.cell.spec();
    let (hid, g) = (c.hidden, c.gates());
    let (gw, aw, cw) = cache_widths(c);
    let mut f = SeqForward {
        h_cache: vec![0.0; (T + 1) * B * hid],
        c_cache: vec![0.0; (T + 1) * B * hid],
        gate_cache: vec![0.0; T * B * cw],
        output: vec![0.0; T * B * c.out_w()],
        gates: vec![0.0; T * B * gw],
        aux: vec![0.0; T * B * aw],
    };
    f.h_cache[..B * hid].copy_from_slice(h0);
    f.c_cache[..B * hid].copy_from_slice(c0);
    for (b, &len) in LENGTHS.iter().enumerate() {
        for s in 0..T {
            let (prev, next) = ((s * B + b) * hid, ((s + 1) * B + b) * hid);
            let h_prev = f.h_cache[prev..][..hid].to_vec();
            let c_prev = f.c_cache[prev..][..hid].to_vec();
            if s >= len as usize {
                f.h_cache[next..][..hid].copy_from_slice(&h_prev);
                f.c_cache[next..][..hid].copy_from_slice(&c_prev);
                continue;
            }
            let t = c.time_at(s, b);
            let gi = row(xproj, t, b, g * hid);
            let mut gh = w_hh_times(params, g * hid, &h_prev);
            for (k, block) in (spec.hidden_bias_blocks..spec.blocks).enumerate() {
                for j in 0..hid {
                    gh[block * hid + j] += params[c.b_hn_at() + k * hid + j];
                }
            }
            let (mut h, mut cell) = (vec![0.0; hid], vec![0.0; hid]);
            let none: &[f32] = &[];
            forward_step(
                c.cell,
                StepIn {
                    nonlinearity: c.nonlinearity,
                    gi,
                    gh: &gh,
                    h_prev: &h_prev,
                    c_prev: if spec.has_cell_state { &c_prev } else { none },
                    pins: &[],
                },
                StepOut {
                    gates: &mut f.gates[(s * B + b) * gw..][..gw],
                    c: if spec.has_cell_state {
                        &mut cell
                    } else {
                        &mut []
                    },
                    aux: &mut f.aux[(s * B + b) * aw..][..aw],
                    h: &mut h,
                },
            );
            if spec.has_cell_state {
                f.c_cache[next..][..hid].copy_from_slice(&cell);
            }
            if cw > 0 {
                // Unit j's vec4: its gate k for k < G, then the extra cache's value of unit j.
                let cache = &mut f.gate_cache[(s * B + b) * cw..][..cw];
                let gates = &f.gates[(s * B + b) * gw..][..gw];
                let aux = &f.aux[(s * B + b) * aw..][..aw];
                for j in 0..hid {
                    for k in 0..spec.gate_cache_blocks {
                        cache[4 * j + k] = if k < g { gates[k * hid + j] } else { aux[j] };
                    }
                }
            }
            f.h_cache[next..][..hid].copy_from_slice(&h);
            let out = c.out_range(t, b);
            f.output[out].copy_from_slice(&h);
        }
    }
    f
}

/// What the backward kernel writes.
struct SeqBackward {
    d_gates: Vec<f32>,
    d_gates_step: Vec<f32>,
    d_state: Vec<f32>,
}

/// The CPU loop the backward kernel runs over the forward's caches: the cell's backward step
/// twin (`math::cell::backward_step`) at each existing step, then `∂L/∂h_prev = direct +
/// d_gh·W_hh`; padded steps pass the state's gradient through with zero gate gradients.
fn reference_backward(
    c: &SeqCase,
    fwd: &SeqForward,
    params: &[f32],
    d_output: &[f32],
    d_state: &[f32],
) -> SeqBackward {
    let spec = c.cell.spec();
    let (hid, g) = (c.hidden, c.gates());
    let (gw, aw, _) = cache_widths(c);
    let bh = B * hid;
    let mut out = SeqBackward {
        d_gates: vec![0.0; T * B * g * hid],
        d_gates_step: vec![0.0; T * B * g * hid],
        d_state: d_state.to_vec(),
    };
    let none: &[f32] = &[];
    for b in 0..B {
        let mut dh = d_state[b * hid..][..hid].to_vec();
        let mut dc = d_state[bh + b * hid..][..hid].to_vec();
        for s in (0..LENGTHS[b] as usize).rev() {
            let t = c.time_at(s, b);
            for (d, o) in dh.iter_mut().zip(&d_output[c.out_range(t, b)]) {
                *d += o;
            }
            let (prev, next) = ((s * B + b) * hid, ((s + 1) * B + b) * hid);
            let mut d_gi = vec![0.0; g * hid];
            let mut d_gh = vec![
                0.0;
                if spec.separate_hidden_grad {
                    g * hid
                } else {
                    0
                }
            ];
            let mut direct = vec![0.0; hid];
            let mut dc_prev = vec![0.0; hid];
            backward_step(
                c.cell,
                StepCache {
                    nonlinearity: c.nonlinearity,
                    gates: &fwd.gates[(s * B + b) * gw..][..gw],
                    aux: &fwd.aux[(s * B + b) * aw..][..aw],
                    h_prev: &fwd.h_cache[prev..][..hid],
                    h: &fwd.h_cache[next..][..hid],
                    c_prev: if spec.has_cell_state {
                        &fwd.c_cache[prev..][..hid]
                    } else {
                        none
                    },
                    dh: &dh,
                    dc: if spec.has_cell_state { &dc } else { none },
                },
                StepGrads {
                    d_gi: &mut d_gi,
                    d_gh: &mut d_gh,
                    dh_prev_direct: &mut direct,
                    dc_prev: if spec.has_cell_state {
                        &mut dc_prev
                    } else {
                        &mut []
                    },
                },
            );
            let d_gh = if spec.separate_hidden_grad {
                d_gh
            } else {
                d_gi.clone()
            };
            out.d_gates[(t * B + b) * g * hid..][..g * hid].copy_from_slice(&d_gi);
            out.d_gates_step[(s * B + b) * g * hid..][..g * hid].copy_from_slice(&d_gh);
            let through = times_w_hh(params, &d_gh, hid);
            dh = direct.iter().zip(&through).map(|(a, b)| a + b).collect();
            if spec.has_cell_state {
                dc = dc_prev;
            }
        }
        out.d_state[b * hid..][..hid].copy_from_slice(&dh);
        if spec.has_cell_state {
            out.d_state[bh + b * hid..][..hid].copy_from_slice(&dc);
        }
    }
    out
}

/// Runs a cell's whole-sequence forward and backward kernels on random inputs (huge
/// pre-activations when `scale` is large) and checks every buffer they write against the CPU
/// loops above: caches, outputs (only at existing steps, own columns), gate gradients by time
/// and by step, and the gradient of the initial state.
fn check_sequence_kernels(c: SeqCase, scale: f32, seed: u64) {
    let ctx = context();
    let tag = format!("{} x{scale}", c.tag());
    let (hid, g) = (c.hidden, c.gates());
    let mut r = rng(seed);
    let xproj = random_vec(&mut r, T * B * g * hid, scale);
    let k = 1.0 / (hid as f32).sqrt();
    let params = random_vec(&mut r, c.b_hn_at() + hid + 2, k);
    let h0 = random_vec(&mut r, B * hid, 1.0);
    let c0 = random_vec(&mut r, B * hid, 1.0);
    let want = reference_forward(&c, &xproj, &params, &h0, &c0);
    let mut h_cache = vec![5.0; (T + 1) * B * hid];
    h_cache[..B * hid].copy_from_slice(&h0);
    let mut c_cache = vec![5.0; (T + 1) * B * hid];
    c_cache[..B * hid].copy_from_slice(&c0);
    let zero_out = vec![0.0; T * B * c.out_w()];
    let gate_cache = vec![0.0; T * B * cache_widths(&c).2];
    // Both kernels read W_hh and the in-loop biases as the host's pack_w_hh lays them out.
    let packed: Vec<f32> = pack_w_hh::pack(&params, &c.pack_dims()).concat();
    let fwd = run_cell_kernel(
        &ctx,
        c.cell,
        CellPass::Forward,
        |buffer| match buffer {
            CellBuffer::Xproj => f32_bytes(&xproj),
            CellBuffer::Lengths => u32_bytes(&LENGTHS),
            CellBuffer::WHhPacked => f32_bytes(&packed),
            CellBuffer::HCache => f32_bytes(&h_cache),
            CellBuffer::CCache => f32_bytes(&c_cache),
            CellBuffer::GateCache => f32_bytes(&gate_cache),
            CellBuffer::Output => f32_bytes(&zero_out),
            CellBuffer::NoCCache | CellBuffer::NoGateCache => f32_bytes(&[0.0; 4]),
            other => panic!("the forward kernel binds {other:?}"),
        },
        &[c.dims(CellPass::Forward)],
    );
    let (h_gpu, c_gpu, gates_gpu, out_gpu) = (
        fwd.of(CellBuffer::HCache),
        fwd.get(CellBuffer::CCache),
        fwd.get(CellBuffer::GateCache),
        fwd.of(CellBuffer::Output),
    );
    assert!(
        h_gpu
            .iter()
            .chain(c_gpu.into_iter().flatten())
            .all(|v| v.is_finite()),
        "non-finite state {tag}"
    );
    Tol::FIXTURE.assert(&format!("h_cache {tag}"), h_gpu, &want.h_cache);
    if let Some(c_gpu) = c_gpu {
        Tol::FIXTURE.assert(&format!("c_cache {tag}"), c_gpu, &want.c_cache);
    }
    if let Some(gates) = gates_gpu {
        for (b, &len) in LENGTHS.iter().enumerate() {
            for s in 0..len as usize {
                Tol::FIXTURE.assert(
                    &format!("gate_cache s{s} b{b} {tag}"),
                    row(gates, s, b, cache_widths(&c).2),
                    row(&want.gate_cache, s, b, cache_widths(&c).2),
                );
            }
        }
    }
    // Output at existing steps in this direction's columns, zero everywhere else.
    Tol::FIXTURE.assert(&format!("output {tag}"), out_gpu, &want.output);
    let mut written = vec![false; out_gpu.len()];
    for b in 0..B {
        for s in 0..LENGTHS[b] as usize {
            written[c.out_range(c.time_at(s, b), b)].fill(true);
        }
    }
    assert!(
        out_gpu.iter().zip(&written).all(|(v, w)| *w || *v == 0.0),
        "output written only at existing steps, own columns {tag}"
    );

    // Backward over the reference caches (so the check does not depend on the forward's).
    let d_output = random_vec(&mut r, T * B * c.out_w(), 1.0);
    let d_state = random_vec(&mut r, 2 * B * hid, 1.0);
    let want_back = reference_backward(&c, &want, &params, &d_output, &d_state);
    // The host zeroes d_gates (by time) first; d_gates_step (by step) starts as a sentinel that
    // every slot must overwrite.
    let d_gates_start = vec![0.0; T * B * g * hid];
    let sentinel = vec![7.0; T * B * g * hid];
    let back = run_cell_kernel(
        &ctx,
        c.cell,
        CellPass::Backward,
        |buffer| match buffer {
            CellBuffer::Lengths => u32_bytes(&LENGTHS),
            CellBuffer::WHhPacked => f32_bytes(&packed),
            CellBuffer::HCache => f32_bytes(&want.h_cache),
            CellBuffer::CCache => f32_bytes(&want.c_cache),
            CellBuffer::GateCache => f32_bytes(&want.gate_cache),
            CellBuffer::DOutput => f32_bytes(&d_output),
            CellBuffer::DGates => f32_bytes(&d_gates_start),
            CellBuffer::DGatesStep => f32_bytes(&sentinel),
            CellBuffer::DState => f32_bytes(&d_state[..c.cell.state_blocks() * B * hid]),
            CellBuffer::NoCCache | CellBuffer::NoGateCache => f32_bytes(&[0.0; 4]),
            other => panic!("the backward kernel binds {other:?}"),
        },
        &[c.dims(CellPass::Backward)],
    );
    let (d_gates, d_gates_step, d_state_gpu) = (
        back.of(CellBuffer::DGates),
        back.of(CellBuffer::DGatesStep),
        back.of(CellBuffer::DState),
    );
    Tol::FIXTURE.assert(&format!("d_gates {tag}"), d_gates, &want_back.d_gates);
    // By step: every slot written, zeros at padded steps.
    Tol::FIXTURE.assert(
        &format!("d_gates_step {tag}"),
        d_gates_step,
        &want_back.d_gates_step,
    );
    let state_len = c.cell.state_blocks() * B * hid;
    Tol::FIXTURE.assert(
        &format!("d_state (initial state's gradient) {tag}"),
        d_state_gpu,
        &want_back.d_state[..state_len],
    );
}

/// Every cell's whole-sequence kernels against the CPU loops, both directions, in the default
/// layout at hidden sizes 1 and 3 (rows of workgroup memory padded to 4), 7 (all five rows in
/// one invocation, which owns up to 8), 100 (H not a multiple of 8), 128 (the names recipe's)
/// and 256 (the largest: one slot of invocations); RNN with tanh and relu.
#[test]
fn sequence_kernels_match_cpu_loops() {
    for cell in CellKind::ALL {
        let nls: &[Nonlinearity] = if cell.spec().takes_nonlinearity {
            &[Nonlinearity::Tanh, Nonlinearity::Relu]
        } else {
            &[Nonlinearity::Tanh]
        };
        for &nonlinearity in nls {
            for hidden in [1, 3, H, 100, 128, 256] {
                for reverse in [false, true] {
                    let c = SeqCase {
                        cell,
                        nonlinearity,
                        hidden,
                        reverse,
                        layout: SequenceLayout::for_hidden(hidden, false),
                    };
                    check_sequence_kernels(c, 3.0, 21);
                }
            }
        }
    }
}

/// The layouts agree with the CPU (B = 5 rows): one row per workgroup and invocation; rows
/// per workgroup or per invocation that do not divide the batch (the last workgroup or the last
/// invocation owns fewer rows); several slots of invocations with a partial last slot; more rows
/// per invocation than the batch has; two parts per slot (the forward's rows shared out, BPTT's
/// product summed in two halves), with one slot or, at small hidden sizes, several. Hidden sizes
/// 3 and 7 (padded rows) and 128.
#[test]
fn sequence_kernels_agree_across_workgroup_layouts() {
    let layouts = [
        (1, 1, 1),
        (2, 2, 1),
        (4, 2, 1),
        (3, 2, 1),
        (5, 3, 1),
        (5, 8, 1),
        (2, 1, 1),
        (1, 1, 2),
        (4, 4, 2),
        (3, 8, 2),
        (5, 8, 2),
    ];
    // Two parts of two or three slots: only where 2·slots·H ≤ 256.
    let small_h_layouts = [(5, 3, 2), (4, 2, 2), (5, 2, 2)];
    for cell in CellKind::ALL {
        for hidden in [3, H, 128] {
            let extra: &[(usize, usize, usize)] = if hidden < 64 { &small_h_layouts } else { &[] };
            for &(rows_per_group, rows_per_lane, split) in layouts.iter().chain(extra) {
                let c = SeqCase {
                    cell,
                    nonlinearity: Nonlinearity::Tanh,
                    hidden,
                    reverse: true,
                    layout: SequenceLayout {
                        rows_per_group,
                        rows_per_lane,
                        forward_split: split,
                        backward_split: split,
                    },
                };
                check_sequence_kernels(c, 3.0, 22);
            }
        }
    }
}

/// Huge pre-activations (±100, ±1e4) keep states and gradients finite and equal to the CPU's.
#[test]
fn sequence_kernels_saturate_without_nan() {
    for cell in CellKind::ALL {
        for scale in [100.0f32, 1e4] {
            let c = SeqCase {
                cell,
                nonlinearity: Nonlinearity::Tanh,
                hidden: H,
                reverse: false,
                layout: SequenceLayout::for_hidden(H, false),
            };
            check_sequence_kernels(c, scale, 23);
        }
    }
}

/// Layouts the kernels cannot run are refused with a clear error, not mis-computed: a hidden
/// size over one workgroup, slots of invocations past 256, rows past workgroup memory, more rows
/// per invocation than its registers hold.
#[test]
fn sequence_kernels_refuse_layouts_over_a_workgroup() {
    let dims = SequenceDims {
        batch: 20,
        hidden: 257,
        seq_len: 3,
        rows_per_group: 1,
        rows_per_lane: 1,
        split: 1,
        ..Default::default()
    };
    let err = CellSequence::workgroups(&dims, 65535).unwrap_err();
    assert!(err.to_string().contains("257"), "{err}");
    let refused = [
        (129, 2, 1, 1),  // 2 slots of 129 invocations
        (128, 16, 8, 1), // 16 rows of 128 units overflow workgroup memory
        (126, 9, 8, 1),  // 9 rows of 126 units padded to 128 floats overflow it too
        (1, 9, 9, 1),    // 9 rows per invocation
        (64, 2, 0, 1),   // no rows per invocation
        (128, 2, 1, 2),  // 2 parts of 2 slots of 128 invocations
        (64, 8, 8, 3),   // 3 parts
        (64, 8, 8, 0),   // no part
    ];
    for (hidden, rows_per_group, rows_per_lane, split) in refused {
        let d = SequenceDims {
            hidden,
            rows_per_group,
            rows_per_lane,
            split,
            ..dims
        };
        let fits = CellSequence::workgroups(&d, 65535);
        assert!(
            fits.is_err(),
            "H={hidden} R={rows_per_group} RI={rows_per_lane} split={split}: {fits:?}"
        );
    }
    let ok = |hidden, rows_per_group, rows_per_lane, split| {
        let d = SequenceDims {
            hidden,
            rows_per_group,
            rows_per_lane,
            split,
            ..dims
        };
        CellSequence::workgroups(&d, 65535).unwrap()
    };
    assert_eq!(ok(128, 2, 1, 1), [10, 1, 1]);
    assert_eq!(ok(128, 8, 8, 1), [3, 1, 1]);
    assert_eq!(ok(128, 8, 8, 2), [3, 1, 1]);
    assert_eq!(ok(7, 128, 8, 1), [1, 1, 1]);
    assert_eq!(ok(125, 8, 8, 2), [3, 1, 1]); // rows padded to 128 floats: 8·128 fits
    for hidden in 1..=256 {
        for cpu_adapter in [false, true] {
            let l = SequenceLayout::for_hidden(hidden, cpu_adapter);
            assert!(l.check(hidden).is_ok(), "default at H={hidden}: {l:?}");
            // On a GPU the default keeps every invocation busy in both passes at the hidden
            // sizes that divide the workgroup; on a CPU adapter the parts would only add work.
            let busy = |split: usize| split * l.rows_per_group.div_ceil(l.rows_per_lane) * hidden;
            if cpu_adapter {
                assert_eq!((l.forward_split, l.backward_split), (1, 1), "H={hidden}");
            } else if hidden.is_power_of_two() && hidden >= 4 {
                assert_eq!(busy(l.backward_split), 256, "H={hidden}: {l:?}");
                assert_eq!(busy(l.forward_split), 256, "H={hidden}: {l:?}");
            }
        }
    }
    assert_eq!(
        SequenceLayout::for_hidden(128, false),
        SequenceLayout {
            rows_per_group: 8,
            rows_per_lane: 8,
            forward_split: 2,
            backward_split: 2
        }
    );
    assert_eq!(
        SequenceLayout::for_hidden(128, true),
        SequenceLayout {
            forward_split: 1,
            backward_split: 1,
            ..SequenceLayout::for_hidden(128, false)
        }
    );
    assert_eq!(SequenceLayout::for_hidden(256, false).backward_split, 1);
}

/// `pack_w_hh` against its CPU twin for every cell at hidden sizes 1, 3, 7 and 128, and a few
/// entries of the layout by hand (GRU, H = 3, `W_hh[r, m] = 100·r + m`, `b_hh[r] = −r`): the
/// forward's vec4 of (m4 = 0, unit 1, gate n) is row 7 of `W_hh`, the in-loop bias of unit 1
/// is `b_hn[1]` in component 2, BPTT's vec4 of (rows 4..8, unit 2) is column 2, and what lies
/// past the matrix is 0. A copy, so equal to the bit.
#[test]
fn pack_w_hh_matches_cpu_twin_and_layout() {
    let ctx = context();
    let mut r = rng(31);
    for cell in CellKind::ALL {
        for hidden in [1usize, 3, H, 128] {
            let c = SeqCase {
                cell,
                nonlinearity: Nonlinearity::Tanh,
                hidden,
                reverse: false,
                layout: SequenceLayout::for_hidden(hidden, false),
            };
            let params = random_vec(&mut r, c.b_hn_at() + hidden + 2, 1.0);
            let d = c.pack_dims();
            let want: Vec<f32> = pack_w_hh::pack(&params, &d).concat();
            let out = run_kernel::<PackWHh>(
                &ctx,
                &[f32_bytes(&params), f32_bytes(&vec![9.0; want.len()])],
                &[d],
            );
            assert_eq!(out[1], want, "{cell:?} H={hidden}");
        }
    }
    let (h, g) = (3usize, 3usize);
    let mut params: Vec<f32> = (0..g * h * h)
        .map(|i| (100 * (i / h) + i % h) as f32)
        .collect();
    params.extend((0..g * h).map(|r| -(r as f32)));
    let d = PackDims {
        hidden: h as u32,
        gates: g as u32,
        bias_from: 2,
        w_hh_offset: 0,
        b_hh_offset: (g * h * h) as u32,
        _pad: [0; 3],
    };
    let len = pack_w_hh::packed_len(h, g);
    assert_eq!(len, 9 + 3 + 9);
    let out = &run_kernel::<PackWHh>(
        &ctx,
        &[f32_bytes(&params), f32_bytes(&vec![9.0; 4 * len])],
        &[d],
    )[1];
    let vec4 = |i: usize| &out[4 * i..4 * i + 4];
    assert_eq!(vec4(5), [700.0, 701.0, 702.0, 0.0]); // (m4 0, j 1, gate 2): W_hh[2·3 + 1, 0..3]
    assert_eq!(vec4(pack_w_hh::bias_at(h, g) + 1), [0.0, 0.0, -7.0, 0.0]);
    assert_eq!(
        vec4(pack_w_hh::cols_at(h, g) + 3 + 2),
        [402.0, 502.0, 602.0, 702.0]
    );
    assert_eq!(
        vec4(pack_w_hh::cols_at(h, g) + 6 + 2),
        [802.0, 0.0, 0.0, 0.0]
    );
    assert_eq!(out, &pack_w_hh::pack(&params, &d).concat());
}

/// Random `[B, T]` tokens (0 at padding) for [`LENGTHS`] over a vocabulary of `vocab`.
fn random_tokens(r: &mut rand_chacha::ChaCha8Rng, vocab: u32) -> Vec<u32> {
    let mut tokens = vec![0u32; B * T];
    for b in 0..B {
        for t in 0..LENGTHS[b] as usize {
            tokens[b * T + t] = r.random_range(0..vocab);
        }
    }
    tokens
}

/// `input_projection` against the CPU input projection
/// (`math::layer::LayerDirection::input_projection`) plus `b_hh`, which the GPU folds in for
/// every gate block of RNN/LSTM and for r, z of GRU: one-hot mode (exact column gather, 0 at
/// padding) and dense mode (the biases in every row, before the x·W_ihᵀ matmul).
#[test]
fn input_projection_matches_cpu_twin() {
    let ctx = context();
    for cell in CellKind::ALL {
        let spec = RnnSpec::new(cell, 11, H);
        let layout = ParamLayout::rnn(&spec, "");
        let off = layout.layer("", 0, 0);
        let mut r = rng(16);
        let params = random_vec(&mut r, layout.total_len(), 1.0);
        let tokens = random_tokens(&mut r, 11);
        let gw = cell.gates() * H;
        let bias_hh_rows = cell.spec().hidden_bias_blocks * H;
        let layer = LayerDirection {
            cell,
            nonlinearity: Nonlinearity::Tanh,
            hidden_size: H,
            offsets: off,
            direction: Direction::Forward,
        };
        let dims = SeqDims {
            seq_len: T,
            batch: B,
            lengths: &LENGTHS,
        };
        let with_b_hh = |mut gi: Vec<f32>, only_present: bool| {
            for (i, v) in gi.iter_mut().enumerate() {
                let (g, p) = (i % gw, i / gw);
                let exists = (p / B) < LENGTHS[p % B] as usize;
                if (exists || !only_present) && g < bias_hh_rows {
                    *v += params[off.b_hh + g];
                }
            }
            gi
        };
        for onehot in [1u32, 0] {
            let pd = ProjectionDims {
                batch: B as u32,
                seq_len: T as u32,
                gate_rows: gw as u32,
                input_size: 11,
                w_ih_offset: off.w_ih as u32,
                b_ih_offset: off.b_ih as u32,
                b_hh_offset: off.b_hh as u32,
                bias_hh_rows: bias_hh_rows as u32,
                onehot,
                _pad: [0; 3],
            };
            let out = run_kernel::<InputProjection>(
                &ctx,
                &[
                    u32_bytes(&tokens),
                    u32_bytes(&LENGTHS),
                    f32_bytes(&params),
                    f32_bytes(&vec![7.0; T * B * gw]),
                ],
                &[pd],
            );
            let expected = if onehot == 1 {
                let tokens_tm: Vec<u32> = (0..T * B).map(|i| tokens[(i % B) * T + i / B]).collect();
                with_b_hh(
                    layer.input_projection(&params, SeqInput::Tokens(&tokens_tm), dims),
                    true,
                )
            } else {
                // Dense with x = 0: the biases alone, in every row.
                with_b_hh(
                    layer.input_projection(&params, SeqInput::Dense(&vec![0.0; T * B * 11]), dims),
                    false,
                )
            };
            Tol::CLIP.assert(
                &format!("{cell:?} xproj onehot={onehot}"),
                &out[3],
                &expected,
            );
        }
    }
}

/// `last_step` gathers each sample's row at t = lengths[b] − 1 and scatters it back, as the
/// CPU classifier does.
#[test]
fn last_step_gathers_and_scatters_the_last_character() {
    let ctx = context();
    let mut r = rng(21);
    let width = 3;
    let output = random_vec(&mut r, T * B * width, 1.0);
    let gather = LastStepDims {
        batch: B as u32,
        width: width as u32,
        mode: 0,
        _pad: 0,
    };
    let out = run_kernel::<LastStep>(
        &ctx,
        &[
            u32_bytes(&LENGTHS),
            f32_bytes(&output),
            f32_bytes(&vec![0.0; B * width]),
        ],
        &[gather],
    );
    let mut features = Vec::new();
    for (b, &len) in LENGTHS.iter().enumerate() {
        features.extend_from_slice(row(&output, len as usize - 1, b, width));
    }
    assert_eq!(out[2], features);
    let scatter = LastStepDims { mode: 1, ..gather };
    let out = run_kernel::<LastStep>(
        &ctx,
        &[
            u32_bytes(&LENGTHS),
            f32_bytes(&features),
            f32_bytes(&vec![0.0; T * B * width]),
        ],
        &[scatter],
    );
    let mut expected = vec![0.0; T * B * width];
    for b in 0..B {
        let t = LENGTHS[b] as usize - 1;
        expected[(t * B + b) * width..][..width].copy_from_slice(&features[b * width..][..width]);
    }
    assert_eq!(out[2], expected);
}

/// `onehot_weight_grad` against a CPU scatter loop: dW_ih[g, v] sums the gate gradients of
/// the steps whose symbol is v; db_ih sums all existing steps.
#[test]
fn onehot_weight_grad_matches_cpu_scatter() {
    let ctx = context();
    let (vocab, gw) = (57usize, 4 * H);
    let mut r = rng(17);
    let tokens = random_tokens(&mut r, vocab as u32);
    let mut d_gates = random_vec(&mut r, T * B * gw, 1.0);
    for p in 0..T * B {
        if (p / B) >= LENGTHS[p % B] as usize {
            d_gates[p * gw..][..gw].fill(0.0); // as the backward kernels leave them
        }
    }
    let (w_off, b_off) = (3usize, 3 + gw * vocab);
    let grads = vec![9.0; b_off + gw + 2];
    let dims = OnehotGradDims {
        batch: B as u32,
        seq_len: T as u32,
        gate_rows: gw as u32,
        input_size: vocab as u32,
        w_ih_offset: w_off as u32,
        b_ih_offset: b_off as u32,
        _pad: [0; 2],
    };
    let out = run_kernel::<OnehotWeightGrad>(
        &ctx,
        &[
            u32_bytes(&tokens),
            u32_bytes(&LENGTHS),
            f32_bytes(&d_gates),
            f32_bytes(&grads),
        ],
        &[dims],
    );
    let mut expected = grads.clone();
    expected[w_off..b_off + gw].fill(0.0);
    for p in 0..T * B {
        let (t, b) = (p / B, p % B);
        if t < LENGTHS[b] as usize {
            let v = tokens[b * T + t] as usize;
            for g in 0..gw {
                expected[w_off + g * vocab + v] += d_gates[p * gw + g];
                expected[b_off + g] += d_gates[p * gw + g];
            }
        }
    }
    Tol::FIXTURE.assert("d_w_ih, d_b_ih", &out[3], &expected);
}

/// `col_sum` against `math::linalg::col_sum_acc`, overwrite and accumulate, with an offset.
#[test]
fn col_sum_matches_cpu_twin() {
    let ctx = context();
    let mut r = rng(18);
    let (rows, cols) = (203usize, 70usize);
    let input = random_vec(&mut r, 5 + rows * cols, 1.0);
    let out0 = random_vec(&mut r, cols + 4, 1.0);
    for accumulate in [0u32, 1] {
        let dims = ColSumDims {
            rows: rows as u32,
            cols: cols as u32,
            in_offset: 5,
            ld: cols as u32,
            out_offset: 4,
            accumulate,
            _pad: [0; 2],
        };
        let out = run_kernel::<ColSum>(&ctx, &[f32_bytes(&input), f32_bytes(&out0)], &[dims]);
        let mut expected = out0.clone();
        if accumulate == 0 {
            expected[4..].fill(0.0);
        }
        col_sum_acc(&input[5..], &mut expected[4..]);
        Tol::FIXTURE.assert(&format!("col_sum acc{accumulate}"), &out[1], &expected);
    }
}

/// Three `adam_update` steps against `math::optim::adam_update`, with the step scalars the
/// host would compute (`AdamConfig::step_scalars`) placed in `step_state`; a step flagged as
/// skipped changes nothing.
#[test]
fn adam_update_matches_cpu_twin() {
    let ctx = context();
    let mut r = rng(19);
    let n = 1000;
    let config = AdamConfig {
        lr: 3e-3,
        ..AdamConfig::default()
    };
    let (mut p, mut m, mut v) = (random_vec(&mut r, n, 1.0), vec![0.0; n], vec![0.0; n]);
    let (mut gp, mut gm, mut gv) = (p.clone(), m.clone(), v.clone());
    for step in 1..=3u32 {
        let mut g = random_vec(&mut r, n, 1.0);
        g[0] = 0.0; // untouched parameter
        g[1] = 1e-30; // tiny gradient: ε dominates
        adam_update(&config, step, &mut p, &g, &mut m, &mut v);
        let sc = config.step_scalars(step);
        let state = [
            1.0,
            0.0,
            step as f32,
            sc.step_size,
            sc.bias_correction2_sqrt,
        ];
        let out = run_kernel::<AdamUpdate>(
            &ctx,
            &[
                f32_bytes(&g),
                f32_bytes(&state),
                f32_bytes(&gp),
                f32_bytes(&gm),
                f32_bytes(&gv),
            ],
            &[AdamDims::new(&config, n as u32)],
        );
        gp = out[2].clone();
        gm = out[3].clone();
        gv = out[4].clone();
        Tol::ACCUMULATED.assert(&format!("params after step {step}"), &gp, &p);
        Tol::SMALL.assert(&format!("m after step {step}"), &gm, &m);
        Tol::TINY.assert(&format!("v after step {step}"), &gv, &v);
    }
    let g = random_vec(&mut r, n, 1.0);
    let skipped = [1.0, 1.0, 3.0, 1.0, 1.0];
    let out = run_kernel::<AdamUpdate>(
        &ctx,
        &[
            f32_bytes(&g),
            f32_bytes(&skipped),
            f32_bytes(&gp),
            f32_bytes(&gm),
            f32_bytes(&gv),
        ],
        &[AdamDims::new(&config, n as u32)],
    );
    assert_eq!(
        (&out[2], &out[3], &out[4]),
        (&gp, &gm, &gv),
        "a skipped step leaves params and moments alone"
    );
}

/// Runs `clip_grad_norm` on `grads` with Adam's step count `t_before`; returns
/// (step_state, record) where record = [loss, correct, grad_norm, skipped] as f32 bits.
fn clip_on_gpu(
    grads: &[f32],
    max_norm: f32,
    t_before: f32,
    config: &AdamConfig,
) -> (Vec<f32>, Vec<f32>) {
    let ctx = context();
    let dims = ClipDims::new(config, grads.len() as u32, max_norm, 1);
    let out = run_kernel::<ClipGradNorm>(
        &ctx,
        &[
            f32_bytes(grads),
            f32_bytes(&[9.0, 9.0, t_before, 9.0, 9.0, 0.0]),
            f32_bytes(&[0.0; 8]),
        ],
        &[dims],
    );
    (out[1].clone(), out[2][4..].to_vec())
}

/// `clip_grad_norm` against `math::optim::clip_grad_norm`: [3, 4] and [12] with
/// max_norm 5 → norm 13, clipped [1.1538460, 1.5384614] and [4.6153841]; max_norm 20 →
/// unchanged; 100 gradients of 1e20 → norm 1e21 (no f32 overflow), 0.1 each after clipping to
/// 1; a NaN or inf gradient → skipped, Adam's step count unchanged. Also Adam's bias
/// corrections for the step (`AdamConfig::step_scalars`).
#[test]
fn clip_grad_norm_matches_cpu_twin() {
    let config = AdamConfig::default();
    let grads = [3.0f32, 4.0, 12.0];
    let (state, record) = clip_on_gpu(&grads, 5.0, 0.0, &config);
    let mut cpu = grads.to_vec();
    let outcome = clip_grad_norm(&mut cpu, 5.0);
    assert!(matches!(outcome, ClipOutcome::Clipped { .. }));
    let clipped: Vec<f32> = grads.iter().map(|g| g * state[0]).collect();
    Tol::CLIP.assert("clipped", &clipped, &cpu);
    Tol::CLIP.assert(
        "clipped (PyTorch)",
        &clipped,
        &[1.153_846, 1.538_461_4, 4.615_384],
    );
    Tol::CLIP.assert("norm", &[record[2]], &[13.0]);
    assert_eq!((state[1], record[3].to_bits()), (0.0, 0), "not skipped");
    let sc = config.step_scalars(1);
    Tol::SMALL.assert(
        "t, step_size, sqrt(bc2)",
        &state[2..5],
        &[1.0, sc.step_size, sc.bias_correction2_sqrt],
    );

    let (state, _) = clip_on_gpu(&grads, 20.0, 6.0, &config);
    assert_eq!(state[0], 1.0, "norm below max_norm: unchanged");
    // Bias corrections in f32 on the GPU agree with the host's f64 ones to ~1e-6 relative at
    // every step count (1 − 0.999^t would lose four digits to cancellation if done naively).
    for t_before in [0u32, 1, 6, 99, 2999, 99_999] {
        let (state, _) = clip_on_gpu(&grads, 0.0, t_before as f32, &config);
        let sc = config.step_scalars(t_before + 1);
        Tol::ADAM_SCALARS.assert(
            &format!("step {} scalars", t_before + 1),
            &state[2..5],
            &[
                (t_before + 1) as f32,
                sc.step_size,
                sc.bias_correction2_sqrt,
            ],
        );
    }

    let huge = vec![1e20f32; 100];
    let (state, record) = clip_on_gpu(&huge, 1.0, 0.0, &config);
    Tol::HUGE.assert("norm of 100 × 1e20", &[record[2]], &[1e21]);
    Tol::ACCUMULATED.assert("clipped 1e20", &[huge[0] * state[0]], &[0.1]);

    for bad in [f32::NAN, f32::INFINITY] {
        let mut g = grads.to_vec();
        g[1] = bad;
        let (state, record) = clip_on_gpu(&g, 5.0, 4.0, &config);
        assert!(clip_grad_norm(&mut g.clone(), 5.0).skip_step());
        assert_eq!(
            (state[1], state[2], record[3].to_bits()),
            (1.0, 4.0, 1),
            "{bad}: skipped, step count unchanged"
        );
        assert!(
            !record[2].is_finite(),
            "{bad}: the reported norm is not finite"
        );
    }

    // Clipping off: the norm is measured (not finite for a NaN), nothing is skipped, the step
    // counts.
    let (state, record) = clip_on_gpu(&[f32::NAN, 1.0], 0.0, 2.0, &config);
    assert_eq!(
        (state[0], state[1], state[2], record[3].to_bits()),
        (1.0, 0.0, 3.0, 0)
    );
    assert!(!record[2].is_finite());
    let (_, record) = clip_on_gpu(&[3.0, 4.0], 0.0, 2.0, &config);
    Tol::FIXTURE.assert("norm without clipping", &[record[2]], &[5.0]);
}

/// `classifier_head` against the CPU head (`features · fc.weightᵀ + fc.bias`, then
/// `math::loss::softmax_cross_entropy`): logits, mean loss, correct count, d_logits and the
/// fc.bias gradient; plus extreme logits [1000, 0, −1000] (no NaN; CE 0 and 2000).
#[test]
fn classifier_head_matches_cpu_twin() {
    let ctx = context();
    let mut r = rng(20);
    let (b, f, c) = (37usize, 9usize, 18usize);
    let feat_offset = 4;
    let features = random_vec(&mut r, feat_offset + b * f, 2.0);
    let (w_off, b_off) = (2usize, 2 + c * f);
    let params = random_vec(&mut r, b_off + c, 1.0);
    let labels: Vec<u32> = (0..b).map(|_| r.random_range(0..c as u32)).collect();
    let dims = HeadDims {
        batch: b as u32,
        features: f as u32,
        num_classes: c as u32,
        mode: 1,
        feat_offset: feat_offset as u32,
        fc_w_offset: w_off as u32,
        fc_b_offset: b_off as u32,
        result_slot: 1,
        inv_batch: 1.0 / b as f32,
        loss: 0,
        _pad: [0; 2],
    };
    let grads = vec![5.0; params.len()];
    let out = run_kernel::<ClassifierHead>(
        &ctx,
        &[
            f32_bytes(&params),
            f32_bytes(&features),
            u32_bytes(&labels),
            f32_bytes(&vec![0.0; b * c]),
            f32_bytes(&vec![0.0; b * c]),
            f32_bytes(&grads),
            f32_bytes(&[0.0; 12]),
        ],
        &[dims],
    );
    let mut logits = vec![0.0f32; b * c];
    for s in 0..b {
        for k in 0..c {
            let mut acc = params[b_off + k];
            for j in 0..f {
                acc += params[w_off + k * f + j] * features[feat_offset + s * f + j];
            }
            logits[s * c + k] = acc;
        }
    }
    let mut d_logits = vec![0.0f32; b * c];
    let loss_sum = softmax_cross_entropy(&logits, &labels, c, b as f32, &mut d_logits);
    let correct = (0..b)
        .filter(|&s| {
            let row = &logits[s * c..][..c];
            (0..c).fold(0, |m, k| if row[k] > row[m] { k } else { m }) as u32 == labels[s]
        })
        .count() as u32;
    Tol::FIXTURE.assert("logits", &out[3], &logits);
    Tol::HEAD_GRAD.assert("d_logits", &out[4], &d_logits);
    let mut expected_grads = grads.clone();
    expected_grads[b_off..].fill(0.0);
    col_sum_acc(&d_logits, &mut expected_grads[b_off..]);
    Tol::HEAD_GRAD.assert("grads (fc.bias only)", &out[5], &expected_grads);
    let results = &out[6];
    Tol::FIXTURE.assert("loss", &[results[4]], &[loss_sum / b as f32]);
    assert_eq!(as_u32(&results[5..6]), vec![correct]);
    assert_eq!(
        (results[6], as_u32(&results[7..8])),
        (-1.0, vec![0]),
        "no norm yet, not skipped"
    );
    assert_eq!(
        &results[..4],
        &[0.0; 4],
        "only the requested slot is written"
    );
    assert_eq!(
        &results[8..],
        &[0.0; 4],
        "only the requested slot is written"
    );

    // Extreme logits from F = 1, feature 1, weights [1000, 0, −1000], bias 0.
    let params = [1000.0f32, 0.0, -1000.0, 0.0, 0.0, 0.0];
    let dims = HeadDims {
        batch: 2,
        features: 1,
        num_classes: 3,
        mode: 1,
        feat_offset: 0,
        fc_w_offset: 0,
        fc_b_offset: 3,
        result_slot: 0,
        inv_batch: 0.5,
        loss: 0,
        _pad: [0; 2],
    };
    let out = run_kernel::<ClassifierHead>(
        &ctx,
        &[
            f32_bytes(&params),
            f32_bytes(&[1.0, 1.0]),
            u32_bytes(&[0, 2]),
            f32_bytes(&[0.0; 6]),
            f32_bytes(&[0.0; 6]),
            f32_bytes(&[0.0; 6]),
            f32_bytes(&[0.0; 4]),
        ],
        &[dims],
    );
    assert_eq!(out[3], vec![1000.0, 0.0, -1000.0, 1000.0, 0.0, -1000.0]);
    // Per-sample CE: 0 (label 0) and 2000 (label 2); the mean is 1000.
    Tol::LARGE_LOSS.assert("extreme loss", &[out[6][0]], &[1000.0]);
    assert_eq!(as_u32(&out[6][1..2]), vec![1]);
    assert!(out[4].iter().all(|v| v.is_finite()));
    Tol::ROUNDING.assert(
        "extreme d_logits",
        &out[4],
        &[0.0, 0.0, 0.0, 0.5, 0.0, -0.5],
    );
}

/// `classifier_head` with the squared error (loss 1, one output, the targets' f32 bits in
/// `labels`) against the CPU head and `math::loss::squared_error`: outputs, mean loss, no
/// correct count, d_outputs `2 (y − t) / B` and the fc.bias gradient.
#[test]
fn classifier_head_squared_error_matches_cpu_twin() {
    let ctx = context();
    let mut r = rng(21);
    let (b, f) = (300usize, 7usize);
    let features = random_vec(&mut r, b * f, 1.5);
    let params = random_vec(&mut r, f + 1, 1.0);
    let targets: Vec<f32> = (0..b).map(|_| r.random_range(0.0..2.0)).collect();
    let dims = HeadDims {
        batch: b as u32,
        features: f as u32,
        num_classes: 1,
        mode: 1,
        feat_offset: 0,
        fc_w_offset: 0,
        fc_b_offset: f as u32,
        result_slot: 0,
        inv_batch: 1.0 / b as f32,
        loss: 1,
        _pad: [0; 2],
    };
    let labels: Vec<u32> = targets.iter().map(|t| t.to_bits()).collect();
    let out = run_kernel::<ClassifierHead>(
        &ctx,
        &[
            f32_bytes(&params),
            f32_bytes(&features),
            u32_bytes(&labels),
            f32_bytes(&vec![0.0; b]),
            f32_bytes(&vec![0.0; b]),
            f32_bytes(&vec![0.0; f + 1]),
            f32_bytes(&[0.0; 4]),
        ],
        &[dims],
    );
    let outputs: Vec<f32> = (0..b)
        .map(|s| {
            let mut acc = params[f];
            for j in 0..f {
                acc += params[j] * features[s * f + j];
            }
            acc
        })
        .collect();
    let mut d = vec![0.0f32; b];
    let sum = unroll_core::math::loss::squared_error(&outputs, &targets, b as f32, &mut d);
    Tol::FIXTURE.assert("outputs", &out[3], &outputs);
    Tol::HEAD_GRAD.assert("d_outputs", &out[4], &d);
    Tol::HEAD_GRAD.assert("fc.bias grad", &out[5][f..], &[d.iter().sum::<f32>()]);
    Tol::FIXTURE.assert("loss", &[out[6][0]], &[(sum / b as f64) as f32]);
    assert_eq!(
        as_u32(&out[6][1..2]),
        vec![0],
        "no accuracy for a real target"
    );
    assert!(sum > 0.0);
}

/// A 1-D kernel over more than 65535 workgroups of 256 runs as a 2-D grid (WebGPU's
/// per-dimension limit) and still covers every element exactly once.
#[test]
fn two_dimensional_grid_covers_large_arrays() {
    let ctx = context();
    let n = 65_535 * 256 + 1000;
    let x: Vec<f32> = (0..n)
        .map(|i| if i % 2 == 0 { i as f32 } else { -(i as f32) })
        .collect();
    let dims = ActivationDims {
        len: n as u32,
        kind: ActivationKind::Relu as u32,
        _pad: [0; 2],
    };
    let y = run_kernel::<Activation>(
        &ctx,
        &[f32_bytes(&x), f32_bytes(&vec![-1.0; n + 256])],
        &[dims],
    )
    .remove(1);
    assert!(
        y[..n].iter().zip(&x).all(|(y, x)| *y == x.max(0.0)),
        "every element computed"
    );
    assert!(
        y[n..].iter().all(|v| *v == -1.0),
        "nothing past the end written"
    );
}

/// Each cell's descriptor names the WGSL kernels its GPU path runs; every cell's sequence
/// kernels have the same bindings (one skeleton per pass), and the descriptor decides which
/// buffer fills each: a placeholder of its own where the cell has no cell state or gate cache,
/// and the state cache BPTT reads (no adapter needed).
#[test]
fn cell_descriptors_name_their_kernels_and_bindings() {
    use unroll_core::gpu::kernels::cell_sequence::{accesses, bindings, kernel_name};
    use unroll_core::gpu::kernels::Access::{Read as R, ReadWrite as W};
    use CellBuffer::*;
    let expected = |cell: CellKind| match cell {
        CellKind::Rnn => ([HCache, NoCCache, NoGateCache], [HCache, NoGateCache]),
        CellKind::Lstm => ([HCache, CCache, GateCache], [CCache, GateCache]),
        CellKind::Gru => ([HCache, NoCCache, GateCache], [HCache, GateCache]),
    };
    for cell in CellKind::ALL {
        let spec = cell.spec();
        assert_eq!(
            kernel_name(spec, CellPass::Forward),
            format!("{}_forward", spec.key)
        );
        assert_eq!(
            kernel_name(spec, CellPass::Backward),
            format!("{}_backward", spec.key)
        );
        assert_eq!(accesses(spec, CellPass::Forward), [R, R, R, W, W, W, W]);
        assert_eq!(accesses(spec, CellPass::Backward), [R, R, R, R, R, W, W, W]);
        let names = |pass| -> Vec<CellBuffer> {
            bindings(spec, pass).into_iter().map(|(b, _)| b).collect()
        };
        let ([h, c, gates], [state, cached]) = expected(cell);
        assert_eq!(
            names(CellPass::Forward),
            [Xproj, Lengths, WHhPacked, h, c, gates, Output],
            "{cell:?}"
        );
        assert_eq!(
            names(CellPass::Backward),
            [Lengths, WHhPacked, state, cached, DOutput, DGates, DGatesStep, DState],
            "{cell:?}"
        );
        // WebGPU refuses one buffer at two writable bindings of a dispatch (Dawn checks it,
        // native wgpu does not): each writable binding names a buffer of its own.
        for pass in CellPass::BOTH {
            let writable: Vec<CellBuffer> = bindings(spec, pass)
                .into_iter()
                .filter(|(_, a)| *a == W)
                .map(|(b, _)| b)
                .collect();
            for (i, b) in writable.iter().enumerate() {
                assert!(
                    !writable[i + 1..].contains(b),
                    "{cell:?} {pass:?}: {b:?} twice"
                );
            }
        }
    }
}
