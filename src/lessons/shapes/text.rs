//! Lesson 2, unrolling is not stacking: shapes and parameter counts.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Lesson 2: shapes and parameter counts.
    #[derive(Debug)]
    pub struct ShapesText {
        /// Controls panel.
        pub controls: &'static str {
            "The layer", "循环层"
        }
        /// Size label.
        pub input_size: &'static str {
            "Input features", "输入特征数"
        }
        /// Size label.
        pub hidden_size: &'static str {
            "Hidden features", "隐藏特征数"
        }
        /// Size label.
        pub num_layers: &'static str {
            "Stacked layers", "堆叠层数"
        }
        /// Heading.
        pub the_input: &'static str {
            "The input", "输入"
        }
        /// Size label.
        pub batch: &'static str {
            "Batch size", "批大小"
        }
        /// Size label.
        pub seq_len: &'static str {
            "Time steps", "时间步数"
        }
        /// Panel.
        pub call: &'static str {
            "The call and its shapes", "调用与形状"
        }
        /// Column.
        pub tensor: &'static str {
            "Tensor", "张量"
        }
        /// Column.
        pub shape: &'static str {
            "Shape", "形状"
        }
        /// Column.
        pub meaning: &'static str {
            "What it holds", "含义"
        }
        /// Column.
        pub numel: &'static str {
            "Elements", "元素个数"
        }
        /// Row meaning.
        pub m_input: &'static str {
            "the sequence, one input_size vector per step and sample", "序列：每个样本每一步一个 input_size 维向量"
        }
        /// Row meaning.
        pub m_h0: &'static str {
            "initial hidden state of every layer and direction (zeros if omitted)", "每一层、每个方向的初始隐藏状态（省略时为零）"
        }
        /// Row meaning.
        pub m_c0: &'static str {
            "initial cell state (LSTM only)", "初始细胞状态（仅 LSTM）"
        }
        /// Row meaning.
        pub m_output: &'static str {
            "the last layer's h_t at every step, both directions concatenated", "最后一层在每一步的 h_t，两个方向拼接"
        }
        /// Row meaning.
        pub m_h_n: &'static str {
            "the final h of every layer and direction", "每一层、每个方向最后的 h"
        }
        /// Row meaning.
        pub m_c_n: &'static str {
            "the final cell state (LSTM only)", "最后的细胞状态（仅 LSTM）"
        }
        /// Note.
        pub batch_first_note: &'static str {
            "batch_first moves the batch axis of input and output only: h0, h_n, c0 and c_n are always (num_layers·D, batch, hidden_size).", "batch_first 只移动 input 和 output 的批维度：h0、h_n、c0、c_n 的形状始终是 (num_layers·D, batch, hidden_size)。"
        }
        /// Panel.
        pub grid: &'static str {
            "Layers × directions × time", "层 × 方向 × 时间"
        }
        /// Row label.
        pub layer: &'static str {
            "layer", "层"
        }
        /// Grid legend.
        pub grid_legend: &'static str {
            "one colour = one set of weights", "同一颜色 = 同一组权重"
        }
        /// Note.
        pub grid_note: &'static str {
            "Unrolling repeats a row along time with the same weights; stacking adds rows with new weights. Only rows cost parameters.", "展开是把一行沿时间重复，权重相同；堆叠是增加新的行，权重不同。只有行数会增加参数。"
        }
        /// Panel.
        pub params: &'static str {
            "Parameters", "参数"
        }
        /// Label.
        pub total: &'static str {
            "PyTorch's count", "PyTorch 的参数量"
        }
        /// Label.
        pub one_bias: &'static str {
            "one-bias formula (Keras, textbooks)", "单偏置公式（Keras、教科书）"
        }
        /// Label with the other seq_len.
        pub seq_invariant: fn(&str) -> String {
            |a0| format!("with seq_len = {a0}"), |a0| format!("当 seq_len = {a0} 时")
        }
        /// Label with the other num_layers.
        pub layers_change: fn(&str) -> String {
            |a0| format!("with num_layers = {a0}"), |a0| format!("当 num_layers = {a0} 时")
        }
        /// Note: {0} difference, {1} layer·directions, {2} G·H.
        pub two_biases: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("PyTorch keeps two bias vectors per layer and direction (bias_ih and bias_hh), so it counts {a0} more than the one-bias formula: {a1} × {a2} (layers·directions × gates·hidden_size)."), |a0, a1, a2| format!("PyTorch 每一层、每个方向都有两个偏置向量（bias_ih 和 bias_hh），所以比单偏置公式多 {a0} 个：{a1} × {a2}（层数·方向数 × 门数·hidden_size）。")
        }
        /// About.
        pub about_1: &'static str {
            "seq_len never changes the parameter count: the same weights are applied at every step. num_layers and bidirectional do: each adds a row of new weights.", "seq_len 从不改变参数量：每一步都用同一组权重。num_layers 和 bidirectional 会改变：每增加一行就多一组新权重。"
        }
        /// About.
        pub about_2: &'static str {
            "Gate blocks are stacked in the weights: weight_ih_l0 is [G·H, I] with G = 1 (RNN), 4 (LSTM: i, f, g, o) or 3 (GRU: r, z, n). Layers above the first take the D·H outputs of the layer below.", "门按块堆叠在权重中：weight_ih_l0 的形状是 [G·H, I]，其中 G = 1（RNN）、4（LSTM：i, f, g, o）或 3（GRU：r, z, n）。第一层以上的各层以下一层的 D·H 维输出为输入。"
        }
        /// The tour's cues, one per step of [`super::tour::TOUR`].
        pub tour: &'static [&'static str] {
            &[
                "The call these settings write: the module with its sizes, and the shapes of its input, output and h_n.",
                "The tour sets num_layers to 2: a second layer reads the first layer's outputs, and h_n gains a row for it.",
                "The grid draws it: one cell per step and layer, each layer running over every step.",
                "The parameter count adds the second layer's weights: their input is the first layer's H outputs, not the I input features.",
                "Your turn: make your prediction in the question below, then reveal the page's answer.",
            ],
            &[
                "这些设置写出的调用：模块及其尺寸，以及输入、输出和 h_n 的形状。",
                "导览把 num_layers 设为 2：第二层读取第一层的输出，h_n 也为它多出一行。",
                "网格画出了这一点：每一步、每一层各一个格子，每一层都遍历所有步。",
                "参数总数加上了第二层的权重：它们的输入是第一层的 H 个输出，而不是 I 个输入特征。",
                "轮到你了：在下面的问题中作出预测，再揭晓本页的答案。",
            ]
        }
    }
}
