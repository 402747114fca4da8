// rnn_backward.wgsl — one Elman RNN BPTT step for every (b, j), run for t = T-1 down to 0.
//
//   d_pre = dh ⊙ (1 − h_t²)  (tanh)   or   dh ⊙ [h_t > 0]  (relu)
//
// d_pre goes to d_gates[t]; dh becomes 0 (nothing bypasses W_hh) and the host adds
// d_gates[t]·W_hh with the matmul kernel. Padded steps pass dh through unchanged.
// CPU twin: math::rnn::backward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;        // [B]
@group(0) @binding(2) var<storage, read> h_cache: array<f32>;        // [T+1, B, H]
@group(0) @binding(3) var<storage, read_write> d_gates: array<f32>;  // [T, B, H] pre-activation
@group(0) @binding(4) var<storage, read_write> dh: array<f32>;       // [B, H]

@compute @workgroup_size(WG_1D)
fn rnn_backward(@builtin(global_invocation_id) gid: vec3<u32>,
                @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let row = dims.t * dims.batch * hidden;
    if (dims.t >= lengths[b]) {
        d_gates[row + idx] = 0.0;
        return;
    }
    let h = h_cache[row + dims.batch * hidden + idx];
    let d_h = dh[idx];
    var d_pre: f32;
    if (dims.nonlinearity == 0u) { d_pre = d_h * (1.0 - h * h); } else { d_pre = select(0.0, d_h, h > 0.0); }
    d_gates[row + idx] = d_pre;
    dh[idx] = 0.0;
}
