// gru_forward.wgsl — one GRU layer direction over the whole sequence, one dispatch.
// Cho et al. 2014 in PyTorch's formulation (nn.GRU docs; the reset gate is applied after the
// hidden matmul), gate blocks r, z, n:
//
//   r = σ(W_ir x + b_ir + W_hr h + b_hr)     z = σ(W_iz x + b_iz + W_hz h + b_hz)
//   n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))        h' = (1 − z) ⊙ n + z ⊙ h
//
// xproj holds W_ih x_t + b_ih plus b_hh for the r and z blocks only; b_hn is read here.
// Layout, step/time indexing and padding: see SequenceDims in common.wgsl; h lives in
// workgroup memory (two [R, H] buffers, one barrier per step); W_hh is read as its transposed
// copy w_hh_t (made once per training step), so neighbouring units read neighbouring addresses.
// CPU twin: math::layer::LayerDirection::forward with math::gru::forward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;             // [T, B, 3H] by time
@group(0) @binding(2) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(3) var<storage, read> params: array<f32>;            // flat (b_hn at b_hn_offset)
@group(0) @binding(4) var<storage, read> w_hh_t: array<f32>;            // [H, 3H] = W_hhᵀ
@group(0) @binding(5) var<storage, read_write> h_cache: array<f32>;     // [T+1, B, H] by step; slot 0 = h0
@group(0) @binding(6) var<storage, read_write> gate_cache: array<f32>;  // [T, B, 4H] by step: r, z, n, W_hn h + b_hn
@group(0) @binding(7) var<storage, read_write> output: array<f32>;      // [T, B, D·H] by time

var<workgroup> h_shared: array<f32, 512>;  // 2 × [R, H], R·H ≤ WG_SEQ

@compute @workgroup_size(WG_SEQ)
fn gru_forward(@builtin(local_invocation_index) local: u32,
               @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let j = lane.j;
    var h = 0.0;
    var len = 0u;
    var b_hn = 0.0;
    if (lane.in_use) {
        h = h_cache[lane.b * hidden + j];
        len = lengths[lane.b];
        b_hn = params[dims.b_hn_offset + j];
        h_shared[local] = h;
    }
    workgroupBarrier();
    // Column of W_hhᵀ (row of W_hh) of unit j in each gate block; rows of W_hhᵀ are 3H wide.
    let gh = 3u * hidden;
    let w_r = j;
    let w_z = hidden + j;
    let w_n = 2u * hidden + j;
    for (var s = 0u; s < dims.seq_len; s++) {
        let h_prev_at = (s % 2u) * WG_SEQ + lane.row * hidden;
        let h_next_at = WG_SEQ - (s % 2u) * WG_SEQ + local;
        if (lane.in_use) {
            if (s < len) {
                let t = time_at(dims, s, len);
                let x_row = (t * dims.batch + lane.b) * 3u * hidden;
                var pre_r = xproj[x_row + j];
                var pre_z = xproj[x_row + hidden + j];
                var hn = b_hn;
                for (var m = 0u; m < hidden; m++) {
                    let h_m = h_shared[h_prev_at + m];
                    let row = m * gh;
                    pre_r += w_hh_t[row + w_r] * h_m;
                    pre_z += w_hh_t[row + w_z] * h_m;
                    hn += w_hh_t[row + w_n] * h_m;
                }
                let r = sigmoid_safe(pre_r);
                let z = sigmoid_safe(pre_z);
                let n = tanh_safe(xproj[x_row + 2u * hidden + j] + r * hn);
                let cache_row = (s * dims.batch + lane.b) * 4u * hidden;
                gate_cache[cache_row + j] = r;
                gate_cache[cache_row + hidden + j] = z;
                gate_cache[cache_row + 2u * hidden + j] = n;
                gate_cache[cache_row + 3u * hidden + j] = hn;
                h = (1.0 - z) * n + z * h;
                output[(t * dims.batch + lane.b) * dims.out_stride + dims.out_offset + j] = h;
            }
            h_cache[(s + 1u) * bh + lane.b * hidden + j] = h;
            h_shared[h_next_at] = h;
        }
        workgroupBarrier();
    }
}
