// gru_backward.wgsl — one GRU BPTT step for every (b, j), run for s = T−1 down to 0.
//
// d_state = ∂L/∂h of the state after step s ([B, H], updated in place). At an existing step
// d_output[t] joins it; d_gates[t] (by time) = ∂L/∂(W_ih x + b_ih) per block r, z, n and
// d_gates_hh[s] (by step) = ∂L/∂(W_hh h + b_hh), which differ in the n block
// (d_hn = d_n_pre ⊙ r); d_state becomes the direct part z ⊙ dh of ∂L/∂h_prev, to which the
// host adds d_gates_hh[s]·W_hh with the matmul kernel. Padded steps pass d_state through.
//
//   d_n = dh ⊙ (1−z) ⊙ (1−n²)   d_z = dh ⊙ (h_prev − n) ⊙ z(1−z)   d_r = d_n ⊙ hn ⊙ r(1−r)
// CPU twin: math::gru::backward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(2) var<storage, read> h_cache: array<f32>;           // [T+1, B, H] by step
@group(0) @binding(3) var<storage, read> gate_cache: array<f32>;        // [T, B, 4H] by step: r, z, n, hn
@group(0) @binding(4) var<storage, read> d_output: array<f32>;          // [T, B, D·H] by time
@group(0) @binding(5) var<storage, read_write> d_gates: array<f32>;     // [T, B, 3H] by time, input side
@group(0) @binding(6) var<storage, read_write> d_gates_hh: array<f32>;  // [T, B, 3H] by step, hidden side
@group(0) @binding(7) var<storage, read_write> d_state: array<f32>;     // [B, H]

@compute @workgroup_size(WG_1D)
fn gru_backward(@builtin(global_invocation_id) gid: vec3<u32>,
                @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let j = idx % hidden;
    let step_row = (dims.step * dims.batch + b) * 3u * hidden;
    let len = lengths[b];
    if (dims.step >= len) {
        for (var k = 0u; k < 3u; k++) { d_gates_hh[step_row + k * hidden + j] = 0.0; }
        return;
    }
    let t = time_of(dims, len);
    let cache_row = (dims.step * dims.batch + b) * 4u * hidden;
    let r = gate_cache[cache_row + j];
    let z = gate_cache[cache_row + hidden + j];
    let n = gate_cache[cache_row + 2u * hidden + j];
    let hn = gate_cache[cache_row + 3u * hidden + j];
    let h_prev = h_cache[dims.step * dims.batch * hidden + idx];
    let d_h = d_state[idx] + d_output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j];
    let d_n = d_h * (1.0 - z) * (1.0 - n * n);
    let d_z = d_h * (h_prev - n) * z * (1.0 - z);
    let d_r = d_n * hn * r * (1.0 - r);
    let time_row = (t * dims.batch + b) * 3u * hidden;
    d_gates[time_row + j] = d_r;
    d_gates[time_row + hidden + j] = d_z;
    d_gates[time_row + 2u * hidden + j] = d_n;
    d_gates_hh[step_row + j] = d_r;
    d_gates_hh[step_row + hidden + j] = d_z;
    d_gates_hh[step_row + 2u * hidden + j] = d_n * r;
    d_state[idx] = d_h * z;
}
