// rnn_backward.wgsl — one Elman RNN BPTT step for every (b, j), run for s = T−1 down to 0.
//
//   dh = d_state + d_output[t]
//   d_pre = dh ⊙ (1 − h²)  (tanh)   or   dh ⊙ [h > 0]  (relu)
//
// d_pre goes to d_gates (by time) and d_gates_step (by step); d_state becomes 0 (nothing
// bypasses W_hh) and the host adds d_gates_step[s]·W_hh with the matmul kernel. Padded steps
// pass d_state through.
// CPU twin: math::rnn::backward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;             // [B]
@group(0) @binding(2) var<storage, read> h_cache: array<f32>;             // [T+1, B, H] by step
@group(0) @binding(3) var<storage, read> d_output: array<f32>;            // [T, B, D·H] by time
@group(0) @binding(4) var<storage, read_write> d_gates: array<f32>;       // [T, B, H] by time
@group(0) @binding(5) var<storage, read_write> d_gates_step: array<f32>;  // [T, B, H] by step
@group(0) @binding(6) var<storage, read_write> d_state: array<f32>;       // [B, H]

@compute @workgroup_size(WG_1D)
fn rnn_backward(@builtin(global_invocation_id) gid: vec3<u32>,
                @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let j = idx % hidden;
    let step_pos = dims.step * dims.batch * hidden + idx;
    let len = lengths[b];
    if (dims.step >= len) {
        d_gates_step[step_pos] = 0.0;
        return;
    }
    let t = time_of(dims, len);
    let h = h_cache[step_pos + dims.batch * hidden];
    let d_h = d_state[idx] + d_output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j];
    var d_pre: f32;
    if (dims.nonlinearity == 0u) { d_pre = d_h * (1.0 - h * h); } else { d_pre = select(0.0, d_h, h > 0.0); }
    d_gates[(t * dims.batch + b) * hidden + j] = d_pre;
    d_gates_step[step_pos] = d_pre;
    d_state[idx] = 0.0;
}
