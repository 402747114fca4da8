// rnn_forward.wgsl — one Elman RNN time step for every (b, j) (nn.RNN docs):
//
//   h_t = act(xproj_t + h_{t−1}·W_hhᵀ),  act = tanh or relu   (xproj holds W_ih x_t + b_ih + b_hh)
//
// Padded steps (t ≥ lengths[b]) carry the state over unchanged.
// CPU twin: math::rnn::forward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;           // [T, B, H]
@group(0) @binding(2) var<storage, read> hh: array<f32>;              // [B, H] = h_{t-1}·W_hhᵀ
@group(0) @binding(3) var<storage, read> lengths: array<u32>;         // [B]
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;   // [T+1, B, H]

@compute @workgroup_size(WG_1D)
fn rnn_forward(@builtin(global_invocation_id) gid: vec3<u32>,
               @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let prev = dims.t * dims.batch * hidden + idx;
    var h = h_cache[prev];
    if (dims.t < lengths[b]) {
        let pre = xproj[dims.t * dims.batch * hidden + idx] + hh[idx];
        if (dims.nonlinearity == 0u) { h = tanh_safe(pre); } else { h = max(pre, 0.0); }
    }
    h_cache[prev + dims.batch * hidden] = h;
}
