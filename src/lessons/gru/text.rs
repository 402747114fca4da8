//! Lesson 5, the GRU update gate.

use unroll_core::config::Lang;

/// Lesson 5: the GRU update gate.
#[derive(Debug)]
pub struct GruText {
    /// Controls panel.
    pub controls: &'static str,
    /// Convention choice.
    pub course_only: &'static str,
    /// The convention radios' group name.
    pub convention_group: &'static str,
    /// Convention choice.
    pub with_pytorch: &'static str,
    /// Heading.
    pub reset_controls: &'static str,
    /// Panel.
    pub update: &'static str,
    /// Panel.
    pub pytorch: &'static str,
    /// Panel.
    pub reset: &'static str,
    /// Text.
    pub examples: &'static str,
    /// The number line's accessible name.
    pub blend_image: &'static str,
    /// Heading.
    pub course_form: &'static str,
    /// Heading.
    pub pytorch_form: &'static str,
    /// Text: {0} h_prev, {1} n.
    pub opposite: fn(&str, &str) -> String,
    /// Text.
    pub reset_text: &'static str,
    /// About.
    pub about_1: &'static str,
    /// About.
    pub about_2: &'static str,
    /// The tour's cues, one per step of [`super::tour::TOUR`].
    pub tour: &'static [&'static str],
}

impl GruText {
    /// English.
    pub const EN: GruText = GruText {
        controls: "The update",
        course_only: "the course's convention",
        convention_group: "Which convention is shown",
        with_pytorch: "… and PyTorch's, side by side",
        reset_controls: "Reset gate panel",
        update: "The update gate blends old and new",
        pytorch: "PyTorch's convention",
        reset: "The reset gate inside the candidate",
        examples: "The same h_{t−1} and h̃ with other update gates:",
        blend_image: "Number line from −1 to 1: h_{t−1}, the candidate h̃, and h_t between them",
        course_form: "Course: z = share of the new candidate",
        pytorch_form: "PyTorch: z = share of the old state",
        opposite: |a0, a1| format!("In PyTorch's nn.GRU, z multiplies the old state h, so z means the opposite: the course's z corresponds to PyTorch's 1 − z. With the same z the two formulas move h between {a0} and {a1} in opposite directions."),
        reset_text: "PyTorch applies r after the hidden matmul, to W_hn·h + b_hn including its bias (Cho et al. 2014 apply it to h before the matmul). r = 0 drops the past from the candidate entirely: n = tanh(W_in·x + b_in).",
        about_1: "One gate does the work of the LSTM's forget and input gates: what is kept (1 − z) and what is written (z) always add up to one.",
        about_2: "With z near 0 (course) the state passes through unchanged, which lets gradients flow over many steps, like the LSTM's belt with f near 1.",
        tour: &[
            "In the course's convention h_t = (1 − z)·h_{t−1} + z·h̃: z is the candidate's share and 1 − z the old state's. The tour sets z = 0.05.",
            "Now z = 0.95. The line marks h_{t−1} and h̃; h_t lies between them, nearer the end with the larger weight. Its mark stays hidden until you answer.",
            "PyTorch writes the same gate the other way round, h' = (1 − z)·n + z·h: the panel below puts both side by side.",
            "Your turn: make your prediction in the question below, then reveal the page's answer.",
        ],
    };

    /// 简体中文.
    pub const ZH: GruText = GruText {
        controls: "更新",
        course_only: "课程的约定",
        convention_group: "显示哪种约定",
        with_pytorch: "……以及 PyTorch 的约定，并排对照",
        reset_controls: "重置门面板",
        update: "更新门混合旧状态与新候选",
        pytorch: "PyTorch 的约定",
        reset: "候选状态中的重置门",
        examples: "同样的 h_{t−1} 和 h̃，换成其他更新门取值：",
        blend_image: "从 −1 到 1 的数轴：h_{t−1}、候选值 h̃，以及位于两者之间的 h_t",
        course_form: "课程：z = 新候选所占的比例",
        pytorch_form: "PyTorch：z = 旧状态所占的比例",
        opposite: |a0, a1| format!("在 PyTorch 的 nn.GRU 中，z 乘的是旧状态 h，所以 z 的含义正好相反：课程中的 z 对应 PyTorch 的 1 − z。用同一个 z，两个公式会让 h 在 {a0} 和 {a1} 之间朝相反方向移动。"),
        reset_text: "PyTorch 在隐藏矩阵乘法之后才乘 r，作用于包括偏置在内的 W_hn·h + b_hn（Cho 等 2014 的原文是在矩阵乘法之前作用于 h）。r = 0 时候选状态完全不含过去：n = tanh(W_in·x + b_in)。",
        about_1: "一个门完成了 LSTM 中遗忘门和输入门的工作：保留的部分（1 − z）与写入的部分（z）之和永远为一。",
        about_2: "z 接近 0（课程约定）时，状态几乎原样传递，梯度因此可以跨越很多步，就像 LSTM 传送带上 f 接近 1 一样。",
        tour: &[
            "按课程的约定，h_t = (1 − z)·h_{t−1} + z·h̃：z 是候选值所占的比例，1 − z 是旧状态所占的比例。导览把 z 设为 0.05。",
            "现在 z = 0.95。数轴标出了 h_{t−1} 和 h̃；h_t 位于两者之间，更靠近权重较大的一端。在你作答前它的标记保持隐藏。",
            "PyTorch 的实现把同一个门反过来写：h' = (1 − z)·n + z·h；下方面板把两种写法并排列出。",
            "轮到你了：在下面的问题中作出预测，再揭晓本页的答案。",
        ],
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static GruText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
