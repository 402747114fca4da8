//! The delay page's own English and 简体中文 texts ([`Tr`] pairs; `{0}` placeholders are
//! filled by [`Tr::fill`]). No text contains a computed number.

use crate::ui::i18n::Tr;

const fn tr(en: &'static str, zh: &'static str) -> Tr {
    Tr { en, zh }
}

/// Page title.
pub const TITLE: Tr = tr("The delay-copy task", "延迟复制任务");
/// Lede.
pub const LEDE: Tr = tr(
    "Random tokens go in; at every position the network must output the token it saw delay steps earlier. An RNN and an LSTM of the same hidden size learn it side by side on the same sequences, so you can see how far back each can carry information.",
    "随机的符号依次输入；在每个位置，网络都要输出它在 delay 步之前看到的那个符号。隐藏大小相同的 RNN 和 LSTM 在相同的序列上并排学习，可以看出各自能把信息带回多远。",
);
/// Where training runs.
pub const CPU_NOTE: Tr = tr(
    "Training runs on the CPU path in this tab (the Rust reference compiled to WebAssembly), not on WebGPU; the page stays responsive while it trains.",
    "训练在本标签页的 CPU 路径上运行（编译成 WebAssembly 的 Rust 参考实现），不使用 WebGPU；训练时页面保持可操作。",
);
/// Index card title.
pub const INDEX_TITLE: Tr = tr("The delay-copy task", "延迟复制任务");
/// Index card text.
pub const INDEX_TEXT: Tr = tr(
    "An RNN and an LSTM learn to repeat a token from delay steps back, side by side in this tab: which one remembers further?",
    "RNN 与 LSTM 在本标签页里并排学习复述 delay 步之前的符号：谁记得更远？",
);
/// Index card link.
pub const INDEX_LINK: Tr = tr("Open the delay-copy task", "打开延迟复制任务");

/// Settings panel.
pub const SETTINGS: Tr = tr("Task and model", "任务与模型");
/// Presets row.
pub const PRESETS: Tr = tr("Presets", "预设");
/// Preset button: {0} delay.
pub const PRESET: Tr = tr("delay {0}", "delay {0}");
/// Preset button tooltip: {0} delay, {1} the length set when the current one is too short.
pub const PRESET_TIP: Tr = tr(
    "Sets delay = {0}; length becomes {1} only if it is not above {0}. Your other settings (cells, vocab, hidden size, learning rate, batch, seed) are kept.",
    "设置 delay = {0}；仅当 length 不大于 {0} 时改为 {1}。其他设置（单元、词表、隐藏大小、学习率、批大小、种子）保持不变。",
);
/// `cell`.
pub const CELLS: Tr = tr("Cells", "单元");
/// Cell choice: both.
pub const CELLS_BOTH: Tr = tr("RNN and LSTM", "RNN 与 LSTM");
/// Cell choice: all.
pub const CELLS_ALL: Tr = tr("RNN, LSTM and GRU", "RNN、LSTM 与 GRU");
/// Cell choice: one.
pub const CELLS_ONLY: Tr = tr("{0} only", "仅 {0}");
/// `delay`.
pub const DELAY: Tr = tr("Delay", "延迟");
/// Help of `delay`.
pub const DELAY_HELP: Tr = tr(
    "target at position t = token at t − delay",
    "位置 t 的目标 = 位置 t − delay 的符号",
);
/// `length`.
pub const LENGTH: Tr = tr("Sequence length", "序列长度");
/// `vocab`.
pub const VOCAB: Tr = tr("Vocabulary size", "词表大小");
/// `hidden_size`.
pub const HIDDEN: Tr = tr("Hidden size", "隐藏大小");
/// `lr`.
pub const LR: Tr = tr("Learning rate (Adam)", "学习率（Adam）");
/// `batch_size`.
pub const BATCH: Tr = tr("Sequences per step", "每步序列数");
/// `seed`.
pub const SEED: Tr = tr("Seed", "随机种子");
/// Locked form.
pub const LOCKED: Tr = tr(
    "Settings are locked while a run exists; Reset to change them.",
    "存在训练时设置被锁定；点击“重置”后可修改。",
);

/// Start.
pub const START: Tr = tr("Start", "开始");
/// Pause.
pub const PAUSE: Tr = tr("Pause", "暂停");
/// Resume.
pub const RESUME: Tr = tr("Resume", "继续");
/// Reset.
pub const RESET: Tr = tr("Reset", "重置");
/// Status: idle.
pub const STATUS_IDLE: Tr = tr("Not started", "未开始");
/// Status: running.
pub const STATUS_RUNNING: Tr = tr("Training", "训练中");
/// Status: paused.
pub const STATUS_PAUSED: Tr = tr("Paused", "已暂停");
/// Status: finished.
pub const STATUS_FINISHED: Tr = tr("Finished ({0} steps per cell)", "已完成（每个单元 {0} 步）");

/// Invalid delay: zero.
pub const INVALID_ZERO: Tr = tr(
    "The delay must be at least 1: with delay 0 the target is the current token, so there is nothing to remember. Choose a delay from 1 to {0}.",
    "延迟至少为 1：延迟为 0 时目标就是当前符号，无需记忆。请选择 1 到 {0} 之间的延迟。",
);
/// Invalid delay: too long. {0} delay, {1} length, {2} largest delay.
pub const INVALID_LONG: Tr = tr(
    "The delay ({0}) must be smaller than the sequence length ({1}): no position would have a target. Choose a delay from 1 to {2}, or a longer sequence.",
    "延迟（{0}）必须小于序列长度（{1}）：否则没有任何位置有目标。请选择 1 到 {2} 之间的延迟，或加长序列。",
);

/// Progress panel.
pub const PROGRESS: Tr = tr("Side by side", "并排比较");
/// Stat: steps.
pub const STAT_STEPS: Tr = tr("Steps", "步数");
/// Stat: loss.
pub const STAT_LOSS: Tr = tr("Loss", "损失");
/// Stat: accuracy.
pub const STAT_ACC: Tr = tr("Token accuracy", "逐符号准确率");
/// Stat detail: mean of the last steps.
pub const LAST_20: Tr = tr("mean of the last 20 steps", "最近 20 步的平均");
/// Stat detail: first step's loss {0}.
pub const FIRST_LOSS: Tr = tr("step 1: {0}", "第 1 步：{0}");
/// Stat: parameters.
pub const STAT_PARAMS: Tr = tr("Parameters", "参数量");
/// Parameters detail: {0} recurrent, {1} head.
pub const PARAMS_DETAIL: Tr = tr("{0} recurrent + {1} head", "循环层 {0} + 输出层 {1}");
/// Chart: accuracy.
pub const CHART_ACC: Tr = tr(
    "Per-token accuracy on each step's batch (supervised positions only)",
    "每步批次上的逐符号准确率（仅计受监督的位置）",
);
/// Chart: loss.
pub const CHART_LOSS: Tr = tr(
    "Cross-entropy per supervised token (nats)",
    "每个受监督符号的交叉熵（nats）",
);
/// Axis: step.
pub const AXIS_STEP: Tr = tr("step (per cell)", "步（每个单元）");
/// Axis: accuracy.
pub const AXIS_ACC: Tr = tr("token accuracy", "逐符号准确率");
/// Axis: loss.
pub const AXIS_LOSS: Tr = tr("loss", "损失");
/// Legend: chance.
pub const CHANCE: Tr = tr("chance", "随机猜测");
/// Empty chart.
pub const CHART_EMPTY: Tr = tr("Press Start to train", "点击“开始”进行训练");

/// Example panel.
pub const EXAMPLE: Tr = tr("One sequence, its targets and the predictions", "一条序列、它的目标与预测");
/// Example note.
pub const EXAMPLE_NOTE: Tr = tr(
    "The targets row is the tokens row shifted right by the delay; positions before the delay have no target. Green: prediction right; red: wrong. Predictions come from the current weights (updated while training).",
    "“目标”一行就是“符号”一行右移 delay 位；delay 之前的位置没有目标。绿色：预测正确；红色：预测错误。预测来自当前权重（训练时不断更新）。",
);
/// Row: position.
pub const ROW_POS: Tr = tr("position t", "位置 t");
/// Row: tokens.
pub const ROW_TOKENS: Tr = tr("token x_t", "符号 x_t");
/// Row: targets.
pub const ROW_TARGETS: Tr = tr("target x_{t−delay}", "目标 x_{t−delay}");
/// Row: predictions of {0}.
pub const ROW_PRED: Tr = tr("{0} prediction", "{0} 预测");
/// Before predictions exist.
pub const NO_PREDICTIONS: Tr = tr(
    "Predictions appear once training starts.",
    "开始训练后会显示预测。",
);
/// Example accuracy of {0}.
pub const EXAMPLE_ACC: Tr = tr("{0} on this sequence", "在这条序列上 {0}");

/// About panel.
pub const ABOUT: Tr = tr("What to notice", "要点");
/// About 1.
pub const ABOUT_1: Tr = tr(
    "Without memory no model beats chance (1 / vocabulary size): the token at t − delay is independent of everything at t. Any drop of the loss below the chance line is information carried across delay steps.",
    "没有记忆的模型无法超过随机猜测（1 / 词表大小）：位置 t − delay 的符号与位置 t 的一切都无关。损失只要低于随机猜测线，就说明信息被带过了 delay 步。",
);
/// About 2.
pub const ABOUT_2: Tr = tr(
    "At the same hidden size the LSTM has about four times the parameters of the RNN (four gate blocks i, f, g, o instead of one); the counts next to the curves are computed from the parameter layout, as PyTorch counts them.",
    "隐藏大小相同时，LSTM 的参数约为 RNN 的四倍（i、f、g、o 四个门块，而不是一个）；曲线旁的参数量由参数布局算出，与 PyTorch 的计数方式一致。",
);
/// About 3.
pub const ABOUT_3: Tr = tr(
    "Try the delay-64 preset: what teaches either cell must travel 64 steps back — through tanh and W_hh at every step for the RNN, along the cell state gated by f for the LSTM. Both start on the chance line; watch whether either leaves it, and which one first. Nothing here is scripted: the curves are whatever the training produces.",
    "试试 delay 64 预设：教会任一单元的信号都要回传 64 步——RNN 每一步都要穿过 tanh 和 W_hh，LSTM 则沿着由遗忘门 f 控制的细胞状态。两者都从随机猜测线出发；看看是否有一个离开这条线，以及谁先离开。这里没有预设结果：曲线就是训练实际得到的。",
);
