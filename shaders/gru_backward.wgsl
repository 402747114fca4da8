// gru_backward.wgsl — one GRU BPTT step for every (b, j), run for t = T-1 down to 0.
//
// In: dh = ∂L/∂h_t ([B, H], updated in place). Out: d_gates[t] = ∂L/∂(W_ih x + b_ih) per
// block r, z, n and d_gates_hh[t] = ∂L/∂(W_hh h + b_hh), which differ in the n block
// (d_hn = d_n_pre ⊙ r); dh becomes the direct part z ⊙ dh of ∂L/∂h_{t−1}, to which the host
// adds d_gates_hh[t]·W_hh with the matmul kernel. Padded steps pass dh through unchanged.
//
//   d_n = dh ⊙ (1−z) ⊙ (1−n²)   d_z = dh ⊙ (h_{t−1} − n) ⊙ z(1−z)   d_r = d_n ⊙ hn ⊙ r(1−r)
// CPU twin: math::gru::backward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(2) var<storage, read> h_cache: array<f32>;           // [T+1, B, H]
@group(0) @binding(3) var<storage, read> gate_cache: array<f32>;        // [T, B, 4H]: r, z, n, hn
@group(0) @binding(4) var<storage, read_write> d_gates: array<f32>;     // [T, B, 3H] input side
@group(0) @binding(5) var<storage, read_write> d_gates_hh: array<f32>;  // [T, B, 3H] hidden side
@group(0) @binding(6) var<storage, read_write> dh: array<f32>;          // [B, H]

@compute @workgroup_size(WG_1D)
fn gru_backward(@builtin(global_invocation_id) gid: vec3<u32>,
                @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let j = idx % hidden;
    let row = dims.t * dims.batch * 3u * hidden + b * 3u * hidden;
    if (dims.t >= lengths[b]) {
        for (var k = 0u; k < 3u; k++) {
            d_gates[row + k * hidden + j] = 0.0;
            d_gates_hh[row + k * hidden + j] = 0.0;
        }
        return;
    }
    let cache_row = dims.t * dims.batch * 4u * hidden + b * 4u * hidden;
    let r = gate_cache[cache_row + j];
    let z = gate_cache[cache_row + hidden + j];
    let n = gate_cache[cache_row + 2u * hidden + j];
    let hn = gate_cache[cache_row + 3u * hidden + j];
    let h_prev = h_cache[dims.t * dims.batch * hidden + idx];
    let d_h = dh[idx];
    let d_n = d_h * (1.0 - z) * (1.0 - n * n);
    let d_z = d_h * (h_prev - n) * z * (1.0 - z);
    let d_r = d_n * hn * r * (1.0 - r);
    d_gates[row + j] = d_r;
    d_gates[row + hidden + j] = d_z;
    d_gates[row + 2u * hidden + j] = d_n;
    d_gates_hh[row + j] = d_r;
    d_gates_hh[row + hidden + j] = d_z;
    d_gates_hh[row + 2u * hidden + j] = d_n * r;
    dh[idx] = d_h * z;
}
