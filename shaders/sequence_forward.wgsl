// sequence_forward.wgsl — one layer direction of a recurrent cell over the whole sequence, one
// dispatch. The skeleton every cell shares: core/src/gpu/shader_source.rs composes the prelude,
// a cell's part (shaders/<cell>.wgsl: GATES, HAS_CELL_STATE, HAS_GATE_CACHE, hh_add,
// cell_forward) and this file into the kernel <cell>_forward.
//
// Layout, step/time indexing and padding: SequenceDims in common.wgsl (the host runs this pass
// with split = 1). Invocation (slot, j) computes unit j of its RI rows. At each step it loads,
// four inputs m at a time, unit j's G gate blocks of W_hh (G vec4 loads from w_hh_packed, which
// the host packs once per training step so that neighbouring units read neighbouring
// addresses) and multiplies them with h_m..h_{m+3} of each of its rows (one vec4 from workgroup
// memory), so each load of W_hh serves RI rows (RI gate vectors of sums in registers). Then per
// row the cell's part turns the projected input, the product and the state into the new state:
// c (cells with a cell state) stays in a register, h goes to workgroup memory (two
// [R, stride4(H)] buffers: step s reads one and writes the other, so one barrier per step
// suffices), and both go to the caches. Padded steps carry the state over and write no output
// (the host zeroes `output` first, so padded positions read 0).
// CPU twin: math::layer::LayerDirection::forward with the cell's forward_step.

@group(0) @binding(0) var<uniform> dims: SequenceDims;
@group(0) @binding(1) var<storage, read> xproj: array<f32>;                   // [T, B, G·H] by time
@group(0) @binding(2) var<storage, read> lengths: array<u32>;                 // [B]
@group(0) @binding(3) var<storage, read> w_hh_packed: array<vec4<f32>>;       // packed W_hh (common.wgsl)
@group(0) @binding(4) var<storage, read_write> h_cache: array<f32>;           // [T+1, B, H] by step; slot 0 = h0
@group(0) @binding(5) var<storage, read_write> c_cache: array<f32>;           // [T+1, B, H] by step; slot 0 = c0 (HAS_CELL_STATE)
@group(0) @binding(6) var<storage, read_write> gate_cache: array<vec4<f32>>;  // [T, B, H] by step (HAS_GATE_CACHE)
@group(0) @binding(7) var<storage, read_write> output: array<f32>;            // [T, B, D·H] by time

@compute @workgroup_size(WG_SEQ)
fn sequence_forward(@builtin(local_invocation_index) local: u32,
                    @builtin(workgroup_id) group: vec3<u32>) {
    let lane = sequence_lane(dims, local, group.x);
    let hidden = dims.hidden;
    let bh = dims.batch * hidden;
    let j = lane.j;
    let p = stride4(hidden);  // row stride of h in seq_shared, floats
    let half = dims.rows_per_group * p;  // the second buffer of h in seq_shared
    let bias = w_hh_packed[packed_bias_at(hidden, GATES) + j];
    var c: array<f32, ROWS_PER_LANE_MAX>;    // c_j of each row
    var len: array<u32, ROWS_PER_LANE_MAX>;  // length of each row's sample
    for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
        c[q] = 0.0;
        len[q] = 0u;
        if (q < lane.rows) {
            let at = (lane.first_b + q) * hidden + j;
            if (HAS_CELL_STATE) { c[q] = c_cache[at]; }
            len[q] = lengths[lane.first_b + q];
            put_seq_shared((lane.first_row + q) * p + j, h_cache[at]);
        }
    }
    // Idle invocations (no rows) skip the product: it is most of the work.
    let k_end = select(0u, p / 4u, lane.rows > 0u);
    workgroupBarrier();
    for (var s = 0u; s < dims.seq_len; s++) {
        let h_prev_at = (s % 2u) * half + lane.first_row * p;  // h_prev of row 0
        let h_next_at = (1u - s % 2u) * half + lane.first_row * p + j;
        // W_hh h_prev of each row, gate g in component g; zeroed at every step, explicitly.
        var hh: array<vec4<f32>, ROWS_PER_LANE_MAX>;
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) { hh[q] = vec4(0.0); }
        for (var m4 = 0u; m4 < k_end; m4++) {
            let at = (m4 * hidden + j) * GATES;
            var w: array<vec4<f32>, 4>;
            for (var g = 0u; g < 4u; g++) { w[g] = vec4(0.0); }
            for (var g = 0u; g < GATES; g++) { w[g] = w_hh_packed[at + g]; }
            for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
                if (q < lane.rows) { hh[q] = hh_add(hh[q], get4_seq_shared((h_prev_at + q * p) / 4u + m4), w); }
            }
        }
        for (var q = 0u; q < ROWS_PER_LANE_MAX; q++) {
            if (q < lane.rows) {
                let b = lane.first_b + q;
                var h = get_seq_shared(h_prev_at + q * p + j);
                if (s < len[q]) {
                    let t = time_at(dims, s, len[q]);
                    let x_at = (t * dims.batch + b) * GATES * hidden + j;
                    var x = vec4(0.0);
                    for (var g = 0u; g < GATES; g++) { x[g] = xproj[x_at + g * hidden]; }
                    let step = cell_forward(x, hh[q] + bias, h, c[q], dims.nonlinearity);
                    h = step.h;
                    c[q] = step.c;
                    if (HAS_GATE_CACHE) { gate_cache[(s * dims.batch + b) * hidden + j] = step.cache; }
                    output[(t * dims.batch + b) * dims.out_stride + dims.out_offset + j] = h;
                }
                let next = (s + 1u) * bh + b * hidden + j;
                if (HAS_CELL_STATE) { c_cache[next] = c[q]; }
                h_cache[next] = h;
                put_seq_shared(h_next_at + q * p, h);
            }
        }
        workgroupBarrier();
    }
}
