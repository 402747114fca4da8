// lstm_backward.wgsl — BPTT through one LSTM layer direction over the whole sequence, one
// dispatch: s = T−1 down to 0.
//
// Invocation (row, j) keeps ∂L/∂h_j and ∂L/∂c_j of the state after step s in registers, read
// from d_state at the start (∂L/∂h_n, ∂L/∂c_n) and written back at the end (∂L/∂h0, ∂L/∂c0).
// At an existing step the output gradient d_output[t] joins ∂L/∂h; the gate pre-activation
// gradients go to d_gates (by time t, for W_ih / the input) and d_gates_step (by step s, for
// W_hh; for LSTM the two hold the same values) and to workgroup memory, from which, after the
// barrier, each unit reads the column of W_hh it needs for ∂L/∂h_prev. Padded steps pass
// ∂L/∂h, ∂L/∂c through and have zero gate gradients.
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

// 2 × [R, 4H] gate gradients (R·H ≤ WG_SEQ); step k writes buffer k % 2.
var<workgroup> d_gates_shared: array<f32, 2048>;

@compute @workgroup_size(WG_SEQ)
fn lstm_backward(@builtin(local_invocation_index) local: u32,
                 @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let j = lane.j;
    let state_at = lane.b * hidden + j;
    var d_h = 0.0;
    var d_c = 0.0;
    var len = 0u;
    if (lane.in_use) {
        d_h = d_state[state_at];
        d_c = d_state[bh + state_at];
        len = lengths[lane.b];
    }
    for (var k = 0u; k < dims.seq_len; k++) {
        let s = dims.seq_len - 1u - k;
        let row_at = (k % 2u) * 4u * WG_SEQ + lane.row * 4u * hidden;
        let step_row = (s * dims.batch + lane.b) * 4u * hidden;
        if (lane.in_use) {
            if (s < len) {
                let t = time_at(dims, s, len);
                let i = gate_cache[step_row + j];
                let f = gate_cache[step_row + hidden + j];
                let g = gate_cache[step_row + 2u * hidden + j];
                let o = gate_cache[step_row + 3u * hidden + j];
                let c_prev = c_cache[s * bh + state_at];
                let tc = tanh_safe(c_cache[(s + 1u) * bh + state_at]);
                d_h += d_output[(t * dims.batch + lane.b) * dims.out_stride + dims.out_offset + j];
                d_c += d_h * o * (1.0 - tc * tc);
                let d_i = d_c * g * i * (1.0 - i);
                let d_f = d_c * c_prev * f * (1.0 - f);
                let d_g = d_c * i * (1.0 - g * g);
                let d_o = d_h * tc * o * (1.0 - o);
                let time_row = (t * dims.batch + lane.b) * 4u * hidden;
                d_gates[time_row + j] = d_i;
                d_gates[time_row + hidden + j] = d_f;
                d_gates[time_row + 2u * hidden + j] = d_g;
                d_gates[time_row + 3u * hidden + j] = d_o;
                d_gates_step[step_row + j] = d_i;
                d_gates_step[step_row + hidden + j] = d_f;
                d_gates_step[step_row + 2u * hidden + j] = d_g;
                d_gates_step[step_row + 3u * hidden + j] = d_o;
                d_gates_shared[row_at + j] = d_i;
                d_gates_shared[row_at + hidden + j] = d_f;
                d_gates_shared[row_at + 2u * hidden + j] = d_g;
                d_gates_shared[row_at + 3u * hidden + j] = d_o;
                d_c *= f;
            } else {
                for (var q = 0u; q < 4u; q++) { d_gates_step[step_row + q * hidden + j] = 0.0; }
            }
        }
        workgroupBarrier();
        if (lane.in_use && s < len) {
            // dh_prev_j = Σ_r d_gates[r]·W_hh[r, j] over the 4H gate rows (column j of W_hh).
            var acc = 0.0;
            for (var r = 0u; r < 4u * hidden; r++) {
                acc += d_gates_shared[row_at + r] * params[dims.w_hh_offset + r * hidden + j];
            }
            d_h = acc;
        }
    }
    if (lane.in_use) {
        d_state[state_at] = d_h;
        d_state[bh + state_at] = d_c;
    }
}
