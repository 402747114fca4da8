// adam_update.wgsl — one Adam step on the flat parameter vector (Kingma & Ba 2015, in
// torch.optim.Adam's form, no weight decay):
//
//   g = scale · grad                 (scale = 1 unless clip_grad_norm clipped)
//   m = β1 m + (1 − β1) g            v = β2 v + (1 − β2) g²
//   p −= step_size · m / (√v / √(1 − β2^t) + ε),   step_size = lr / (1 − β1^t)
//
// scale, the skip flag, step_size and √(1 − β2^t) come from clip_grad_norm.wgsl (which keeps
// the step count t on the GPU, so a skipped step does not advance it). A skipped step leaves
// parameters and moments untouched. CPU twin: math::optim::adam_update.

struct AdamDims {
    len: u32,     // number of parameters P
    beta1: f32,
    beta2: f32,
    eps: f32,
}

@group(0) @binding(0) var<uniform> dims: AdamDims;
@group(0) @binding(1) var<storage, read> grads: array<f32>;          // flat [P]
@group(0) @binding(2) var<storage, read> step_state: array<f32>;     // [5]: scale, skip, t, step_size, √(1−β2^t)
@group(0) @binding(3) var<storage, read_write> params: array<f32>;   // flat [P]
@group(0) @binding(4) var<storage, read_write> adam_m: array<f32>;   // flat [P]
@group(0) @binding(5) var<storage, read_write> adam_v: array<f32>;   // flat [P]

@compute @workgroup_size(WG_1D)
fn adam_update(@builtin(global_invocation_id) gid: vec3<u32>,
               @builtin(num_workgroups) num_wg: vec3<u32>) {
    let i = linear_index(gid, num_wg);
    if (i >= dims.len || step_state[1] != 0.0) { return; }
    let g = grads[i] * step_state[0];
    let m = dims.beta1 * adam_m[i] + (1.0 - dims.beta1) * g;
    let v = dims.beta2 * adam_v[i] + (1.0 - dims.beta2) * g * g;
    adam_m[i] = m;
    adam_v[i] = v;
    params[i] = params[i] - step_state[3] * m / (sqrt(v) / step_state[4] + dims.eps);
}
