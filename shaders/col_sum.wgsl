// col_sum.wgsl — out[j] (+)= Σ_r input[in_offset + r·ld + j] for j < cols: bias gradients
// as sums of gate gradients over all T·B positions (e.g. d_b_hh = Σ_{t,b} d_gates_hh[t, b]).
// A workgroup owns 64 columns; its 4 rows of invocations split the rows and reduce in
// workgroup memory. CPU twin: math::linalg::col_sum_acc.

struct ColSumDims {
    rows: u32,
    cols: u32,
    in_offset: u32,
    ld: u32,             // row stride of the input
    out_offset: u32,
    accumulate: u32,     // 1 adds to out, 0 overwrites
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> dims: ColSumDims;
@group(0) @binding(1) var<storage, read> input: array<f32>;         // [rows, ld] at in_offset
@group(0) @binding(2) var<storage, read_write> out: array<f32>;     // [cols] at out_offset

var<workgroup> part: array<f32, 256>;   // [4, 64]

@compute @workgroup_size(64, 4)
fn col_sum(@builtin(local_invocation_id) lid: vec3<u32>,
              @builtin(workgroup_id) wid: vec3<u32>) {
    let col = wid.x * 64u + lid.x;
    var s = 0.0;
    if (col < dims.cols) {
        for (var r = lid.y; r < dims.rows; r += 4u) {
            s += input[dims.in_offset + r * dims.ld + col];
        }
    }
    part[lid.y * 64u + lid.x] = s;
    workgroupBarrier();
    if (lid.y == 0u && col < dims.cols) {
        let total = part[lid.x] + part[64u + lid.x] + part[128u + lid.x] + part[192u + lid.x];
        let o = dims.out_offset + col;
        if (dims.accumulate != 0u) { out[o] = out[o] + total; } else { out[o] = total; }
    }
}
