//! Lesson 2, unrolling is not stacking: shapes and parameter counts.

use unroll_core::config::Lang;

/// Lesson 2: shapes and parameter counts.
#[derive(Debug)]
pub struct ShapesText {
    /// Controls panel.
    pub controls: &'static str,
    /// Size label.
    pub input_size: &'static str,
    /// Size label.
    pub hidden_size: &'static str,
    /// Size label.
    pub num_layers: &'static str,
    /// Heading.
    pub the_input: &'static str,
    /// Size label.
    pub batch: &'static str,
    /// Size label.
    pub seq_len: &'static str,
    /// Panel.
    pub call: &'static str,
    /// Column.
    pub tensor: &'static str,
    /// Column.
    pub shape: &'static str,
    /// Column.
    pub meaning: &'static str,
    /// Column.
    pub numel: &'static str,
    /// Row meaning.
    pub m_input: &'static str,
    /// Row meaning.
    pub m_h0: &'static str,
    /// Row meaning.
    pub m_c0: &'static str,
    /// Row meaning.
    pub m_output: &'static str,
    /// Row meaning.
    pub m_h_n: &'static str,
    /// Row meaning.
    pub m_c_n: &'static str,
    /// Note.
    pub batch_first_note: &'static str,
    /// Panel.
    pub grid: &'static str,
    /// Row label.
    pub layer: &'static str,
    /// Grid legend.
    pub grid_legend: &'static str,
    /// Note.
    pub grid_note: &'static str,
    /// Panel.
    pub params: &'static str,
    /// Label.
    pub total: &'static str,
    /// Label.
    pub one_bias: &'static str,
    /// Label with the other seq_len.
    pub seq_invariant: fn(&str) -> String,
    /// Label with the other num_layers.
    pub layers_change: fn(&str) -> String,
    /// Note: {0} difference, {1} layer·directions, {2} G·H.
    pub two_biases: fn(&str, &str, &str) -> String,
    /// About.
    pub about_1: &'static str,
    /// About.
    pub about_2: &'static str,
    /// The tour's cues, one per step of [`super::tour::TOUR`].
    pub tour: &'static [&'static str],
}

impl ShapesText {
    /// English.
    pub const EN: ShapesText = ShapesText {
        controls: "The layer",
        input_size: "Input features",
        hidden_size: "Hidden features",
        num_layers: "Stacked layers",
        the_input: "The input",
        batch: "Batch size",
        seq_len: "Time steps",
        call: "The call and its shapes",
        tensor: "Tensor",
        shape: "Shape",
        meaning: "What it holds",
        numel: "Elements",
        m_input: "the sequence, one input_size vector per step and sample",
        m_h0: "initial hidden state of every layer and direction (zeros if omitted)",
        m_c0: "initial cell state (LSTM only)",
        m_output: "the last layer's h_t at every step, both directions concatenated",
        m_h_n: "the final h of every layer and direction",
        m_c_n: "the final cell state (LSTM only)",
        batch_first_note: "batch_first moves the batch axis of input and output only: h0, h_n, c0 and c_n are always (num_layers·D, batch, hidden_size).",
        grid: "Layers × directions × time",
        layer: "layer",
        grid_legend: "one colour = one set of weights",
        grid_note: "Unrolling repeats a row along time with the same weights; stacking adds rows with new weights. Only rows cost parameters.",
        params: "Parameters",
        total: "PyTorch's count",
        one_bias: "one-bias formula (Keras, textbooks)",
        seq_invariant: |a0| format!("with seq_len = {a0}"),
        layers_change: |a0| format!("with num_layers = {a0}"),
        two_biases: |a0, a1, a2| format!("PyTorch keeps two bias vectors per layer and direction (bias_ih and bias_hh), so it counts {a0} more than the one-bias formula: {a1} × {a2} (layers·directions × gates·hidden_size)."),
        about_1: "seq_len never changes the parameter count: the same weights are applied at every step. num_layers and bidirectional do: each adds a row of new weights.",
        about_2: "Gate blocks are stacked in the weights: weight_ih_l0 is [G·H, I] with G = 1 (RNN), 4 (LSTM: i, f, g, o) or 3 (GRU: r, z, n). Layers above the first take the D·H outputs of the layer below.",
        tour: &[
            "The call these settings write: the module with its sizes, and the shapes of its input, output and h_n.",
            "The tour sets num_layers to 2: a second layer reads the first layer's outputs, and h_n gains a row for it.",
            "The grid draws it: one cell per step and layer, each layer running over every step.",
            "The parameter count adds the second layer's weights: their input is the first layer's H outputs, not the I input features.",
            "Your turn: make your prediction in the question below, then reveal the page's answer.",
        ],
    };

    /// 简体中文.
    pub const ZH: ShapesText = ShapesText {
        controls: "循环层",
        input_size: "输入特征数",
        hidden_size: "隐藏特征数",
        num_layers: "堆叠层数",
        the_input: "输入",
        batch: "批大小",
        seq_len: "时间步数",
        call: "调用与形状",
        tensor: "张量",
        shape: "形状",
        meaning: "含义",
        numel: "元素个数",
        m_input: "序列：每个样本每一步一个 input_size 维向量",
        m_h0: "每一层、每个方向的初始隐藏状态（省略时为零）",
        m_c0: "初始细胞状态（仅 LSTM）",
        m_output: "最后一层在每一步的 h_t，两个方向拼接",
        m_h_n: "每一层、每个方向最后的 h",
        m_c_n: "最后的细胞状态（仅 LSTM）",
        batch_first_note: "batch_first 只移动 input 和 output 的批维度：h0、h_n、c0、c_n 的形状始终是 (num_layers·D, batch, hidden_size)。",
        grid: "层 × 方向 × 时间",
        layer: "层",
        grid_legend: "同一颜色 = 同一组权重",
        grid_note: "展开是把一行沿时间重复，权重相同；堆叠是增加新的行，权重不同。只有行数会增加参数。",
        params: "参数",
        total: "PyTorch 的参数量",
        one_bias: "单偏置公式（Keras、教科书）",
        seq_invariant: |a0| format!("当 seq_len = {a0} 时"),
        layers_change: |a0| format!("当 num_layers = {a0} 时"),
        two_biases: |a0, a1, a2| format!("PyTorch 每一层、每个方向都有两个偏置向量（bias_ih 和 bias_hh），所以比单偏置公式多 {a0} 个：{a1} × {a2}（层数·方向数 × 门数·hidden_size）。"),
        about_1: "seq_len 从不改变参数量：每一步都用同一组权重。num_layers 和 bidirectional 会改变：每增加一行就多一组新权重。",
        about_2: "门按块堆叠在权重中：weight_ih_l0 的形状是 [G·H, I]，其中 G = 1（RNN）、4（LSTM：i, f, g, o）或 3（GRU：r, z, n）。第一层以上的各层以下一层的 D·H 维输出为输入。",
        tour: &[
            "这些设置写出的调用：模块及其尺寸，以及输入、输出和 h_n 的形状。",
            "导览把 num_layers 设为 2：第二层读取第一层的输出，h_n 也为它多出一行。",
            "网格画出了这一点：每一步、每一层各一个格子，每一层都遍历所有步。",
            "参数总数加上了第二层的权重：它们的输入是第一层的 H 个输出，而不是 I 个输入特征。",
            "轮到你了：在下面的问题中作出预测，再揭晓本页的答案。",
        ],
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static ShapesText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
