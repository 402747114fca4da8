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

// Parameters of the whole-sequence cell kernels (rnn/lstm/gru _forward/_backward): one
// dispatch runs one (layer, direction) over all T steps. Rust twin: gpu::kernels::SequenceDims.
//
// Caches are indexed by step s (slot s = state before step s); inputs, outputs and the
// input-side gate gradients by time t. A sample b has steps s < lengths[b]; the forward
// direction processes time t = s, the reverse direction t = lengths[b] − 1 − s (packed-sequence
// semantics: it starts at the sample's own last step). At s ≥ lengths[b] the state carries
// over, so slot T holds every sample's final state in both directions.
//
// Layout: a workgroup of WG_SEQ invocations owns rows_per_group (R) whole batch rows (rows are
// independent in the recurrence, so no workgroup waits for another). Its invocations are
// (slot, unit): invocation slot·H + j owns hidden unit j of rows_per_lane (RI) consecutive rows,
// slot·RI .. slot·RI + RI − 1, so ⌈R / RI⌉ slots of H invocations are busy. Each weight of W_hh
// an invocation loads is used for all its RI rows, with RI accumulators per gate in registers
// (at most ROWS_PER_LANE_MAX). The state (forward) or the gate gradients (backward) of the R
// rows live in workgroup memory, rows padded to a multiple of 4 floats (stride4) and read 4
// values at a time; that memory caps R·stride4(H) at SEQ_ROWS_UNITS. Every barrier is reached by
// every invocation, busy or not; idle ones skip the products.
struct SequenceDims {
    batch: u32,           // B
    hidden: u32,          // H (≤ WG_SEQ)
    seq_len: u32,         // T, steps of the loop
    rows_per_group: u32,  // R batch rows per workgroup (R·stride4(H) ≤ SEQ_ROWS_UNITS)
    w_hh_offset: u32,     // params offset of weight_hh [G·H, H]
    b_hn_offset: u32,     // GRU: params offset of b_hn (rows 2H..3H of bias_hh); else unused
    nonlinearity: u32,    // RNN: 0 tanh, 1 relu; else unused
    reverse: u32,         // 1 for the reverse direction
    out_stride: u32,      // row width of output / d_output: D·H
    out_offset: u32,      // this direction's first column in those rows: direction·H
    rows_per_lane: u32,   // RI batch rows per invocation (1..ROWS_PER_LANE_MAX; ⌈R/RI⌉·H ≤ WG_SEQ)
    _pad0: u32,
}

// Invocations per workgroup of the whole-sequence kernels: the most WebGPU guarantees, and
// the largest hidden size (one slot of invocations holds every unit).
const WG_SEQ: u32 = 256u;
// Most batch rows one invocation of a whole-sequence kernel computes (size of its register arrays).
const ROWS_PER_LANE_MAX: u32 = 8u;
// Most (row, unit) slots of one workgroup's memory, R·stride4(H): the LSTM backward keeps [R, 4H]
// gate gradients there, 4 · 1024 f32 = 16 KiB, the most WebGPU guarantees.
const SEQ_ROWS_UNITS: u32 = 1024u;

// Row stride, in f32, of the per-row vectors the whole-sequence kernels keep in workgroup memory:
// n rounded up to a multiple of 4, so that the products read them as vec4 (4 values per load).
// The tail past n is never written and stays 0 (workgroup memory starts zeroed); the products
// also give the weights past the matrix 0.
fn stride4(n: u32) -> u32 {
    return (n + 3u) / 4u * 4u;
}

// Which batch rows and hidden unit one invocation of a whole-sequence kernel owns: rows
// first_row .. first_row + rows − 1 of its workgroup, batch rows first_b .. first_b + rows − 1.
struct SequenceLane {
    first_row: u32,  // first row inside the workgroup (slot·RI)
    first_b: u32,    // its batch row
    rows: u32,       // rows owned: RI, fewer at the batch's end, 0 for idle invocations
    j: u32,          // hidden unit
}

fn sequence_lane(dims: SequenceDims, local: u32, group: u32) -> SequenceLane {
    let first_row = (local / dims.hidden) * dims.rows_per_lane;
    let first_b = group * dims.rows_per_group + first_row;
    var rows = 0u;
    if (first_row < dims.rows_per_group && first_b < dims.batch) {
        rows = min(min(dims.rows_per_lane, dims.rows_per_group - first_row), dims.batch - first_b);
    }
    return SequenceLane(first_row, first_b, rows, local % dims.hidden);
}

// Time index processed at step s by a sample of length `len` (only for s < len).
fn time_at(dims: SequenceDims, s: u32, len: u32) -> u32 {
    return select(s, len - 1u - s, dims.reverse != 0u);
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
