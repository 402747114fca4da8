// gru_forward.wgsl — one GRU layer direction over the whole sequence, one dispatch.
// Cho et al. 2014 in PyTorch's formulation (nn.GRU docs; the reset gate is applied after the
// hidden matmul), gate blocks r, z, n:
//
//   r = σ(W_ir x + b_ir + W_hr h + b_hr)     z = σ(W_iz x + b_iz + W_hz h + b_hz)
//   n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))        h' = (1 − z) ⊙ n + z ⊙ h
//
// xproj holds W_ih x_t + b_ih plus b_hh for the r and z blocks only; b_hn is read here.
// Layout, step/time indexing and padding: see SequenceDims in common.wgsl. Invocation
// (slot, j) computes unit j of its RI rows: the three weights of unit j (one per gate) for four
// m at a time, a 3×4 matrix, are loaded once and multiply h_m..h_{m+3} of each row (as one vec4)
// so they serve all RI rows (3·RI sums in registers). W_hh is read as its
// transposed copy w_hh_t (made once per training step), so neighbouring units read
// neighbouring addresses; h of the workgroup's rows lives in workgroup memory (two
// [R, stride4(H)] buffers, one barrier per step).
// CPU twin: math::layer::LayerDirection::forward with math::gru::forward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;             // [T, B, 3H] by time
@group(0) @binding(2) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(3) var<storage, read> params: array<f32>;            // flat (b_hn at b_hn_offset)
@group(0) @binding(4) var<storage, read> w_hh_t: array<f32>;            // [H, 3H] = W_hhᵀ
@group(0) @binding(5) var<storage, read_write> h_cache: array<f32>;     // [T+1, B, H] by step; slot 0 = h0
@group(0) @binding(6) var<storage, read_write> gate_cache: array<f32>;  // [T, B, 4H] by step: r, z, n, W_hn h + b_hn
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

// Unit j's weights in gate blocks r, z, n against h_m: W_hh[gate·H + j, m] = W_hhᵀ[m, gate·H + j];
// 0 for m ≥ H.
fn w_hh_col(m: u32, j: u32) -> vec3<f32> {
    let hidden = dims.hidden;
    let at = m * 3u * hidden + j;
    let w = vec3(w_hh_t[at], w_hh_t[at + hidden], w_hh_t[at + 2u * hidden]);
    return select(vec3(0.0), w, m < hidden);
}

@compute @workgroup_size(WG_SEQ)
fn gru_forward(@builtin(local_invocation_index) local: u32,
               @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let gh = 3u * hidden;
    let j = lane.j;
    let p = stride4(hidden);  // row stride of h_shared in floats
    var len: array<u32, ROWS_PER_LANE_MAX>;  // length of each row's sample
    var b_hn = 0.0;
    if (lane.rows > 0u) {
        b_hn = params[dims.b_hn_offset + j];
    }
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
        // W_hh h_prev of each row, gate blocks (r, z, n) as the three components.
        var wh: array<vec3<f32>, ROWS_PER_LANE_MAX>;
        // Zeroed here at every step, explicitly (declared in the loop).
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) { wh[q] = vec3(0.0); }
        for (var m4 = 0u; m4 < k_end; m4++) {
            let m = 4u * m4;
            let w = mat4x3<f32>(w_hh_col(m, j), w_hh_col(m + 1u, j), w_hh_col(m + 2u, j),
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
                    let r = sigmoid_safe(xproj[x_row + j] + wh[q].x);
                    let z = sigmoid_safe(xproj[x_row + hidden + j] + wh[q].y);
                    let hn = wh[q].z + b_hn;
                    let n = tanh_safe(xproj[x_row + 2u * hidden + j] + r * hn);
                    let cache_row = (s * dims.batch + b) * 4u * hidden;
                    gate_cache[cache_row + j] = r;
                    gate_cache[cache_row + hidden + j] = z;
                    gate_cache[cache_row + 2u * hidden + j] = n;
                    gate_cache[cache_row + 3u * hidden + j] = hn;
                    h = (1.0 - z) * n + z * h;
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
