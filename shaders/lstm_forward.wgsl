// lstm_forward.wgsl — one LSTM time step for every (batch row b, hidden unit j).
// Hochreiter & Schmidhuber 1997 in PyTorch's formulation (nn.LSTM docs), gate blocks i, f, g, o:
//
//   [i f g o] = [σ σ tanh σ](xproj_t + h_{t-1}·W_hhᵀ)     (xproj holds W_ih x_t + b_ih + b_hh)
//   c_t = f ⊙ c_{t-1} + i ⊙ g        h_t = o ⊙ tanh(c_t)
//
// Steps at or past lengths[b] do not exist for sample b: its state carries over unchanged, so
// slot T of the caches holds each sample's state after its last real character.
// CPU twin: math::lstm::forward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;             // [T, B, 4H]
@group(0) @binding(2) var<storage, read> hh: array<f32>;                // [B, 4H] = h_{t-1}·W_hhᵀ
@group(0) @binding(3) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;     // [T+1, B, H]
@group(0) @binding(5) var<storage, read_write> c_cache: array<f32>;     // [T+1, B, H]
@group(0) @binding(6) var<storage, read_write> gate_cache: array<f32>;  // [T, B, 4H] post-activation

@compute @workgroup_size(WG_1D)
fn lstm_forward(@builtin(global_invocation_id) gid: vec3<u32>,
                @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let j = idx % hidden;
    let hh_row = b * 4u * hidden;
    let x_row = dims.t * dims.batch * 4u * hidden + hh_row;
    let i = sigmoid_safe(xproj[x_row + j] + hh[hh_row + j]);
    let f = sigmoid_safe(xproj[x_row + hidden + j] + hh[hh_row + hidden + j]);
    let g = tanh_safe(xproj[x_row + 2u * hidden + j] + hh[hh_row + 2u * hidden + j]);
    let o = sigmoid_safe(xproj[x_row + 3u * hidden + j] + hh[hh_row + 3u * hidden + j]);
    gate_cache[x_row + j] = i;
    gate_cache[x_row + hidden + j] = f;
    gate_cache[x_row + 2u * hidden + j] = g;
    gate_cache[x_row + 3u * hidden + j] = o;
    let prev = dims.t * dims.batch * hidden + idx;
    let next = prev + dims.batch * hidden;
    let c_prev = c_cache[prev];
    if (dims.t < lengths[b]) {
        let c = f * c_prev + i * g;
        c_cache[next] = c;
        h_cache[next] = o * tanh_safe(c);
    } else {
        c_cache[next] = c_prev;
        h_cache[next] = h_cache[prev];
    }
}
