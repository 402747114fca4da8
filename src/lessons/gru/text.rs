//! Lesson 5, the GRU update gate.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Lesson 5: the GRU update gate.
    #[derive(Debug)]
    pub struct GruText {
        /// Controls panel.
        pub controls: &'static str {
            "The update", "更新"
        }
        /// Convention choice.
        pub course_only: &'static str {
            "the course's convention", "课程的约定"
        }
        /// The convention radios' group name.
        pub convention_group: &'static str {
            "Which convention is shown", "显示哪种约定"
        }
        /// Convention choice.
        pub with_pytorch: &'static str {
            "… and PyTorch's, side by side", "……以及 PyTorch 的约定，并排对照"
        }
        /// Heading.
        pub reset_controls: &'static str {
            "Reset gate panel", "重置门面板"
        }
        /// Panel.
        pub update: &'static str {
            "The update gate blends old and new", "更新门混合旧状态与新候选"
        }
        /// Panel.
        pub pytorch: &'static str {
            "PyTorch's convention", "PyTorch 的约定"
        }
        /// Panel.
        pub reset: &'static str {
            "The reset gate inside the candidate", "候选状态中的重置门"
        }
        /// Text.
        pub examples: &'static str {
            "The same h_{t−1} and h̃ with other update gates:", "同样的 h_{t−1} 和 h̃，换成其他更新门取值："
        }
        /// The number line's accessible name.
        pub blend_image: &'static str {
            "Number line from −1 to 1: h_{t−1}, the candidate h̃, and h_t between them", "从 −1 到 1 的数轴：h_{t−1}、候选值 h̃，以及位于两者之间的 h_t"
        }
        /// Heading.
        pub course_form: &'static str {
            "Course: z = share of the new candidate", "课程：z = 新候选所占的比例"
        }
        /// Heading.
        pub pytorch_form: &'static str {
            "PyTorch: z = share of the old state", "PyTorch：z = 旧状态所占的比例"
        }
        /// Text: {0} h_prev, {1} n.
        pub opposite: fn(&str, &str) -> String {
            |a0, a1| format!("In PyTorch's nn.GRU, z multiplies the old state h, so z means the opposite: the course's z corresponds to PyTorch's 1 − z. With the same z the two formulas move h between {a0} and {a1} in opposite directions."), |a0, a1| format!("在 PyTorch 的 nn.GRU 中，z 乘的是旧状态 h，所以 z 的含义正好相反：课程中的 z 对应 PyTorch 的 1 − z。用同一个 z，两个公式会让 h 在 {a0} 和 {a1} 之间朝相反方向移动。")
        }
        /// Text.
        pub reset_text: &'static str {
            "PyTorch applies r after the hidden matmul, to W_hn·h + b_hn including its bias (Cho et al. 2014 apply it to h before the matmul). r = 0 drops the past from the candidate entirely: n = tanh(W_in·x + b_in).", "PyTorch 在隐藏矩阵乘法之后才乘 r，作用于包括偏置在内的 W_hn·h + b_hn（Cho 等 2014 的原文是在矩阵乘法之前作用于 h）。r = 0 时候选状态完全不含过去：n = tanh(W_in·x + b_in)。"
        }
        /// About.
        pub about_1: &'static str {
            "One gate does the work of the LSTM's forget and input gates: what is kept (1 − z) and what is written (z) always add up to one.", "一个门完成了 LSTM 中遗忘门和输入门的工作：保留的部分（1 − z）与写入的部分（z）之和永远为一。"
        }
        /// About.
        pub about_2: &'static str {
            "With z near 0 (course) the state passes through unchanged, which lets gradients flow over many steps, like the LSTM's belt with f near 1.", "z 接近 0（课程约定）时，状态几乎原样传递，梯度因此可以跨越很多步，就像 LSTM 传送带上 f 接近 1 一样。"
        }
        /// The tour's cues, one per step of [`super::tour::TOUR`].
        pub tour: &'static [&'static str] {
            &[
                "In the course's convention h_t = (1 − z)·h_{t−1} + z·h̃: z is the candidate's share and 1 − z the old state's. The tour sets z = 0.05.",
                "Now z = 0.95. The line marks h_{t−1} and h̃; h_t lies between them, nearer the end with the larger weight. Its mark stays hidden until you answer.",
                "PyTorch writes the same gate the other way round, h' = (1 − z)·n + z·h: the panel below puts both side by side.",
                "Your turn: make your prediction in the question below, then reveal the page's answer.",
            ],
            &[
                "按课程的约定，h_t = (1 − z)·h_{t−1} + z·h̃：z 是候选值所占的比例，1 − z 是旧状态所占的比例。导览把 z 设为 0.05。",
                "现在 z = 0.95。数轴标出了 h_{t−1} 和 h̃；h_t 位于两者之间，更靠近权重较大的一端。在你作答前它的标记保持隐藏。",
                "PyTorch 的实现把同一个门反过来写：h' = (1 − z)·n + z·h；下方面板把两种写法并排列出。",
                "轮到你了：在下面的问题中作出预测，再揭晓本页的答案。",
            ]
        }
    }
}
