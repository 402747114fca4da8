//! Lesson 4, the LSTM conveyor belt.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Lesson 4: the LSTM conveyor belt.
    #[derive(Debug)]
    pub struct LstmText {
        /// Controls panel.
        pub controls: &'static str {
            "Gates", "门"
        }
        /// The mode radios' group name.
        pub mode_group: &'static str {
            "How the gates are set", "门的取值方式"
        }
        /// Mode.
        pub mode_gates: &'static str {
            "set every gate by hand", "手动设置每个门"
        }
        /// Mode.
        pub mode_weights: &'static str {
            "compute gates from x and h (seeded nn.LSTM(1, 1))", "由 x 和 h 计算门（带随机种子的 nn.LSTM(1, 1)）"
        }
        /// Mode.
        pub mode_run: &'static str {
            "run to N with constant gates", "门保持不变，运行 N 步"
        }
        /// Slider.
        pub run_steps: &'static str {
            "N (steps)", "N（步数）"
        }
        /// Note.
        pub run_note: &'static str {
            "Step 1's gates are held for every step.", "每一步都使用第 1 步的门值。"
        }
        /// Heading.
        pub gates: &'static str {
            "Gate values per step", "每一步的门值"
        }
        /// "Step {0}".
        pub step_n: fn(&str) -> String {
            |a0| format!("Step {a0}"), |a0| format!("第 {a0} 步")
        }
        /// Panel.
        pub belt: fn(&str) -> String {
            |a0| format!("The belt at step t = {a0}"), |a0| format!("第 t = {a0} 步的传送带")
        }
        /// The belt's legend: the colour of a positive value.
        pub legend_positive: &'static str {
            "orange: positive", "橙色：正值"
        }
        /// The belt's legend: the colour of a negative value.
        pub legend_negative: &'static str {
            "blue: negative", "蓝色：负值"
        }
        /// The belt's legend: line width, {0} = the value drawn widest.
        pub legend_width: fn(&str) -> String {
            |a0| format!("line width: |value|, widest from |value| = {a0} (the largest |C| of these steps, at least 1)"), |a0| format!("线宽：|值|，|值| ≥ {a0} 时最宽（这些步中最大的 |C|，至少为 1）")
        }
        /// Under the formulas: g_t is the handout's C̃_t.
        pub candidate: &'static str {
            "g_t is the candidate cell state, the handout's C̃_t (PyTorch's g): g_t = tanh(W_ig·x_t + b_ig + W_hg·h_{t−1} + b_hg).", "g_t 是候选细胞状态，即讲义中的 C̃_t（PyTorch 记作 g）：g_t = tanh(W_ig·x_t + b_ig + W_hg·h_{t−1} + b_hg)。"
        }
        /// Panel.
        pub table: &'static str {
            "Every step", "每一步"
        }
        /// Label.
        pub last_c: &'static str {
            "Last C_N:", "最后的 C_N："
        }
        /// Label.
        pub fixed: &'static str {
            "fixed point i·g / (1 − f):", "不动点 i·g / (1 − f)："
        }
        /// Chart.
        pub run_chart: &'static str {
            "C_t approaching its fixed point", "C_t 逼近不动点"
        }
        /// Reference line: {0} value.
        pub fixed_point: fn(&str) -> String {
            |a0| format!("i·g / (1 − f) = {a0}"), |a0| format!("i·g / (1 − f) = {a0}")
        }
        /// Panel.
        pub weights: &'static str {
            "The weights (PyTorch order i, f, g, o)", "权重（PyTorch 顺序 i, f, g, o）"
        }
        /// Panel.
        pub compare: &'static str {
            "Gradient along the belt vs. through an RNN", "沿传送带的梯度与 RNN 的梯度"
        }
        /// Text.
        pub compare_text: &'static str {
            "Along the belt ∂C_t/∂C_{t−1} = f_t: no weight matrix and no squashing derivative in the way. A plain RNN multiplies by tanh'(z_t)·W_hh instead (here W_hh = 1, W_xh = 0.5 on the same inputs x).", "沿着传送带，∂C_t/∂C_{t−1} = f_t：中间没有权重矩阵，也没有压缩函数的导数。普通 RNN 乘的则是 tanh'(z_t)·W_hh（这里 W_hh = 1，W_xh = 0.5，输入同为 x）。"
        }
        /// Legend / column.
        pub belt_product: &'static str {
            "LSTM: Π f_k", "LSTM：Π f_k"
        }
        /// Legend / column.
        pub rnn_product: &'static str {
            "RNN: Π tanh'(z_k)·W_hh", "RNN：Π tanh'(z_k)·W_hh"
        }
        /// About.
        pub about_1: &'static str {
            "The forget gate scales what the belt carries; the input gate decides how much of the candidate g (the handout's C̃_t) is written. With f close to 1 the cell state — and its gradient — survives many steps.", "遗忘门缩放传送带上携带的内容；输入门决定写入多少候选值 g（讲义中的 C̃_t）。f 接近 1 时，细胞状态及其梯度可以跨越很多步保存下来。"
        }
        /// About.
        pub about_2: &'static str {
            "The output gate decides how much of tanh(C_t) is shown as h_t: the cell can remember something without exposing it.", "输出门决定把多少 tanh(C_t) 作为 h_t 输出：细胞可以记住某件事而不把它表现出来。"
        }
        /// The belt's stages within a step (the stage slider's label), in the order of
        /// [`super::STAGES`].
        pub stages: [&'static str; 5] {
            [
                "C_{t−1} enters the belt",
                "the forget gate scales it",
                "i·g is written",
                "the sum C_t",
                "the output h_t",
            ],
            [
                "C_{t−1} 进入传送带",
                "遗忘门缩放它",
                "写入 i·g",
                "求和得到 C_t",
                "输出 h_t",
            ]
        }
        /// The tour's cues, one per step of [`super::tour::TOUR`].
        pub tour: &'static [&'static str] {
            &[
                "The belt carries the cell state C_{t−1} in from the step before. Colour is its sign, width its size: the legend under the belt says which.",
                "Now the forget gate f multiplies the belt: the stream narrows to f·C_{t−1} (it keeps its colour unless C_{t−1} changes sign).",
                "Below, the input gate i scales the candidate g, the handout's C̃_t; the product i·g rises to the +.",
                "At the + the two streams join: C_t = f·C_{t−1} + i·g. This is the only change the belt sees in a step.",
                "Last, tanh squashes C_t and the output gate o decides how much of it leaves the cell as h_t.",
                "The tour moves the forget gate f₂ to 0.95: the belt now keeps almost all of C₁ (f·C is nearly C₁), and C₂ is that plus i₂·g₂.",
                "Your turn: C₂ = f₂·C₁ + i₂·g₂. The belt writes f·C and i·g; C₂ itself stays blurred until you answer. Add them, lock your answer, then reveal.",
            ],
            &[
                "传送带从上一步带来细胞状态 C_{t−1}。颜色表示正负，线宽表示大小：见传送带下方的图例。",
                "现在遗忘门 f 乘到传送带上：水流变窄，成为 f·C_{t−1}（只要 C_{t−1} 不变号，颜色就不变）。",
                "下方，输入门 i 缩放候选值 g（讲义中的 C̃_t），乘积 i·g 升到加号处。",
                "两股水流在加号处汇合：C_t = f·C_{t−1} + i·g。这是传送带在一步中唯一的变化。",
                "最后，tanh 压缩 C_t，输出门 o 决定其中多少作为 h_t 离开细胞。",
                "导览把遗忘门 f₂ 调到 0.95：传送带几乎保留全部 C₁（f·C 接近 C₁），C₂ 就是它再加上 i₂·g₂。",
                "轮到你了：C₂ = f₂·C₁ + i₂·g₂。传送带上写着 f·C 和 i·g；C₂ 本身在你作答前保持模糊。把它们相加、锁定答案，再揭晓。",
            ]
        }
    }
}
