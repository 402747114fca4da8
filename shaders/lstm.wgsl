// lstm.wgsl — the LSTM cell's part of the whole-sequence kernels: its arithmetic for one unit of
// one batch row at one step. core/src/gpu/shader_source.rs composes it between the prelude and
// each skeleton (sequence_forward.wgsl, sequence_backward.wgsl) as the kernels lstm_forward and
// lstm_backward. Hochreiter & Schmidhuber 1997 in PyTorch's formulation (nn.LSTM docs), gate
// blocks i, f, g, o (components x, y, z, w):
//
//   [i f g o] = [σ σ tanh σ](x + hh)    (x = W_ih x_t + b_ih + b_hh, hh = W_hh h_prev)
//   c = f ⊙ c_prev + i ⊙ g              h = o ⊙ tanh(c)
//
//   dc += dh ⊙ o ⊙ (1 − tanh²c)
//   d_i = dc ⊙ g ⊙ i(1−i)   d_f = dc ⊙ c_prev ⊙ f(1−f)   d_g = dc ⊙ i ⊙ (1−g²)   d_o = dh ⊙ tanh c ⊙ o(1−o)
//   dc_prev = dc ⊙ f        dh_prev = [d_i d_f d_g d_o]·W_hh (the skeleton's product)
//
// The gate cache holds i, f, g, o; BPTT's state cache is c (c_prev and c).
// CPU twin: math::lstm::forward_step / backward_step.

const GATES: u32 = 4u;
const HAS_CELL_STATE: bool = true;
const HAS_GATE_CACHE: bool = true;

// acc + W_hh h_prev of one unit against four inputs h4: w[g] holds gate g's four weights.
fn hh_add(acc: vec4<f32>, h4: vec4<f32>, w: array<vec4<f32>, 4>) -> vec4<f32> {
    return acc + h4 * mat4x4<f32>(w[0], w[1], w[2], w[3]);
}

fn cell_forward(x: vec4<f32>, hh: vec4<f32>, h_prev: f32, c_prev: f32, act: u32) -> CellForward {
    let i = sigmoid_safe(x.x + hh.x);
    let f = sigmoid_safe(x.y + hh.y);
    let g = tanh_safe(x.z + hh.z);
    let o = sigmoid_safe(x.w + hh.w);
    let c = f * c_prev + i * g;
    return CellForward(o * tanh_safe(c), c, vec4(i, f, g, o));
}

// `prev`, `next`: c before and after the step.
fn cell_backward(cache: vec4<f32>, prev: f32, next: f32, dh: f32, dc: f32, act: u32) -> CellBackward {
    let i = cache.x;
    let f = cache.y;
    let g = cache.z;
    let o = cache.w;
    let tc = tanh_safe(next);
    let d_c = dc + dh * o * (1.0 - tc * tc);
    let d = vec4(d_c * g * i * (1.0 - i), d_c * prev * f * (1.0 - f), d_c * i * (1.0 - g * g),
                 dh * tc * o * (1.0 - o));
    return CellBackward(d, d, 0.0, d_c * f);
}
