// lstm_forward.wgsl — one LSTM step for every (batch row b, hidden unit j).
// Hochreiter & Schmidhuber 1997 in PyTorch's formulation (nn.LSTM docs), gate blocks i, f, g, o:
//
//   [i f g o] = [σ σ tanh σ](xproj_t + h_prev·W_hhᵀ)     (xproj holds W_ih x_t + b_ih + b_hh)
//   c = f ⊙ c_prev + i ⊙ g        h = o ⊙ tanh(c)
//
// Step/time indexing and padding: see CellDims in common.wgsl. Padded steps carry h and c over
// and write no output (the host zeroes `output` first, so padded positions read 0).
// CPU twin: math::lstm::forward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;             // [T, B, 4H] by time
@group(0) @binding(2) var<storage, read> hh: array<f32>;                // [B, 4H] = h_prev·W_hhᵀ
@group(0) @binding(3) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;     // [T+1, B, H] by step
@group(0) @binding(5) var<storage, read_write> c_cache: array<f32>;     // [T+1, B, H] by step
@group(0) @binding(6) var<storage, read_write> gate_cache: array<f32>;  // [T, B, 4H] by step, post-activation
@group(0) @binding(7) var<storage, read_write> output: array<f32>;      // [T, B, D·H] by time

@compute @workgroup_size(WG_1D)
fn lstm_forward(@builtin(global_invocation_id) gid: vec3<u32>,
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
        c_cache[next] = c_cache[prev];
        h_cache[next] = h_cache[prev];
        return;
    }
    let t = time_of(dims, len);
    let hh_row = b * 4u * hidden;
    let x_row = (t * dims.batch + b) * 4u * hidden;
    let i = sigmoid_safe(xproj[x_row + j] + hh[hh_row + j]);
    let f = sigmoid_safe(xproj[x_row + hidden + j] + hh[hh_row + hidden + j]);
    let g = tanh_safe(xproj[x_row + 2u * hidden + j] + hh[hh_row + 2u * hidden + j]);
    let o = sigmoid_safe(xproj[x_row + 3u * hidden + j] + hh[hh_row + 3u * hidden + j]);
    let cache_row = (dims.step * dims.batch + b) * 4u * hidden;
    gate_cache[cache_row + j] = i;
    gate_cache[cache_row + hidden + j] = f;
    gate_cache[cache_row + 2u * hidden + j] = g;
    gate_cache[cache_row + 3u * hidden + j] = o;
    let c = f * c_cache[prev] + i * g;
    let h = o * tanh_safe(c);
    c_cache[next] = c;
    h_cache[next] = h;
    output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j] = h;
}
