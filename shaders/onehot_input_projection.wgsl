// onehot_input_projection.wgsl — the input half of every gate pre-activation, for all time
// steps at once, when x_t is one-hot: W_ih·x_t is the column of W_ih picked by the symbol.
//
//   xproj[t, b, g] = W_ih[g, tokens[b, t]] + b_ih[g] + (g < bias_hh_rows ? b_hh[g] : 0)
//
// bias_hh_rows = G·H for RNN and LSTM (both biases simply add); 2H for GRU, whose b_hn stays
// inside r ⊙ (W_hn h + b_hn) and is added by gru_forward. Padded steps (t ≥ lengths[b]) get 0.
// CPU twin: math::classifier::onehot_input_projection.

struct ProjectionDims {
    batch: u32,          // B
    seq_len: u32,        // T (row stride of tokens)
    gate_rows: u32,      // G·H
    input_size: u32,     // I = vocabulary size (columns of W_ih)
    w_ih_offset: u32,    // params offset of weight_ih [G·H, I]
    b_ih_offset: u32,    // params offset of bias_ih [G·H]
    b_hh_offset: u32,    // params offset of bias_hh [G·H]
    bias_hh_rows: u32,   // rows of bias_hh folded in here
}

@group(0) @binding(0) var<uniform> dims: ProjectionDims;
@group(0) @binding(1) var<storage, read> tokens: array<u32>;          // [B, T] symbol indices
@group(0) @binding(2) var<storage, read> lengths: array<u32>;         // [B]
@group(0) @binding(3) var<storage, read> params: array<f32>;          // flat, math::params
@group(0) @binding(4) var<storage, read_write> xproj: array<f32>;     // [T, B, G·H]

@compute @workgroup_size(WG_1D)
fn onehot_input_projection(@builtin(global_invocation_id) gid: vec3<u32>,
                           @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    if (idx >= dims.seq_len * dims.batch * dims.gate_rows) { return; }
    let g = idx % dims.gate_rows;
    let p = idx / dims.gate_rows;       // p = t*B + b
    let b = p % dims.batch;
    let t = p / dims.batch;
    if (t >= lengths[b]) {
        xproj[idx] = 0.0;
        return;
    }
    let symbol = tokens[b * dims.seq_len + t];
    var v = params[dims.w_ih_offset + g * dims.input_size + symbol] + params[dims.b_ih_offset + g];
    if (g < dims.bias_hh_rows) {
        v += params[dims.b_hh_offset + g];
    }
    xproj[idx] = v;
}
