//! Lesson 6, bidirectional concatenation.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Lesson 6: bidirectional concatenation.
    #[derive(Debug)]
    pub struct BidirText {
        /// Controls panel.
        pub controls: &'static str {
            "The sentence", "句子"
        }
        /// Field.
        pub tokens: &'static str {
            "Tokens (comma-separated)", "词元（用逗号分隔）"
        }
        /// Note.
        pub tokens_note: &'static str {
            "Up to 12 tokens of at most 16 characters. Each distinct token gets a seeded 2-d embedding; the weights of nn.RNN(2, 2, bidirectional=True) come from PyTorch's initialisation with the same seed.", "最多 12 个词元，每个最多 16 个字符。每个不同的词元都有一个带随机种子的二维嵌入；nn.RNN(2, 2, bidirectional=True) 的权重来自使用同一种子的 PyTorch 初始化。"
        }
        /// Heading.
        pub embeddings: &'static str {
            "Embeddings", "嵌入"
        }
        /// Column.
        pub token: &'static str {
            "token", "词元"
        }
        /// Panel.
        pub diagram: &'static str {
            "Two directions over the same sentence", "同一句子上的两个方向"
        }
        /// Row label.
        pub forward: &'static str {
            "forward", "正向"
        }
        /// Row label.
        pub backward: &'static str {
            "backward", "反向"
        }
        /// Note.
        pub diagram_note: &'static str {
            "Positions t count from 0, as PyTorch's output[0, t] does. After step k the forward direction has read positions 0 to k − 1 and the backward direction positions T − k to T − 1 (the last k tokens). A position's 2H output exists once both have passed it.", "位置 t 从 0 开始计数，与 PyTorch 的 output[0, t] 一致。第 k 步之后，正向已读入位置 0 到 k − 1，反向已读入位置 T − k 到 T − 1（最后 k 个词元）。只有两个方向都经过某个位置后，它的 2H 输出才完整。"
        }
        /// Panel.
        pub output: &'static str {
            "output and h_n", "output 与 h_n"
        }
        /// Label.
        pub hn_fwd: &'static str {
            "h_n[0]: forward, after the last token", "h_n[0]：正向，读完最后一个词元后"
        }
        /// Label.
        pub hn_bwd: &'static str {
            "h_n[1]: backward, after the first token", "h_n[1]：反向，读完第一个词元后"
        }
        /// The scrubber's label: {0} step k, {1} steps T, {2} the forward position k − 1, {3} the
        /// backward position T − k.
        pub step_caption: fn(&str, &str, &str, &str) -> String {
            |a0, a1, a2, a3| format!("Step {a0} of {a1}: forward at t = {a2}, backward at t = {a3}"), |a0, a1, a2, a3| format!("第 {a0} 步（共 {a1} 步）：正向在 t = {a2}，反向在 t = {a3}")
        }
        /// The diagram's position row label.
        pub position: &'static str {
            "position t", "位置 t"
        }
        /// Panel.
        pub weights: &'static str {
            "The weights", "权重"
        }
        /// Note.
        pub weights_note: &'static str {
            "The _reverse tensors belong to the backward direction: the two directions share nothing but the input.", "带 _reverse 后缀的张量属于反向：两个方向除了输入之外没有任何共享。"
        }
        /// The diagram's stages within a step (the stage slider's label), in the order of
        /// [`super::STAGES`].
        pub stages: [&'static str; 3] {
            ["forward reads a token", "backward reads a token", "the halves join"], ["正向读一个词元", "反向读一个词元", "两半拼接"]
        }
        /// The tour's cues, one per step of [`super::tour::TOUR`].
        pub tour: &'static [&'static str] {
            &[
                "The step where the two directions meet. First the forward direction (teal) reads its next token, left to right, and writes its state.",
                "In the same step the backward direction (purple) reads its next token from the right and writes its state.",
                "Where both directions have been, the two states are joined: output[t] = [forward, backward], 2H numbers per position.",
                "Play runs every step this way, stage by stage; the scrubber and the stage slider stop at any step and stage.",
                "Your turn: answer the question about the last position's output, then reveal the page's answer.",
            ],
            &[
                "这是两个方向相遇的一步。先是正向（青色）从左到右读入下一个词元，写出它的状态。",
                "同一步中，反向（紫色）从右边读入它的下一个词元，写出它的状态。",
                "两个方向都到过的位置，两个状态拼接起来：输出[t] = [正向, 反向]，每个位置 2H 个数。",
                "播放按这种方式逐步、逐阶段运行；时间步滑块和阶段滑块可以停在任意一步、任意阶段。",
                "轮到你了：回答关于最后位置输出的问题，再揭晓本页的答案。",
            ]
        }
    }
}
