// lstm_forward.wgsl — one LSTM layer direction over the whole sequence, one dispatch.
// Hochreiter & Schmidhuber 1997 in PyTorch's formulation (nn.LSTM docs), gate blocks i, f, g, o:
//
//   [i f g o] = [σ σ tanh σ](xproj_t + W_hh h_prev)     (xproj holds W_ih x_t + b_ih + b_hh)
//   c = f ⊙ c_prev + i ⊙ g        h = o ⊙ tanh(c)
//
// Layout, step/time indexing and padding: see SequenceDims in common.wgsl. Invocation
// (slot, j) computes unit j of its RI rows: at each step it loads the four weights of unit j
// (one per gate) for four m at a time, a 4×4 matrix, and multiplies it with h_m..h_{m+3} of each
// row (read as one vec4) into 4·RI pre-activations in registers, so each load of W_hh serves RI
// rows. W_hh is read as its transposed copy w_hh_t (made once per
// training step, so neighbouring units read neighbouring addresses); c_j of each row stays in a
// register, h of the workgroup's rows in workgroup memory (two [R, stride4(H)] buffers: step s
// reads one and writes the other, so one barrier per step suffices). Padded steps carry h and c over and
// write no output (the host zeroes `output` first, so padded positions read 0).
// CPU twin: math::layer::LayerDirection::forward with math::lstm::forward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;             // [T, B, 4H] by time
@group(0) @binding(2) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(3) var<storage, read> w_hh_t: array<f32>;            // [H, 4H] = W_hhᵀ
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;     // [T+1, B, H] by step; slot 0 = h0
@group(0) @binding(5) var<storage, read_write> c_cache: array<f32>;     // [T+1, B, H] by step; slot 0 = c0
@group(0) @binding(6) var<storage, read_write> gate_cache: array<f32>;  // [T, B, 4H] by step, post-activation
@group(0) @binding(7) var<storage, read_write> output: array<f32>;      // [T, B, D·H] by time

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

// Unit j's weights in gate blocks i, f, g, o against h_m: W_hh[gate·H + j, m] = W_hhᵀ[m, gate·H + j];
// 0 for m ≥ H.
fn w_hh_col(m: u32, j: u32) -> vec4<f32> {
    let hidden = dims.hidden;
    let at = m * 4u * hidden + j;
    let w = vec4(w_hh_t[at], w_hh_t[at + hidden], w_hh_t[at + 2u * hidden], w_hh_t[at + 3u * hidden]);
    return select(vec4(0.0), w, m < hidden);
}

@compute @workgroup_size(WG_SEQ)
fn lstm_forward(@builtin(local_invocation_index) local: u32,
                @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let gh = 4u * hidden;
    let j = lane.j;
    let p = stride4(hidden);  // row stride of h_shared in floats
    var c: array<f32, ROWS_PER_LANE_MAX>;    // c_j of each row
    var len: array<u32, ROWS_PER_LANE_MAX>;  // length of each row's sample
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        if (q < lane.rows) {
            let at = (lane.first_b + q) * hidden + j;
            c[q] = c_cache[at];
            len[q] = lengths[lane.first_b + q];
            let h_at = (lane.first_row + q) * p + j;
            put_h_shared(h_at, h_cache[at]);
        }
    }
    // Idle invocations (no rows) skip the product: it is most of the work.
    let k_end = select(0u, p / 4u, lane.rows > 0u);
    workgroupBarrier();
    for (var s = 0u; s < dims.seq_len; s++) {
        let h_prev_at = (s % 2u) * SEQ_ROWS_UNITS + lane.first_row * p;  // h_prev of row 0
        let h_next_at = (1u - s % 2u) * SEQ_ROWS_UNITS + lane.first_row * p + j;
        // W_hh h_prev of each row, gate blocks (i, f, g, o) as the four components.
        var wh: array<vec4<f32>, ROWS_PER_LANE_MAX>;
        // Zeroed here at every step, explicitly (declared in the loop).
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) { wh[q] = vec4(0.0); }
        for (var m4 = 0u; m4 < k_end; m4++) {
            let m = 4u * m4;
            let w = mat4x4<f32>(w_hh_col(m, j), w_hh_col(m + 1u, j), w_hh_col(m + 2u, j),
                                w_hh_col(m + 3u, j));
            for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
                if (q < lane.rows) { wh[q] += w * get4_h_shared((h_prev_at + q * p) / 4u + m4); }
            }
        }
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (q < lane.rows) {
                let b = lane.first_b + q;
                let own_at = h_prev_at + q * p + j;
                var h = get_h_shared(own_at);
                if (s < len[q]) {
                    let t = time_at(dims, s, len[q]);
                    let x_row = (t * dims.batch + b) * gh;
                    let i = sigmoid_safe(xproj[x_row + j] + wh[q].x);
                    let f = sigmoid_safe(xproj[x_row + hidden + j] + wh[q].y);
                    let g = tanh_safe(xproj[x_row + 2u * hidden + j] + wh[q].z);
                    let o = sigmoid_safe(xproj[x_row + 3u * hidden + j] + wh[q].w);
                    c[q] = f * c[q] + i * g;
                    h = o * tanh_safe(c[q]);
                    let cache_row = (s * dims.batch + b) * gh;
                    gate_cache[cache_row + j] = i;
                    gate_cache[cache_row + hidden + j] = f;
                    gate_cache[cache_row + 2u * hidden + j] = g;
                    gate_cache[cache_row + 3u * hidden + j] = o;
                    output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j] = h;
                }
                let next = (s + 1u) * bh + b * hidden + j;
                c_cache[next] = c[q];
                h_cache[next] = h;
                let next_at = h_next_at + q * p;
                put_h_shared(next_at, h);
            }
        }
        workgroupBarrier();
    }
}
