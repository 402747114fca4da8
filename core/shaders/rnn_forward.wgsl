// rnn_forward.wgsl — one Elman RNN step for every (b, j) (nn.RNN docs):
//
//   h = act(xproj_t + h_prev·W_hhᵀ),  act = tanh or relu   (xproj holds W_ih x_t + b_ih + b_hh)
//
// Step/time indexing and padding: see CellDims in common.wgsl.
// CPU twin: math::rnn::forward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;           // [T, B, H] by time
@group(0) @binding(2) var<storage, read> hh: array<f32>;              // [B, H] = h_prev·W_hhᵀ
@group(0) @binding(3) var<storage, read> lengths: array<u32>;         // [B]
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;   // [T+1, B, H] by step
@group(0) @binding(5) var<storage, read_write> output: array<f32>;    // [T, B, D·H] by time

@compute @workgroup_size(WG_1D)
fn rnn_forward(@builtin(global_invocation_id) gid: vec3<u32>,
               @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let j = idx % hidden;
    let prev = dims.step * dims.batch * hidden + idx;
    let next = prev + dims.batch * hidden;
    let len = lengths[b];
    if (dims.step >= len) {
        h_cache[next] = h_cache[prev];
        return;
    }
    let t = time_of(dims, len);
    let pre = xproj[(t * dims.batch + b) * hidden + j] + hh[idx];
    var h: f32;
    if (dims.nonlinearity == 0u) { h = tanh_safe(pre); } else { h = max(pre, 0.0); }
    h_cache[next] = h;
    output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j] = h;
}
