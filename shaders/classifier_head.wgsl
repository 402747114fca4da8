// classifier_head.wgsl — the model's Linear head and its loss (mean over the B rows) with the
// gradient, in one workgroup (llm.c's fused classifier):
//
//   logits[b, c] = fc.bias[c] + Σ_j fc.weight[c, j] · feat[b, j]
//   loss 0 (cross-entropy):
//     loss = (1/B) Σ_b (logsumexp(logits[b]) − logits[b, label_b])        (stable: max subtracted)
//     d_logits[b, c] = (softmax(logits[b])[c] − [c = label_b]) / B
//   loss 1 (squared error, C = 1, label_b = the bits of the f32 target y_b):
//     loss = (1/B) Σ_b (logits[b] − y_b)²,   d_logits[b] = 2 (logits[b] − y_b) / B
//   d fc.bias = Σ_b d_logits[b]
//
// feat is the feature row of each readout (gathered by last_step, or the recurrent output read
// in place). mode 0 computes logits only (evaluation); mode 1 also writes the gradient and
// (loss, correct) into results[result_slot] (grad_norm −1 and skipped 0 until
// clip_grad_norm.wgsl fills them in). The correct count compares the first arg-max with the
// label (0 for the squared error).
// CPU twins: math::loss::softmax_cross_entropy and math::loss::squared_error (with
// math::model::SeqModel's head).

struct HeadDims {
    batch: u32,            // B (≤ any size; the workgroup strides over it)
    features: u32,         // F = D·H, columns of fc.weight
    num_classes: u32,      // C
    mode: u32,             // 0 logits only, 1 training
    feat_offset: u32,      // offset of feat [B, F] in `features`
    fc_w_offset: u32,      // params offset of fc.weight [C, F]
    fc_b_offset: u32,      // params offset of fc.bias [C]; also the grads offset of its gradient
    result_slot: u32,      // index into results
    inv_batch: f32,        // 1 / B
    loss: u32,             // 0 cross-entropy, 1 squared error
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> dims: HeadDims;
@group(0) @binding(1) var<storage, read> params: array<f32>;            // flat, math::params
@group(0) @binding(2) var<storage, read> features: array<f32>;          // [B, F] at feat_offset
@group(0) @binding(3) var<storage, read> labels: array<u32>;            // [B] classes or f32 bits
@group(0) @binding(4) var<storage, read_write> logits: array<f32>;      // [B, C]
@group(0) @binding(5) var<storage, read_write> d_logits: array<f32>;    // [B, C]
@group(0) @binding(6) var<storage, read_write> grads: array<f32>;       // flat, math::params
@group(0) @binding(7) var<storage, read_write> results: array<StepResult>;  // ring of steps

const HEAD_WG: u32 = 256u;
var<workgroup> loss_part: array<f32, 256>;
var<workgroup> correct_part: array<u32, 256>;

@compute @workgroup_size(256)
fn classifier_head(@builtin(local_invocation_index) tid: u32) {
    let nb = dims.batch;
    let nc = dims.num_classes;
    let nf = dims.features;
    for (var e = tid; e < nb * nc; e += HEAD_WG) {
        let b = e / nc;
        let c = e % nc;
        var acc = params[dims.fc_b_offset + c];
        let w_row = dims.fc_w_offset + c * nf;
        let f_row = dims.feat_offset + b * nf;
        for (var j = 0u; j < nf; j++) {
            acc += params[w_row + j] * features[f_row + j];
        }
        logits[e] = acc;
    }
    storageBarrier();
    if (dims.mode == 0u) { return; }

    var loss_sum = 0.0;
    var correct = 0u;
    if (dims.loss == 1u) {
        for (var b = tid; b < nb; b += HEAD_WG) {
            let e = logits[b * nc] - bitcast<f32>(labels[b]);
            loss_sum += e * e;
            d_logits[b * nc] = 2.0 * e * dims.inv_batch;
        }
    }
    for (var b = tid; b < nb && dims.loss == 0u; b += HEAD_WG) {
        let row = b * nc;
        var m = logits[row];
        var arg = 0u;
        for (var c = 1u; c < nc; c++) {
            let v = logits[row + c];
            if (v > m) { m = v; arg = c; }
        }
        var s = 0.0;
        for (var c = 0u; c < nc; c++) { s += exp(logits[row + c] - m); }
        let lse = m + log(s);
        let label = labels[b];
        loss_sum += lse - logits[row + label];
        correct += select(0u, 1u, arg == label);
        for (var c = 0u; c < nc; c++) {
            let p = exp(logits[row + c] - lse);
            d_logits[row + c] = (p - select(0.0, 1.0, c == label)) * dims.inv_batch;
        }
    }
    loss_part[tid] = loss_sum;
    correct_part[tid] = correct;
    storageBarrier();
    workgroupBarrier();
    for (var stride = HEAD_WG / 2u; stride > 0u; stride /= 2u) {
        if (tid < stride) {
            loss_part[tid] += loss_part[tid + stride];
            correct_part[tid] += correct_part[tid + stride];
        }
        workgroupBarrier();
    }
    if (tid == 0u) {
        results[dims.result_slot] = StepResult(loss_part[0] * dims.inv_batch, correct_part[0], -1.0, 0u);
    }
    for (var c = tid; c < nc; c += HEAD_WG) {
        var s = 0.0;
        for (var b = 0u; b < nb; b++) { s += d_logits[b * nc + c]; }
        grads[dims.fc_b_offset + c] = s;
    }
}
