//! The delay-copy task page (`?lesson=delay`), and its verdict: the typed [`Outcome`] of the
//! runs written in each language, with the [`Verdict`]'s caveats (a budget below recipe R's,
//! the forget-gate bias when the LSTM stayed at chance).

use crate::shell::catalogue::catalogue;
use unroll_core::config::Lang;
use unroll_core::delay::outcome::{CellRange, Outcome, Verdict};
use unroll_core::math::params::CellKind;

catalogue! {
    /// The delay-copy task page.
    #[derive(Debug)]
    pub struct DelayText {
        /// Page title.
        pub title: &'static str {
            "The delay-copy task", "延迟复制任务"
        }
        /// Lede.
        pub lede: &'static str {
            "Random tokens go in; at every position the network must output the token it saw delay steps earlier. An RNN and an LSTM of the same hidden size learn it side by side on the same sequences, so you can see how far back each can carry information.", "随机的符号依次输入；在每个位置，网络都要输出它在 delay 步之前看到的那个符号。隐藏大小相同的 RNN 和 LSTM 在相同的序列上并排学习，可以看出各自能把信息带回多远。"
        }
        /// Where training runs.
        pub cpu_note: &'static str {
            "Training runs in a background worker of this tab, on WebGPU or on the CPU path (the Rust reference compiled to WebAssembly), as each cell's backend line says; the page stays responsive while it trains.", "训练在本标签页的后台线程中运行，使用 WebGPU 或 CPU 路径（编译成 WebAssembly 的 Rust 参考实现），见每个单元的“后端”一行；训练时页面保持可操作。"
        }
        /// A run's path after the GPU failed: {0} the step from which it ran on the CPU.
        pub cpu_from: fn(&str) -> String {
            |a0| format!("WebGPU, then the CPU from step {a0}"), |a0| format!("WebGPU，第 {a0} 步起改用 CPU")
        }
        /// Settings panel.
        pub settings: &'static str {
            "Task and model", "任务与模型"
        }
        /// Presets row.
        pub presets: &'static str {
            "Presets", "预设"
        }
        /// Preset button: {0} delay.
        pub preset: fn(&str) -> String {
            |a0| format!("delay {a0}"), |a0| format!("delay {a0}")
        }
        /// Preset button tooltip: {0} delay, {1} the length set when the current one is too short.
        pub preset_tip: fn(&str, &str) -> String {
            |a0, a1| format!("Sets delay = {a0}; length becomes {a1} only if it is not above {a0}. Your other settings (cells, vocab, hidden size, learning rate, batch, seed) are kept."), |a0, a1| format!("设置 delay = {a0}；仅当 length 不大于 {a0} 时改为 {a1}。其他设置（单元、词表、隐藏大小、学习率、批大小、种子）保持不变。")
        }
        /// `cell`.
        pub cells: &'static str {
            "Cells", "单元"
        }
        /// Cell choice: both.
        pub cells_both: &'static str {
            "RNN and LSTM", "RNN 与 LSTM"
        }
        /// Cell choice: all.
        pub cells_all: &'static str {
            "RNN, LSTM and GRU", "RNN、LSTM 与 GRU"
        }
        /// Cell choice: one.
        pub cells_only: fn(&str) -> String {
            |a0| format!("{a0} only"), |a0| format!("仅 {a0}")
        }
        /// `delay`.
        pub delay: &'static str {
            "Delay", "延迟"
        }
        /// Help of `delay`.
        pub delay_help: &'static str {
            "target at position t = token at t − delay", "位置 t 的目标 = 位置 t − delay 的符号"
        }
        /// `length`.
        pub length: &'static str {
            "Sequence length", "序列长度"
        }
        /// `vocab`.
        pub vocab: &'static str {
            "Vocabulary size", "词表大小"
        }
        /// `hidden_size`.
        pub hidden: &'static str {
            "Hidden size", "隐藏大小"
        }
        /// `lr`.
        pub lr: &'static str {
            "Learning rate (Adam)", "学习率（Adam）"
        }
        /// `batch_size`.
        pub batch: &'static str {
            "Sequences per step", "每步序列数"
        }
        /// `seed`.
        pub seed: &'static str {
            "Seed", "随机种子"
        }
        /// Locked form.
        pub locked: &'static str {
            "Settings are locked while a run exists; Reset to change them.", "存在训练时设置被锁定；点击“重置”后可修改。"
        }
        /// Start.
        pub start: &'static str {
            "Start", "开始"
        }
        /// Pause.
        pub pause: &'static str {
            "Pause", "暂停"
        }
        /// Resume.
        pub resume: &'static str {
            "Resume", "继续"
        }
        /// Reset.
        pub reset: &'static str {
            "Reset", "重置"
        }
        /// Status: idle.
        pub status_idle: &'static str {
            "Not started", "未开始"
        }
        /// Status: running.
        pub status_running: &'static str {
            "Training", "训练中"
        }
        /// Status: paused.
        pub status_paused: &'static str {
            "Paused", "已暂停"
        }
        /// Status: finished.
        pub status_finished: fn(&str) -> String {
            |a0| format!("Finished ({a0} steps per cell)"), |a0| format!("已完成（每个单元 {a0} 步）")
        }
        /// Invalid delay: zero.
        pub invalid_zero: fn(&str) -> String {
            |a0| format!("The delay must be at least 1: with delay 0 the target is the current token, so there is nothing to remember. Choose a delay from 1 to {a0}."), |a0| format!("延迟至少为 1：延迟为 0 时目标就是当前符号，无需记忆。请选择 1 到 {a0} 之间的延迟。")
        }
        /// Invalid delay: too long. {0} delay, {1} length, {2} largest delay.
        pub invalid_long: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("The delay ({a0}) must be smaller than the sequence length ({a1}): no position would have a target. Choose a delay from 1 to {a2}, or a longer sequence."), |a0, a1, a2| format!("延迟（{a0}）必须小于序列长度（{a1}）：否则没有任何位置有目标。请选择 1 到 {a2} 之间的延迟，或加长序列。")
        }
        /// Progress panel.
        pub progress: &'static str {
            "Side by side", "并排比较"
        }
        /// Stat: steps.
        pub stat_steps: &'static str {
            "Steps", "步数"
        }
        /// Stat: loss.
        pub stat_loss: &'static str {
            "Loss", "损失"
        }
        /// Stat: accuracy.
        pub stat_acc: &'static str {
            "Token accuracy", "逐符号准确率"
        }
        /// Stat detail: mean of the last steps.
        pub last_20: &'static str {
            "mean of the last 20 steps", "最近 20 步的平均"
        }
        /// Stat detail: first step's loss {0}.
        pub first_loss: fn(&str) -> String {
            |a0| format!("step 1: {a0}"), |a0| format!("第 1 步：{a0}")
        }
        /// Stat: parameters.
        pub stat_params: &'static str {
            "Parameters", "参数量"
        }
        /// Parameters detail: {0} recurrent, {1} head.
        pub params_detail: fn(&str, &str) -> String {
            |a0, a1| format!("{a0} recurrent + {a1} head"), |a0, a1| format!("循环层 {a0} + 输出层 {a1}")
        }
        /// Chart: accuracy.
        pub chart_acc: &'static str {
            "Per-token accuracy on each step's batch (supervised positions only)", "每步批次上的逐符号准确率（仅计受监督的位置）"
        }
        /// Chart: loss.
        pub chart_loss: &'static str {
            "Cross-entropy per supervised token (nats)", "每个受监督符号的交叉熵（nats）"
        }
        /// Axis: step.
        pub axis_step: &'static str {
            "step (per cell)", "步（每个单元）"
        }
        /// Axis: accuracy.
        pub axis_acc: &'static str {
            "token accuracy", "逐符号准确率"
        }
        /// Axis: loss.
        pub axis_loss: &'static str {
            "loss", "损失"
        }
        /// Legend: chance.
        pub chance: &'static str {
            "chance", "随机猜测"
        }
        /// Empty chart.
        pub chart_empty: &'static str {
            "Press Start to train", "点击“开始”进行训练"
        }
        /// The training-batch chart of runs kept from an earlier visit (only held-out figures are kept).
        /// Short: the chart draws it on one line, at phone width too.
        pub batch_not_kept: &'static str {
            "Not kept across visits", "不跨访问保存"
        }
        /// Example panel.
        pub example: &'static str {
            "One sequence, its targets and the predictions", "一条序列、它的目标与预测"
        }
        /// Example note.
        pub example_note: &'static str {
            "The targets row is the tokens row shifted right by the delay; positions before the delay have no target. Green: prediction right; red: wrong. Predictions come from the current weights (updated while training).", "“目标”一行就是“符号”一行右移 delay 位；delay 之前的位置没有目标。绿色：预测正确；红色：预测错误。预测来自当前权重（训练时不断更新）。"
        }
        /// Row: position.
        pub row_pos: &'static str {
            "position t", "位置 t"
        }
        /// Row: tokens.
        pub row_tokens: &'static str {
            "token x_t", "符号 x_t"
        }
        /// Row: targets.
        pub row_targets: &'static str {
            "target x_{t−delay}", "目标 x_{t−delay}"
        }
        /// Row: predictions of {0}.
        pub row_pred: fn(&str) -> String {
            |a0| format!("{a0} prediction"), |a0| format!("{a0} 预测")
        }
        /// Before predictions exist.
        pub no_predictions: &'static str {
            "Predictions appear once training starts.", "开始训练后会显示预测。"
        }
        /// Predictions of runs kept from an earlier visit (their weights are not kept).
        pub no_predictions_kept: &'static str {
            "The runs shown were kept from an earlier visit without their weights, so there are no predictions; Start trains these settings again.", "显示的运行保存自之前的访问，未保存权重，因此没有预测；点击“开始”可用这些设置重新训练。"
        }
        /// Example accuracy of {0}.
        pub example_acc: fn(&str) -> String {
            |a0| format!("{a0} on this sequence"), |a0| format!("在这条序列上 {a0}")
        }
        /// About panel.
        pub about: &'static str {
            "What to notice", "要点"
        }
        /// About 1.
        pub about_1: &'static str {
            "Without memory no model beats chance (1 / vocabulary size): the token at t − delay is independent of everything at t. Any drop of the loss below the chance line is information carried across delay steps.", "没有记忆的模型无法超过随机猜测（1 / 词表大小）：位置 t − delay 的符号与位置 t 的一切都无关。损失只要低于随机猜测线，就说明信息被带过了 delay 步。"
        }
        /// About 2.
        pub about_2: &'static str {
            "At the same hidden size the LSTM has about four times the parameters of the RNN (four gate blocks i, f, g, o instead of one); the counts next to the curves are computed from the parameter layout, as PyTorch counts them.", "隐藏大小相同时，LSTM 的参数约为 RNN 的四倍（i、f、g、o 四个门块，而不是一个）；曲线旁的参数量由参数布局算出，与 PyTorch 的计数方式一致。"
        }
        /// About 3.
        pub about_3: &'static str {
            "Try the delay-64 preset: what teaches either cell must travel 64 steps back — through tanh and W_hh at every step for the RNN, along the cell state gated by f for the LSTM. Both start on the chance line; watch whether either leaves it, and which one first. Nothing here is scripted: the curves are whatever the training produces.", "试试 delay 64 预设：教会任一单元的信号都要回传 64 步——RNN 每一步都要穿过 tanh 和 W_hh，LSTM 则沿着由遗忘门 f 控制的细胞状态。两者都从随机猜测线出发；看看是否有一个离开这条线，以及谁先离开。这里没有预设结果：曲线就是训练实际得到的。"
        }
        /// `max_norm`.
        pub max_norm: &'static str {
            "Gradient clipping (max_norm)", "梯度裁剪（max_norm）"
        }
        /// Help of `max_norm`.
        pub max_norm_help: &'static str {
            "global norm of all gradients before each Adam step, as clip_grad_norm_; 0 = off", "每次 Adam 更新前所有梯度的全局范数上限，同 clip_grad_norm_；0 = 不裁剪"
        }
        /// `forget_bias`.
        pub forget_bias: &'static str {
            "LSTM forget-gate bias", "LSTM 遗忘门偏置"
        }
        /// Help of `forget_bias`.
        pub forget_bias_help: &'static str {
            "added to the forget block of bias_ih_l0 at initialisation; 0 = PyTorch's default", "初始化时加到 bias_ih_l0 的遗忘门块上；0 = PyTorch 默认初始化"
        }
        /// `forget_bias` disabled: no LSTM among the cells.
        pub forget_bias_no_lstm: &'static str {
            "only the LSTM has a forget gate", "只有 LSTM 有遗忘门"
        }
        /// The forget-gate bias, explained. {0} the current forget_bias, {1} σ(forget_bias).
        pub forget_bias_note: fn(&str, &str) -> String {
            |a0, a1| format!("The LSTM's forget gate f = σ(W_if x + b_if + W_hf h + b_hf) decides how much of the cell state c survives each step. PyTorch draws both biases near 0, so f starts near σ(0) and c fades step after step before the network has learned anything to keep. Adding forget_bias = {a0} to the forget block of bias_ih_l0 starts f near σ({a0}) = {a1}, so information lasts long enough for the gradient to find it (Gers, Schmidhuber & Cummins 2000; Jozefowicz, Zaremba & Sutskever 2015). Set it to 0 for PyTorch's default initialisation and compare."), |a0, a1| format!("LSTM 的遗忘门 f = σ(W_if x + b_if + W_hf h + b_hf) 决定细胞状态 c 每一步保留多少。PyTorch 把两个偏置都初始化在 0 附近，所以 f 从 σ(0) 附近开始，在网络学会保留什么之前，c 就一步步衰减。把 forget_bias = {a0} 加到 bias_ih_l0 的遗忘门块上，f 就从 σ({a0}) = {a1} 附近开始，信息保留得足够久，梯度才能找到它（Gers、Schmidhuber 与 Cummins 2000；Jozefowicz、Zaremba 与 Sutskever 2015）。设为 0 即为 PyTorch 默认初始化，可对比结果。")
        }
        /// `steps`.
        pub steps: &'static str {
            "Steps per run", "每次运行的步数"
        }
        /// `seeds`.
        pub seeds: &'static str {
            "Seeds per cell", "每个单元的种子数"
        }
        /// Help of `seeds`: {0} first seed, {1} last seed.
        pub seeds_help: fn(&str, &str) -> String {
            |a0, a1| format!("runs with seeds {a0} … {a1}"), |a0, a1| format!("使用种子 {a0} … {a1} 各运行一次")
        }
        /// Chart: held-out accuracy. {0} held-out sequences, {1} steps between evaluations.
        pub chart_heldout_acc: fn(&str, &str) -> String {
            |a0, a1| format!("Held-out token accuracy ({a0} fixed sequences, evaluated every {a1} steps; supervised positions only)"), |a0, a1| format!("留出集逐符号准确率（{a0} 条固定序列，每 {a1} 步评估一次；仅计受监督的位置）")
        }
        /// Chart: held-out loss.
        pub chart_heldout_loss: &'static str {
            "Held-out cross-entropy per supervised token (nats)", "留出集上每个受监督符号的交叉熵（nats）"
        }
        /// Chart: training-batch figures, labelled as such.
        pub chart_train_batch: &'static str {
            "Training batch (fresh random sequences each step)", "训练批次（每步都是新的随机序列）"
        }
        /// Legend: the spread over seeds.
        pub seed_spread: &'static str {
            "band: lowest to highest seed", "色带：各种子的最低到最高"
        }
        /// Progress: {0} finished runs, {1} runs.
        pub runs_done: fn(&str, &str) -> String {
            |a0, a1| format!("{a0} of {} finished", crate::kit::text::count_en(a1, "run")), |a0, a1| format!("已完成 {a0} / {a1} 次运行")
        }
        /// Progress: {0} estimated time left.
        pub time_left: fn(&str) -> String {
            |a0| format!("about {a0} left"), |a0| format!("预计还需 {a0}")
        }
        /// Budget: {0} steps, {1} seconds.
        pub budget: fn(&str, &str) -> String {
            |a0, a1| format!("{a0} steps in {a1} s"), |a0, a1| format!("{a0} 步，用时 {a1} 秒")
        }
        /// Sweep summary panel.
        pub summary: &'static str {
            "Final held-out accuracy vs delay", "最终留出集准确率与延迟"
        }
        /// Sweep summary note.
        pub summary_note: &'static str {
            "One row per delay, filled as runs finish: mean over the seeds, with the lowest and highest seed. Runs of other settings kept in this browser are listed beside them, labelled by the settings that differ.", "每个延迟一行，运行完成后填入：各种子的平均值，以及最低和最高的种子。此浏览器中保存的其他设置的运行并列显示，并标出不同的设置。"
        }
        /// Sweep summary: no finished run yet.
        pub summary_empty: &'static str {
            "No finished run with these settings yet.", "尚无使用这些设置完成的运行。"
        }
        /// Capacity. {0} delay, {1} vocab, {2} bits, {3} hidden size.
        pub capacity: fn(&str, &str, &str, &str) -> String {
            |a0, a1, a2, a3| format!("At delay {a0} the state must hold the {a0} most recent tokens at once: {a0} · log2({a1}) ≈ {a2} bits of information. Each cell carries {a3} floats in h (the LSTM as many again in c). Floats are not bits, so this is no bound; the runs above show what the cells reach."), |a0, a1, a2, a3| format!("delay 为 {a0} 时，状态必须同时保存最近的 {a0} 个符号：{a0} · log2({a1}) ≈ {a2} 比特的信息。每个单元在 h 中携带 {a3} 个浮点数（LSTM 在 c 中还有同样多）。浮点数不是比特，所以这不是一个上界；实际能达到多少，请看上面的运行结果。")
        }
        /// Outcome: not enough runs. {0} delay, {1} cell, {2} finished, {3} expected.
        pub outcome_wait: fn(&str, &str, &str, &str) -> String {
            |a0, a1, a2, a3| format!("No conclusion yet at delay {a0}: {a1} has {a2} of {} finished.", crate::kit::text::count_en(a3, "run")), |a0, a1, a2, a3| format!("delay {a0} 尚无结论：{a1} 已完成 {a3} 次运行中的 {a2} 次。")
        }
        /// Outcome: every seed of every cell solved. {0} delay, {1} ranges.
        pub outcome_all_solved: fn(&str, &str) -> String {
            |a0, a1| format!("At delay {a0} every run solved the task: held-out accuracy {a1}."), |a0, a1| format!("delay {a0} 时每次运行都解决了任务：留出集准确率 {a1}。")
        }
        /// Outcome: every run at chance. {0} delay, {1} ranges, {2} chance.
        pub outcome_all_chance: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("At delay {a0} every run stayed at chance ({a2}): held-out accuracy {a1}."), |a0, a1, a2| format!("delay {a0} 时每次运行都停留在随机猜测水平（{a2}）：留出集准确率 {a1}。")
        }
        /// Outcome: some cells left chance, the others did not. {0} delay, {1} cells that learned,
        /// {2} their ranges, {3} cells at chance, {4} their ranges, {5} chance.
        pub outcome_only_some: fn(&str, &str, &str, &str, &str, &str) -> String {
            |a0, a1, a2, a3, a4, a5| format!("At delay {a0} {a1} left chance in every seed ({a2}); {a3} stayed at chance in every seed ({a4}; chance {a5})."), |a0, a1, a2, a3, a4, a5| format!("delay {a0} 时 {a1} 在每个种子上都超过了随机猜测（{a2}）；{a3} 在每个种子上都停留在随机猜测水平（{a4}；随机猜测 {a5}）。")
        }
        /// Outcome: one cell's worst seed beats every other seed. {0} delay, {1} leader, {2} ranges.
        pub outcome_leads: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("At delay {a0} every run left chance, and the worst seed of {a1} beats every seed of the others: {a2}."), |a0, a1, a2| format!("delay {a0} 时每次运行都超过了随机猜测，且 {a1} 最差的种子也胜过其他单元的每个种子：{a2}。")
        }
        /// Outcome: every run learned, no order. {0} delay, {1} ranges, {2} chance.
        pub outcome_all_learned: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("At delay {a0} every run left chance ({a2}): {a1}. The seeds' ranges overlap or there are too few seeds, so these runs do not rank the cells."), |a0, a1, a2| format!("delay {a0} 时每次运行都超过了随机猜测（{a2}）：{a1}。各种子的范围有重叠或种子太少，因此这些运行不足以给单元排名。")
        }
        /// Outcome: one cell, every seed learned. {0} delay, {1} cell, {2} range, {3} chance.
        pub outcome_one_learned: fn(&str, &str, &str, &str) -> String {
            |a0, a1, a2, a3| format!("At delay {a0} {a1} left chance ({a3}) in every seed: {a2}."), |a0, a1, a2, a3| format!("delay {a0} 时 {a1} 在每个种子上都超过了随机猜测（{a3}）：{a2}。")
        }
        /// Outcome: unclear. {0} delay, {1} cell, {2} range, {3} chance.
        pub outcome_unclear: fn(&str, &str, &str, &str) -> String {
            |a0, a1, a2, a3| format!("At delay {a0} the seeds of {a1} disagree or sit just above chance ({a2}; chance {a3}): no conclusion about {a1} from these runs."), |a0, a1, a2, a3| format!("delay {a0} 时 {a1} 的各种子结果不一致或仅略高于随机猜测（{a2}；随机猜测 {a3}）：这些运行不足以对 {a1} 下结论。")
        }
        /// Status: finished. {0} steps per run.
        pub status_done: fn(&str) -> String {
            |a0| format!("Finished ({a0} steps per run)"), |a0| format!("已完成（每次运行 {a0} 步）")
        }
        /// Presets row help.
        pub presets_help: &'static str {
            "The sweep: run each delay with the same settings; the summary below fills in as runs finish.", "延迟扫描：用相同设置依次运行各个延迟；运行完成后下方汇总表会逐步填入。"
        }
        /// Chart title: held-out accuracy.
        pub chart_heldout_acc_title: &'static str {
            "Held-out token accuracy", "留出集逐符号准确率"
        }
        /// Chart title: training-batch loss.
        pub chart_batch_loss: &'static str {
            "Training-batch loss (fresh random sequences each step; mean of the last 20 steps, one line per seed)", "训练批次损失（每步都是新的随机序列；最近 20 步的平均，每个种子一条线）"
        }
        /// Chart legend note: thin lines are seeds, the band their spread.
        pub seed_lines: &'static str {
            "One thin line per seed; the shaded band spans the lowest to the highest seed.", "每个种子一条细线；阴影带覆盖最低到最高的种子。"
        }
        /// Stat: held-out accuracy.
        pub stat_heldout_acc: &'static str {
            "Held-out accuracy", "留出集准确率"
        }
        /// Stat: held-out loss.
        pub stat_heldout_loss: &'static str {
            "Held-out loss", "留出集损失"
        }
        /// Stat detail: mean over the seeds' latest evaluations; {0} seeds.
        pub heldout_detail: fn(&str) -> String {
            |a0| format!("latest evaluation, mean over seeds: {a0}"), |a0| format!("最近一次评估，种子数：{a0}，取平均")
        }
        /// Stat: training batch loss.
        pub stat_batch_loss: &'static str {
            "Training-batch loss", "训练批次损失"
        }
        /// Stat: training batch accuracy.
        pub stat_batch_acc: &'static str {
            "Training-batch accuracy", "训练批次准确率"
        }
        /// Stat detail: the run being trained, last 20 steps.
        pub batch_detail: fn(&str) -> String {
            |a0| format!("seed {a0}, mean of the last 20 steps"), |a0| format!("种子 {a0}，最近 20 步的平均")
        }
        /// Per-seed line: {0} seed, {1} held-out accuracy, {2} step of the evaluation.
        pub seed_row: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("seed {a0}: {a1} at step {a2}"), |a0, a1, a2| format!("种子 {a0}：第 {a2} 步 {a1}")
        }
        /// Steps detail: the run of seed {0}.
        pub seed_row_short: fn(&str) -> String {
            |a0| format!("run of seed {a0}"), |a0| format!("种子 {a0} 的运行")
        }
        /// Per-seed line, finished.
        pub seed_final: &'static str {
            " (final)", "（最终）"
        }
        /// Progress: {0} steps done, {1} steps in all.
        pub steps_done: fn(&str, &str) -> String {
            |a0, a1| format!("{a0} of {a1} steps"), |a0, a1| format!("{a0} / {a1} 步")
        }
        /// Progress: elapsed, {0} seconds.
        pub elapsed: fn(&str) -> String {
            |a0| format!("{a0} s of training"), |a0| format!("已训练 {a0} 秒")
        }
        /// Budget of a run: {0} steps, {1} batch size.
        pub budget_run: fn(&str, &str, &str, &str) -> String {
            |a0, a1, a2, a3| format!("Budget: {a0} steps per run of {a1} sequences each; held-out set: {a2} fixed sequences, evaluated every {a3} steps and at the end."), |a0, a1, a2, a3| format!("预算：每次运行 {a0} 步，每步 {a1} 条序列；留出集：{a2} 条固定序列，每 {a3} 步及结束时评估。")
        }
        /// Summary table header: delay.
        pub col_delay: &'static str {
            "delay", "延迟"
        }
        /// Summary table cell: {0} mean, {1} lowest, {2} highest, {3} seeds.
        pub summary_cell: fn(&str, &str, &str, &str) -> String {
            |a0, a1, a2, a3| format!("{a0} ({a1}–{a2}, {})", crate::kit::text::count_en(a3, "seed")), |a0, a1, a2, a3| format!("{a0}（{a1}–{a2}，{a3} 个种子）")
        }
        /// Summary: clear the table.
        pub summary_clear: &'static str {
            "Clear the summary", "清空汇总"
        }
        /// Summary: storing failed; {0} why ([`crate::kit::keep_text::KeepText::storage_error`]).
        pub summary_store_failed: fn(&str) -> String {
            |a0| format!("The summary could not be kept in this browser: {a0}"), |a0| format!("汇总无法保存在此浏览器中：{a0}")
        }
        /// Outcome heading.
        pub outcome: &'static str {
            "What these runs show: ", "这些运行说明了什么："
        }
        /// Outcome before any run.
        pub outcome_none: &'static str {
            "Start the runs: a sentence appears here once every seed of every cell has finished.", "开始运行：每个单元的所有种子都完成后，这里会出现结论。"
        }
        /// Restored runs.
        pub restored: &'static str {
            "Runs of these settings kept from an earlier visit.", "之前访问时保存的、使用这些设置的运行。"
        }
        /// Verdict caveat: {0} steps per run, {1} recipe R's steps, {2} the share of them.
        pub verdict_short_budget: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("These runs trained {a0} steps each, {a2} of recipe R's {a1}: the outcome may change with more training."), |a0, a1, a2| format!("这些运行每个只训练了 {a0} 步，是配方 R 的 {a1} 步的 {a2}：训练更久，结果可能不同。")
        }
        /// Verdict pointer: {0} the runs' forget_bias, {1} recipe R's.
        pub verdict_forget_bias: fn(&str, &str) -> String {
            |a0, a1| format!("The LSTM stayed at chance with forget_bias = {a0}: see “LSTM forget-gate bias” below (recipe R uses {a1})."), |a0, a1| format!("forget_bias = {a0} 时 LSTM 停留在随机猜测水平：见下方“LSTM 遗忘门偏置”（配方 R 用 {a1}）。")
        }
        /// Summary table header: the settings of a row.
        pub col_settings: &'static str {
            "Settings", "设置"
        }
        /// Summary: the row of the settings in the form.
        pub summary_these_settings: &'static str {
            "the settings above", "上方的设置"
        }
        /// Resume offer after a reload: {0} runs finished and kept, {1} runs planned.
        pub resume_offer: fn(&str, &str) -> String {
            |a0, a1| format!("A sweep of these settings was stopped by a reload: {a0} of {} finished and are kept. Resume trains the others; the seed that was training starts again from step 0.", crate::kit::text::count_en(a1, "run")), |a0, a1| format!("这些设置的一轮运行被页面重新加载打断：{a1} 个运行中已完成的 {a0} 个已保存。点击“继续”训练其余的运行；中断时正在训练的种子从第 0 步重新开始。")
        }
        /// Resume offer after a reload, with a checkpoint of the seed that was training: {0} runs
        /// finished and kept, {1} runs planned, {2} the seed's number in the sweep (from 1), {3}
        /// seeds in the sweep, {4} the step of the checkpoint.
        pub resume_offer_from: fn(&str, &str, &str, &str, &str) -> String {
            |a0, a1, a2, a3, a4| format!("A sweep of these settings was stopped by a reload: {a0} of {} finished and are kept. Resume trains the rest: it resumes seed {a2} of {a3} from step {a4} (its last save) with the same weights, optimiser state and batches.", crate::kit::text::count_en(a1, "run")), |a0, a1, a2, a3, a4| format!("这些设置的一轮运行被页面重新加载打断：{a1} 个运行中已完成的 {a0} 个已保存。点击“继续”将从最后保存的第 {a4} 步接着训练第 {a2} 个种子（共 {a3} 个），权重、优化器状态和批次都与中断前相同。")
        }
        /// The latest checkpoint of the training seed: {0} the seed's number in the sweep (from
        /// 1), {1} seeds in the sweep, {2} its step.
        pub checkpoint_saved: fn(&str, &str, &str) -> String {
            |a0, a1, a2| format!("Seed {a0} of {a1} saved at step {a2}: a reload resumes it from there."), |a0, a1, a2| format!("第 {a0} 个种子（共 {a1} 个）已保存在第 {a2} 步：重新加载页面后从这里继续。")
        }
        /// Forget-gate bias hook: {0} mean of b_if at initialisation, {1} seed.
        pub forget_bias_mean: fn(&str, &str) -> String {
            |a0, a1| format!("Mean of the LSTM's forget block of bias_ih_l0 at initialisation (seed {a1}): {a0}"), |a0, a1| format!("LSTM 的 bias_ih_l0 遗忘门块在初始化时的平均值（种子 {a1}）：{a0}")
        }
        /// Capacity heading.
        pub capacity_title: &'static str {
            "What delay 64 asks of the state", "delay 64 对状态的要求"
        }
        /// "As PyTorch" panel heading.
        pub pytorch_heading: &'static str {
            "As PyTorch", "对应的 PyTorch 代码"
        }
        /// What the script is and how it compares with the page.
        pub pytorch_help: &'static str {
            "These settings as a complete PyTorch script: the same task (random tokens, the target delay steps back, loss and accuracy on the supervised positions), the same models (nn.RNN / nn.LSTM / nn.GRU with a Linear head at every position, parameters rnn.* and fc.*), PyTorch's initialisation plus the forget-gate bias, Adam, the clipping, the steps, seeds and the held-out set of 256 sequences evaluated on this page's schedule. It draws its tokens and weights from the same seeds with torch's generator, so its runs agree with this page's in outcome, not digit for digit.", "把这些设置写成一个完整的 PyTorch 脚本：同样的任务（随机词元，目标是 delay 步之前的词元，只在有监督的位置计算损失和准确率）、同样的模型（nn.RNN / nn.LSTM / nn.GRU，每个位置接一个 Linear 输出层，参数名 rnn.* 和 fc.*）、PyTorch 的初始化加遗忘门偏置、Adam、梯度裁剪、步数、种子，以及按本页的节奏评估的 256 条留出序列。它用 torch 的随机数生成器从相同的种子抽取词元和权重，所以结果与本页在结论上一致，而不是逐位相同。"
        }
    }
}

/// A cell's display name.
pub fn cell_name(cell: CellKind) -> &'static str {
    cell.name()
}

/// `75` → `1 min 15 s`, `8` → `8 s`.
pub fn fmt_seconds(s: f64, lang: Lang) -> String {
    let s = s.max(0.0).round() as u64;
    let (m, r) = (s / 60, s % 60);
    match (lang, m) {
        (Lang::En, 0) => format!("{r} s"),
        (Lang::En, _) => format!("{m} min {r} s"),
        (Lang::Zh, 0) => format!("{r} 秒"),
        (Lang::Zh, _) => format!("{m} 分 {r} 秒"),
    }
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
    let kinds: Vec<CellKind> = cells.iter().map(|r| r.cell).collect();
    fmt_cell_names(&kinds, lang)
}

/// `RNN`, `RNN and LSTM`, `RNN, LSTM and GRU` (`RNN 与 LSTM`, `RNN、LSTM 与 GRU`).
pub fn fmt_cell_names(cells: &[CellKind], lang: Lang) -> String {
    let names: Vec<&str> = cells.iter().map(|c| cell_name(*c)).collect();
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
        Outcome::NotEnoughRuns { cell, have, need } => (DelayText::of(lang).outcome_wait)(
            &d,
            cell_name(*cell),
            &have.to_string(),
            &need.to_string(),
        ),
        Outcome::AllSolved { cells } => {
            (DelayText::of(lang).outcome_all_solved)(&d, &fmt_ranges(cells, lang))
        }
        Outcome::AllAtChance { cells, chance } => (DelayText::of(lang).outcome_all_chance)(
            &d,
            &fmt_ranges(cells, lang),
            &fmt_acc(*chance),
        ),
        Outcome::OnlySome {
            learned,
            at_chance,
            chance,
        } => (DelayText::of(lang).outcome_only_some)(
            &d,
            &fmt_names(learned, lang),
            &fmt_ranges(learned, lang),
            &fmt_names(at_chance, lang),
            &fmt_ranges(at_chance, lang),
            &fmt_acc(*chance),
        ),
        Outcome::Leads { leader, others } => {
            let mut all = vec![*leader];
            all.extend_from_slice(others);
            (DelayText::of(lang).outcome_leads)(&d, cell_name(leader.cell), &fmt_ranges(&all, lang))
        }
        Outcome::AllLearned { cells, chance } if cells.len() == 1 => (DelayText::of(lang)
            .outcome_one_learned)(
            &d,
            cell_name(cells[0].cell),
            &fmt_range(&cells[0]),
            &fmt_acc(*chance),
        ),
        Outcome::AllLearned { cells, chance } => (DelayText::of(lang).outcome_all_learned)(
            &d,
            &fmt_ranges(cells, lang),
            &fmt_acc(*chance),
        ),
        Outcome::Unclear { cell, chance } => (DelayText::of(lang).outcome_unclear)(
            &d,
            cell_name(cell.cell),
            &fmt_range(cell),
            &fmt_acc(*chance),
        ),
    }
}

/// The caveat of a [`Verdict`] whose budget is below recipe R's, in `lang` (`None` otherwise).
pub fn short_budget_sentence(v: &Verdict, lang: Lang) -> Option<String> {
    v.short_budget.map(|b| {
        (DelayText::of(lang).verdict_short_budget)(
            &commas(b.steps),
            &commas(b.recipe_steps),
            &format!("{:.0}%", b.fraction() * 100.0),
        )
    })
}

/// The pointer of a [`Verdict`] to the forget-bias note, in `lang` (`None` when it has none).
pub fn forget_bias_sentence(v: &Verdict, lang: Lang) -> Option<String> {
    v.forget_bias.map(|b| {
        (DelayText::of(lang).verdict_forget_bias)(
            &b.to_string(),
            &unroll_core::config::delay::DelayConfig::default()
                .forget_bias
                .to_string(),
        )
    })
}

/// The whole verdict in `lang`: the outcome's sentence, then its caveats.
pub fn verdict_text(v: &Verdict, lang: Lang) -> String {
    let mut parts = vec![outcome_sentence(&v.outcome, v.delay, lang)];
    parts.extend(short_budget_sentence(v, lang));
    parts.extend(forget_bias_sentence(v, lang));
    parts.join(match lang {
        Lang::En => " ",
        Lang::Zh => "",
    })
}

/// `3000` → `3,000` (as the page writes step counts).
fn commas(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
