//! Lesson 7, logits → softmax → log → NLL.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Lesson 7: logits → softmax → NLL.
    #[derive(Debug)]
    pub struct SoftmaxText {
        /// List editor: add a logit.
        pub add_logit: &'static str {
            "+ logit", "+ 一个 logit"
        }
        /// List editor: remove the last logit.
        pub remove_logit: &'static str {
            "− logit", "− 一个 logit"
        }
        /// Controls panel.
        pub controls: &'static str {
            "Logits", "Logits"
        }
        /// Heading.
        pub target: &'static str {
            "Target class", "目标类别"
        }
        /// "class {0}".
        pub class_n: fn(&str) -> String {
            |a0| format!("class {a0}"), |a0| format!("类别 {a0}")
        }
        /// Column.
        pub class: &'static str {
            "class", "类别"
        }
        /// The probability bars' column (its header is read by screen readers only).
        pub bar_column: &'static str {
            "softmax as a bar", "softmax 条形图"
        }
        /// Panel.
        pub pipeline: &'static str {
            "From scores to probabilities", "从分数到概率"
        }
        /// Text.
        pub pipeline_text: &'static str {
            "log_softmax subtracts the largest logit before exponentiating, so no exp ever overflows; softmax is its exponential and sums to 1.", "log_softmax 在取指数之前先减去最大的 logit，所以 exp 永远不会溢出；softmax 是它的指数，总和为 1。"
        }
        /// Panel.
        pub loss: &'static str {
            "The loss of the target class", "目标类别的损失"
        }
        /// Text.
        pub ce_text: &'static str {
            "nn.CrossEntropyLoss takes the raw logits and does log_softmax + NLLLoss in one stable step; nn.NLLLoss expects log-probabilities.", "nn.CrossEntropyLoss 接收原始 logits，一步稳定地完成 log_softmax + NLLLoss；nn.NLLLoss 需要的是对数概率。"
        }
        /// Text.
        pub wrong: &'static str {
            "A classic mistake: NLLLoss applied to probabilities instead of log-probabilities gives −softmax[target], a negative \"loss\":", "一个常见错误：把 NLLLoss 用在概率而不是对数概率上，得到 −softmax[target]，一个负的\"损失\"："
        }
        /// Panel.
        pub stability: &'static str {
            "Why it takes logits: log-sum-exp", "为什么接收 logits：log-sum-exp"
        }
        /// Text: {0} shift, {1} the largest shifted logit, {2} the largest float32.
        pub stability_text: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("Add {a0} to every logit so that the largest becomes {a1}. Softmax does not change, but the textbook formula exp(x_k) / Σ exp(x_j) overflows in float32 (e^{a1} > {a2}) and gives NaN, while log_softmax subtracts the maximum first."), |a0, a1, a2| format!("给每个 logit 加上 {a0}，使最大的变成 {a1}。softmax 不会因此改变，但教科书公式 exp(x_k) / Σ exp(x_j) 在 float32 下溢出（e^{a1} > {a2}），得到 NaN；而 log_softmax 先减去了最大值。")
        }
        /// About.
        pub about_1: &'static str {
            "Only differences between logits matter: adding the same number to all of them changes nothing.", "只有 logits 之间的差值才重要：给它们都加上同一个数不会改变任何结果。"
        }
        /// About.
        pub about_2: &'static str {
            "An untrained classifier with C classes starts near a loss of ln C, the NLL of a uniform guess.", "一个未经训练、有 C 个类别的分类器，初始损失接近 ln C，也就是均匀猜测的 NLL。"
        }
        /// The tour's cues, one per step of [`super::tour::TOUR`].
        pub tour: &'static [&'static str] {
            &[
                "Stable log-softmax first subtracts the largest logit, so no exp can overflow.",
                "The tour raises the first logit to 8. Softmax gives class k the share e^{z_k} / Σ e^{z_j}: compare the logits to see which share grows. The probabilities stay blurred until you answer.",
                "The loss is the negative log-probability of the target class, read straight from log-softmax.",
                "Your turn: make your prediction in the question below, then reveal the page's answer.",
            ],
            &[
                "稳定的 log-softmax 先减去最大的原始分数，所以取指数时不会溢出。",
                "导览把第一个原始分数调到 8。softmax 给类别 k 的份额是 e^{z_k} / Σ e^{z_j}：比较各个原始分数，看看谁的份额变大。在你作答前概率保持模糊。",
                "损失是目标类别对数概率的相反数，直接取自 log-softmax。",
                "轮到你了：在下面的问题中作出预测，再揭晓本页的答案。",
            ]
        }
    }
}
