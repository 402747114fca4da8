// lstm_backward.wgsl — one LSTM BPTT step for every (b, j), run for t = T-1 down to 0.
//
// In: dh = ∂L/∂h_t, dc = ∂L/∂c_t (both [B, H], updated in place). Out: the gate
// pre-activation gradients d_gates[t] and ∂L/∂c_{t-1} in dc; dh is set to the part of
// ∂L/∂h_{t-1} that does not go through W_hh (0 for LSTM), and the host then adds
// d_gates[t]·W_hh with the matmul kernel. Padded steps (t ≥ lengths[b]) pass dh, dc through
// unchanged and have zero gate gradients.
//
//   dc_t += dh ⊙ o ⊙ (1 − tanh²c_t)
//   d_i = dc_t ⊙ g ⊙ i(1−i)   d_f = dc_t ⊙ c_{t−1} ⊙ f(1−f)   d_g = dc_t ⊙ i ⊙ (1−g²)
//   d_o = dh ⊙ tanh c_t ⊙ o(1−o)                              dc_{t−1} = dc_t ⊙ f
// CPU twin: math::lstm::backward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;          // [B]
@group(0) @binding(2) var<storage, read> c_cache: array<f32>;          // [T+1, B, H]
@group(0) @binding(3) var<storage, read> gate_cache: array<f32>;       // [T, B, 4H] i, f, g, o
@group(0) @binding(4) var<storage, read_write> d_gates: array<f32>;    // [T, B, 4H] pre-activation
@group(0) @binding(5) var<storage, read_write> dh: array<f32>;         // [B, H]
@group(0) @binding(6) var<storage, read_write> dc: array<f32>;         // [B, H]

@compute @workgroup_size(WG_1D)
fn lstm_backward(@builtin(global_invocation_id) gid: vec3<u32>,
                 @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let j = idx % hidden;
    let row = dims.t * dims.batch * 4u * hidden + b * 4u * hidden;
    if (dims.t >= lengths[b]) {
        d_gates[row + j] = 0.0;
        d_gates[row + hidden + j] = 0.0;
        d_gates[row + 2u * hidden + j] = 0.0;
        d_gates[row + 3u * hidden + j] = 0.0;
        return;
    }
    let i = gate_cache[row + j];
    let f = gate_cache[row + hidden + j];
    let g = gate_cache[row + 2u * hidden + j];
    let o = gate_cache[row + 3u * hidden + j];
    let prev = dims.t * dims.batch * hidden + idx;
    let c_prev = c_cache[prev];
    let tc = tanh_safe(c_cache[prev + dims.batch * hidden]);
    let d_h = dh[idx];
    let d_c = dc[idx] + d_h * o * (1.0 - tc * tc);
    d_gates[row + j] = d_c * g * i * (1.0 - i);
    d_gates[row + hidden + j] = d_c * c_prev * f * (1.0 - f);
    d_gates[row + 2u * hidden + j] = d_c * i * (1.0 - g * g);
    d_gates[row + 3u * hidden + j] = d_h * tc * o * (1.0 - o);
    dc[idx] = d_c * f;
    dh[idx] = 0.0;
}
