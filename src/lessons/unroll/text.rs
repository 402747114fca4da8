//! Lesson 1, recurrence and time unrolling.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Lesson 1: recurrence and time unrolling.
    #[derive(Debug)]
    pub struct UnrollText {
        /// The introduction in vector mode (hidden_size ≥ 2).
        pub lede_vector: &'static str {
            "An RNN with several hidden units reads a short sequence: W_hh is a matrix, h_t a vector. Step through time and watch where every term of z_t comes from: the input, the previous state, or the bias.", "一个有多个隐藏单元的 RNN 读入一个短序列：W_hh 是矩阵，h_t 是向量。逐步推进时间，看 z_t 的每一项从哪里来：输入、上一步的状态，还是偏置。"
        }
        /// Controls panel.
        pub controls: &'static str {
            "Weights and inputs", "权重与输入"
        }
        /// Slider.
        pub w_xh: &'static str {
            "W_xh (input weight)", "W_xh（输入权重）"
        }
        /// Slider.
        pub w_hh: &'static str {
            "W_hh (recurrent weight)", "W_hh（循环权重）"
        }
        /// Slider.
        pub b: &'static str {
            "b (bias)", "b（偏置）"
        }
        /// Slider.
        pub h0: &'static str {
            "h₀ (initial state)", "h₀（初始状态）"
        }
        /// Inputs.
        pub inputs: &'static str {
            "Input sequence x", "输入序列 x"
        }
        /// Mode heading.
        pub mode: &'static str {
            "Scalar or vector", "标量还是向量"
        }
        /// Hidden size slider.
        pub hidden: &'static str {
            "Hidden size H (1 = scalar, 2–8 = vector)", "隐藏维度 H（1 = 标量，2–8 = 向量）"
        }
        /// Vector mode note.
        pub vector_note: &'static str {
            "Vector mode: W_xh [H, 1], W_hh [H, H] and both biases come from PyTorch's initialisation U(−1/√H, 1/√H) with this seed; the scalar weight sliders do not apply.", "向量模式：W_xh [H, 1]、W_hh [H, H] 和两个偏置来自 PyTorch 的初始化 U(−1/√H, 1/√H)，使用此随机种子；标量权重滑块不再起作用。"
        }
        /// Diagram panel.
        pub diagram: &'static str {
            "The rolled cell and the unrolled chain", "折叠的单元与展开的链"
        }
        /// Diagram caption.
        pub rolled: &'static str {
            "rolled", "折叠"
        }
        /// Diagram caption.
        pub unrolled: &'static str {
            "unrolled over time: the same cell at every step", "按时间展开：每一步都是同一个单元"
        }
        /// Under the diagram.
        pub same_weights: &'static str {
            "The same W_xh, W_hh and b are used at every step: unrolling copies the cell along time, it adds no parameters.", "每一步使用的都是同一组 W_xh、W_hh 和 b：展开只是把单元沿时间复制，并不增加参数。"
        }
        /// Step panel.
        pub step: fn(&str) -> String {
            |a0| format!("Step t = {a0}, term by term"), |a0| format!("第 t = {a0} 步，逐项计算")
        }
        /// Column / label.
        pub from_x1: &'static str {
            "from x₁", "来自 x₁"
        }
        /// Sentence: `{0}` value, `{1}` subscript t.
        pub from_x1_sentence: fn(&str, &str) -> String {
            |a0, a1| format!("{a0} of z{a1} comes from x₁"), |a0, a1| format!("z{a1} 中有 {a0} 来自 x₁")
        }
        /// Sentence part.
        pub from_x1_how: &'static str {
            "the part of z_t that comes from x₁: z_t minus z_t recomputed with x₁ = 0", "z_t 中来自 x₁ 的部分：z_t 减去把 x₁ 设为 0 后重新计算的 z_t"
        }
        /// Table panel.
        pub table: &'static str {
            "Every step", "每一步"
        }
        /// Vector mode panel.
        pub weights: &'static str {
            "The weights (one set for all steps)", "权重（所有步共用一组）"
        }
        /// Heatmap caption.
        pub h_states: &'static str {
            "h_t of every step (one column per step)", "每一步的 h_t（每列一步）"
        }
        /// About.
        pub about_1: &'static str {
            "This is nn.RNN(1, H) of Unroll's trainer, run forward by the same code that trains. With H = 1 the sliders are its parameters (b goes into bias_ih_l0; bias_hh_l0 stays 0, so their sum is b).", "这就是 Unroll 训练器里的 nn.RNN(1, H)，由训练所用的同一份代码做前向计算。H = 1 时滑块的值就是它的参数（b 放在 bias_ih_l0 中；bias_hh_l0 为 0，两者之和就是 b）。"
        }
        /// About.
        pub about_2: &'static str {
            "h_{t−1} carries everything the network remembers about x₁ … x_{t−1}. Set W_hh to 0 and each step forgets the past; make it large and the past dominates until tanh saturates.", "h_{t−1} 携带了网络对 x₁ … x_{t−1} 的全部记忆。把 W_hh 设为 0，每一步都会忘记过去；把它调大，过去就会占主导，直到 tanh 饱和。"
        }
        /// The chain's stages within a step (the stage slider's label), in the order of
        /// [`super::STAGES`].
        pub stages: [&'static str; 3] {
            ["x_t and h_{t−1} flow in", "the cell computes", "h_t flows out"], ["x_t 和 h_{t−1} 流入", "细胞计算", "h_t 流出"]
        }
        /// The tour's cues, one per step of [`super::tour::TOUR`].
        pub tour: &'static [&'static str] {
            &[
                "Step t = 2 of the unrolled chain. First the inputs: x₂ comes in from below through W_xh, and h₁ from the copy before through W_hh.",
                "Inside the cell the two terms and the bias add up to z₂, and tanh squashes it. Every copy uses the same weights.",
                "h₂ leaves the cell: it is this step's output, and it goes right into the next copy as that step's h_{t−1}.",
                "The tour sets W_hh to 0: nothing reaches a step from the one before, so each h_t depends on its own x_t only (see the table).",
                "Your turn: with W_hh = 0, h₂ = tanh(W_xh·x₂ + b). The weights and x₂ are on the page; h₂ itself stays blurred until you answer. Work it out, lock it, then reveal.",
            ],
            &[
                "展开链中的第 t = 2 步。先看输入：x₂ 从下方经 W_xh 进入，h₁ 从前一个副本经 W_hh 进入。",
                "在细胞内部，两项与偏置相加得到 z₂，再由 tanh 压缩。每个副本使用同一组权重。",
                "h₂ 离开细胞：它是这一步的输出，并向右进入下一个副本，成为那一步的 h_{t−1}。",
                "导览把 W_hh 设为 0：前一步的信息不再传到下一步，于是每个 h_t 只取决于它自己的 x_t（见表格）。",
                "轮到你了：W_hh = 0 时，h₂ = tanh(W_xh·x₂ + b)。权重和 x₂ 都在页面上；h₂ 本身在你作答前保持模糊。算出来、锁定，再揭晓。",
            ]
        }
    }
}
