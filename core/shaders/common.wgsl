// common.wgsl — prelude prepended to every kernel by core/src/gpu/shader_source.rs.
//
// Shape legend (same as core/src/math/mod.rs): B batch, T seq_len, I input_size, H hidden_size,
// G gate blocks (RNN 1, LSTM 4, GRU 3), C classes. Row-major f32; time-major buffers [T, B, ·];
// caches [T+1, B, H] with slot 0 = the initial state.

// Invocations per workgroup of the 1-D (element-wise) kernels.
const WG_1D: u32 = 256u;

// Largest |x| fed to the hardware tanh. tanh(15) rounds to 1.0 in f32, so the clamp changes no
// result, but it keeps SwiftShader (Chromium's WebGPU) from returning NaN for tanh(±100).
const TANH_CLAMP: f32 = 15.0;
// Largest |x| fed to exp() in the sigmoid: e^{-88} is still a (denormal) f32, so σ(−88) ≈ 6e-39
// and σ(88) rounds to 1; ±inf never reach exp().
const SIGMOID_CLAMP: f32 = 88.0;

// tanh that never returns NaN for finite or infinite input.
fn tanh_safe(x: f32) -> f32 {
    return tanh(clamp(x, -TANH_CLAMP, TANH_CLAMP));
}

// Logistic sigmoid 1 / (1 + e^{-x}) that never overflows: exp() only sees -|x|.
fn sigmoid_safe(x: f32) -> f32 {
    let xc = clamp(x, -SIGMOID_CLAMP, SIGMOID_CLAMP);
    let e = exp(-abs(xc));
    return select(e / (1.0 + e), 1.0 / (1.0 + e), xc >= 0.0);
}

// Linear invocation index of a 1-D kernel launched as a 2-D grid of WG_1D-wide workgroups
// (the host splits dispatches over 65535 workgroups into rows; see gpu::kernels::grid_1d).
fn linear_index(gid: vec3<u32>, num_wg: vec3<u32>) -> u32 {
    return gid.y * (num_wg.x * WG_1D) + gid.x;
}

// Per-step parameters of the cell kernels (rnn/lstm/gru _forward/_backward).
// Rust twin: gpu::kernels::CellDims.
//
// Caches are indexed by step s (slot s = state before step s); inputs, outputs and the
// input-side gate gradients by time t. A sample b has steps s < lengths[b]; the forward
// direction processes time t = s, the reverse direction t = lengths[b] − 1 − s (packed-sequence
// semantics: it starts at the sample's own last step). At s ≥ lengths[b] the state carries
// over, so slot T holds every sample's final state in both directions.
struct CellDims {
    batch: u32,          // B
    hidden: u32,         // H
    step: u32,           // s, the step of this dispatch
    b_hn_offset: u32,    // GRU: params offset of b_hn (rows 2H..3H of bias_hh); else unused
    nonlinearity: u32,   // RNN: 0 tanh, 1 relu; else unused
    reverse: u32,        // 1 for the reverse direction
    out_stride: u32,     // row width of output / d_output: D·H
    out_offset: u32,     // this direction's first column in those rows: direction·H
}

// Time index processed at step dims.step by a sample of length `len` (only for step < len).
fn time_of(dims: CellDims, len: u32) -> u32 {
    return select(dims.step, len - 1u - dims.step, dims.reverse != 0u);
}

// One training step's record in the results ring (written by classifier_head and grad_norm).
// Rust twin: gpu::kernels::classifier_head::StepRecord.
struct StepResult {
    loss: f32,        // mean NLL over the batch
    correct: u32,     // names whose arg-max equals the label
    grad_norm: f32,   // global L2 norm of the gradients (−1 when not computed)
    skipped: u32,     // 1 when the norm was not finite and Adam skipped the step
}

// True for ±inf and NaN, decided on the bits (shader compilers may assume finite floats).
fn is_non_finite(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u;
}
