// pack_w_hh.wgsl — W_hh [G·H, H] (and the hidden-side biases the input projection leaves out)
// rearranged into the vec4 blocks the whole-sequence kernels read, `w_hh_packed` (layout:
// packed_bias_at in common.wgsl): the forward's rows (one unit's G gate blocks against four
// inputs, G neighbouring vec4), the in-loop biases, BPTT's columns (four gate rows of one column
// per vec4). Run once per training step before the forward loop; a pure copy, so exact.
// CPU twin: gpu::kernels::pack_w_hh::pack.

struct PackDims {
    hidden: u32,       // H
    gates: u32,        // G
    bias_from: u32,    // first gate block whose b_hh stays in the loop (hidden_bias_blocks)
    w_hh_offset: u32,  // params offset of weight_hh [G·H, H]
    b_hh_offset: u32,  // params offset of bias_hh [G·H]
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> dims: PackDims;
@group(0) @binding(1) var<storage, read> params: array<f32>;                   // flat
@group(0) @binding(2) var<storage, read_write> packed: array<vec4<f32>>;       // w_hh_packed

@compute @workgroup_size(WG_1D)
fn pack_w_hh(@builtin(global_invocation_id) gid: vec3<u32>,
             @builtin(num_workgroups) num_wg: vec3<u32>) {
    let i = linear_index(gid, num_wg);
    let h = dims.hidden;
    let g = dims.gates;
    let bias_at = packed_bias_at(h, g);
    let cols_at = packed_cols_at(h, g);
    if (i >= cols_at + (g * h + 3u) / 4u * h) { return; }
    var v = vec4(0.0);
    if (i < bias_at) {
        // Forward rows: vec4 (m4·H + j)·G + gate = W_hh[gate·H + j, 4·m4 ..].
        let gate = i % g;
        let j = (i / g) % h;
        let m4 = i / (g * h);
        for (var k = 0u; k < 4u; k++) {
            let m = 4u * m4 + k;
            if (m < h) { v[k] = params[dims.w_hh_offset + (gate * h + j) * h + m]; }
        }
    } else if (i < cols_at) {
        let j = i - bias_at;
        for (var k = dims.bias_from; k < g; k++) { v[k] = params[dims.b_hh_offset + k * h + j]; }
    } else {
        // BPTT's columns: vec4 cols_at + r4·H + j = W_hh[4·r4 .., j].
        let j = (i - cols_at) % h;
        let r4 = (i - cols_at) / h;
        for (var k = 0u; k < 4u; k++) {
            let r = 4u * r4 + k;
            if (r < g * h) { v[k] = params[dims.w_hh_offset + r * h + j]; }
        }
    }
    packed[i] = v;
}
