//! The texts of the long-memory tasks on the lab page, in English and 简体中文.

use unroll_core::config::Lang;
use unroll_core::memory::TaskKind;

/// The long-memory tasks' texts.
#[derive(Debug)]
pub struct MemoryText {
    /// Task switcher label.
    pub switch: &'static str,
    /// Switcher entry: delay-copy.
    pub delay: &'static str,
    /// Task names: adding, copy, order.
    pub names: [&'static str; 3],
    /// One sentence per task, with its paper.
    pub what: [&'static str; 3],
    /// Length line: {0} T, {1} sequence length in steps.
    pub length: fn(&str, &str) -> String,
    /// Recipe line: {0} hidden, {1} lr, {2} batch, {3} clip, {4} forget bias.
    pub recipe: fn(&str, &str, &str, &str, &str) -> String,
    /// Budget line: {0} steps, {1} sequences per run, {2} seeds, {3} runs.
    pub budget: fn(&str, &str, &str, &str) -> String,
    /// Parameter counts heading.
    pub params: &'static str,
    /// Where it trains, and how the URL sets it.
    pub cpu_note: &'static str,
    /// Baseline label on the chart.
    pub baseline: &'static str,
    /// Baseline formula per task: {0} T (copy's whole-sequence figure uses it).
    pub baseline_formula: [fn(&str) -> String; 3],
    /// "Solved" criterion per task, with its source.
    pub criterion: [&'static str; 3],
    /// The paper's figure per task, with the differences in set-up.
    pub paper: [&'static str; 3],
    /// Chart title.
    pub chart: &'static str,
    /// Y axis per task.
    pub y_axis: [&'static str; 3],
    /// X axis.
    pub x_axis: &'static str,
    /// Empty chart.
    pub empty: &'static str,
    /// Progress: {0} steps done, {1} steps in all.
    pub progress: fn(&str, &str) -> String,
    /// Time left: {0}.
    pub time_left: fn(&str) -> String,
    /// Summary heading.
    pub summary: &'static str,
    /// Summary columns: cell, seed, final metric, accuracy, solved.
    pub columns: [&'static str; 5],
    /// Solved after {0} sequences.
    pub solved_after: fn(&str) -> String,
    /// Not solved within the budget.
    pub not_solved: &'static str,
    /// Still training.
    pub training: &'static str,
    /// A reload stopped a run.
    pub interrupted: &'static str,
    /// The run failed: {0} why.
    pub failed: fn(&str) -> String,
    /// Start / Train again / Pause / Resume / Reset.
    pub buttons: [&'static str; 5],
    /// Status: idle, running, paused, finished, stopped, error.
    pub status: [&'static str; 6],
}

impl MemoryText {
    const EN: MemoryText = MemoryText {
        switch: "Task",
        delay: "Delay-copy",
        names: ["Adding problem", "Copy memory", "Temporal order"],
        what: [
            "A sequence of (value, marker) pairs: output the sum of the two marked values at the end (Hochreiter & Schmidhuber 1997, experiment 4; the form of Le, Jaitly & Hinton 2015).",
            "Ten symbols from 8 categories, T blanks, a delimiter: then recall the ten symbols in order (Arjovsky, Shah & Bengio 2016).",
            "Two relevant symbols, X or Y, among distractors: classify their order (XX, XY, YX, YY) at the end (Hochreiter & Schmidhuber 1997, experiment 6a).",
        ],
        length: |t, n| format!("Length T = {t} ({n} steps per sequence)."),
        recipe: |h, lr, b, clip, fb| format!("Recipe: hidden size {h}, Adam lr {lr}, batch {b}, gradient clipping at {clip}, LSTM forget-gate bias {fb}."),
        budget: |s, q, k, r| format!("Budget: {s} steps = {q} sequences per run; {k} seed(s) per cell; {r} runs, one after another."),
        params: "Parameters per cell",
        cpu_note: "RNN, LSTM and GRU train one after another on the CPU path, in the page's background worker. T, the steps and the seeds come from the URL keys length, steps, seeds (a key left at its delay-copy default takes this task's default).",
        baseline: "baseline",
        baseline_formula: [
            |_| "Baseline: always answering 1 gives a mean squared error of 1/6 ≈ 0.167 — the line to beat.".to_string(),
            |t| {
                let blanks: usize = t.parse().unwrap_or(0);
                let whole = unroll_core::memory::paper_copy_loss(8f64.ln(), blanks);
                format!("Baseline: guessing among 8 symbols costs ln 8 ≈ 2.079 nats per recalled symbol (over all T + 20 positions, as the paper counts it: 10·ln 8/(T+20) = {whole:.3}).")
            },
            |_| "Baseline: guessing among 4 orders costs ln 4 ≈ 1.386 nats (accuracy 0.25).".to_string(),
        ],
        criterion: [
            "Solved: held-out MSE below 0.01 (the stopping rule of Hochreiter & Schmidhuber 1997, experiment 4, here on held-out sequences).",
            "Solved: held-out cross-entropy on the recalled symbols below 0.1 × ln 8 ≈ 0.208 (this lab's threshold: the paper reports curves, not a threshold).",
            "Solved: held-out accuracy of at least 0.95 (this lab's threshold; the 1997 rule — the last 2000 training sequences all right — is stricter).",
        ],
        paper: [
            "Paper: the 1997 LSTM solved T = 100 after about 74,000 sequences — without a forget gate, with online updates (one sequence per step); here Adam on batches of 32, clipping, a forget gate.",
            "Paper: a standard LSTM stays at the memoryless baseline at long T (T ≥ 100), trained with RMSprop; here Adam on batches of 32, clipping, a forget-gate bias of 1, and a shorter T by default.",
            "Paper: the 1997 LSTM solved T = 100–110 after about 31,000 sequences — without a forget gate, with online updates; here Adam on batches of 32, clipping, a forget gate.",
        ],
        chart: "Held-out loss (1024 fixed sequences)",
        y_axis: ["MSE", "nats per recalled symbol", "nats"],
        x_axis: "step",
        empty: "Press Start: the held-out loss of each cell appears here.",
        progress: |d, t| format!("{d} of {t} steps"),
        time_left: |s| format!("about {s} left"),
        summary: "Summary",
        columns: ["Cell", "Seed", "Final held-out loss", "Accuracy", "Solved"],
        solved_after: |n| format!("solved after {n} sequences"),
        not_solved: "not solved within the budget",
        training: "training…",
        interrupted: "A reload stopped the run that was training: its results were not kept. Press Start to train again from step 0.",
        failed: |e| format!("The run could not go on: {e}"),
        buttons: ["Start", "Train again", "Pause", "Resume", "Reset"],
        status: ["idle", "training", "paused", "finished", "stopped", "failed"],
    };

    const ZH: MemoryText = MemoryText {
        switch: "任务",
        delay: "延迟复制",
        names: ["加法问题", "复制记忆", "时间顺序"],
        what: [
            "一串（数值，标记）对：在末尾输出两个被标记数值之和（Hochreiter & Schmidhuber 1997，实验 4；采用 Le、Jaitly & Hinton 2015 的形式）。",
            "来自 8 类的 10 个符号、T 个空白、一个分隔符：然后按顺序回忆这 10 个符号（Arjovsky、Shah & Bengio 2016）。",
            "干扰符号之间有两个相关符号 X 或 Y：在末尾判断它们的顺序（XX、XY、YX、YY）（Hochreiter & Schmidhuber 1997，实验 6a）。",
        ],
        length: |t, n| format!("长度 T = {t}（每个序列 {n} 步）。"),
        recipe: |h, lr, b, clip, fb| format!("配方：隐藏大小 {h}，Adam 学习率 {lr}，批大小 {b}，梯度裁剪 {clip}，LSTM 遗忘门偏置 {fb}。"),
        budget: |s, q, k, r| format!("预算：每次运行 {s} 步 = {q} 个序列；每种单元 {k} 个种子；共 {r} 次运行，依次进行。"),
        params: "每种单元的参数量",
        cpu_note: "RNN、LSTM 和 GRU 在页面的后台线程中依次在 CPU 路径上训练。T、步数和种子数来自 URL 键 length、steps、seeds（保持延迟复制默认值的键取本任务的默认值）。",
        baseline: "基线",
        baseline_formula: [
            |_| "基线：总是回答 1 的均方误差为 1/6 ≈ 0.167——这是要超越的线。".to_string(),
            |t| {
                let blanks: usize = t.parse().unwrap_or(0);
                let whole = unroll_core::memory::paper_copy_loss(8f64.ln(), blanks);
                format!("基线：在 8 个符号中瞎猜，每个回忆符号的代价为 ln 8 ≈ 2.079 奈特（按论文的算法在全部 T + 20 个位置上平均：10·ln 8/(T+20) = {whole:.3}）。")
            },
            |_| "基线：在 4 种顺序中瞎猜的代价为 ln 4 ≈ 1.386 奈特（准确率 0.25）。".to_string(),
        ],
        criterion: [
            "解决：留出集 MSE 低于 0.01（Hochreiter & Schmidhuber 1997 实验 4 的停止规则，这里用留出序列）。",
            "解决：回忆符号上的留出交叉熵低于 0.1 × ln 8 ≈ 0.208（本实验室的阈值：论文只给出曲线，没有阈值）。",
            "解决：留出准确率至少 0.95（本实验室的阈值；1997 年的规则——最近 2000 个训练序列全部正确——更严格）。",
        ],
        paper: [
            "论文：1997 年的 LSTM 在约 74,000 个序列后解决了 T = 100——没有遗忘门，在线更新（每步一个序列）；这里用 Adam、批大小 32、梯度裁剪和遗忘门。",
            "论文：标准 LSTM 在长 T（T ≥ 100）时停留在无记忆基线，用 RMSprop 训练；这里用 Adam、批大小 32、梯度裁剪、遗忘门偏置 1，默认 T 更短。",
            "论文：1997 年的 LSTM 在约 31,000 个序列后解决了 T = 100–110——没有遗忘门，在线更新；这里用 Adam、批大小 32、梯度裁剪和遗忘门。",
        ],
        chart: "留出集损失（1024 个固定序列）",
        y_axis: ["MSE", "每个回忆符号的奈特", "奈特"],
        x_axis: "步",
        empty: "按“开始”：每种单元的留出集损失会显示在这里。",
        progress: |d, t| format!("{t} 步中已完成 {d} 步"),
        time_left: |s| format!("约剩 {s}"),
        summary: "总结",
        columns: ["单元", "种子", "最终留出损失", "准确率", "解决"],
        solved_after: |n| format!("在 {n} 个序列后解决"),
        not_solved: "在预算内未解决",
        training: "训练中……",
        interrupted: "重新加载页面中断了正在训练的运行：其结果没有保留。按“开始”从第 0 步重新训练。",
        failed: |e| format!("运行无法继续：{e}"),
        buttons: ["开始", "再训练一次", "暂停", "继续", "重置"],
        status: ["未开始", "训练中", "已暂停", "已完成", "已停止", "失败"],
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static MemoryText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}

/// The index of `kind` in the per-task arrays.
pub fn index(kind: TaskKind) -> usize {
    match kind {
        TaskKind::Adding => 0,
        TaskKind::Copy => 1,
        TaskKind::Order => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_baseline_names_the_papers_whole_sequence_figure() {
        // 10·ln 8 / (100 + 20) = 0.173, the paper's figure at T = 100.
        let en = (MemoryText::of(Lang::En).baseline_formula[1])("100");
        assert!(
            en.contains("ln 8 ≈ 2.079") && en.contains("= 0.173"),
            "{en}"
        );
        let zh = (MemoryText::of(Lang::Zh).baseline_formula[1])("100");
        assert!(zh.contains("= 0.173"), "{zh}");
    }

    #[test]
    fn every_task_has_its_texts_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            let t = MemoryText::of(lang);
            for kind in TaskKind::ALL {
                let i = index(kind);
                assert!(!t.names[i].is_empty() && !t.what[i].is_empty());
                assert!(!t.criterion[i].is_empty() && !t.paper[i].is_empty());
            }
        }
        assert_eq!(
            (MemoryText::of(Lang::En).baseline_formula[0])("50"),
            "Baseline: always answering 1 gives a mean squared error of 1/6 ≈ 0.167 — the line to beat."
        );
    }
}
