// last_step.wgsl — the link between the recurrent output and the head for a last-step
// readout: each sequence's row at its last real step, t = lengths[b] − 1.
//
//   mode 0 (gather):  dst[b, k] = src[lengths[b] − 1, b, k]     features from output [T, B, F]
//   mode 1 (scatter): dst[lengths[b] − 1, b, k] = src[b, k]     d_output from d_features
//
// (The scatter overwrites; the host zeroes d_output first.) CPU twin: the feature gather and
// gradient scatter in math::model::SeqModel (Readout::Last).

struct LastStepDims {
    batch: u32,      // B
    width: u32,      // F = D·H
    mode: u32,       // 0 gather, 1 scatter
    _pad0: u32,
}

@group(0) @binding(0) var<uniform> dims: LastStepDims;
@group(0) @binding(1) var<storage, read> lengths: array<u32>;     // [B]
@group(0) @binding(2) var<storage, read> src: array<f32>;         // [T, B, F] or [B, F]
@group(0) @binding(3) var<storage, read_write> dst: array<f32>;   // [B, F] or [T, B, F]

@compute @workgroup_size(WG_1D)
fn last_step(@builtin(global_invocation_id) gid: vec3<u32>,
             @builtin(num_workgroups) num_wg: vec3<u32>) {
    let idx = linear_index(gid, num_wg);
    if (idx >= dims.batch * dims.width) { return; }
    let b = idx / dims.width;
    let k = idx % dims.width;
    let row = (lengths[b] - 1u) * dims.batch + b;
    if (dims.mode == 0u) {
        dst[idx] = src[row * dims.width + k];
    } else {
        dst[row * dims.width + k] = src[idx];
    }
}
