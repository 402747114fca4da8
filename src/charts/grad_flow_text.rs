//! The gradient-flow panel and its chart.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// The gradient-flow panel's texts (the chart's axis titles, legend and placeholder among them).
    #[derive(Debug)]
    pub struct GradFlowText {
        /// Panel title.
        pub title: &'static str {
            "Gradient flow", "梯度流"
        }
        /// The note under the title.
        pub note: &'static str {
            "With each weight snapshot (at the start, every ~2 s and after each epoch) the trainer backpropagates a fixed batch of validation names and measures ‖∂L/∂h_t‖, the size of the loss gradient reaching the top layer's output at each step, averaged over the names. k = 0 is the step the classifier reads; larger k lie further back. Each point averages only the names long enough to have that step, so the right end rests on few, long names. In a plain RNN the gradient typically shrinks by a factor at each step back (the vanishing gradient); an LSTM's cell state lets it reach further. Train an RNN and then an LSTM with the same settings: the last curve of each cell stays on this chart.", "每次发布权重时（开始时、约每 2 秒、每轮结束后），训练器会在一批固定的验证集名字上做反向传播，测量 ‖∂L/∂h_t‖：到达顶层输出第 t 步的损失梯度的大小（对名字取平均）。k = 0 是分类器读取的那一步，k 越大越靠前。每个点只对长度够到该步的名字取平均，所以曲线右端只来自少数长名字。普通 RNN 的梯度通常每往回一步就缩小一个倍数（梯度消失）；LSTM 的细胞状态让梯度能传得更远。用相同设置先训练 RNN 再训练 LSTM：每种单元的最后一条曲线会留在图上。"
        }
        /// x axis title.
        pub x: &'static str {
            "k: steps before the read-out", "k：读取位置之前的步数"
        }
        /// y axis title.
        pub y: &'static str {
            "‖∂L/∂h_t‖ (log scale)", "‖∂L/∂h_t‖（对数刻度）"
        }
        /// Caption of the chart.
        pub caption: &'static str {
            "‖∂L/∂h_t‖ per step before the read-out: solid = this run, dashed = the last run of another cell", "读取位置之前每一步的 ‖∂L/∂h_t‖：实线 = 本次训练，虚线 = 另一种单元最近一次训练"
        }
        /// Shown while there is no curve.
        pub empty: &'static str {
            "Start training: the curve appears with the first weight snapshot", "开始训练：第一次发布权重时曲线出现"
        }
        /// Legend suffix of the running session's curve.
        pub this_run: &'static str {
            "this run", "本次训练"
        }
        /// Legend suffix of a kept curve.
        pub kept: &'static str {
            "kept", "保留"
        }
        /// Legend entry of a curve: `(cell name, hidden size, step)`.
        pub label: fn(&str, usize, u64) -> String {
            |cell, h, step| format!("{cell} (H = {h}) · step {step}"), |cell, h, step| format!("{cell}（H = {h}）· 第 {step} 步")
        }
    }
}
