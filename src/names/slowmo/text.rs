//! The slow-motion training step's texts.

use crate::names::text::direction_name;
use crate::shell::catalogue::catalogue;
use unroll_core::config::Lang;

catalogue! {
    /// The slow-motion panel's texts.
    #[allow(missing_docs)] // the field names say what each text is
    #[derive(Debug)]
    pub struct SlowmoText {
        pub title: &'static str {
            "One training step in slow motion", "慢动作看一步训练"
        }
        pub note: &'static str {
            "Pick a name and its language, and step through one real update of the current model at batch size 1: the forward pass character by character, the loss, the backward pass character by character, clipping, Adam's update and the new prediction. The numbers come from the trainer's own code.", "选一个名字和它的语言，逐步查看当前模型在批大小为 1 时的一次真实更新：逐个字符的前向传播、损失、逐个字符的反向传播、梯度裁剪、Adam 更新以及更新后的新预测。所有数字都来自训练器自己的代码。"
        }
        pub name_label: &'static str {
            "Name", "名字"
        }
        pub placeholder: &'static str {
            "e.g. Nguyen", "例如 Nguyen"
        }
        pub val_label: &'static str {
            "From the validation set", "从验证集中选"
        }
        pub val_none: &'static str {
            "— type a name —", "— 自己输入名字 —"
        }
        pub val_upload: &'static str {
            "Your own data stays in the training engine: type a name and pick its language.", "你自己的数据保存在训练引擎中：请输入一个名字并选择它的语言。"
        }
        pub label_label: &'static str {
            "Its language (the target)", "它的语言（目标）"
        }
        pub run: &'static str {
            "Take the step", "执行这一步"
        }
        pub before_start: &'static str {
            "Start training (or restore a model) first: the slow-motion step starts from the page's current model.", "请先开始训练（或恢复一个模型）：慢动作的一步从页面当前的模型出发。"
        }
        pub waiting_data: &'static str {
            "Waiting for the data set…", "正在等待数据集…"
        }
        pub empty: &'static str {
            "Type a name or pick one from the validation set.", "输入一个名字，或从验证集中选一个。"
        }
        pub classes_differ: &'static str {
            "This model has other languages than the data set on the page: load matching data to take a step.", "这个模型的语言与页面上的数据集不同：请加载匹配的数据后再执行一步。"
        }
        pub press_run: &'static str {
            "Press “Take the step” to compute one update for this name.", "按“执行这一步”为这个名字计算一次更新。"
        }
        /// Weights step, lr, max_norm.
        pub from_weights: fn(u64, f32, f32) -> String {
            |s, lr, m| format!("From the weights of step {s}, with lr {lr} and max_norm {m} from the settings."), |s, lr, m| format!("从第 {s} 步的权重出发，lr 为 {lr}，max_norm 为 {m}（取自设置）。")
        }
        /// Adam's updates done so far (the run's moments).
        pub adam_run: fn(u32) -> String {
            |n| format!("Adam's state: the run's moments after {n} updates, so this is update {}.", n + 1), |n| format!("Adam 的状态：本次训练在 {n} 次更新后的矩估计，所以这是第 {} 次更新。", n + 1)
        }
        pub adam_fresh: &'static str {
            "Adam's state: fresh (the page holds no moments for these weights), so this is Adam's update 1.", "Adam 的状态：全新（页面上没有这些权重对应的矩估计），所以这是 Adam 的第 1 次更新。"
        }
        pub what_if: &'static str {
            "A what-if on a copy: the page's model does not change.", "这是在副本上的假设演示：页面上的模型不会改变。"
        }
        pub back: &'static str {
            "Back", "上一步"
        }
        pub next: &'static str {
            "Next", "下一步"
        }
        pub stages_label: &'static str {
            "Stages", "阶段"
        }
        /// Stage number, stage count, stage name.
        pub stage_of: fn(usize, usize, &str) -> String {
            |i, n, s| format!("Stage {i} of {n}: {s}"), |i, n, s| format!("第 {i} 阶段（共 {n} 个）：{s}")
        }
        pub stage_names: [&'static str; 8] {
            ["forward", "logits", "softmax", "loss", "backward", "clipping", "Adam's update", "new prediction"], ["前向传播", "对数几率", "softmax", "损失", "反向传播", "梯度裁剪", "Adam 更新", "新预测"]
        }
        /// Layer, direction, time step, character.
        pub forward_step: fn(usize, usize, usize, &str) -> String {
            |l, d, t, c| format!("Forward · layer {l} · {} · step t = {t}, reads “{c}”", direction_name(Lang::En, d)), |l, d, t, c| format!("前向传播 · 第 {l} 层 · {} · 时间步 t = {t}，读入“{c}”", direction_name(Lang::Zh, d))
        }
        pub forward_explain: &'static str {
            "Each step mixes the character just read with the previous hidden state. Grey columns are steps not computed yet.", "每一步把刚读入的字符与上一个隐藏状态结合起来。灰色的列是尚未计算的时间步。"
        }
        pub h_caption: &'static str {
            "h_t: hidden state (units × steps)", "h_t：隐藏状态（单元 × 时间步）"
        }
        /// Time step.
        pub gates_caption: fn(usize) -> String {
            |t| format!("Gates at t = {t} (units × gates)"), |t| format!("t = {t} 时的门（单元 × 门）")
        }
        pub h_norm: &'static str {
            "‖h_t‖", "‖h_t‖"
        }
        pub logits_explain: &'static str {
            "The head reads the hidden state at the read-out step: logits = fc.weight · h + fc.bias, one score per language.", "输出层读取读出步的隐藏状态：得分 = 权重 · h + 偏置，每种语言一个得分。"
        }
        pub softmax_explain: &'static str {
            "Softmax turns the scores into probabilities that sum to 1.", "softmax 把得分变成总和为 1 的概率。"
        }
        pub prob_sum: &'static str {
            "Sum of the probabilities", "概率之和"
        }
        /// Language, probability.
        pub loss_formula: fn(&str, f32) -> String {
            |lang, p| format!("L = −ln p({lang}) = −ln {p:.4}"), |lang, p| format!("L = −ln p（{lang}）= −ln {p:.4}")
        }
        pub loss_explain: &'static str {
            "Cross-entropy: the lower the probability of the true language, the larger the loss.", "交叉熵：真实语言的概率越低，损失越大。"
        }
        /// Layer, direction, time step, character.
        pub backward_step: fn(usize, usize, usize, &str) -> String {
            |l, d, t, c| format!("Backward · layer {l} · {} · step t = {t} (“{c}”)", direction_name(Lang::En, d)), |l, d, t, c| format!("反向传播 · 第 {l} 层 · {} · 时间步 t = {t}（“{c}”）", direction_name(Lang::Zh, d))
        }
        pub backward_explain: &'static str {
            "∂L/∂h_t flows back one step at a time; each step adds its share to the gradient of every weight of its layer. Grey columns are steps the gradient has not reached yet.", "∂L/∂h_t 一次回传一步；每一步都为本层每个权重的梯度加上自己的一份。灰色的列是梯度尚未到达的时间步。"
        }
        pub dh_caption: &'static str {
            "∂L/∂h_t (units × steps)", "∂L/∂h_t（单元 × 时间步）"
        }
        pub dh_norm: &'static str {
            "‖∂L/∂h_t‖", "‖∂L/∂h_t‖"
        }
        pub grad_norms_title: &'static str {
            "Gradient norm of each tensor so far", "到目前为止每个张量的梯度范数"
        }
        pub clip_off: &'static str {
            "Clipping is off (max_norm = 0): the gradient goes to Adam unchanged.", "梯度裁剪已关闭（max_norm = 0）：梯度原样交给 Adam。"
        }
        /// Norm, max_norm, scale.
        pub clip_on: fn(f64, f32, f64) -> String {
            |n, m, s| format!("The global norm {n:.4} is above max_norm {m}: every gradient is multiplied by {s:.4}."), |n, m, s| format!("全局范数 {n:.4} 超过 max_norm {m}：每个梯度都乘以 {s:.4}。")
        }
        /// Norm, max_norm.
        pub clip_under: fn(f64, f32) -> String {
            |n, m| format!("The global norm {n:.4} is within max_norm {m}: nothing is scaled."), |n, m| format!("全局范数 {n:.4} 未超过 max_norm {m}：不做缩放。")
        }
        pub clipped_title: &'static str {
            "Gradient norm of each tensor after clipping", "裁剪后每个张量的梯度范数"
        }
        pub skipped: &'static str {
            "The loss or the gradient is not finite: the trainer skips this update and the weights stay as they were.", "损失或梯度不是有限值：训练器跳过这次更新，权重保持不变。"
        }
        pub adam_explain: &'static str {
            "Adam moves each weight by about lr in the direction of its running mean gradient, divided by the running size of its gradients. The heatmap shows Δ = new − old of one tensor.", "Adam 让每个权重沿其梯度的滑动平均方向移动约 lr，再除以其梯度的滑动幅度。热图显示一个张量的 Δ = 新值 − 旧值。"
        }
        pub tensor_label: &'static str {
            "Tensor", "张量"
        }
        pub delta_caption: &'static str {
            "Δ weight (rows × columns)", "权重的 Δ（行 × 列）"
        }
        pub movers_title: &'static str {
            "Weights that moved most", "变化最大的权重"
        }
        /// Largest |Δ|, mean |Δ|.
        pub tensor_moved: fn(f32, f32) -> String {
            |max, mean| format!("largest |Δ| {max:.3e}, mean |Δ| {mean:.3e}"), |max, mean| format!("最大 |Δ| {max:.3e}，平均 |Δ| {mean:.3e}")
        }
        /// Language, old probability, new probability.
        pub new_prob: fn(&str, f32, f32) -> String {
            |lang, old, new| format!("p({lang}): {old:.4} → {new:.4} (change {:+.2e})", new - old), |lang, old, new| format!("p（{lang}）：{old:.4} → {new:.4}（变化 {:+.2e}）", new - old)
        }
        /// Old loss, new loss.
        pub new_loss: fn(f32, f32) -> String {
            |old, new| format!("Loss: {old:.4} → {new:.4} (change {:+.2e})", new - old), |old, new| format!("损失：{old:.4} → {new:.4}（变化 {:+.2e}）", new - old)
        }
        pub new_explain: &'static str {
            "The same name through the updated weights. With the run's momentum, one step mostly continues the previous updates, so the probability may even fall.", "同一个名字经过更新后的权重。带着本次训练的动量，一步更新主要是延续之前的更新，所以概率甚至可能下降。"
        }
        pub new_top_title: &'static str {
            "Top 3 after the step", "这一步之后的前 3 名"
        }
        pub label_mark: &'static str {
            "target", "目标"
        }
    }
}
