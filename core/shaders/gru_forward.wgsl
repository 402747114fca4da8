// gru_forward.wgsl — one GRU step for every (b, j). Cho et al. 2014 in PyTorch's formulation
// (nn.GRU docs; the reset gate is applied after the hidden matmul):
//
//   r = σ(W_ir x + b_ir + W_hr h + b_hr)     z = σ(W_iz x + b_iz + W_hz h + b_hz)
//   n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))        h' = (1 − z) ⊙ n + z ⊙ h
//
// xproj holds W_ih x_t + b_ih plus b_hh for the r and z blocks only; b_hn is read here.
// Step/time indexing and padding: see CellDims in common.wgsl.
// CPU twin: math::gru::forward_step.

@group(0) @binding(0) var<uniform> dims: CellDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;             // [T, B, 3H] by time
@group(0) @binding(2) var<storage, read> hh: array<f32>;                // [B, 3H] = h_prev·W_hhᵀ
@group(0) @binding(3) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(4) var<storage, read> params: array<f32>;            // flat (b_hn at b_hn_offset)
@group(0) @binding(5) var<storage, read_write> h_cache: array<f32>;     // [T+1, B, H] by step
@group(0) @binding(6) var<storage, read_write> gate_cache: array<f32>;  // [T, B, 4H] by step: r, z, n, W_hn h + b_hn
@group(0) @binding(7) var<storage, read_write> output: array<f32>;      // [T, B, D·H] by time

@compute @workgroup_size(WG_1D)
fn gru_forward(@builtin(global_invocation_id) gid: vec3<u32>,
               @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    let hidden = dims.hidden;
    if (idx >= dims.batch * hidden) { return; }
    let b = idx / hidden;
    let j = idx % hidden;
    let prev = dims.step * dims.batch * hidden + idx;
    let next = prev + dims.batch * hidden;
    let h_prev = h_cache[prev];
    let len = lengths[b];
    if (dims.step >= len) {
        h_cache[next] = h_prev;
        return;
    }
    let t = time_of(dims, len);
    let hh_row = b * 3u * hidden;
    let x_row = (t * dims.batch + b) * 3u * hidden;
    let r = sigmoid_safe(xproj[x_row + j] + hh[hh_row + j]);
    let z = sigmoid_safe(xproj[x_row + hidden + j] + hh[hh_row + hidden + j]);
    let hn = hh[hh_row + 2u * hidden + j] + params[dims.b_hn_offset + j];
    let n = tanh_safe(xproj[x_row + 2u * hidden + j] + r * hn);
    let cache_row = (dims.step * dims.batch + b) * 4u * hidden;
    gate_cache[cache_row + j] = r;
    gate_cache[cache_row + hidden + j] = z;
    gate_cache[cache_row + 2u * hidden + j] = n;
    gate_cache[cache_row + 3u * hidden + j] = hn;
    let h = (1.0 - z) * n + z * h_prev;
    h_cache[next] = h;
    output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j] = h;
}
