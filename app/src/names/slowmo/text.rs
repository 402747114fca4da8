//! The slow-motion training step's texts.

use unroll_core::config::Lang;

/// The slow-motion panel's texts.
#[allow(missing_docs)] // the field names say what each text is
#[derive(Debug)]
pub struct SlowmoText {
    pub title: &'static str,
    pub note: &'static str,
    pub name_label: &'static str,
    pub placeholder: &'static str,
    pub val_label: &'static str,
    pub val_none: &'static str,
    pub val_upload: &'static str,
    pub label_label: &'static str,
    pub run: &'static str,
    pub before_start: &'static str,
    pub waiting_data: &'static str,
    pub empty: &'static str,
    pub classes_differ: &'static str,
    pub press_run: &'static str,
    /// Weights step, lr, max_norm.
    pub from_weights: fn(u64, f32, f32) -> String,
    /// Adam's updates done so far (the run's moments).
    pub adam_run: fn(u32) -> String,
    pub adam_fresh: &'static str,
    pub what_if: &'static str,
    pub back: &'static str,
    pub next: &'static str,
    pub stages_label: &'static str,
    /// Stage number, stage count, stage name.
    pub stage_of: fn(usize, usize, &str) -> String,
    pub stage_names: [&'static str; 8],
    /// Layer, direction, time step, character.
    pub forward_step: fn(usize, usize, usize, &str) -> String,
    pub forward_explain: &'static str,
    pub h_caption: &'static str,
    /// Time step.
    pub gates_caption: fn(usize) -> String,
    pub h_norm: &'static str,
    pub logits_explain: &'static str,
    pub softmax_explain: &'static str,
    pub prob_sum: &'static str,
    /// Language, probability.
    pub loss_formula: fn(&str, f32) -> String,
    pub loss_explain: &'static str,
    /// Layer, direction, time step, character.
    pub backward_step: fn(usize, usize, usize, &str) -> String,
    pub backward_explain: &'static str,
    pub dh_caption: &'static str,
    pub dh_norm: &'static str,
    pub grad_norms_title: &'static str,
    pub clip_off: &'static str,
    /// Norm, max_norm, scale.
    pub clip_on: fn(f64, f32, f64) -> String,
    /// Norm, max_norm.
    pub clip_under: fn(f64, f32) -> String,
    pub clipped_title: &'static str,
    pub skipped: &'static str,
    pub adam_explain: &'static str,
    pub tensor_label: &'static str,
    pub delta_caption: &'static str,
    pub movers_title: &'static str,
    /// Largest |Δ|, mean |Δ|.
    pub tensor_moved: fn(f32, f32) -> String,
    /// Language, old probability, new probability.
    pub new_prob: fn(&str, f32, f32) -> String,
    /// Old loss, new loss.
    pub new_loss: fn(f32, f32) -> String,
    pub new_explain: &'static str,
    pub new_top_title: &'static str,
    pub label_mark: &'static str,
}

fn dir_en(d: usize) -> &'static str {
    if d == 0 {
        "forward"
    } else {
        "reverse"
    }
}

fn dir_zh(d: usize) -> &'static str {
    if d == 0 {
        "正向"
    } else {
        "反向"
    }
}

impl SlowmoText {
    /// English.
    pub const EN: SlowmoText = SlowmoText {
        title: "One training step in slow motion",
        note: "Pick a name and its language, and step through one real update of the current model at batch size 1: the forward pass character by character, the loss, the backward pass character by character, clipping, Adam's update and the new prediction. The numbers come from the trainer's own code.",
        name_label: "Name",
        placeholder: "e.g. Nguyen",
        val_label: "From the validation set",
        val_none: "— type a name —",
        val_upload: "Your own data stays in the training engine: type a name and pick its language.",
        label_label: "Its language (the target)",
        run: "Take the step",
        before_start: "Start training (or restore a model) first: the slow-motion step starts from the page's current model.",
        waiting_data: "Waiting for the data set…",
        empty: "Type a name or pick one from the validation set.",
        classes_differ: "This model has other languages than the data set on the page: load matching data to take a step.",
        press_run: "Press “Take the step” to compute one update for this name.",
        from_weights: |s, lr, m| format!("From the weights of step {s}, with lr {lr} and max_norm {m} from the settings."),
        adam_run: |n| format!("Adam's state: the run's moments after {n} updates, so this is update {}.", n + 1),
        adam_fresh: "Adam's state: fresh (the page holds no moments for these weights), so this is Adam's update 1.",
        what_if: "A what-if on a copy: the page's model does not change.",
        back: "Back",
        next: "Next",
        stages_label: "Stages",
        stage_of: |i, n, s| format!("Stage {i} of {n}: {s}"),
        stage_names: ["forward", "logits", "softmax", "loss", "backward", "clipping", "Adam's update", "new prediction"],
        forward_step: |l, d, t, c| format!("Forward · layer {l} · {} · step t = {t}, reads “{c}”", dir_en(d)),
        forward_explain: "Each step mixes the character just read with the previous hidden state. Grey columns are steps not computed yet.",
        h_caption: "h_t: hidden state (units × steps)",
        gates_caption: |t| format!("Gates at t = {t} (units × gates)"),
        h_norm: "‖h_t‖",
        logits_explain: "The head reads the hidden state at the read-out step: logits = fc.weight · h + fc.bias, one score per language.",
        softmax_explain: "Softmax turns the scores into probabilities that sum to 1.",
        prob_sum: "Sum of the probabilities",
        loss_formula: |lang, p| format!("L = −ln p({lang}) = −ln {p:.4}"),
        loss_explain: "Cross-entropy: the lower the probability of the true language, the larger the loss.",
        backward_step: |l, d, t, c| format!("Backward · layer {l} · {} · step t = {t} (“{c}”)", dir_en(d)),
        backward_explain: "∂L/∂h_t flows back one step at a time; each step adds its share to the gradient of every weight of its layer. Grey columns are steps the gradient has not reached yet.",
        dh_caption: "∂L/∂h_t (units × steps)",
        dh_norm: "‖∂L/∂h_t‖",
        grad_norms_title: "Gradient norm of each tensor so far",
        clip_off: "Clipping is off (max_norm = 0): the gradient goes to Adam unchanged.",
        clip_on: |n, m, s| format!("The global norm {n:.4} is above max_norm {m}: every gradient is multiplied by {s:.4}."),
        clip_under: |n, m| format!("The global norm {n:.4} is within max_norm {m}: nothing is scaled."),
        clipped_title: "Gradient norm of each tensor after clipping",
        skipped: "The loss or the gradient is not finite: the trainer skips this update and the weights stay as they were.",
        adam_explain: "Adam moves each weight by about lr in the direction of its running mean gradient, divided by the running size of its gradients. The heatmap shows Δ = new − old of one tensor.",
        tensor_label: "Tensor",
        delta_caption: "Δ weight (rows × columns)",
        movers_title: "Weights that moved most",
        tensor_moved: |max, mean| format!("largest |Δ| {max:.3e}, mean |Δ| {mean:.3e}"),
        new_prob: |lang, old, new| format!("p({lang}): {old:.4} → {new:.4} (change {:+.2e})", new - old),
        new_loss: |old, new| format!("Loss: {old:.4} → {new:.4} (change {:+.2e})", new - old),
        new_explain: "The same name through the updated weights. With the run's momentum, one step mostly continues the previous updates, so the probability may even fall.",
        new_top_title: "Top 3 after the step",
        label_mark: "target",
    };

    /// 简体中文.
    pub const ZH: SlowmoText = SlowmoText {
        title: "慢动作看一步训练",
        note: "选一个名字和它的语言，逐步查看当前模型在批大小为 1 时的一次真实更新：逐个字符的前向传播、损失、逐个字符的反向传播、梯度裁剪、Adam 更新以及更新后的新预测。所有数字都来自训练器自己的代码。",
        name_label: "名字",
        placeholder: "例如 Nguyen",
        val_label: "从验证集中选",
        val_none: "— 自己输入名字 —",
        val_upload: "你自己的数据保存在训练引擎中：请输入一个名字并选择它的语言。",
        label_label: "它的语言（目标）",
        run: "执行这一步",
        before_start: "请先开始训练（或恢复一个模型）：慢动作的一步从页面当前的模型出发。",
        waiting_data: "正在等待数据集…",
        empty: "输入一个名字，或从验证集中选一个。",
        classes_differ: "这个模型的语言与页面上的数据集不同：请加载匹配的数据后再执行一步。",
        press_run: "按“执行这一步”为这个名字计算一次更新。",
        from_weights: |s, lr, m| format!("从第 {s} 步的权重出发，lr 为 {lr}，max_norm 为 {m}（取自设置）。"),
        adam_run: |n| format!("Adam 的状态：本次训练在 {n} 次更新后的矩估计，所以这是第 {} 次更新。", n + 1),
        adam_fresh: "Adam 的状态：全新（页面上没有这些权重对应的矩估计），所以这是 Adam 的第 1 次更新。",
        what_if: "这是在副本上的假设演示：页面上的模型不会改变。",
        back: "上一步",
        next: "下一步",
        stages_label: "阶段",
        stage_of: |i, n, s| format!("第 {i} 阶段（共 {n} 个）：{s}"),
        stage_names: ["前向传播", "对数几率", "softmax", "损失", "反向传播", "梯度裁剪", "Adam 更新", "新预测"],
        forward_step: |l, d, t, c| format!("前向 · 第 {l} 层 · {} · 时间步 t = {t}，读入“{c}”", dir_zh(d)),
        forward_explain: "每一步把刚读入的字符与上一个隐藏状态结合起来。灰色的列是尚未计算的时间步。",
        h_caption: "h_t：隐藏状态（单元 × 时间步）",
        gates_caption: |t| format!("t = {t} 时的门（单元 × 门）"),
        h_norm: "‖h_t‖",
        logits_explain: "输出层读取读出步的隐藏状态：得分 = 权重 · h + 偏置，每种语言一个得分。",
        softmax_explain: "softmax 把得分变成总和为 1 的概率。",
        prob_sum: "概率之和",
        loss_formula: |lang, p| format!("L = −ln p（{lang}）= −ln {p:.4}"),
        loss_explain: "交叉熵：真实语言的概率越低，损失越大。",
        backward_step: |l, d, t, c| format!("反向 · 第 {l} 层 · {} · 时间步 t = {t}（“{c}”）", dir_zh(d)),
        backward_explain: "∂L/∂h_t 一次回传一步；每一步都为本层每个权重的梯度加上自己的一份。灰色的列是梯度尚未到达的时间步。",
        dh_caption: "∂L/∂h_t（单元 × 时间步）",
        dh_norm: "‖∂L/∂h_t‖",
        grad_norms_title: "到目前为止每个张量的梯度范数",
        clip_off: "梯度裁剪已关闭（max_norm = 0）：梯度原样交给 Adam。",
        clip_on: |n, m, s| format!("全局范数 {n:.4} 超过 max_norm {m}：每个梯度都乘以 {s:.4}。"),
        clip_under: |n, m| format!("全局范数 {n:.4} 未超过 max_norm {m}：不做缩放。"),
        clipped_title: "裁剪后每个张量的梯度范数",
        skipped: "损失或梯度不是有限值：训练器跳过这次更新，权重保持不变。",
        adam_explain: "Adam 让每个权重沿其梯度的滑动平均方向移动约 lr，再除以其梯度的滑动幅度。热图显示一个张量的 Δ = 新值 − 旧值。",
        tensor_label: "张量",
        delta_caption: "权重的 Δ（行 × 列）",
        movers_title: "变化最大的权重",
        tensor_moved: |max, mean| format!("最大 |Δ| {max:.3e}，平均 |Δ| {mean:.3e}"),
        new_prob: |lang, old, new| format!("p（{lang}）：{old:.4} → {new:.4}（变化 {:+.2e}）", new - old),
        new_loss: |old, new| format!("损失：{old:.4} → {new:.4}（变化 {:+.2e}）", new - old),
        new_explain: "同一个名字经过更新后的权重。带着本次训练的动量，一步更新主要是延续之前的更新，所以概率甚至可能下降。",
        new_top_title: "这一步之后的前 3 名",
        label_mark: "目标",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static SlowmoText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
