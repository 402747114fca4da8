// lstm_forward.wgsl — one LSTM layer direction over the whole sequence, one dispatch.
// Hochreiter & Schmidhuber 1997 in PyTorch's formulation (nn.LSTM docs), gate blocks i, f, g, o:
//
//   [i f g o] = [σ σ tanh σ](xproj_t + W_hh h_prev)     (xproj holds W_ih x_t + b_ih + b_hh)
//   c = f ⊙ c_prev + i ⊙ g        h = o ⊙ tanh(c)
//
// Layout, step/time indexing and padding: see SequenceDims in common.wgsl. Invocation (row, j)
// reads W_hh as its transposed copy w_hh_t (made once per training step, so neighbouring units
// read neighbouring addresses), keeps c_j in a register and h in workgroup memory (two [R, H]
// buffers: step s reads one and writes the other, so one barrier per step suffices). Padded
// steps carry h and c over and write no output (the host zeroes `output` first, so padded
// positions read 0).
// CPU twin: math::layer::LayerDirection::forward with math::lstm::forward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;             // [T, B, 4H] by time
@group(0) @binding(2) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(3) var<storage, read> w_hh_t: array<f32>;            // [H, 4H] = W_hhᵀ
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;     // [T+1, B, H] by step; slot 0 = h0
@group(0) @binding(5) var<storage, read_write> c_cache: array<f32>;     // [T+1, B, H] by step; slot 0 = c0
@group(0) @binding(6) var<storage, read_write> gate_cache: array<f32>;  // [T, B, 4H] by step, post-activation
@group(0) @binding(7) var<storage, read_write> output: array<f32>;      // [T, B, D·H] by time

var<workgroup> h_shared: array<f32, 512>;  // 2 × [R, H], R·H ≤ WG_SEQ

@compute @workgroup_size(WG_SEQ)
fn lstm_forward(@builtin(local_invocation_index) local: u32,
                @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let j = lane.j;
    var h = 0.0;
    var c = 0.0;
    var len = 0u;
    if (lane.in_use) {
        h = h_cache[lane.b * hidden + j];
        c = c_cache[lane.b * hidden + j];
        len = lengths[lane.b];
        h_shared[local] = h;
    }
    workgroupBarrier();
    // Column of W_hhᵀ (row of W_hh) of unit j in each gate block; rows of W_hhᵀ are 4H wide.
    let gh = 4u * hidden;
    let w_i = j;
    let w_f = hidden + j;
    let w_g = 2u * hidden + j;
    let w_o = 3u * hidden + j;
    for (var s = 0u; s < dims.seq_len; s++) {
        let h_prev_at = (s % 2u) * WG_SEQ + lane.row * hidden;  // h_prev of this row
        let h_next_at = WG_SEQ - (s % 2u) * WG_SEQ + local;
        if (lane.in_use) {
            if (s < len) {
                let t = time_at(dims, s, len);
                let x_row = (t * dims.batch + lane.b) * 4u * hidden;
                var pre_i = xproj[x_row + j];
                var pre_f = xproj[x_row + hidden + j];
                var pre_g = xproj[x_row + 2u * hidden + j];
                var pre_o = xproj[x_row + 3u * hidden + j];
                for (var m = 0u; m < hidden; m++) {
                    let h_m = h_shared[h_prev_at + m];
                    let row = m * gh;
                    pre_i += w_hh_t[row + w_i] * h_m;
                    pre_f += w_hh_t[row + w_f] * h_m;
                    pre_g += w_hh_t[row + w_g] * h_m;
                    pre_o += w_hh_t[row + w_o] * h_m;
                }
                let i = sigmoid_safe(pre_i);
                let f = sigmoid_safe(pre_f);
                let g = tanh_safe(pre_g);
                let o = sigmoid_safe(pre_o);
                c = f * c + i * g;
                h = o * tanh_safe(c);
                let cache_row = (s * dims.batch + lane.b) * 4u * hidden;
                gate_cache[cache_row + j] = i;
                gate_cache[cache_row + hidden + j] = f;
                gate_cache[cache_row + 2u * hidden + j] = g;
                gate_cache[cache_row + 3u * hidden + j] = o;
                output[(t * dims.batch + lane.b) * dims.out_stride + dims.out_offset + j] = h;
            }
            let next = (s + 1u) * bh + lane.b * hidden + j;
            c_cache[next] = c;
            h_cache[next] = h;
            h_shared[h_next_at] = h;
        }
        workgroupBarrier();
    }
}
