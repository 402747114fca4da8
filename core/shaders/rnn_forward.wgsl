// rnn_forward.wgsl — one Elman RNN layer direction over the whole sequence, one dispatch
// (nn.RNN docs):
//
//   h = act(xproj_t + W_hh h_prev),  act = tanh or relu   (xproj holds W_ih x_t + b_ih + b_hh)
//
// Layout, step/time indexing and padding: see SequenceDims in common.wgsl; h lives in
// workgroup memory (two [R, H] buffers, one barrier per step); W_hh is read as its transposed
// copy w_hh_t (made once per training step), so neighbouring units read neighbouring addresses.
// CPU twin: math::layer::LayerDirection::forward with math::rnn::forward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;           // [T, B, H] by time
@group(0) @binding(2) var<storage, read> lengths: array<u32>;         // [B]
@group(0) @binding(3) var<storage, read> w_hh_t: array<f32>;          // [H, H] = W_hhᵀ
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;   // [T+1, B, H] by step; slot 0 = h0
@group(0) @binding(5) var<storage, read_write> output: array<f32>;    // [T, B, D·H] by time

var<workgroup> h_shared: array<f32, 512>;  // 2 × [R, H], R·H ≤ WG_SEQ

@compute @workgroup_size(WG_SEQ)
fn rnn_forward(@builtin(local_invocation_index) local: u32,
               @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let j = lane.j;
    var h = 0.0;
    var len = 0u;
    if (lane.in_use) {
        h = h_cache[lane.b * hidden + j];
        len = lengths[lane.b];
        h_shared[local] = h;
    }
    workgroupBarrier();
    for (var s = 0u; s < dims.seq_len; s++) {
        let h_prev_at = (s % 2u) * WG_SEQ + lane.row * hidden;
        let h_next_at = WG_SEQ - (s % 2u) * WG_SEQ + local;
        if (lane.in_use) {
            if (s < len) {
                let t = time_at(dims, s, len);
                var pre = xproj[(t * dims.batch + lane.b) * hidden + j];
                for (var m = 0u; m < hidden; m++) {
                    pre += w_hh_t[m * hidden + j] * h_shared[h_prev_at + m];
                }
                if (dims.nonlinearity == 0u) { h = tanh_safe(pre); } else { h = max(pre, 0.0); }
                output[(t * dims.batch + lane.b) * dims.out_stride + dims.out_offset + j] = h;
            }
            h_cache[(s + 1u) * bh + lane.b * hidden + j] = h;
            h_shared[h_next_at] = h;
        }
        workgroupBarrier();
    }
}
