// gru.wgsl — the GRU cell's part of the whole-sequence kernels: its arithmetic for one unit of
// one batch row at one step. core/src/gpu/shader_source.rs composes it between the prelude and
// each skeleton (sequence_forward.wgsl, sequence_backward.wgsl) as the kernels gru_forward and
// gru_backward. Cho et al. 2014 in PyTorch's formulation (nn.GRU docs; the reset gate is applied
// after the hidden matmul), gate blocks r, z, n (components x, y, z):
//
//   r = σ(x_r + hh_r)   z = σ(x_z + hh_z)   n = tanh(x_n + r ⊙ hh_n)   h = (1 − z) ⊙ n + z ⊙ h_prev
//   (x = W_ih x_t + b_ih, plus b_hh for r and z; hh = W_hh h_prev, plus b_hn for n)
//
//   d_n = dh ⊙ (1−z) ⊙ (1−n²)   d_z = dh ⊙ (h_prev − n) ⊙ z(1−z)   d_r = d_n ⊙ hh_n ⊙ r(1−r)
//   input side [d_r d_z d_n], hidden side [d_r d_z d_n ⊙ r]
//   dh_prev = z ⊙ dh + [d_r d_z d_n ⊙ r]·W_hh (the skeleton's product)
//
// The gate cache holds r, z, n and hh_n = W_hn h + b_hn; BPTT's state cache is h (h_prev).
// CPU twin: math::gru::forward_step / backward_step.

const GATES: u32 = 3u;
const HAS_CELL_STATE: bool = false;
const HAS_GATE_CACHE: bool = true;

// acc + W_hh h_prev of one unit against four inputs h4: w[g] holds gate g's four weights
// (component 3 unused).
fn hh_add(acc: vec4<f32>, h4: vec4<f32>, w: array<vec4<f32>, 4>) -> vec4<f32> {
    return vec4(acc.xyz + h4 * mat3x4<f32>(w[0], w[1], w[2]), acc.w);
}

fn cell_forward(x: vec4<f32>, hh: vec4<f32>, h_prev: f32, c_prev: f32, act: u32) -> CellForward {
    let r = sigmoid_safe(x.x + hh.x);
    let z = sigmoid_safe(x.y + hh.y);
    let n = tanh_safe(x.z + r * hh.z);
    return CellForward((1.0 - z) * n + z * h_prev, 0.0, vec4(r, z, n, hh.z));
}

// `prev`: h_prev.
fn cell_backward(cache: vec4<f32>, prev: f32, next: f32, dh: f32, dc: f32, act: u32) -> CellBackward {
    let r = cache.x;
    let z = cache.y;
    let n = cache.z;
    let hh_n = cache.w;
    let d_n = dh * (1.0 - z) * (1.0 - n * n);
    let d_z = dh * (prev - n) * z * (1.0 - z);
    let d_r = d_n * hh_n * r * (1.0 - r);
    return CellBackward(vec4(d_r, d_z, d_n, 0.0), vec4(d_r, d_z, d_n * r, 0.0), z * dh, 0.0);
}
