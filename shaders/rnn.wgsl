// rnn.wgsl — the Elman RNN cell's part of the whole-sequence kernels: its arithmetic for one unit
// of one batch row at one step. core/src/gpu/shader_source.rs composes it between the prelude and
// each skeleton (sequence_forward.wgsl, sequence_backward.wgsl) as the kernels rnn_forward and
// rnn_backward. nn.RNN docs, one block (component x):
//
//   h = act(x + hh),  act = tanh or relu (SequenceDims::nonlinearity)   (x = W_ih x_t + b_ih + b_hh)
//   d_pre = dh ⊙ (1 − h²) (tanh) or dh ⊙ [h > 0] (relu)    dh_prev = d_pre·W_hh (nothing bypasses W_hh)
//
// No gate cache; BPTT's state cache is h (h after the step).
// CPU twin: math::rnn::forward_step / backward_step.

const GATES: u32 = 1u;
const HAS_CELL_STATE: bool = false;
const HAS_GATE_CACHE: bool = false;

// acc + W_hh h_prev of one unit against four inputs h4: w[0] holds its four weights
// (components 1..3 unused).
fn hh_add(acc: vec4<f32>, h4: vec4<f32>, w: array<vec4<f32>, 4>) -> vec4<f32> {
    return vec4(acc.x + dot(h4, w[0]), acc.yzw);
}

fn cell_forward(x: vec4<f32>, hh: vec4<f32>, h_prev: f32, c_prev: f32, act: u32) -> CellForward {
    let pre = x.x + hh.x;
    return CellForward(select(max(pre, 0.0), tanh_safe(pre), act == 0u), 0.0, vec4(0.0));
}

// `next`: h after the step.
fn cell_backward(cache: vec4<f32>, prev: f32, next: f32, dh: f32, dc: f32, act: u32) -> CellBackward {
    let d_pre = select(select(0.0, dh, next > 0.0), dh * (1.0 - next * next), act == 0u);
    let d = vec4(d_pre, 0.0, 0.0, 0.0);
    return CellBackward(d, d, 0.0, 0.0);
}
