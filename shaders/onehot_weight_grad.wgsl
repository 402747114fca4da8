// onehot_weight_grad.wgsl — ∂L/∂W_ih and ∂L/∂b_ih of a layer whose input is one-hot, from the
// input-side gate gradients of all steps, without atomics (scatter-free):
//
//   d_w_ih[g, v] = Σ_{t, b : t < lengths[b], tokens[b, t] = v} d_gates[t, b, g]
//   d_b_ih[g]    = Σ_{t, b} d_gates[t, b, g]
//
// One invocation owns one gate row g and walks all T·B positions once, accumulating into a
// private row of MAX_ONEHOT_INPUT symbols (so input_size ≤ 64; the host checks it).
// CPU twin: the one-hot branch of math::layer::LayerDirection::backward (d_w_ih by columns).

struct OnehotGradDims {
    batch: u32,          // B
    seq_len: u32,        // T (row stride of tokens)
    gate_rows: u32,      // G·H
    input_size: u32,     // I ≤ MAX_ONEHOT_INPUT
    w_ih_offset: u32,    // grads offset of weight_ih [G·H, I]
    b_ih_offset: u32,    // grads offset of bias_ih [G·H]
    _pad0: u32,
    _pad1: u32,
}

const MAX_ONEHOT_INPUT: u32 = 64u;

@group(0) @binding(0) var<uniform> dims: OnehotGradDims;
@group(0) @binding(1) var<storage, read> tokens: array<u32>;        // [B, T]
@group(0) @binding(2) var<storage, read> lengths: array<u32>;       // [B]
@group(0) @binding(3) var<storage, read> d_gates: array<f32>;       // [T, B, G·H]
@group(0) @binding(4) var<storage, read_write> grads: array<f32>;   // flat, math::params

@compute @workgroup_size(WG_1D)
fn onehot_weight_grad(@builtin(global_invocation_id) gid: vec3<u32>,
                      @builtin(num_workgroups) num_wg: vec3<u32>) {
    let g = linear_index(gid, num_wg);
    if (g >= dims.gate_rows) { return; }
    var acc: array<f32, MAX_ONEHOT_INPUT>;
    for (var v = 0u; v < MAX_ONEHOT_INPUT; v++) { acc[v] = 0.0; }
    var bias = 0.0;
    for (var t = 0u; t < dims.seq_len; t++) {
        for (var b = 0u; b < dims.batch; b++) {
            if (t < lengths[b]) {
                let d = d_gates[(t * dims.batch + b) * dims.gate_rows + g];
                let v = tokens[b * dims.seq_len + t];
                // A padding token (zero input vector, 0xFFFFFFFF) adds to the bias only.
                if (v < dims.input_size) { acc[min(v, MAX_ONEHOT_INPUT - 1u)] += d; }
                bias += d;
            }
        }
    }
    for (var v = 0u; v < dims.input_size; v++) {
        grads[dims.w_ih_offset + g * dims.input_size + v] = acc[v];
    }
    grads[dims.b_ih_offset + g] = bias;
}
