//! Lesson 3, why gradients vanish (backpropagation through time).

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Lesson 3: why gradients vanish (BPTT).
    #[derive(Debug)]
    pub struct BpttText {
        /// Controls panel.
        pub controls: &'static str {
            "The recurrence", "循环"
        }
        /// Legend: {0} the slider's W_hh.
        pub current: fn(&str) -> String {
            |a0| format!("W_hh = {a0} (sliders)"), |a0| format!("W_hh = {a0}（滑块）")
        }
        /// Legend.
        pub grad_norm: &'static str {
            "‖∂h_t/∂θ‖ before clipping", "裁剪前的 ‖∂h_t/∂θ‖"
        }
        /// Legend.
        pub clipped_norm: &'static str {
            "‖∂h_t/∂θ‖ after clip_grad_norm_", "clip_grad_norm_ 之后的 ‖∂h_t/∂θ‖"
        }
        /// Axis.
        pub x_title: &'static str {
            "steps back in time (t)", "向前回溯的步数（t）"
        }
        /// Axis.
        pub y_title: &'static str {
            "|∂h_t/∂h₀| (log scale)", "|∂h_t/∂h₀|（对数坐标）"
        }
        /// Heading.
        pub activation: &'static str {
            "Nonlinearity", "非线性函数"
        }
        /// Slider.
        pub max_norm: &'static str {
            "Clip gradient norm to (0 = off)", "梯度范数裁剪阈值（0 = 关闭）"
        }
        /// Heading.
        pub inputs: &'static str {
            "Inputs x", "输入 x"
        }
        /// Note.
        pub cyclic: &'static str {
            "A list shorter than the number of steps repeats: one value 0.3 over 20 steps is a constant input.", "列表比步数短时会循环重复：只有一个值 0.3、共 20 步，就是恒定输入。"
        }
        /// Panel.
        pub chart: &'static str {
            "The running product against the number of steps", "连乘积随步数的变化"
        }
        /// Note.
        pub chart_note: &'static str {
            "Dashed: the same inputs with W_hh = 0.5, 1 and 2. Each step multiplies by act'(z_t)·W_hh; tanh' ≤ 1, so unless |W_hh| is large the product shrinks geometrically — and a large W_hh saturates tanh, which makes tanh' tiny.", "虚线：相同输入下 W_hh = 0.5、1、2 的情况。每一步都乘以 act'(z_t)·W_hh；tanh' ≤ 1，所以除非 |W_hh| 很大，连乘积会按几何级数缩小——而 W_hh 很大时 tanh 又会饱和，使 tanh' 变得极小。"
        }
        /// Panel.
        pub table: &'static str {
            "Step by step", "逐步计算"
        }
        /// Column.
        pub product: &'static str {
            "running product ∂h_t/∂h₀", "连乘积 ∂h_t/∂h₀"
        }
        /// Panel.
        pub clip: &'static str {
            "Gradient clipping", "梯度裁剪"
        }
        /// Clip outcome: {0} max_norm.
        pub unchanged: fn(&str) -> String {
            |a0| format!("the norm is below max_norm = {a0}: unchanged"), |a0| format!("范数小于 max_norm = {a0}：保持不变")
        }
        /// Clip outcome: {0} scale.
        pub scaled: fn(&str) -> String {
            |a0| format!("every gradient multiplied by {a0}"), |a0| format!("所有梯度乘以 {a0}")
        }
        /// Clip outcome.
        pub skipped: &'static str {
            "the norm is not finite: the optimizer step would be skipped and the weights kept (never zeroed)", "范数不是有限值：这一步优化会被跳过，权重保持不变（而不是被清零）"
        }
        /// Clip panel text.
        pub clip_text: &'static str {
            "The gradient of h_T with respect to the four parameters of nn.RNN(1, 1), by backpropagation through time, and what clip_grad_norm_(max_norm) does to it: scale all gradients together so that their global norm is at most max_norm.", "h_T 对 nn.RNN(1, 1) 四个参数的梯度（通过随时间反向传播计算），以及 clip_grad_norm_(max_norm) 对它的作用：把所有梯度一起缩放，使全局范数不超过 max_norm。"
        }
        /// Column.
        pub after_clip: &'static str {
            "after clipping", "裁剪后"
        }
        /// Label.
        pub norm: &'static str {
            "Global norm:", "全局范数："
        }
        /// About.
        pub about_1: &'static str {
            "The gradient that flows from h_t back to h₀ is this product. When it is tiny, the early inputs barely change the loss: the network cannot learn long-range dependencies.", "从 h_t 流回 h₀ 的梯度就是这个连乘积。当它极小时，早期的输入几乎不影响损失：网络学不到长距离依赖。"
        }
        /// Panel: the course's constant-input figures.
        pub constant: &'static str {
            "A constant input over 20 steps", "恒定输入走 20 步"
        }
        /// Text: {0} x, {1} steps, {2} W_xh.
        pub constant_text: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("x = {a0} at every step for {a1} steps, W_xh = {a2}, tanh — the running product ∂h_T/∂h₀ for three recurrent weights:"), |a0, a1, a2| format!("每一步 x = {a0}，共 {a1} 步，W_xh = {a2}，tanh——三种循环权重下的连乘积 ∂h_T/∂h₀：")
        }
        /// About.
        pub about_2: &'static str {
            "With ReLU or no nonlinearity the factor is W_hh itself where the unit is active, so |W_hh| > 1 explodes like |W_hh|^t.", "使用 ReLU 或不用非线性函数时，单元激活处的因子就是 W_hh 本身，所以 |W_hh| > 1 会像 |W_hh|^t 一样爆炸。"
        }
        /// About.
        pub about_3: &'static str {
            "Clipping caps an exploding gradient but cannot revive a vanishing one: it only ever scales down.", "梯度裁剪可以限制爆炸的梯度，但救不回消失的梯度：它只会把梯度缩小。"
        }
        /// The tour's cues, one per step of [`super::tour::TOUR`].
        pub tour: &'static [&'static str] {
            &[
                "Going back in time, the gradient of h_T is multiplied by one factor per step, tanh'(z_t)·W_hh; the chart shows the running product.",
                "The tour sets W_hh to 0.5 over 20 steps: every factor is at most 0.5, so the product of 20 of them is at most 0.5²⁰.",
                "With the linear activation tanh' no longer shrinks a factor: every factor is W_hh = 1.5, so after T steps the product is 1.5 to the power T. Compare that with 10⁻³; the curve stays hidden until you answer.",
                "Your turn: make your prediction in the question below, then reveal the page's answer.",
            ],
            &[
                "沿时间反向传播时，h_T 的梯度每一步乘上一个因子 tanh'(z_t)·W_hh；图中画的是累积乘积。",
                "导览把 W_hh 设为 0.5，共 20 步：每个因子至多为 0.5，所以 20 个因子的乘积至多为 0.5²⁰。",
                "换成线性激活后，tanh' 不再缩小因子：每个因子都等于 W_hh = 1.5，所以 T 步之后乘积是 1.5 的 T 次方。把它和 10⁻³ 比一比；在你作答前曲线保持隐藏。",
                "轮到你了：在下面的问题中作出预测，再揭晓本页的答案。",
            ]
        }
    }
}
