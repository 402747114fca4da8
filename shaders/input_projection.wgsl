// input_projection.wgsl — the input half of every gate pre-activation, for all T·B positions
// at once: xproj[t, b] = W_ih·x_t + b_ih + b_hh (the b_hh part only for the first
// bias_hh_rows rows: all G·H for RNN and LSTM, the r and z blocks (2H) for GRU, whose b_hn
// stays inside r ⊙ (W_hn h + b_hn) and is added by gru_forward).
//
// onehot = 1: x_t is one-hot, so W_ih·x_t is the column of W_ih picked by the symbol
//             tokens[b, t]; padded positions (t ≥ lengths[b]) get 0. The token PAD_TOKEN
//             (0xFFFFFFFF) is the zero vector: only the biases (the names lab's head=padded).
// onehot = 0: dense input; this kernel writes the biases in every row and the host then adds
//             x·W_ihᵀ with the matmul kernel (accumulate). Padded rows are never read.
// CPU twin: math::layer::LayerDirection::input_projection (plus b_hh, which the CPU path adds
// on the hidden side).

struct ProjectionDims {
    batch: u32,          // B
    seq_len: u32,        // T (row stride of tokens)
    gate_rows: u32,      // G·H
    input_size: u32,     // I (columns of W_ih; the vocabulary size for one-hot input)
    w_ih_offset: u32,    // params offset of weight_ih [G·H, I]
    b_ih_offset: u32,    // params offset of bias_ih [G·H]
    b_hh_offset: u32,    // params offset of bias_hh [G·H]
    bias_hh_rows: u32,   // leading rows of bias_hh folded in here
    onehot: u32,         // 1 token input, 0 dense input
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

// The zero input vector (math::layer::PAD_TOKEN).
const PAD_TOKEN: u32 = 0xFFFFFFFFu;

@group(0) @binding(0) var<uniform> dims: ProjectionDims;
@group(0) @binding(1) var<storage, read> tokens: array<u32>;          // [B, T] symbols (one-hot mode)
@group(0) @binding(2) var<storage, read> lengths: array<u32>;         // [B]
@group(0) @binding(3) var<storage, read> params: array<f32>;          // flat, math::params
@group(0) @binding(4) var<storage, read_write> xproj: array<f32>;     // [T, B, G·H] by time

@compute @workgroup_size(WG_1D)
fn input_projection(@builtin(global_invocation_id) gid: vec3<u32>,
                    @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    if (idx >= dims.seq_len * dims.batch * dims.gate_rows) { return; }
    let g = idx % dims.gate_rows;
    var v = params[dims.b_ih_offset + g];
    if (g < dims.bias_hh_rows) {
        v += params[dims.b_hh_offset + g];
    }
    if (dims.onehot != 0u) {
        let p = idx / dims.gate_rows;       // p = t*B + b
        let b = p % dims.batch;
        let t = p / dims.batch;
        if (t >= lengths[b]) {
            xproj[idx] = 0.0;
            return;
        }
        let tok = tokens[b * dims.seq_len + t];
        if (tok != PAD_TOKEN) {
            v += params[dims.w_ih_offset + g * dims.input_size + tok];
        }
    }
    xproj[idx] = v;
}
