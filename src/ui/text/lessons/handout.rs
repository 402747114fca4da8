//! The "compared with the handout" notes of lessons 1, 2 and 4.

use crate::config::Lang;

/// The "compared with the handout" notes. `{n}` marks the n-th figure of a note: the page renders each as a hook `<span>` (figures from [`crate::lessons::handout`]).
#[derive(Debug)]
pub struct HandoutText {
    /// Lead-in of every note.
    pub heading: &'static str,
    /// {0} printed 304, {1} app 160, {2} the app's 2-layer count, {3} printed 608,
    /// {4} printed 1216, {5} app bidirectional, {6} app LSTM.
    pub rnn_ten_eight: &'static str,
    /// {0} input size, {1} hidden size, {2} printed LSTM, {3} printed GRU, {4}/{5} one-bias
    /// LSTM/GRU, {6}/{7} app LSTM/GRU, {8} printed RNN, {9} one-bias RNN, {10} app RNN.
    pub per_layer: &'static str,
    /// {0} printed share, {1} the example's W_hh, {2} app share, {3} the handout's W_hh,
    /// {4} app share at the handout's W_hh.
    pub unroll_share: &'static str,
    /// {0} printed h₂, {1} app h₂ (4 decimals), {2} o₂, {3} C₂, {4} app h₂ (8 decimals).
    pub lstm_h2: &'static str,
}

impl HandoutText {
    /// English.
    pub const EN: HandoutText = HandoutText {
        heading: "Compared with the handout:",
        rnn_ten_eight: "it prints {0} parameters for nn.RNN(10, 8); PyTorch counts {1}. The printed figure is the count with num_layers=2 ({2}), and the handout's {3} (bidirectional) and {4} (LSTM) are that 2-layer figure × 2 and × 4; with one layer PyTorch counts {5} and {6}.",
        per_layer: "its per-layer counts for input {0} and hidden {1} (LSTM {2}, GRU {3}) use one bias vector (one-bias formula: {4} and {5}); PyTorch has two (bias_ih and bias_hh) and counts {6} and {7}. Its RNN figure {8} is twice the one-bias RNN count {9}; PyTorch counts {10}.",
        unroll_share: "it prints {0} for x₁'s share of z₂; with this example's W_hh = {1} the app computes {2}. The printed value belongs to W_hh = {3} (the app gives {4} there).",
        lstm_h2: "it prints h₂ = {0}; the app computes {1}: h₂ = o₂·tanh(C₂) = {2}·tanh({3}) = {4} before rounding. The difference comes from rounding intermediate values in the handout.",
    };

    /// 简体中文.
    pub const ZH: HandoutText = HandoutText {
        heading: "与讲义对照：",
        rnn_ten_eight: "讲义给出 nn.RNN(10, 8) 的参数量为 {0}，PyTorch 的计数是 {1}。讲义的数字是 num_layers=2 时的参数量（{2}）；讲义中的 {3}（双向）和 {4}（LSTM）是这个两层数字的 2 倍和 4 倍；单层时 PyTorch 的计数是 {5} 和 {6}。",
        per_layer: "讲义中输入 {0}、隐藏 {1} 时每层的参数量（LSTM {2}、GRU {3}）只算了一个偏置向量（单偏置公式：{4} 和 {5}）；PyTorch 有两个（bias_ih 和 bias_hh），计数为 {6} 和 {7}。讲义中 RNN 的 {8} 是单偏置 RNN 参数量 {9} 的两倍；PyTorch 的计数是 {10}。",
        unroll_share: "讲义给出 x₁ 在 z₂ 中所占的部分为 {0}；按本例的 W_hh = {1}，本应用算出 {2}。讲义的数值对应 W_hh = {3}（此时本应用算出 {4}）。",
        lstm_h2: "讲义给出 h₂ = {0}；本应用算出 {1}：舍入前 h₂ = o₂·tanh(C₂) = {2}·tanh({3}) = {4}。差别来自讲义对中间结果的舍入。",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static HandoutText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
