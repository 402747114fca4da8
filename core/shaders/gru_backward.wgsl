// gru_backward.wgsl — BPTT through one GRU layer direction over the whole sequence, one
// dispatch: s = T−1 down to 0.
//
// Invocation (row, j) keeps ∂L/∂h_j of the state after step s in a register, read from d_state
// at the start (∂L/∂h_n) and written back at the end (∂L/∂h0). At an existing step d_output[t]
// joins it; d_gates[t] (by time) = ∂L/∂(W_ih x + b_ih) per block r, z, n and d_gates_hh[s]
// (by step) = ∂L/∂(W_hh h + b_hh), which differ in the n block (d_hn = d_n_pre ⊙ r). The
// hidden-side gradients also go to workgroup memory; after the barrier each unit adds the
// column of W_hh it needs to the direct part z ⊙ dh. Padded steps pass ∂L/∂h through.
//
//   d_n = dh ⊙ (1−z) ⊙ (1−n²)   d_z = dh ⊙ (h_prev − n) ⊙ z(1−z)   d_r = d_n ⊙ hn ⊙ r(1−r)
//   dh_prev = z ⊙ dh + [d_r d_z d_n⊙r]·W_hh
// CPU twin: math::layer::LayerDirection::backward with math::gru::backward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;           // [B]
@group(0) @binding(2) var<storage, read> params: array<f32>;            // flat (W_hh at w_hh_offset)
@group(0) @binding(3) var<storage, read> h_cache: array<f32>;           // [T+1, B, H] by step
@group(0) @binding(4) var<storage, read> gate_cache: array<f32>;        // [T, B, 4H] by step: r, z, n, hn
@group(0) @binding(5) var<storage, read> d_output: array<f32>;          // [T, B, D·H] by time
@group(0) @binding(6) var<storage, read_write> d_gates: array<f32>;     // [T, B, 3H] by time, input side
@group(0) @binding(7) var<storage, read_write> d_gates_hh: array<f32>;  // [T, B, 3H] by step, hidden side
@group(0) @binding(8) var<storage, read_write> d_state: array<f32>;     // [B, H]

// 2 × [R, 3H] hidden-side gate gradients (R·H ≤ WG_SEQ); step k writes buffer k % 2.
var<workgroup> d_gates_shared: array<f32, 1536>;

@compute @workgroup_size(WG_SEQ)
fn gru_backward(@builtin(local_invocation_index) local: u32,
                @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let j = lane.j;
    let state_at = lane.b * hidden + j;
    var d_h = 0.0;
    var len = 0u;
    if (lane.in_use) {
        d_h = d_state[state_at];
        len = lengths[lane.b];
    }
    for (var k = 0u; k < dims.seq_len; k++) {
        let s = dims.seq_len - 1u - k;
        let row_at = (k % 2u) * 3u * WG_SEQ + lane.row * 3u * hidden;
        let step_row = (s * dims.batch + lane.b) * 3u * hidden;
        if (lane.in_use) {
            if (s < len) {
                let t = time_at(dims, s, len);
                let cache_row = (s * dims.batch + lane.b) * 4u * hidden;
                let r = gate_cache[cache_row + j];
                let z = gate_cache[cache_row + hidden + j];
                let n = gate_cache[cache_row + 2u * hidden + j];
                let hn = gate_cache[cache_row + 3u * hidden + j];
                let h_prev = h_cache[s * bh + state_at];
                d_h += d_output[(t * dims.batch + lane.b) * dims.out_stride + dims.out_offset + j];
                let d_n = d_h * (1.0 - z) * (1.0 - n * n);
                let d_z = d_h * (h_prev - n) * z * (1.0 - z);
                let d_r = d_n * hn * r * (1.0 - r);
                let time_row = (t * dims.batch + lane.b) * 3u * hidden;
                d_gates[time_row + j] = d_r;
                d_gates[time_row + hidden + j] = d_z;
                d_gates[time_row + 2u * hidden + j] = d_n;
                d_gates_hh[step_row + j] = d_r;
                d_gates_hh[step_row + hidden + j] = d_z;
                d_gates_hh[step_row + 2u * hidden + j] = d_n * r;
                d_gates_shared[row_at + j] = d_r;
                d_gates_shared[row_at + hidden + j] = d_z;
                d_gates_shared[row_at + 2u * hidden + j] = d_n * r;
                d_h *= z;
            } else {
                for (var q = 0u; q < 3u; q++) { d_gates_hh[step_row + q * hidden + j] = 0.0; }
            }
        }
        workgroupBarrier();
        if (lane.in_use && s < len) {
            // dh_prev_j += Σ_r d_gates_hh[r]·W_hh[r, j] over the 3H gate rows (column j of W_hh).
            var acc = d_h;
            for (var r = 0u; r < 3u * hidden; r++) {
                acc += d_gates_shared[row_at + r] * params[dims.w_hh_offset + r * hidden + j];
            }
            d_h = acc;
        }
    }
    if (lane.in_use) {
        d_state[state_at] = d_h;
    }
}
