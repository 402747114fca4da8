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

// Parameters of the whole-sequence cell kernels (sequence_forward / sequence_backward composed
// with a cell's part): one dispatch runs one (layer, direction) over all T steps. Rust twin:
// gpu::kernels::SequenceDims.
//
// Caches are indexed by step s (slot s = state before step s); inputs, outputs and the
// input-side gate gradients by time t. A sample b has steps s < lengths[b]; the forward
// direction processes time t = s, the reverse direction t = lengths[b] − 1 − s (packed-sequence
// semantics: it starts at the sample's own last step). At s ≥ lengths[b] the state carries
// over, so slot T holds every sample's final state in both directions.
//
// Layout: a workgroup of WG_SEQ invocations owns rows_per_group (R) whole batch rows (rows are
// independent in the recurrence, so no workgroup waits for another). Its invocations are
// (part, slot, unit): invocation (part·slots + slot)·H + j, with slots = ⌈R / RI⌉, owns hidden
// unit j of rows_per_lane (RI) consecutive rows, slot·RI .. slot·RI + RI − 1. Each weight of
// W_hh an invocation loads is used for all its RI rows, with RI accumulators per gate in
// registers (at most ROWS_PER_LANE_MAX). `split` parts share one slot's work (BPTT: each part
// sums a share of the G·H-long product, part 0 adds the others' partial sums from workgroup
// memory), so split·slots·H invocations are busy. The state (forward) or the gate gradients
// (backward) of the R rows live in workgroup memory (seq_shared), rows padded to a multiple of
// 4 floats and read 4 values at a time; that memory caps R·stride4(H) at SEQ_ROWS_UNITS. Every
// barrier is reached by every invocation, busy or not; idle ones skip the products.
struct SequenceDims {
    batch: u32,           // B
    hidden: u32,          // H (≤ WG_SEQ)
    seq_len: u32,         // T, steps of the loop
    rows_per_group: u32,  // R batch rows per workgroup (R·stride4(H) ≤ SEQ_ROWS_UNITS)
    rows_per_lane: u32,   // RI batch rows per invocation (1..ROWS_PER_LANE_MAX)
    split: u32,           // parts sharing a slot's product (1..SPLIT_MAX; split·⌈R/RI⌉·H ≤ WG_SEQ)
    nonlinearity: u32,    // RNN: 0 tanh, 1 relu; else unused
    reverse: u32,         // 1 for the reverse direction
    out_stride: u32,      // row width of output / d_output: D·H
    out_offset: u32,      // this direction's first column in those rows: direction·H
    _pad0: u32,
    _pad1: u32,
}

// Invocations per workgroup of the whole-sequence kernels: the most WebGPU guarantees, and
// the largest hidden size (one slot of invocations holds every unit).
const WG_SEQ: u32 = 256u;
// Most batch rows one invocation of a whole-sequence kernel computes (size of its register arrays).
const ROWS_PER_LANE_MAX: u32 = 8u;
// Most parts sharing one slot's product (BPTT's partial sums fit where part 0's gradients are).
const SPLIT_MAX: u32 = 2u;
// Most (row, unit) slots of one workgroup's memory, R·stride4(H): the LSTM backward keeps [R, 4H]
// gate gradients there, 4 · 1024 f32 = 16 KiB, the most WebGPU guarantees.
const SEQ_ROWS_UNITS: u32 = 1024u;
// Most floats of the whole-sequence kernels' workgroup memory, 4·SEQ_ROWS_UNITS (16 KiB).
const SEQ_SHARED_FLOATS_MAX: u32 = 4096u;
// Floats of the whole-sequence kernels' workgroup memory, set by each pipeline to what its
// model's rows need (at most SEQ_SHARED_FLOATS_MAX; host: cell_sequence::shared_floats).
// WebGPU zeroes workgroup memory at every dispatch, and an emulated device compiles that
// zeroing into the kernel, float by float: sized to the rows a model has, a small model's
// kernels compile several times faster on SwiftShader.
override SEQ_SHARED_FLOATS: u32 = SEQ_SHARED_FLOATS_MAX;

// The whole-sequence kernels' workgroup memory, f32 (not vec4: a write to one component of a
// vector may touch the whole vector, and neighbouring invocations write neighbouring floats).
// Forward: two [R, stride4(H)] buffers of h at 0 and R·stride4(H) (step s reads one and
// writes the other). Backward: [R, stride4(G·H)] gate gradients; the tail of each row past G·H
// is never written and stays 0 (workgroup memory starts zeroed).
var<workgroup> seq_shared: array<f32, SEQ_SHARED_FLOATS>;

fn put_seq_shared(at: u32, value: f32) {
    seq_shared[at] = value;
}

fn get_seq_shared(at: u32) -> f32 {
    return seq_shared[at];
}

// Floats 4·i4 .. 4·i4 + 3 of seq_shared as one vector.
fn get4_seq_shared(i4: u32) -> vec4<f32> {
    let at = 4u * i4;
    return vec4(seq_shared[at], seq_shared[at + 1u], seq_shared[at + 2u], seq_shared[at + 3u]);
}

// Row stride, in f32, of the per-row vectors the whole-sequence kernels keep in workgroup memory:
// n rounded up to a multiple of 4, so that the products read them as vec4 (4 values per load).
fn stride4(n: u32) -> u32 {
    return (n + 3u) / 4u * 4u;
}

// W_hh [G·H, H] as the whole-sequence kernels read it, `w_hh_packed` (written once per training
// step by pack_w_hh.wgsl; Rust twin gpu::kernels::pack_w_hh::pack), array<vec4<f32>>:
//   rows, for the forward:  vec4 (m4·H + j)·G + g = W_hh[g·H + j, 4·m4 .. 4·m4 + 3]  (0 past H),
//                           so one unit's G gate blocks for four inputs are G neighbouring loads
//                           and neighbouring units read neighbouring addresses;
//   bias:                   vec4 packed_bias_at + j = the hidden-side biases of unit j that the
//                           input projection leaves out (GRU's b_hn), gate g in component g;
//   columns, for BPTT:      vec4 packed_cols_at + r4·H + j = W_hh[4·r4 .. 4·r4 + 3, j]  (0 past G·H).
fn packed_bias_at(hidden: u32, gates: u32) -> u32 {
    return (hidden + 3u) / 4u * hidden * gates;
}

fn packed_cols_at(hidden: u32, gates: u32) -> u32 {
    return packed_bias_at(hidden, gates) + hidden;
}

// Which batch rows and hidden unit one invocation of a whole-sequence kernel owns: rows
// first_row .. first_row + rows − 1 of its workgroup, batch rows first_b .. first_b + rows − 1.
struct SequenceLane {
    part: u32,       // which share of the slot's product (0 keeps the rows' state)
    first_row: u32,  // first row inside the workgroup (slot·RI)
    first_b: u32,    // its batch row
    rows: u32,       // rows owned: RI, fewer at the batch's end, 0 for idle invocations
    j: u32,          // hidden unit
}

fn sequence_lane(dims: SequenceDims, local: u32, group: u32) -> SequenceLane {
    let slots = (dims.rows_per_group + dims.rows_per_lane - 1u) / dims.rows_per_lane;
    let unit_slot = local / dims.hidden;
    let part = unit_slot / slots;
    let first_row = (unit_slot % slots) * dims.rows_per_lane;
    let first_b = group * dims.rows_per_group + first_row;
    var rows = 0u;
    if (part < dims.split && first_b < dims.batch) {
        rows = min(min(dims.rows_per_lane, dims.rows_per_group - first_row), dims.batch - first_b);
    }
    return SequenceLane(part, first_row, first_b, rows, local % dims.hidden);
}

// Time index processed at step s by a sample of length `len` (only for s < len).
fn time_at(dims: SequenceDims, s: u32, len: u32) -> u32 {
    return select(s, len - 1u - s, dims.reverse != 0u);
}

// What a cell's part computes for one unit of one row at one step (shaders/<cell>.wgsl, between
// the prelude and the skeleton). Gate g of a cell with G blocks is component g of a vec4; the
// components past G are unused.
struct CellForward {
    h: f32,            // the new hidden state
    c: f32,            // the new cell state (cells with one; else unused)
    cache: vec4<f32>,  // what BPTT reads back from gate_cache (cells with a gate cache)
}

struct CellBackward {
    d_x: vec4<f32>,    // ∂L/∂ input-side pre-activations (W_ih x + b_ih), per gate
    d_hh: vec4<f32>,   // ∂L/∂ hidden-side pre-activations (W_hh h + b_hh), per gate
    dh_prev: f32,      // the part of ∂L/∂h_prev that does not pass through W_hh
    dc_prev: f32,      // ∂L/∂c_prev (cells with a cell state)
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
