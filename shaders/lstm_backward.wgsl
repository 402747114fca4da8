// lstm_backward.wgsl — BPTT through one LSTM layer direction over the whole sequence, one
// dispatch: s = T−1 down to 0.
//
// Invocation (slot, j) owns unit j of RI rows (layout: SequenceDims in common.wgsl) and keeps
// ∂L/∂h_j and ∂L/∂c_j of each row's state after step s in registers, read from d_state at the
// start (∂L/∂h_n, ∂L/∂c_n) and written back at the end (∂L/∂h0, ∂L/∂c0). At an existing step
// the output gradient d_output[t] joins ∂L/∂h; the gate pre-activation gradients go to d_gates
// (by time t, for W_ih / the input) and d_gates_step (by step s, for W_hh; for LSTM the two hold
// the same values) and to workgroup memory ([R, 4H], one buffer). After a barrier each
// invocation walks column j of W_hh once, four rows at a time (a vec4 of gradients per row),
// each weight serving its RI rows, for ∂L/∂h_prev; a
// second barrier keeps the next step from overwriting gradients still being read. Padded steps
// pass ∂L/∂h, ∂L/∂c through and have zero gate gradients.
//
//   dh += d_output[t]               dc += dh ⊙ o ⊙ (1 − tanh²c)
//   d_i = dc ⊙ g ⊙ i(1−i)   d_f = dc ⊙ c_prev ⊙ f(1−f)   d_g = dc ⊙ i ⊙ (1−g²)
//   d_o = dh ⊙ tanh c ⊙ o(1−o)
//   dc_prev = dc ⊙ f                dh_prev = [d_i d_f d_g d_o]·W_hh
// CPU twin: math::layer::LayerDirection::backward with math::lstm::backward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;            // [B]
@group(0) @binding(2) var<storage, read> params: array<f32>;             // flat (W_hh at w_hh_offset)
@group(0) @binding(3) var<storage, read> c_cache: array<f32>;            // [T+1, B, H] by step
@group(0) @binding(4) var<storage, read> gate_cache: array<f32>;         // [T, B, 4H] by step: i, f, g, o
@group(0) @binding(5) var<storage, read> d_output: array<f32>;           // [T, B, D·H] by time
@group(0) @binding(6) var<storage, read_write> d_gates: array<f32>;      // [T, B, 4H] by time
@group(0) @binding(7) var<storage, read_write> d_gates_step: array<f32>; // [T, B, 4H] by step
@group(0) @binding(8) var<storage, read_write> d_state: array<f32>;      // [2, B, H]: dh, dc

// [R, 4·stride4(H)] floats (4·R·stride4(H) ≤ 4·SEQ_ROWS_UNITS floats); gradient r of row q is
// float q·4·stride4(H) + r, the tail past 4H stays 0.
var<workgroup> d_gates_shared: array<f32, 4096>;

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

// W_hh[r, j] (column j of W_hh, rows r < 4H); 0 past the last row.
fn w_hh(r: u32, j: u32) -> f32 {
    let rows = 4u * dims.hidden;
    return select(0.0, params[dims.w_hh_offset + r * dims.hidden + j], r < rows);
}

@compute @workgroup_size(WG_SEQ)
fn lstm_backward(@builtin(local_invocation_index) local: u32,
                 @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let gh = 4u * hidden;
    let j = lane.j;
    var d_h: array<f32, ROWS_PER_LANE_MAX>;
    var d_c: array<f32, ROWS_PER_LANE_MAX>;
    var len: array<u32, ROWS_PER_LANE_MAX>;
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (q < lane.rows) {
            let state_at = (lane.first_b + q) * hidden + j;
            d_h[q] = d_state[state_at];
            d_c[q] = d_state[bh + state_at];
            len[q] = lengths[lane.first_b + q];
        }
    }
    let row_stride = 4u * stride4(hidden);  // floats per row of d_gates_shared
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
                    let i = gate_cache[step_row + j];
                    let f = gate_cache[step_row + hidden + j];
                    let g = gate_cache[step_row + 2u * hidden + j];
                    let o = gate_cache[step_row + 3u * hidden + j];
                    let c_prev = c_cache[s * bh + state_at];
                    let tc = tanh_safe(c_cache[(s + 1u) * bh + state_at]);
                    d_h[q] += d_output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j];
                    d_c[q] += d_h[q] * o * (1.0 - tc * tc);
                    let d_i = d_c[q] * g * i * (1.0 - i);
                    let d_f = d_c[q] * c_prev * f * (1.0 - f);
                    let d_g = d_c[q] * i * (1.0 - g * g);
                    let d_o = d_h[q] * tc * o * (1.0 - o);
                    let time_row = (t * dims.batch + b) * gh;
                    d_gates[time_row + j] = d_i;
                    d_gates[time_row + hidden + j] = d_f;
                    d_gates[time_row + 2u * hidden + j] = d_g;
                    d_gates[time_row + 3u * hidden + j] = d_o;
                    d_gates_step[step_row + j] = d_i;
                    d_gates_step[step_row + hidden + j] = d_f;
                    d_gates_step[step_row + 2u * hidden + j] = d_g;
                    d_gates_step[step_row + 3u * hidden + j] = d_o;
                    let row_at = shared_at + q * row_stride;
                    put_d_gates_shared(row_at + j, d_i);
                    put_d_gates_shared(row_at + hidden + j, d_f);
                    put_d_gates_shared(row_at + 2u * hidden + j, d_g);
                    put_d_gates_shared(row_at + 3u * hidden + j, d_o);
                    d_c[q] *= f;
                } else {
                    for (var p = 0u; p < 4u; p++) { d_gates_step[step_row + p * hidden + j] = 0.0; }
                }
            }
        }
        workgroupBarrier();
        // dh_prev_j = Σ_r d_gates[r]·W_hh[r, j] over the 4H gate rows (column j of W_hh), each
        // weight loaded once for all rows.
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
            if (q < lane.rows && s < len[q]) { d_h[q] = acc[q]; }
        }
        workgroupBarrier();
    }
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (q < lane.rows) {
            let state_at = (lane.first_b + q) * hidden + j;
            d_state[state_at] = d_h[q];
            d_state[bh + state_at] = d_c[q];
        }
    }
}
