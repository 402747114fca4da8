// matmul.wgsl — C (+)= op(A) · op(B), tiled through workgroup memory.
//
//   op(A) [M, K]: A(m, k) = a[a_offset + m*lda + k]   (trans_a = 0)
//                          a[a_offset + k*lda + m]   (trans_a = 1)
//   op(B) [K, N]: B(k, n) = b[b_offset + k*ldb + n]   (trans_b = 0)
//                          b[b_offset + n*ldb + k]   (trans_b = 1)
//   C [M, N]:     c[c_offset + m*ldc + n]; accumulate = 1 adds to it, 0 overwrites.
//
// Uses in one training step: the recurrent gate matmul h_{t-1}·W_hhᵀ, dh_{t-1} += dgates·W_hh,
// dW_hh = Σ_t dgatesᵀ·h_{t-1} as one matmul over all T·B rows, the head's dW_fc and dh_T.
// CPU twin: math::linalg::matmul_acc.
//
// Each workgroup computes a 64×64 tile of C with 16×16 invocations (4×4 outputs each); K is
// walked in slices of 16 staged in workgroup memory (2 × 4 KiB).

struct MatmulDims {
    m: u32,
    n: u32,
    k: u32,
    accumulate: u32,
    a_offset: u32,
    b_offset: u32,
    c_offset: u32,
    trans_a: u32,
    lda: u32,
    ldb: u32,
    ldc: u32,
    trans_b: u32,
}

const TILE: u32 = 64u;
const TILE_K: u32 = 16u;

@group(0) @binding(0) var<uniform> dims: MatmulDims;
@group(0) @binding(1) var<storage, read> a: array<f32>;          // op(A) [M, K] at a_offset
@group(0) @binding(2) var<storage, read> b: array<f32>;          // op(B) [K, N] at b_offset
@group(0) @binding(3) var<storage, read_write> c: array<f32>;    // C [M, N] at c_offset

var<workgroup> a_tile: array<f32, 1024>;   // [TILE_K, TILE] (k-major)
var<workgroup> b_tile: array<f32, 1024>;   // [TILE_K, TILE] (k-major)

fn load_a(m: u32, k: u32) -> f32 {
    if (m >= dims.m || k >= dims.k) { return 0.0; }
    if (dims.trans_a == 0u) { return a[dims.a_offset + m * dims.lda + k]; }
    return a[dims.a_offset + k * dims.lda + m];
}

fn load_b(k: u32, n: u32) -> f32 {
    if (k >= dims.k || n >= dims.n) { return 0.0; }
    if (dims.trans_b == 0u) { return b[dims.b_offset + k * dims.ldb + n]; }
    return b[dims.b_offset + n * dims.ldb + k];
}

@compute @workgroup_size(16, 16)
fn matmul(@builtin(local_invocation_id) lid: vec3<u32>,
          @builtin(workgroup_id) wid: vec3<u32>) {
    let row0 = wid.y * TILE;
    let col0 = wid.x * TILE;
    let tid = lid.y * 16u + lid.x;
    // Rows lid.y + 16r and columns lid.x + 16c of the tile (r, c in 0..4).
    var acc0 = vec4<f32>(0.0);
    var acc1 = vec4<f32>(0.0);
    var acc2 = vec4<f32>(0.0);
    var acc3 = vec4<f32>(0.0);
    for (var k0 = 0u; k0 < dims.k; k0 += TILE_K) {
        for (var i = 0u; i < 4u; i++) {
            let e = tid + i * 256u;
            // Walk global memory along its contiguous axis for each layout.
            var mm: u32;
            var ka: u32;
            if (dims.trans_a == 0u) { mm = e / TILE_K; ka = e % TILE_K; } else { ka = e / TILE; mm = e % TILE; }
            a_tile[ka * TILE + mm] = load_a(row0 + mm, k0 + ka);
            var nn: u32;
            var kb: u32;
            if (dims.trans_b == 0u) { kb = e / TILE; nn = e % TILE; } else { nn = e / TILE_K; kb = e % TILE_K; }
            b_tile[kb * TILE + nn] = load_b(k0 + kb, col0 + nn);
        }
        workgroupBarrier();
        for (var kk = 0u; kk < TILE_K; kk++) {
            let base = kk * TILE;
            let bv = vec4<f32>(b_tile[base + lid.x], b_tile[base + lid.x + 16u],
                               b_tile[base + lid.x + 32u], b_tile[base + lid.x + 48u]);
            acc0 += a_tile[base + lid.y] * bv;
            acc1 += a_tile[base + lid.y + 16u] * bv;
            acc2 += a_tile[base + lid.y + 32u] * bv;
            acc3 += a_tile[base + lid.y + 48u] * bv;
        }
        workgroupBarrier();
    }
    store_row(row0 + lid.y, col0 + lid.x, acc0);
    store_row(row0 + lid.y + 16u, col0 + lid.x, acc1);
    store_row(row0 + lid.y + 32u, col0 + lid.x, acc2);
    store_row(row0 + lid.y + 48u, col0 + lid.x, acc3);
}

// Writes the 4 outputs of one row (columns col, col+16, col+32, col+48).
fn store_row(row: u32, col: u32, v: vec4<f32>) {
    if (row >= dims.m) { return; }
    for (var j = 0u; j < 4u; j++) {
        let n = col + 16u * j;
        if (n < dims.n) {
            let idx = dims.c_offset + row * dims.ldc + n;
            if (dims.accumulate != 0u) { c[idx] = c[idx] + v[j]; } else { c[idx] = v[j]; }
        }
    }
}
