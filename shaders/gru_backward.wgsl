// gru_backward.wgsl — BPTT through one GRU layer direction over the whole sequence, one
// dispatch: s = T−1 down to 0.
//
// Invocation (slot, j) owns unit j of RI rows (layout: SequenceDims in common.wgsl) and keeps
// ∂L/∂h_j of each row's state after step s in a register, read from d_state at the start
// (∂L/∂h_n) and written back at the end (∂L/∂h0). At an existing step d_output[t] joins it;
// d_gates[t] (by time) = ∂L/∂(W_ih x + b_ih) per block r, z, n and d_gates_hh[s] (by step) =
// ∂L/∂(W_hh h + b_hh), which differ in the n block (d_hn = d_n_pre ⊙ r). The hidden-side
// gradients also go to workgroup memory ([R, 3H], one buffer); after a barrier each invocation
// walks column j of W_hh once, four rows at a time (a vec4 of gradients per row),
// each weight serving its RI rows, and adds it to the direct part
// z ⊙ dh; a second barrier keeps the next step from overwriting what is still being read.
// Padded steps pass ∂L/∂h through.
//
//   d_n = dh ⊙ (1−z) ⊙ (1−n²)   d_z = dh ⊙ (h_prev − n) ⊙ z(1−z)   d_r = d_n ⊙ hn ⊙ r(1−r)
//   dh_prev = z ⊙ dh + [d_r d_z d_n⊙r]·W_hh
// CPU twin: math::layer::LayerDirection::backward with math::gru::backward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(2) var<storage, read> params: array<f32>;            // flat (W_hh at w_hh_offset)
@group(0) @binding(3) var<storage, read> h_cache: array<f32>;           // [T+1, B, H] by step
@group(0) @binding(4) var<storage, read> gate_cache: array<f32>;        // [T, B, 4H] by step: r, z, n, hn
@group(0) @binding(5) var<storage, read> d_output: array<f32>;          // [T, B, D·H] by time
@group(0) @binding(6) var<storage, read_write> d_gates: array<f32>;     // [T, B, 3H] by time, input side
@group(0) @binding(7) var<storage, read_write> d_gates_hh: array<f32>;  // [T, B, 3H] by step, hidden side
@group(0) @binding(8) var<storage, read_write> d_state: array<f32>;     // [B, H]

// [R, 3·stride4(H)] floats (3·R·stride4(H) ≤ 3·SEQ_ROWS_UNITS floats); gradient r of row q is
// float q·3·stride4(H) + r, the tail past 3H stays 0.
var<workgroup> d_gates_shared: array<f32, 3072>;

// Writes float `at` of d_gates_shared.
fn put_d_gates_shared(at: u32, value: f32) {
    d_gates_shared[at] = value;
}

// Floats 4·i4 .. 4·i4 + 3 of d_gates_shared as one vector. (The array holds f32, not vec4: a write
// to one component of a vector may touch the whole vector, and neighbouring invocations
// write neighbouring floats.)
fn get4_d_gates_shared(i4: u32) -> vec4<f32> {
    let at = 4u * i4;
    return vec4(d_gates_shared[at], d_gates_shared[at + 1u], d_gates_shared[at + 2u], d_gates_shared[at + 3u]);
}

// W_hh[r, j] (column j of W_hh, rows r < 3H); 0 past the last row.
fn w_hh(r: u32, j: u32) -> f32 {
    return select(0.0, params[dims.w_hh_offset + r * dims.hidden + j], r < 3u * dims.hidden);
}

@compute @workgroup_size(WG_SEQ)
fn gru_backward(@builtin(local_invocation_index) local: u32,
                @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let gh = 3u * hidden;
    let j = lane.j;
    var d_h: array<f32, ROWS_PER_LANE_MAX>;
    var len: array<u32, ROWS_PER_LANE_MAX>;
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (q < lane.rows) {
            d_h[q] = d_state[(lane.first_b + q) * hidden + j];
            len[q] = lengths[lane.first_b + q];
        }
    }
    let row_stride = 3u * stride4(hidden);  // floats per row of d_gates_shared
    let shared_at = lane.first_row * row_stride;  // this lane's first row there
    // Idle invocations (no rows) skip the product: it is most of the work.
    let k_end = select(0u, (gh + 3u) / 4u, lane.rows > 0u);
    for (var k = 0u; k < dims.seq_len; k++) {
        let s = dims.seq_len - 1u - k;
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (q < lane.rows) {
                let b = lane.first_b + q;
                let state_at = b * hidden + j;
                let step_row = (s * dims.batch + b) * gh;
                if (s < len[q]) {
                    let t = time_at(dims, s, len[q]);
                    let cache_row = (s * dims.batch + b) * 4u * hidden;
                    let r = gate_cache[cache_row + j];
                    let z = gate_cache[cache_row + hidden + j];
                    let n = gate_cache[cache_row + 2u * hidden + j];
                    let hn = gate_cache[cache_row + 3u * hidden + j];
                    let h_prev = h_cache[s * bh + state_at];
                    d_h[q] += d_output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j];
                    let d_n = d_h[q] * (1.0 - z) * (1.0 - n * n);
                    let d_z = d_h[q] * (h_prev - n) * z * (1.0 - z);
                    let d_r = d_n * hn * r * (1.0 - r);
                    let time_row = (t * dims.batch + b) * gh;
                    d_gates[time_row + j] = d_r;
                    d_gates[time_row + hidden + j] = d_z;
                    d_gates[time_row + 2u * hidden + j] = d_n;
                    d_gates_hh[step_row + j] = d_r;
                    d_gates_hh[step_row + hidden + j] = d_z;
                    d_gates_hh[step_row + 2u * hidden + j] = d_n * r;
                    let row_at = shared_at + q * row_stride;
                    put_d_gates_shared(row_at + j, d_r);
                    put_d_gates_shared(row_at + hidden + j, d_z);
                    put_d_gates_shared(row_at + 2u * hidden + j, d_n * r);
                    d_h[q] *= z;
                } else {
                    for (var p = 0u; p < 3u; p++) { d_gates_hh[step_row + p * hidden + j] = 0.0; }
                }
            }
        }
        workgroupBarrier();
        // dh_prev_j += Σ_r d_gates_hh[r]·W_hh[r, j] over the 3H gate rows (column j of W_hh),
        // each weight loaded once for all rows.
        var acc: array<f32, ROWS_PER_LANE_MAX>;
        // Zeroed here at every step, explicitly (declared in the loop).
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) { acc[q] = 0.0; }
        for (var r4 = 0u; r4 < k_end; r4++) {
            let r = 4u * r4;
            let w = vec4(w_hh(r, j), w_hh(r + 1u, j), w_hh(r + 2u, j), w_hh(r + 3u, j));
            for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
                if (q < lane.rows) { acc[q] += dot(get4_d_gates_shared((shared_at + q * row_stride) / 4u + r4), w); }
            }
        }
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (q < lane.rows && s < len[q]) { d_h[q] += acc[q]; }
        }
        workgroupBarrier();
    }
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (q < lane.rows) { d_state[(lane.first_b + q) * hidden + j] = d_h[q]; }
    }
}
