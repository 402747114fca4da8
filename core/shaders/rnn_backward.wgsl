// rnn_backward.wgsl — BPTT through one Elman RNN layer direction over the whole sequence, one
// dispatch: s = T−1 down to 0.
//
// Invocation (row, j) keeps ∂L/∂h_j of the state after step s in a register, read from d_state
// at the start (∂L/∂h_n) and written back at the end (∂L/∂h0). At an existing step:
//
//   dh += d_output[t]
//   d_pre = dh ⊙ (1 − h²)  (tanh)   or   dh ⊙ [h > 0]  (relu)
//   dh_prev = d_pre·W_hh            (nothing bypasses W_hh)
//
// d_pre goes to d_gates (by time), d_gates_step (by step) and workgroup memory, from which,
// after the barrier, each unit reads the column of W_hh it needs. Padded steps pass dh through.
// CPU twin: math::layer::LayerDirection::backward with math::rnn::backward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;             // [B]
@group(0) @binding(2) var<storage, read> params: array<f32>;              // flat (W_hh at w_hh_offset)
@group(0) @binding(3) var<storage, read> h_cache: array<f32>;             // [T+1, B, H] by step
@group(0) @binding(4) var<storage, read> d_output: array<f32>;            // [T, B, D·H] by time
@group(0) @binding(5) var<storage, read_write> d_gates: array<f32>;       // [T, B, H] by time
@group(0) @binding(6) var<storage, read_write> d_gates_step: array<f32>;  // [T, B, H] by step
@group(0) @binding(7) var<storage, read_write> d_state: array<f32>;       // [B, H]

// 2 × [R, H] pre-activation gradients (R·H ≤ WG_SEQ); step k writes buffer k % 2.
var<workgroup> d_pre_shared: array<f32, 512>;

@compute @workgroup_size(WG_SEQ)
fn rnn_backward(@builtin(local_invocation_index) local: u32,
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
        let row_at = (k % 2u) * WG_SEQ + lane.row * hidden;
        let step_pos = s * bh + state_at;
        if (lane.in_use) {
            if (s < len) {
                let t = time_at(dims, s, len);
                let h = h_cache[step_pos + bh];
                d_h += d_output[(t * dims.batch + lane.b) * dims.out_stride + dims.out_offset + j];
                var d_pre: f32;
                if (dims.nonlinearity == 0u) { d_pre = d_h * (1.0 - h * h); } else { d_pre = select(0.0, d_h, h > 0.0); }
                d_gates[(t * dims.batch + lane.b) * hidden + j] = d_pre;
                d_gates_step[step_pos] = d_pre;
                d_pre_shared[row_at + j] = d_pre;
            } else {
                d_gates_step[step_pos] = 0.0;
            }
        }
        workgroupBarrier();
        if (lane.in_use && s < len) {
            // dh_prev_j = Σ_r d_pre[r]·W_hh[r, j] (column j of W_hh).
            var acc = 0.0;
            for (var r = 0u; r < hidden; r++) {
                acc += d_pre_shared[row_at + r] * params[dims.w_hh_offset + r * hidden + j];
            }
            d_h = acc;
        }
    }
    if (lane.in_use) {
        d_state[state_at] = d_h;
    }
}
