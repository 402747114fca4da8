// rnn_backward.wgsl — BPTT through one Elman RNN layer direction over the whole sequence, one
// dispatch: s = T−1 down to 0.
//
// Invocation (slot, j) owns unit j of RI rows (layout: SequenceDims in common.wgsl) and keeps
// ∂L/∂h_j of each row's state after step s in a register, read from d_state at the start
// (∂L/∂h_n) and written back at the end (∂L/∂h0). At an existing step:
//
//   dh += d_output[t]
//   d_pre = dh ⊙ (1 − h²)  (tanh)   or   dh ⊙ [h > 0]  (relu)
//   dh_prev = d_pre·W_hh            (nothing bypasses W_hh)
//
// d_pre goes to d_gates (by time), d_gates_step (by step) and workgroup memory ([R, H], one
// buffer); after a barrier each invocation walks column j of W_hh once, four rows at a time (one
// vec4 of gradients per row), each weight serving its RI rows, and a second barrier keeps the next step from overwriting what is still being read.
// Padded steps pass dh through.
// CPU twin: math::layer::LayerDirection::backward with math::rnn::backward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;             // [B]
@group(0) @binding(2) var<storage, read> params: array<f32>;              // flat (W_hh at w_hh_offset)
@group(0) @binding(3) var<storage, read> h_cache: array<f32>;             // [T+1, B, H] by step
@group(0) @binding(4) var<storage, read> d_output: array<f32>;            // [T, B, D·H] by time
@group(0) @binding(5) var<storage, read_write> d_gates: array<f32>;       // [T, B, H] by time
@group(0) @binding(6) var<storage, read_write> d_gates_step: array<f32>;  // [T, B, H] by step
@group(0) @binding(7) var<storage, read_write> d_state: array<f32>;       // [B, H]

// [R, stride4(H)] floats (R·stride4(H) ≤ SEQ_ROWS_UNITS floats); gradient r of row q is float
// q·stride4(H) + r, the tail past H stays 0.
var<workgroup> d_pre_shared: array<f32, 1024>;

// Writes float `at` of d_pre_shared.
fn put_d_pre_shared(at: u32, value: f32) {
    d_pre_shared[at] = value;
}

// Floats 4·i4 .. 4·i4 + 3 of d_pre_shared as one vector. (The array holds f32, not vec4: a write
// to one component of a vector may touch the whole vector, and neighbouring invocations
// write neighbouring floats.)
fn get4_d_pre_shared(i4: u32) -> vec4<f32> {
    let at = 4u * i4;
    return vec4(d_pre_shared[at], d_pre_shared[at + 1u], d_pre_shared[at + 2u], d_pre_shared[at + 3u]);
}

// W_hh[r, j] (column j of W_hh, rows r < H); 0 past the last row.
fn w_hh(r: u32, j: u32) -> f32 {
    return select(0.0, params[dims.w_hh_offset + r * dims.hidden + j], r < dims.hidden);
}

@compute @workgroup_size(WG_SEQ)
fn rnn_backward(@builtin(local_invocation_index) local: u32,
                @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let j = lane.j;
    var d_h: array<f32, ROWS_PER_LANE_MAX>;
    var len: array<u32, ROWS_PER_LANE_MAX>;
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (q < lane.rows) {
            d_h[q] = d_state[(lane.first_b + q) * hidden + j];
            len[q] = lengths[lane.first_b + q];
        }
    }
    let row_stride = stride4(hidden);  // floats per row of d_pre_shared
    let shared_at = lane.first_row * row_stride;  // this lane's first row there
    // Idle invocations (no rows) skip the product: it is most of the work.
    let k_end = select(0u, (hidden + 3u) / 4u, lane.rows > 0u);
    for (var k = 0u; k < dims.seq_len; k++) {
        let s = dims.seq_len - 1u - k;
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (q < lane.rows) {
                let b = lane.first_b + q;
                let step_pos = s * bh + b * hidden + j;
                if (s < len[q]) {
                    let t = time_at(dims, s, len[q]);
                    let h = h_cache[step_pos + bh];
                    d_h[q] += d_output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j];
                    var d_pre: f32;
                    if (dims.nonlinearity == 0u) { d_pre = d_h[q] * (1.0 - h * h); } else { d_pre = select(0.0, d_h[q], h > 0.0); }
                    d_gates[(t * dims.batch + b) * hidden + j] = d_pre;
                    d_gates_step[step_pos] = d_pre;
                    let at = shared_at + q * row_stride + j;
                    put_d_pre_shared(at, d_pre);
                } else {
                    d_gates_step[step_pos] = 0.0;
                }
            }
        }
        workgroupBarrier();
        // dh_prev_j = Σ_r d_pre[r]·W_hh[r, j] (column j of W_hh), each weight loaded once.
        var acc: array<f32, ROWS_PER_LANE_MAX>;
        // Zeroed here at every step, explicitly (declared in the loop).
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) { acc[q] = 0.0; }
        for (var r4 = 0u; r4 < k_end; r4++) {
            let r = 4u * r4;
            let w = vec4(w_hh(r, j), w_hh(r + 1u, j), w_hh(r + 2u, j), w_hh(r + 3u, j));
            for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
                if (q < lane.rows) { acc[q] += dot(get4_d_pre_shared((shared_at + q * row_stride) / 4u + r4), w); }
            }
        }
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (q < lane.rows && s < len[q]) { d_h[q] = acc[q]; }
        }
        workgroupBarrier();
    }
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (q < lane.rows) { d_state[(lane.first_b + q) * hidden + j] = d_h[q]; }
    }
}
