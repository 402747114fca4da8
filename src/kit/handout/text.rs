//! The "compared with the handout" notes of lessons 1, 2, 4 and 6, and of the training lab's
//! question.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// The "compared with the handout" notes. `{n}` marks the n-th figure of a note: the page renders each as a hook `<span>` (figures from [`unroll_core::lessons::handout`]).
    #[derive(Debug)]
    pub struct HandoutText {
        /// Lead-in of every note.
        pub heading: &'static str {
            "Compared with the handout:", "与讲义对照："
        }
        /// The handout's rows as printed: {0} `nn.RNN(10, 8)`, {1} `num_layers=2`, {2}
        /// `num_layers=2, bidirectional=True`; PyTorch's counts of the same: {3}, {4}, {5}; {6} the
        /// one-bias count, {7} hidden size, {8} input size, {9} the second layer's count, {10} the
        /// bidirectional second layer's input, {11}/{12} the bidirectional first/second layer's
        /// count.
        pub rnn_ten_eight: &'static str {
            "its table prints nn.RNN(10, 8): {0}; num_layers=2: {1}; num_layers=2, bidirectional=True: {2}. PyTorch counts {3}, {4} and {5}. The {0} is twice the one-bias count {6}, the same doubling as in its per-layer RNN figure below (PyTorch has two bias vectors). The {1} is {0} doubled for a second layer, but the second layer reads h (size {7}), not x (size {8}): PyTorch counts {3} + {9} = {4}. The {2} is {1} doubled for a second direction, but then the second layer reads both directions (input {10}): PyTorch counts {11} + {12} = {5}.", "讲义的表格给出 nn.RNN(10, 8)：{0}；num_layers=2：{1}；num_layers=2, bidirectional=True：{2}。PyTorch 的计数是 {3}、{4} 和 {5}。{0} 是单偏置参数量 {6} 的两倍，和下面讲义每层的 RNN 数字一样翻了倍（PyTorch 有两个偏置向量）。{1} 是把 {0} 翻倍当作第二层，但第二层读入的是 h（大小 {7}）而不是 x（大小 {8}）：PyTorch 的计数是 {3} + {9} = {4}。{2} 是把 {1} 再翻倍当作第二个方向，但这时第二层读入两个方向的输出（输入大小 {10}）：PyTorch 的计数是 {11} + {12} = {5}。"
        }
        /// {0} input size, {1} hidden size, {2} printed LSTM, {3} printed GRU, {4}/{5} one-bias
        /// LSTM/GRU, {6}/{7} app LSTM/GRU, {8} printed RNN, {9} one-bias RNN, {10} app RNN.
        pub per_layer: &'static str {
            "its per-layer counts for input {0} and hidden {1} (LSTM {2}, GRU {3}) use one bias vector (one-bias formula: {4} and {5}); PyTorch has two (bias_ih and bias_hh) and counts {6} and {7}. Its RNN figure {8} is twice the one-bias RNN count {9}; PyTorch counts {10}.", "讲义中输入 {0}、隐藏 {1} 时每层的参数量（LSTM {2}、GRU {3}）只算了一个偏置向量（单偏置公式：{4} 和 {5}）；PyTorch 有两个（bias_ih 和 bias_hh），计数为 {6} 和 {7}。讲义中 RNN 的 {8} 是单偏置 RNN 参数量 {9} 的两倍；PyTorch 的计数是 {10}。"
        }
        /// {0} printed share, {1} the example's W_hh, {2} app share, {3} the handout's W_hh,
        /// {4} app share at the handout's W_hh.
        pub unroll_share: &'static str {
            "it prints {0} for x₁'s share of z₂; with this example's W_hh = {1} the app computes {2}. The printed value belongs to W_hh = {3} (the app gives {4} there).", "讲义给出 x₁ 在 z₂ 中所占的部分为 {0}；按本例的 W_hh = {1}，本应用算出 {2}。讲义的数值对应 W_hh = {3}（此时本应用算出 {4}）。"
        }
        /// {0} printed h₂, {1} app h₂ (4 decimals), {2} the handout's tanh(C₂), {3} C₂, {4} the
        /// app's tanh(C₂), {5} o₂, {6} o₂ × the handout's tanh(C₂), {7} app h₂ (8 decimals).
        pub lstm_h2: &'static str {
            "it prints h₂ = {0}; the app computes {1}. The handout's step uses tanh({3}) = {2}, but tanh({3}) = {4}: h₂ = o₂·tanh(C₂) = {5} × {4} = {7}, while {5} × {2} = {6} (printed as {0}). The difference comes from that tanh value, not from rounding.", "讲义给出 h₂ = {0}；本应用算出 {1}。讲义在这一步写 tanh({3}) = {2}，但 tanh({3}) = {4}：h₂ = o₂·tanh(C₂) = {5} × {4} = {7}，而 {5} × {2} = {6}（讲义印作 {0}）。差别来自这个 tanh 值，而不是舍入。"
        }
        /// {0} the last position T − 1, {1} `output[0, T−1, :H]`, {2} `h_n[0]`, {3}
        /// `output[0, T−1, H:]`, {4} the last token, {5} the backward state of that token alone,
        /// {6} `h_n[1]`.
        pub bidir_last: &'static str {
            "§7.3 says output[:, -1, :] holds both directions. It holds the forward direction's last step and the backward direction's first: output[:, -1, :H] (position {0}) = {1} = h_n[0] = {2}, the forward read of the whole sentence, but output[:, -1, H:] = {3} has read only the last token, “{4}” (the sentence “{4}” alone gives the same {5}). The backward read of the whole sentence is h_n[1] = {6}; for both directions' full reads, concatenate h_n[0] and h_n[1].", "§7.3 说 output[:, -1, :] 包含两个方向。实际上它包含正向的最后一步和反向的第一步：output[:, -1, :H]（位置 {0}）= {1} = h_n[0] = {2}，是正向对整句的读取；而 output[:, -1, H:] = {3} 只读过最后一个词元“{4}”（只含“{4}”的句子给出同样的 {5}）。反向对整句的读取是 h_n[1] = {6}；要用两个方向对整句的读取，应拼接 h_n[0] 和 h_n[1]。"
        }
        /// The training lab's first epoch: {0} printed accuracy, {1} the run's validation
        /// accuracy after epoch 1, {2} the page's baseline (validation names), {3} the run's
        /// accuracy over epoch 1's training batches, {4} lines in the class files, {5} the largest
        /// language by lines, {6} its share of the lines.
        pub names_epoch1: &'static str {
            "it prints {0} after the first epoch, below this page's baseline of {2}; this run reaches {1}. The handout's figure is the accuracy counted over the first epoch's training batches while the model learns (this run, counted that way: {3}), of the course's recipe: every name padded to 10 symbols and read at step 10 (head=padded here), on all {4} lines of the files split by rows, where always answering “{5}” is right for {6}. This app's trainer, run with that recipe, gives the handout's figure; this page reports validation accuracy after the epoch, on distinct names, read at each name's last character.", "讲义给出第一轮后的准确率 {0}，低于本页的基线 {2}；本次运行达到 {1}。讲义的数字是在第一轮训练中、模型边学边数的训练批次准确率（本次运行这样数得 {3}），用的是课程的做法：每个名字用零向量填充到 10 个符号并读取第 10 步（本页的 head=padded），数据是文件中全部 {4} 行、按行划分，其中总回答“{5}”能答对 {6}。本应用的训练器按这种做法训练，得到的正是讲义的数字；本页报告的是一轮结束后的验证准确率，用去重后的名字、读取每个名字最后一个字符处的输出。"
        }
        /// The same without {3} (a model restored after a reload: its count during the epoch is
        /// not kept).
        pub names_epoch1_restored: &'static str {
            "it prints {0} after the first epoch, below this page's baseline of {2}; this run reached {1}. The handout's figure is the accuracy counted over the first epoch's training batches while the model learns, of the course's recipe: every name padded to 10 symbols and read at step 10 (head=padded here), on all {4} lines of the files split by rows, where always answering “{5}” is right for {6}. This app's trainer, run with that recipe, gives the handout's figure; this page reports validation accuracy after the epoch, on distinct names, read at each name's last character.", "讲义给出第一轮后的准确率 {0}，低于本页的基线 {2}；本次运行达到 {1}。讲义的数字是在第一轮训练中、模型边学边数的训练批次准确率，用的是课程的做法：每个名字用零向量填充到 10 个符号并读取第 10 步（本页的 head=padded），数据是文件中全部 {4} 行、按行划分，其中总回答“{5}”能答对 {6}。本应用的训练器按这种做法训练，得到的正是讲义的数字；本页报告的是一轮结束后的验证准确率，用去重后的名字、读取每个名字最后一个字符处的输出。"
        }
    }
}
