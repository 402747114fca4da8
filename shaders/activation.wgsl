// activation.wgsl — y = act(x) element-wise with the prelude's activations (sigmoid_safe,
// tanh_safe, relu). The cells call the same functions; this kernel exposes them so tests can
// check them on extreme inputs (±89, ±100, ±1000, ±inf) against the CPU path.
// CPU twin: math::activation.

struct ActivationDims {
    len: u32,     // number of elements
    kind: u32,    // 0 sigmoid, 1 tanh, 2 relu
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> dims: ActivationDims;
@group(0) @binding(1) var<storage, read> x: array<f32>;          // [len]
@group(0) @binding(2) var<storage, read_write> y: array<f32>;    // [len]

@compute @workgroup_size(WG_1D)
fn activation(@builtin(global_invocation_id) gid: vec3<u32>,
              @builtin(num_workgroups) num_wg: vec3<u32>) {
    let i = linear_index(gid, num_wg);
    if (i >= dims.len) { return; }
    let v = x[i];
    var out: f32;
    switch dims.kind {
        case 0u: { out = sigmoid_safe(v); }
        case 1u: { out = tanh_safe(v); }
        default: { out = max(v, 0.0); }
    }
    y[i] = out;
}
