// rnn_forward.wgsl — one Elman RNN layer direction over the whole sequence, one dispatch
// (nn.RNN docs):
//
//   h = act(xproj_t + W_hh h_prev),  act = tanh or relu   (xproj holds W_ih x_t + b_ih + b_hh)
//
// Layout, step/time indexing and padding: see SequenceDims in common.wgsl. Invocation
// (slot, j) computes unit j of its RI rows: each weight W_hh[j, m] it loads (four m at a time,
// against h_m..h_{m+3} of a row read as one vec4) serves all RI rows (RI sums in registers).
// W_hh is read as its transposed copy w_hh_t (made once per training step), so neighbouring
// units read neighbouring addresses; h of the workgroup's rows lives in workgroup memory (two
// [R, stride4(H)] buffers, one barrier per step).
// CPU twin: math::layer::LayerDirection::forward with math::rnn::forward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;           // [T, B, H] by time
@group(0) @binding(2) var<storage, read> lengths: array<u32>;         // [B]
@group(0) @binding(3) var<storage, read> w_hh_t: array<f32>;          // [H, H] = W_hhᵀ
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;   // [T+1, B, H] by step; slot 0 = h0
@group(0) @binding(5) var<storage, read_write> output: array<f32>;    // [T, B, D·H] by time

// 2 × [R, stride4(H)] floats, R·stride4(H) ≤ SEQ_ROWS_UNITS; h_m of row r of buffer k is
// float k·SEQ_ROWS_UNITS + r·stride4(H) + m.
var<workgroup> h_shared: array<f32, 2048>;

// Writes float `at` of h_shared.
fn put_h_shared(at: u32, value: f32) {
    h_shared[at] = value;
}

// Floats 4·i4 .. 4·i4 + 3 of h_shared as one vector. (The array holds f32, not vec4: a write
// to one component of a vector may touch the whole vector, and neighbouring invocations
// write neighbouring floats.)
fn get4_h_shared(i4: u32) -> vec4<f32> {
    let at = 4u * i4;
    return vec4(h_shared[at], h_shared[at + 1u], h_shared[at + 2u], h_shared[at + 3u]);
}

// Reads float `at` of h_shared.
fn get_h_shared(at: u32) -> f32 {
    return h_shared[at];
}

// W_hh[j, m] = W_hhᵀ[m, j]; 0 for m ≥ H.
fn w_hh(m: u32, j: u32) -> f32 {
    return select(0.0, w_hh_t[m * dims.hidden + j], m < dims.hidden);
}

@compute @workgroup_size(WG_SEQ)
fn rnn_forward(@builtin(local_invocation_index) local: u32,
               @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let j = lane.j;
    let p = stride4(hidden);  // row stride of h_shared in floats
    var len: array<u32, ROWS_PER_LANE_MAX>;  // length of each row's sample
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (q < lane.rows) {
            len[q] = lengths[lane.first_b + q];
            let h_at = (lane.first_row + q) * p + j;
            put_h_shared(h_at, h_cache[(lane.first_b + q) * hidden + j]);
        }
    }
    // Idle invocations (no rows) skip the product: it is most of the work.
    let k_end = select(0u, p / 4u, lane.rows > 0u);
    workgroupBarrier();
    for (var s = 0u; s < dims.seq_len; s++) {
        let h_prev_at = (s % 2u) * SEQ_ROWS_UNITS + lane.first_row * p;  // h_prev of row 0
        let h_next_at = (1u - s % 2u) * SEQ_ROWS_UNITS + lane.first_row * p + j;
        // W_hh h_prev of each row.
        var wh: array<f32, ROWS_PER_LANE_MAX>;
        // Zeroed here at every step, explicitly (declared in the loop).
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) { wh[q] = 0.0; }
        for (var m4 = 0u; m4 < k_end; m4++) {
            let m = 4u * m4;
            let w = vec4(w_hh(m, j), w_hh(m + 1u, j), w_hh(m + 2u, j), w_hh(m + 3u, j));
            for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
                if (q < lane.rows) { wh[q] += dot(w, get4_h_shared((h_prev_at + q * p) / 4u + m4)); }
            }
        }
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (q < lane.rows) {
                let b = lane.first_b + q;
                let own_at = h_prev_at + q * p + j;
                var h = get_h_shared(own_at);
                if (s < len[q]) {
                    let t = time_at(dims, s, len[q]);
                    let pre = xproj[(t * dims.batch + b) * hidden + j] + wh[q];
                    if (dims.nonlinearity == 0u) { h = tanh_safe(pre); } else { h = max(pre, 0.0); }
                    output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j] = h;
                }
                h_cache[(s + 1u) * bh + b * hidden + j] = h;
                let next_at = h_next_at + q * p;
                put_h_shared(next_at, h);
            }
        }
        workgroupBarrier();
    }
}
