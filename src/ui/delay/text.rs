//! The delay page's own English and 简体中文 texts ([`Tr`] pairs; `{0}` placeholders are
//! filled by [`Tr::fill`]). No text contains a computed number.

use crate::delay::outcome::{CellRange, Outcome};
use crate::math::params::CellKind;
use crate::ui::i18n::{Lang, Tr};

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
/// The training-batch chart of runs kept from an earlier visit (only held-out figures are kept).
/// Short: the chart draws it on one line, at phone width too.
pub const BATCH_NOT_KEPT: Tr = tr("Not kept across visits", "不跨访问保存");

/// Example panel.
pub const EXAMPLE: Tr = tr(
    "One sequence, its targets and the predictions",
    "一条序列、它的目标与预测",
);
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
/// Predictions of runs kept from an earlier visit (their weights are not kept).
pub const NO_PREDICTIONS_KEPT: Tr = tr(
    "The runs shown were kept from an earlier visit without their weights, so there are no predictions; Start trains these settings again.",
    "显示的运行保存自之前的访问，未保存权重，因此没有预测；点击“开始”可用这些设置重新训练。",
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

/// `max_norm`.
pub const MAX_NORM: Tr = tr("Gradient clipping (max_norm)", "梯度裁剪（max_norm）");
/// Help of `max_norm`.
pub const MAX_NORM_HELP: Tr = tr(
    "global norm of all gradients before each Adam step, as clip_grad_norm_; 0 = off",
    "每次 Adam 更新前所有梯度的全局范数上限，同 clip_grad_norm_；0 = 不裁剪",
);
/// `forget_bias`.
pub const FORGET_BIAS: Tr = tr("LSTM forget-gate bias", "LSTM 遗忘门偏置");
/// Help of `forget_bias`.
pub const FORGET_BIAS_HELP: Tr = tr(
    "added to the forget block of bias_ih_l0 at initialisation; 0 = PyTorch's default",
    "初始化时加到 bias_ih_l0 的遗忘门块上；0 = PyTorch 默认初始化",
);
/// `forget_bias` disabled: no LSTM among the cells.
pub const FORGET_BIAS_NO_LSTM: Tr = tr("only the LSTM has a forget gate", "只有 LSTM 有遗忘门");
/// The forget-gate bias, explained. {0} the current forget_bias, {1} σ(forget_bias).
pub const FORGET_BIAS_NOTE: Tr = tr(
    "The LSTM's forget gate f = σ(W_if x + b_if + W_hf h + b_hf) decides how much of the cell state c survives each step. PyTorch draws both biases near 0, so f starts near σ(0) and c fades step after step before the network has learned anything to keep. Adding forget_bias = {0} to the forget block of bias_ih_l0 starts f near σ({0}) = {1}, so information lasts long enough for the gradient to find it (Gers, Schmidhuber & Cummins 2000; Jozefowicz, Zaremba & Sutskever 2015). Set it to 0 for PyTorch's default initialisation and compare.",
    "LSTM 的遗忘门 f = σ(W_if x + b_if + W_hf h + b_hf) 决定细胞状态 c 每一步保留多少。PyTorch 把两个偏置都初始化在 0 附近，所以 f 从 σ(0) 附近开始，在网络学会保留什么之前，c 就一步步衰减。把 forget_bias = {0} 加到 bias_ih_l0 的遗忘门块上，f 就从 σ({0}) = {1} 附近开始，信息保留得足够久，梯度才能找到它（Gers、Schmidhuber 与 Cummins 2000；Jozefowicz、Zaremba 与 Sutskever 2015）。设为 0 即为 PyTorch 默认初始化，可对比结果。",
);
/// `steps`.
pub const STEPS: Tr = tr("Steps per run", "每次运行的步数");
/// `seeds`.
pub const SEEDS: Tr = tr("Seeds per cell", "每个单元的种子数");
/// Help of `seeds`: {0} first seed, {1} last seed.
pub const SEEDS_HELP: Tr = tr("runs with seeds {0} … {1}", "使用种子 {0} … {1} 各运行一次");

/// Chart: held-out accuracy. {0} held-out sequences, {1} steps between evaluations.
pub const CHART_HELDOUT_ACC: Tr = tr(
    "Held-out token accuracy ({0} fixed sequences, evaluated every {1} steps; supervised positions only)",
    "留出集逐符号准确率（{0} 条固定序列，每 {1} 步评估一次；仅计受监督的位置）",
);
/// Chart: held-out loss.
pub const CHART_HELDOUT_LOSS: Tr = tr(
    "Held-out cross-entropy per supervised token (nats)",
    "留出集上每个受监督符号的交叉熵（nats）",
);
/// Chart: training-batch figures, labelled as such.
pub const CHART_TRAIN_BATCH: Tr = tr(
    "Training batch (fresh random sequences each step)",
    "训练批次（每步都是新的随机序列）",
);
/// Legend: the spread over seeds.
pub const SEED_SPREAD: Tr = tr("band: lowest to highest seed", "色带：各种子的最低到最高");
/// Progress: {0} finished runs, {1} runs.
pub const RUNS_DONE: Tr = tr("{0} of {1} runs finished", "已完成 {0} / {1} 次运行");
/// Progress: {0} estimated time left.
pub const TIME_LEFT: Tr = tr("about {0} left", "预计还需 {0}");
/// Budget: {0} steps, {1} seconds.
pub const BUDGET: Tr = tr("{0} steps in {1} s", "{0} 步，用时 {1} 秒");

/// Sweep summary panel.
pub const SUMMARY: Tr = tr("Final held-out accuracy vs delay", "最终留出集准确率与延迟");
/// Sweep summary note.
pub const SUMMARY_NOTE: Tr = tr(
    "One row per delay, filled as runs finish: mean over the seeds, with the lowest and highest seed. Only runs with the settings above are listed.",
    "每个延迟一行，运行完成后填入：各种子的平均值，以及最低和最高的种子。只列出与上方设置相同的运行。",
);
/// Sweep summary: no finished run yet.
pub const SUMMARY_EMPTY: Tr = tr(
    "No finished run with these settings yet.",
    "尚无使用这些设置完成的运行。",
);

/// Capacity. {0} delay, {1} vocab, {2} bits, {3} hidden size.
pub const CAPACITY: Tr = tr(
    "At delay {0} the state must hold the {0} most recent tokens at once: {0} · log2({1}) ≈ {2} bits of information. Each cell carries {3} floats in h (the LSTM as many again in c). Floats are not bits, so this is no bound; the runs above show what the cells reach.",
    "delay 为 {0} 时，状态必须同时保存最近的 {0} 个符号：{0} · log2({1}) ≈ {2} 比特的信息。每个单元在 h 中携带 {3} 个浮点数（LSTM 在 c 中还有同样多）。浮点数不是比特，所以这不是一个上界；实际能达到多少，请看上面的运行结果。",
);

/// Outcome: not enough runs. {0} delay, {1} cell, {2} finished, {3} expected.
pub const OUTCOME_WAIT: Tr = tr(
    "No conclusion yet at delay {0}: {1} has {2} of {3} runs finished.",
    "delay {0} 尚无结论：{1} 已完成 {3} 次运行中的 {2} 次。",
);
/// Outcome: every seed of every cell solved. {0} delay, {1} ranges.
pub const OUTCOME_ALL_SOLVED: Tr = tr(
    "At delay {0} every run solved the task: held-out accuracy {1}.",
    "delay {0} 时每次运行都解决了任务：留出集准确率 {1}。",
);
/// Outcome: every run at chance. {0} delay, {1} ranges, {2} chance.
pub const OUTCOME_ALL_CHANCE: Tr = tr(
    "At delay {0} every run stayed at chance ({2}): held-out accuracy {1}.",
    "delay {0} 时每次运行都停留在随机猜测水平（{2}）：留出集准确率 {1}。",
);
/// Outcome: some cells left chance, the others did not. {0} delay, {1} cells that learned,
/// {2} their ranges, {3} cells at chance, {4} their ranges, {5} chance.
pub const OUTCOME_ONLY_SOME: Tr = tr(
    "At delay {0} {1} left chance in every seed ({2}); {3} stayed at chance in every seed ({4}; chance {5}).",
    "delay {0} 时 {1} 在每个种子上都超过了随机猜测（{2}）；{3} 在每个种子上都停留在随机猜测水平（{4}；随机猜测 {5}）。",
);
/// Outcome: one cell's worst seed beats every other seed. {0} delay, {1} leader, {2} ranges.
pub const OUTCOME_LEADS: Tr = tr(
    "At delay {0} every run left chance, and the worst seed of {1} beats every seed of the others: {2}.",
    "delay {0} 时每次运行都超过了随机猜测，且 {1} 最差的种子也胜过其他单元的每个种子：{2}。",
);
/// Outcome: every run learned, no order. {0} delay, {1} ranges, {2} chance.
pub const OUTCOME_ALL_LEARNED: Tr = tr(
    "At delay {0} every run left chance ({2}): {1}. The seeds' ranges overlap or there are too few seeds, so these runs do not rank the cells.",
    "delay {0} 时每次运行都超过了随机猜测（{2}）：{1}。各种子的范围有重叠或种子太少，因此这些运行不足以给单元排名。",
);
/// Outcome: one cell, every seed learned. {0} delay, {1} cell, {2} range, {3} chance.
pub const OUTCOME_ONE_LEARNED: Tr = tr(
    "At delay {0} {1} left chance ({3}) in every seed: {2}.",
    "delay {0} 时 {1} 在每个种子上都超过了随机猜测（{3}）：{2}。",
);
/// Outcome: unclear. {0} delay, {1} cell, {2} range, {3} chance.
pub const OUTCOME_UNCLEAR: Tr = tr(
    "At delay {0} the seeds of {1} disagree or sit just above chance ({2}; chance {3}): no conclusion about {1} from these runs.",
    "delay {0} 时 {1} 的各种子结果不一致或仅略高于随机猜测（{2}；随机猜测 {3}）：这些运行不足以对 {1} 下结论。",
);

/// Status: finished. {0} steps per run.
pub const STATUS_DONE: Tr = tr("Finished ({0} steps per run)", "已完成（每次运行 {0} 步）");
/// Presets row help.
pub const PRESETS_HELP: Tr = tr(
    "The sweep: run each delay with the same settings; the summary below fills in as runs finish.",
    "延迟扫描：用相同设置依次运行各个延迟；运行完成后下方汇总表会逐步填入。",
);
/// Chart title: held-out accuracy.
pub const CHART_HELDOUT_ACC_TITLE: Tr = tr("Held-out token accuracy", "留出集逐符号准确率");
/// Chart title: training-batch loss.
pub const CHART_BATCH_LOSS: Tr = tr(
    "Training-batch loss (fresh random sequences each step; mean of the last 20 steps, one line per seed)",
    "训练批次损失（每步都是新的随机序列；最近 20 步的平均，每个种子一条线）",
);
/// Chart legend note: thin lines are seeds, the band their spread.
pub const SEED_LINES: Tr = tr(
    "One thin line per seed; the shaded band spans the lowest to the highest seed.",
    "每个种子一条细线；阴影带覆盖最低到最高的种子。",
);
/// Stat: held-out accuracy.
pub const STAT_HELDOUT_ACC: Tr = tr("Held-out accuracy", "留出集准确率");
/// Stat: held-out loss.
pub const STAT_HELDOUT_LOSS: Tr = tr("Held-out loss", "留出集损失");
/// Stat detail: mean over the seeds' latest evaluations; {0} seeds.
pub const HELDOUT_DETAIL: Tr = tr(
    "latest evaluation, mean over seeds: {0}",
    "最近一次评估，种子数：{0}，取平均",
);
/// Stat: training batch loss.
pub const STAT_BATCH_LOSS: Tr = tr("Training-batch loss", "训练批次损失");
/// Stat: training batch accuracy.
pub const STAT_BATCH_ACC: Tr = tr("Training-batch accuracy", "训练批次准确率");
/// Stat detail: the run being trained, last 20 steps.
pub const BATCH_DETAIL: Tr = tr(
    "seed {0}, mean of the last 20 steps",
    "种子 {0}，最近 20 步的平均",
);
/// Per-seed line: {0} seed, {1} held-out accuracy, {2} step of the evaluation.
pub const SEED_ROW: Tr = tr("seed {0}: {1} at step {2}", "种子 {0}：第 {2} 步 {1}");
/// Steps detail: the run of seed {0}.
pub const SEED_ROW_SHORT: Tr = tr("run of seed {0}", "种子 {0} 的运行");
/// Per-seed line, finished.
pub const SEED_FINAL: Tr = tr(" (final)", "（最终）");
/// Progress: {0} steps done, {1} steps in all.
pub const STEPS_DONE: Tr = tr("{0} of {1} steps", "{0} / {1} 步");
/// Progress: elapsed, {0} seconds.
pub const ELAPSED: Tr = tr("{0} s of training", "已训练 {0} 秒");
/// Budget of a run: {0} steps, {1} batch size.
pub const BUDGET_RUN: Tr = tr(
    "Budget: {0} steps per run of {1} sequences each; held-out set: {2} fixed sequences, evaluated every {3} steps and at the end.",
    "预算：每次运行 {0} 步，每步 {1} 条序列；留出集：{2} 条固定序列，每 {3} 步及结束时评估。",
);
/// Summary table header: delay.
pub const COL_DELAY: Tr = tr("delay", "延迟");
/// Summary table cell: {0} mean, {1} lowest, {2} highest, {3} seeds.
pub const SUMMARY_CELL: Tr = tr("{0} ({1}–{2}, {3} seeds)", "{0}（{1}–{2}，{3} 个种子）");
/// Summary: clear the table.
pub const SUMMARY_CLEAR: Tr = tr("Clear the summary", "清空汇总");
/// Summary: stored failed.
pub const SUMMARY_STORE_FAILED: Tr = tr(
    "The summary could not be kept in this browser: {0}",
    "汇总无法保存在此浏览器中：{0}",
);
/// Outcome heading.
pub const OUTCOME: Tr = tr("What these runs show: ", "这些运行说明了什么：");
/// Outcome before any run.
pub const OUTCOME_NONE: Tr = tr(
    "Start the runs: a sentence appears here once every seed of every cell has finished.",
    "开始运行：每个单元的所有种子都完成后，这里会出现结论。",
);
/// Restored runs.
pub const RESTORED: Tr = tr(
    "Runs of these settings kept from an earlier visit.",
    "之前访问时保存的、使用这些设置的运行。",
);
/// Forget-gate bias hook: {0} mean of b_if at initialisation, {1} seed.
pub const FORGET_BIAS_MEAN: Tr = tr(
    "Mean of the LSTM's forget block of bias_ih_l0 at initialisation (seed {1}): {0}",
    "LSTM 的 bias_ih_l0 遗忘门块在初始化时的平均值（种子 {1}）：{0}",
);
/// Capacity heading.
pub const CAPACITY_TITLE: Tr = tr("What delay 64 asks of the state", "delay 64 对状态的要求");

/// A cell's display name.
pub fn cell_name(cell: CellKind) -> &'static str {
    cell.name()
}

/// An accuracy (a fraction 0–1) with two decimals.
pub fn fmt_acc(x: f64) -> String {
    format!("{x:.2}")
}

/// `0.32–0.34`, or one value when both ends print alike.
fn fmt_range(r: &CellRange) -> String {
    let (a, b) = (fmt_acc(r.min), fmt_acc(r.max));
    if a == b {
        a
    } else {
        format!("{a}–{b}")
    }
}

/// `RNN 0.97–0.99, LSTM 0.10` (`、` in Chinese).
fn fmt_ranges(cells: &[CellRange], lang: Lang) -> String {
    let sep = match lang {
        Lang::En => ", ",
        Lang::Zh => "，",
    };
    cells
        .iter()
        .map(|r| format!("{} {}", cell_name(r.cell), fmt_range(r)))
        .collect::<Vec<_>>()
        .join(sep)
}

/// `RNN`, `RNN and LSTM`, `RNN, LSTM and GRU` (`RNN 与 LSTM`, `RNN、LSTM 与 GRU`).
fn fmt_names(cells: &[CellRange], lang: Lang) -> String {
    let names: Vec<&str> = cells.iter().map(|r| cell_name(r.cell)).collect();
    let (sep, and) = match lang {
        Lang::En => (", ", " and "),
        Lang::Zh => ("、", " 与 "),
    };
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{}{and}{last}", rest.join(sep)),
    }
}

/// The sentence for an [`Outcome`] of the runs at `delay`, in `lang`: every number in it comes
/// from the outcome (accuracies with two decimals).
pub fn outcome_sentence(outcome: &Outcome, delay: usize, lang: Lang) -> String {
    let d = delay.to_string();
    match outcome {
        Outcome::NotEnoughRuns { cell, have, need } => OUTCOME_WAIT.fill(
            lang,
            &[&d, cell_name(*cell), &have.to_string(), &need.to_string()],
        ),
        Outcome::AllSolved { cells } => {
            OUTCOME_ALL_SOLVED.fill(lang, &[&d, &fmt_ranges(cells, lang)])
        }
        Outcome::AllAtChance { cells, chance } => {
            OUTCOME_ALL_CHANCE.fill(lang, &[&d, &fmt_ranges(cells, lang), &fmt_acc(*chance)])
        }
        Outcome::OnlySome {
            learned,
            at_chance,
            chance,
        } => OUTCOME_ONLY_SOME.fill(
            lang,
            &[
                &d,
                &fmt_names(learned, lang),
                &fmt_ranges(learned, lang),
                &fmt_names(at_chance, lang),
                &fmt_ranges(at_chance, lang),
                &fmt_acc(*chance),
            ],
        ),
        Outcome::Leads { leader, others } => {
            let mut all = vec![*leader];
            all.extend_from_slice(others);
            OUTCOME_LEADS.fill(lang, &[&d, cell_name(leader.cell), &fmt_ranges(&all, lang)])
        }
        Outcome::AllLearned { cells, chance } if cells.len() == 1 => OUTCOME_ONE_LEARNED.fill(
            lang,
            &[
                &d,
                cell_name(cells[0].cell),
                &fmt_range(&cells[0]),
                &fmt_acc(*chance),
            ],
        ),
        Outcome::AllLearned { cells, chance } => {
            OUTCOME_ALL_LEARNED.fill(lang, &[&d, &fmt_ranges(cells, lang), &fmt_acc(*chance)])
        }
        Outcome::Unclear { cell, chance } => OUTCOME_UNCLEAR.fill(
            lang,
            &[
                &d,
                cell_name(cell.cell),
                &fmt_range(cell),
                &fmt_acc(*chance),
            ],
        ),
    }
}
