// lstm_backward.wgsl — one LSTM BPTT step for every (b, j), run for s = T−1 down to 0.
//
// d_state holds ∂L/∂h (rows 0..B) and ∂L/∂c (rows B..2B) of the state after step s, updated
// in place to the state before it. At an existing step the output gradient d_output[t] joins
// ∂L/∂h; the gate pre-activation gradients go to d_gates (by time t, for W_ih / the input) and
// d_gates_step (by step s, for W_hh / h_prev; for LSTM the two hold the same values); ∂L/∂h
// becomes 0 — the host then adds d_gates_step[s]·W_hh with the matmul kernel. Padded steps
// pass ∂L/∂h, ∂L/∂c through and have zero gate gradients.
//
//   dh += d_output[t]               dc += dh ⊙ o ⊙ (1 − tanh²c)
//   d_i = dc ⊙ g ⊙ i(1−i)   d_f = dc ⊙ c_prev ⊙ f(1−f)   d_g = dc ⊙ i ⊙ (1−g²)
//   d_o = dh ⊙ tanh c ⊙ o(1−o)                            dc_prev = dc ⊙ f
// CPU twin: math::lstm::backward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;            // [B]
@group(0) @binding(2) var<storage, read> c_cache: array<f32>;            // [T+1, B, H] by step
@group(0) @binding(3) var<storage, read> gate_cache: array<f32>;         // [T, B, 4H] by step: i, f, g, o
@group(0) @binding(4) var<storage, read> d_output: array<f32>;           // [T, B, D·H] by time
@group(0) @binding(5) var<storage, read_write> d_gates: array<f32>;      // [T, B, 4H] by time
@group(0) @binding(6) var<storage, read_write> d_gates_step: array<f32>; // [T, B, 4H] by step
@group(0) @binding(7) var<storage, read_write> d_state: array<f32>;      // [2, B, H]: dh, dc

@compute @workgroup_size(WG_1D)
fn lstm_backward(@builtin(global_invocation_id) gid: vec3<u32>,
                 @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    if (idx >= bh) { return; }
    let b = idx / hidden;
    let j = idx % hidden;
    let step_row = (dims.step * dims.batch + b) * 4u * hidden;
    let len = lengths[b];
    if (dims.step >= len) {
        for (var k = 0u; k < 4u; k++) { d_gates_step[step_row + k * hidden + j] = 0.0; }
        return;
    }
    let t = time_of(dims, len);
    let i = gate_cache[step_row + j];
    let f = gate_cache[step_row + hidden + j];
    let g = gate_cache[step_row + 2u * hidden + j];
    let o = gate_cache[step_row + 3u * hidden + j];
    let prev = dims.step * bh + idx;
    let c_prev = c_cache[prev];
    let tc = tanh_safe(c_cache[prev + bh]);
    let d_h = d_state[idx] + d_output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j];
    let d_c = d_state[bh + idx] + d_h * o * (1.0 - tc * tc);
    let d_i = d_c * g * i * (1.0 - i);
    let d_f = d_c * c_prev * f * (1.0 - f);
    let d_g = d_c * i * (1.0 - g * g);
    let d_o = d_h * tc * o * (1.0 - o);
    let time_row = (t * dims.batch + b) * 4u * hidden;
    d_gates[time_row + j] = d_i;
    d_gates[time_row + hidden + j] = d_f;
    d_gates[time_row + 2u * hidden + j] = d_g;
    d_gates[time_row + 3u * hidden + j] = d_o;
    d_gates_step[step_row + j] = d_i;
    d_gates_step[step_row + hidden + j] = d_f;
    d_gates_step[step_row + 2u * hidden + j] = d_g;
    d_gates_step[step_row + 3u * hidden + j] = d_o;
    d_state[idx] = 0.0;
    d_state[bh + idx] = d_c * f;
}
