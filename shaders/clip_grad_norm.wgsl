// clip_grad_norm.wgsl — the optimizer's once-per-step scalars, in one workgroup, before
// adam_update: global-norm gradient clipping (torch.nn.utils.clip_grad_norm_ semantics) and
// Adam's step count and bias corrections.
//
//   norm = √(Σ g²) over every gradient      scale = min(1, max_norm / (norm + 1e-6))
//
// The norm is measured at every step, as m·√(Σ (g/m)²) with m = max |g|, so 100 gradients of
// 1e20 give 1e21 instead of an f32 overflow. Clipping runs when max_norm > 0; then a NaN or
// infinite gradient (or norm) skips the step: adam_update leaves parameters and moments
// untouched, Adam's step count does not advance, and the step's record says so (as the CPU
// trainer does). Without clipping the update is Adam's whatever the gradient.
// With the step count t (after this step) it writes step_size = lr / (1 − β1^t) and
// √(1 − β2^t); 1 − β^t is evaluated as −expm1(t·ln β) from ln β given in f64 by the host,
// because 1 − pow(0.999, 1) in f32 loses four digits to cancellation.
// CPU twin: math::optim::clip_grad_norm (and AdamConfig::step_scalars).

struct ClipDims {
    len: u32,          // number of gradients P
    max_norm: f32,     // ≤ 0: no clipping
    result_slot: u32,  // index into results
    lr: f32,           // learning rate of this step
    ln_beta1: f32,     // ln β1 (host f64)
    ln_beta2: f32,     // ln β2 (host f64)
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> dims: ClipDims;
@group(0) @binding(1) var<storage, read> grads: array<f32>;                 // [P]
@group(0) @binding(2) var<storage, read_write> step_state: array<f32>;      // [6]: scale, skip, t, step_size, √(1−β2^t), halted
@group(0) @binding(3) var<storage, read_write> results: array<StepResult>;  // ring of steps

// 1 − β^t = −expm1(t·ln β) without cancellation: Taylor series of expm1 for |x| < 0.5
// (12 terms reach f32 precision), 1 − e^x beyond.
fn one_minus_pow(ln_beta: f32, t: f32) -> f32 {
    let x = t * ln_beta;
    if (x > -0.5) {
        var term = x;
        var sum = x;
        for (var k = 2u; k <= 12u; k++) {
            term *= x / f32(k);
            sum += term;
        }
        return -sum;
    }
    return 1.0 - exp(x);
}

var<workgroup> part_max: array<f32, 256>;
var<workgroup> part_bad: array<u32, 256>;
var<workgroup> part_sum: array<f32, 256>;

@compute @workgroup_size(256)
fn clip_grad_norm(@builtin(local_invocation_index) tid: u32) {
    let clipping = dims.max_norm > 0.0;
    var m = 0.0;
    var bad = 0u;
    for (var i = tid; i < dims.len; i += 256u) {
        let g = grads[i];
        if (is_non_finite(g)) { bad = 1u; } else { m = max(m, abs(g)); }
    }
    part_max[tid] = m;
    part_bad[tid] = bad;
    workgroupBarrier();
    for (var stride = 128u; stride > 0u; stride /= 2u) {
        if (tid < stride) {
            part_max[tid] = max(part_max[tid], part_max[tid + stride]);
            part_bad[tid] = max(part_bad[tid], part_bad[tid + stride]);
        }
        workgroupBarrier();
    }
    let g_max = part_max[0];
    let any_bad = part_bad[0];
    var s = 0.0;
    if (g_max > 0.0 && any_bad == 0u) {
        for (var i = tid; i < dims.len; i += 256u) {
            let q = grads[i] / g_max;
            s += q * q;
        }
    }
    part_sum[tid] = s;
    workgroupBarrier();
    for (var stride = 128u; stride > 0u; stride /= 2u) {
        if (tid < stride) {
            part_sum[tid] += part_sum[tid + stride];
        }
        workgroupBarrier();
    }
    if (tid != 0u) { return; }
    var scale = 1.0;
    var skip = 0u;
    var norm = g_max * sqrt(part_sum[0]);
    // +inf when a gradient was NaN or ±inf. The bits come from a runtime value: Chromium's
    // WGSL compiler rejects a constant bitcast that yields inf.
    if (any_bad != 0u) { norm = bitcast<f32>(0x7f800000u * any_bad); }
    if (clipping) {
        skip = any_bad;
        if (is_non_finite(norm)) { skip = 1u; }
        if (skip == 0u) { scale = min(1.0, dims.max_norm / (norm + 1e-6)); }
    }
    // A non-finite loss (written by classifier_head just before) skips this step and halts
    // training: every later step is skipped too until the host resets step_state, so the
    // parameters stay those from before the first bad step even with steps already in flight.
    var halted = step_state[5];
    if (is_non_finite(results[dims.result_slot].loss)) { halted = 1.0; }
    if (halted != 0.0) { skip = 1u; }
    var t = step_state[2];
    if (skip == 0u) { t += 1.0; }
    step_state[5] = halted;
    step_state[0] = scale;
    step_state[1] = f32(skip);
    step_state[2] = t;
    step_state[3] = dims.lr / one_minus_pow(dims.ln_beta1, t);
    step_state[4] = sqrt(one_minus_pow(dims.ln_beta2, t));
    results[dims.result_slot].grad_norm = norm;
    results[dims.result_slot].skipped = skip;
}
