// sequence_backward.wgsl — BPTT through one layer direction of a recurrent cell over the whole
// sequence, one dispatch: s = T−1 down to 0. The skeleton every cell shares:
// core/src/gpu/shader_source.rs composes the prelude, a cell's part (shaders/<cell>.wgsl:
// GATES, HAS_CELL_STATE, HAS_GATE_CACHE, cell_backward) and this file into the kernel
// <cell>_backward.
//
// Layout: SequenceDims in common.wgsl. Invocation (part 0, slot, j) owns unit j of RI rows and
// keeps ∂L/∂h_j (and ∂L/∂c_j) of each row's state after step s in registers, read from d_state
// at the start (∂L/∂h_n, ∂L/∂c_n) and written back at the end (∂L/∂h0, ∂L/∂c0). At an existing
// step the output gradient d_output[t] joins ∂L/∂h and the cell's part gives the gate gradients:
// the input side goes to d_gates (by time t, for W_ih and the input), the hidden side to
// d_gates_step (by step s, for W_hh) and to workgroup memory ([R, stride4(G·H)], one buffer).
// After a barrier the invocations of every part walk column j of W_hh (w_hh_packed's columns,
// four gate rows per vec4 load), each its share of the G·H rows, with each weight serving its
// RI rows, for ∂L/∂h_prev; a second barrier keeps the next step from overwriting gradients
// still being read. With split = 2 the second part then writes its partial sums where part 0's
// own first gate gradient of the row sits, and after a third barrier part 0 adds them. Padded
// steps pass ∂L/∂h, ∂L/∂c through and have zero gate gradients.
// CPU twin: math::layer::LayerDirection::backward with the cell's backward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;                 // [B]
@group(0) @binding(2) var<storage, read> w_hh_packed: array<vec4<f32>>;       // packed W_hh (common.wgsl)
@group(0) @binding(3) var<storage, read> state_cache: array<f32>;             // [T+1, B, H] by step: c (HAS_CELL_STATE) or h
@group(0) @binding(4) var<storage, read> gate_cache: array<vec4<f32>>;        // [T, B, H] by step (HAS_GATE_CACHE)
@group(0) @binding(5) var<storage, read> d_output: array<f32>;                // [T, B, D·H] by time
@group(0) @binding(6) var<storage, read_write> d_gates: array<f32>;           // [T, B, G·H] by time, input side
@group(0) @binding(7) var<storage, read_write> d_gates_step: array<f32>;      // [T, B, G·H] by step, hidden side
@group(0) @binding(8) var<storage, read_write> d_state: array<f32>;           // [state blocks, B, H]: dh (, dc)

@compute @workgroup_size(WG_SEQ)
fn sequence_backward(@builtin(local_invocation_index) local: u32,
                     @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let owner = lane.part == 0u;  // keeps the rows' gradients and runs the cell
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let gh = GATES * hidden;
    let j = lane.j;
    var d_h: array<f32, ROWS_PER_LANE_MAX>;
    var d_c: array<f32, ROWS_PER_LANE_MAX>;
    var next: array<f32, ROWS_PER_LANE_MAX>;  // state cache after step s
    var len: array<u32, ROWS_PER_LANE_MAX>;
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        d_h[q] = 0.0;
        d_c[q] = 0.0;
        next[q] = 0.0;
        len[q] = 0u;
        if (owner && q < lane.rows) {
            let state_at = (lane.first_b + q) * hidden + j;
            d_h[q] = d_state[state_at];
            if (HAS_CELL_STATE) { d_c[q] = d_state[bh + state_at]; }
            next[q] = state_cache[dims.seq_len * bh + state_at];
            len[q] = lengths[lane.first_b + q];
        }
    }
    let row_stride = stride4(gh);  // floats per row of gradients in seq_shared
    let shared_at = lane.first_row * row_stride;  // this lane's first row there
    // This part's share of the row's vec4 blocks; idle invocations (no rows) skip the product.
    let n4 = row_stride / 4u;
    let share = (n4 + dims.split - 1u) / dims.split;
    let r4_begin = min(lane.part * share, n4);
    let r4_end = select(r4_begin, min(r4_begin + share, n4), lane.rows > 0u);
    let cols_at = packed_cols_at(hidden, GATES);
    for (var k = 0u; k < dims.seq_len; k++) {
        let s = dims.seq_len - 1u - k;
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (owner && q < lane.rows) {
                let b = lane.first_b + q;
                let prev = state_cache[s * bh + b * hidden + j];
                let step_at = (s * dims.batch + b) * gh + j;
                if (s < len[q]) {
                    let t = time_at(dims, s, len[q]);
                    d_h[q] += d_output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j];
                    var cache = vec4(0.0);
                    if (HAS_GATE_CACHE) { cache = gate_cache[(s * dims.batch + b) * hidden + j]; }
                    let grads = cell_backward(cache, prev, next[q], d_h[q], d_c[q], dims.nonlinearity);
                    let time_row_at = (t * dims.batch + b) * gh + j;
                    let shared_row_at = shared_at + q * row_stride + j;
                    for (var g = 0u; g < GATES; g++) {
                        d_gates[time_row_at + g * hidden] = grads.d_x[g];
                        d_gates_step[step_at + g * hidden] = grads.d_hh[g];
                        put_seq_shared(shared_row_at + g * hidden, grads.d_hh[g]);
                    }
                    d_h[q] = grads.dh_prev;
                    d_c[q] = grads.dc_prev;
                } else {
                    for (var g = 0u; g < GATES; g++) { d_gates_step[step_at + g * hidden] = 0.0; }
                }
                next[q] = prev;
            }
        }
        workgroupBarrier();
        // Σ_r d_gates[r]·W_hh[r, j] over this part's share of the G·H gate rows (column j of
        // W_hh), each weight loaded once for all rows; zeroed at every step, explicitly.
        var acc: array<f32, ROWS_PER_LANE_MAX>;
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) { acc[q] = 0.0; }
        for (var r4 = r4_begin; r4 < r4_end; r4++) {
            let w = w_hh_packed[cols_at + r4 * hidden + j];
            for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
                if (q < lane.rows) { acc[q] += dot(get4_seq_shared((shared_at + q * row_stride) / 4u + r4), w); }
            }
        }
        workgroupBarrier();
        if (dims.split > 1u) {
            if (lane.part == 1u) {
                for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
                    if (q < lane.rows) { put_seq_shared(shared_at + q * row_stride + j, acc[q]); }
                }
            }
            workgroupBarrier();
            if (owner) {
                for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
                    if (q < lane.rows) { acc[q] += get_seq_shared(shared_at + q * row_stride + j); }
                }
            }
        }
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (owner && q < lane.rows && s < len[q]) { d_h[q] += acc[q]; }
        }
    }
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (owner && q < lane.rows) {
            let state_at = (lane.first_b + q) * hidden + j;
            d_state[state_at] = d_h[q];
            if (HAS_CELL_STATE) { d_state[bh + state_at] = d_c[q]; }
        }
    }
}
