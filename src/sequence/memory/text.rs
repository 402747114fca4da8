//! The texts of the long-memory tasks on the lab page, in English and 简体中文.

use crate::kit::fmt::count_commas;
use crate::shell::catalogue::catalogue;
use unroll_core::config::Lang;
use unroll_core::memory::outcome::{CellOutcome, MemoryOutcome, OutcomeKind};
use unroll_core::memory::TaskKind;

catalogue! {
    /// The long-memory tasks' texts.
    #[derive(Debug)]
    pub struct MemoryText {
        /// Task switcher label.
        pub switch: &'static str {
            "Task", "任务"
        }
        /// Switcher entry: delay-copy.
        pub delay: &'static str {
            "Delay-copy", "延迟复制"
        }
        /// Task names: adding, copy, order.
        pub names: [&'static str; 3] {
            ["Adding problem", "Copy memory", "Temporal order"], ["加法问题", "复制记忆", "时间顺序"]
        }
        /// One sentence per task, with its paper.
        pub what: [&'static str; 3] {
            [
                "A sequence of (value, marker) pairs: output the sum of the two marked values at the end (Hochreiter & Schmidhuber 1997, experiment 4; the form of Le, Jaitly & Hinton 2015).",
                "Ten symbols from 8 categories, T blanks, a delimiter: then recall the ten symbols in order (Arjovsky, Shah & Bengio 2016).",
                "Two relevant symbols, X or Y, among distractors: classify their order (XX, XY, YX, YY) at the end (Hochreiter & Schmidhuber 1997, experiment 6a).",
            ],
            [
                "一串（数值，标记）对：在末尾输出两个被标记数值之和（Hochreiter & Schmidhuber 1997，实验 4；采用 Le、Jaitly & Hinton 2015 的形式）。",
                "来自 8 类的 10 个符号、T 个空白、一个分隔符：然后按顺序回忆这 10 个符号（Arjovsky、Shah & Bengio 2016）。",
                "干扰符号之间有两个相关符号 X 或 Y：在末尾判断它们的顺序（XX、XY、YX、YY）（Hochreiter & Schmidhuber 1997，实验 6a）。",
            ]
        }
        /// Length line: {0} T, {1} sequence length in steps.
        pub length: fn(&str, &str) -> String {
            |t, n| format!("Length T = {t} ({n} steps per sequence)."), |t, n| format!("长度 T = {t}（每个序列 {n} 步）。")
        }
        /// Recipe line: {0} hidden, {1} lr, {2} batch, {3} clip, {4} forget bias.
        pub recipe: fn(&str, &str, &str, &str, &str) -> String {
            |h, lr, b, clip, fb| format!("Recipe: hidden size {h}, Adam lr {lr}, batch {b}, gradient clipping at {clip}, LSTM forget-gate bias {fb}."), |h, lr, b, clip, fb| format!("配方：隐藏大小 {h}，Adam 学习率 {lr}，批大小 {b}，梯度裁剪 {clip}，LSTM 遗忘门偏置 {fb}。")
        }
        /// Budget line: {0} steps, {1} sequences per run, {2} seeds, {3} runs.
        pub budget: fn(&str, &str, &str, &str) -> String {
            |s, q, k, r| format!("Budget: {s} steps = {q} sequences per run; {} per cell; {}, the cells taking turns step by step within each seed.", crate::kit::text::count_en(k, "seed"), crate::kit::text::count_en(r, "run")), |s, q, k, r| format!("预算：每次运行 {s} 步 = {q} 个序列；每种单元 {k} 个种子；共 {r} 次运行，每个种子内各单元逐步轮流训练。")
        }
        /// Parameter counts heading.
        pub params: &'static str {
            "Parameters per cell", "每种单元的参数量"
        }
        /// Where it trains, and how the URL sets it.
        pub cpu_note: &'static str {
            "RNN, LSTM and GRU train in turns, step by step, in the page's background worker, one seed after another, on WebGPU or on the CPU path as each cell's backend line says (the URL key backend: auto times both and trains on the faster). T, the steps and the seeds come from the URL keys length, steps, seeds (a key left at its delay-copy default takes this task's default).", "RNN、LSTM 和 GRU 在页面的后台线程中逐步轮流训练，一个种子接一个种子，按各单元的后端行所示在 WebGPU 或 CPU 路径上运行（URL 键 backend：auto 先为两者计时，再用较快的那个训练）。T、步数和种子数来自 URL 键 length、steps、seeds（保持延迟复制默认值的键取本任务的默认值）。"
        }
        /// Baseline label on the chart.
        pub baseline: &'static str {
            "baseline", "基线"
        }
        /// The chart's "solved" line: {0} the level.
        pub solved_line: fn(&str) -> String {
            |v| format!("solved (below {v})"), |v| format!("已解决（低于 {v}）")
        }
        /// The chart's log-axis switch.
        pub log_axis: &'static str {
            "Logarithmic loss axis", "损失轴用对数刻度"
        }
        /// Baseline formula per task: {0} T (copy's whole-sequence figure uses it).
        pub baseline_formula: [fn(&str) -> String; 3] {
            [
                |_| "Baseline: always answering 1 gives a mean squared error of 1/6 ≈ 0.167 — the line to beat.".to_string(),
                |t| {
                    let blanks: usize = t.parse().unwrap_or(0);
                    let whole = unroll_core::memory::paper_copy_loss(8f64.ln(), blanks);
                    format!("Baseline: guessing among 8 symbols costs ln 8 ≈ 2.079 nats per recalled symbol (over all T + 20 positions, as the paper counts it: 10·ln 8/(T+20) = {whole:.3}).")
                },
                |_| "Baseline: guessing among 4 orders costs ln 4 ≈ 1.386 nats (accuracy 0.25).".to_string(),
            ],
            [
                |_| "基线：总是回答 1 的均方误差为 1/6 ≈ 0.167——这是要超越的线。".to_string(),
                |t| {
                    let blanks: usize = t.parse().unwrap_or(0);
                    let whole = unroll_core::memory::paper_copy_loss(8f64.ln(), blanks);
                    format!("基线：在 8 个符号中瞎猜，每个回忆符号的代价为 ln 8 ≈ 2.079 奈特（按论文的算法在全部 T + 20 个位置上平均：10·ln 8/(T+20) = {whole:.3}）。")
                },
                |_| "基线：在 4 种顺序中瞎猜的代价为 ln 4 ≈ 1.386 奈特（准确率 0.25）。".to_string(),
            ]
        }
        /// "Solved" criterion per task, with its source.
        pub criterion: [&'static str; 3] {
            [
                "Solved: held-out MSE below 0.01 (the stopping rule of Hochreiter & Schmidhuber 1997, experiment 4, here on held-out sequences).",
                "Solved: held-out cross-entropy on the recalled symbols below 0.1 × ln 8 ≈ 0.208 (this lab's threshold: the paper reports curves, not a threshold).",
                "Solved: held-out accuracy of at least 0.95 (this lab's threshold; the 1997 rule — the last 2000 training sequences all right — is stricter).",
            ],
            [
                "解决：留出集 MSE 低于 0.01（Hochreiter & Schmidhuber 1997 实验 4 的停止规则，这里用留出序列）。",
                "解决：回忆符号上的留出交叉熵低于 0.1 × ln 8 ≈ 0.208（本实验室的阈值：论文只给出曲线，没有阈值）。",
                "解决：留出准确率至少 0.95（本实验室的阈值；1997 年的规则——最近 2000 个训练序列全部正确——更严格）。",
            ]
        }
        /// The paper's figure per task, with the differences in set-up.
        pub paper: [&'static str; 3] {
            [
                "Paper: the 1997 LSTM solved T = 100 after about 74,000 sequences — without a forget gate, with online updates (one sequence per step); here Adam on batches of 32, clipping, a forget gate.",
                "Paper: a standard LSTM stays at the memoryless baseline at long T (T ≥ 100), trained with RMSprop; here Adam on batches of 32, clipping, a forget-gate bias of 1, and a shorter T by default.",
                "Paper: the 1997 LSTM solved T = 100–110 after about 31,000 sequences — without a forget gate, with online updates; here Adam on batches of 32, clipping, a forget gate.",
            ],
            [
                "论文：1997 年的 LSTM 在约 74,000 个序列后解决了 T = 100——没有遗忘门，在线更新（每步一个序列）；这里用 Adam、批大小 32、梯度裁剪和遗忘门。",
                "论文：标准 LSTM 在长 T（T ≥ 100）时停留在无记忆基线，用 RMSprop 训练；这里用 Adam、批大小 32、梯度裁剪、遗忘门偏置 1，默认 T 更短。",
                "论文：1997 年的 LSTM 在约 31,000 个序列后解决了 T = 100–110——没有遗忘门，在线更新；这里用 Adam、批大小 32、梯度裁剪和遗忘门。",
            ]
        }
        /// Chart title.
        pub chart: &'static str {
            "Held-out loss (1024 fixed sequences)", "留出集损失（1024 个固定序列）"
        }
        /// Y axis per task.
        pub y_axis: [&'static str; 3] {
            ["MSE", "nats per recalled symbol", "nats"], ["MSE", "每个回忆符号的奈特", "奈特"]
        }
        /// X axis.
        pub x_axis: &'static str {
            "step", "步"
        }
        /// Empty chart.
        pub empty: &'static str {
            "Press Start: the held-out loss of each cell appears here.", "按“开始”：每种单元的留出集损失会显示在这里。"
        }
        /// Progress: {0} steps done, {1} steps in all.
        pub progress: fn(&str, &str) -> String {
            |d, t| format!("{d} of {t} steps"), |d, t| format!("{t} 步中已完成 {d} 步")
        }
        /// Time left: {0}.
        pub time_left: fn(&str) -> String {
            |s| format!("about {s} left"), |s| format!("约剩 {s}")
        }
        /// Summary heading.
        pub summary: &'static str {
            "Summary", "总结"
        }
        /// Summary columns: cell, seed, final metric, accuracy, solved.
        pub columns: [&'static str; 5] {
            ["Cell", "Seed", "Final held-out loss", "Accuracy", "Solved"], ["单元", "种子", "最终留出损失", "准确率", "解决"]
        }
        /// Solved after {0} sequences.
        pub solved_after: fn(&str) -> String {
            |n| format!("solved after {n} sequences"), |n| format!("在 {n} 个序列后解决")
        }
        /// Not solved within the budget.
        pub not_solved: &'static str {
            "not solved within the budget", "在预算内未解决"
        }
        /// Still training.
        pub training: &'static str {
            "training…", "训练中……"
        }
        /// A reload stopped the sweep: {0} runs finished, {1} runs in all.
        pub interrupted: fn(&str, &str) -> String {
            |k, n| format!("A reload stopped this sweep after {k} of its {n} runs. The finished runs are shown; Go on trains the others (Train again starts over)."), |k, n| format!("重新加载页面中断了这次扫描：{n} 次运行中已完成 {k} 次。已完成的运行显示在下面；“继续训练”训练其余的运行（“再训练一次”从头开始）。")
        }
        /// A reload stopped the sweep: {0} runs finished, {1} runs in all, seed {2} of {3} kept at
        /// step {4}.
        pub interrupted_from: fn(&str, &str, &str, &str, &str) -> String {
            |k, n, s, ns, step| format!("A reload stopped this sweep after {k} of its {n} runs, with seed {s} of {ns} at step {step}. What it trained is shown; Go on trains the rest from there, with the numbers of a sweep that never stopped (Train again starts over)."), |k, n, s, ns, step| format!("重新加载页面中断了这次扫描：{n} 次运行中已完成 {k} 次，第 {s} 个种子（共 {ns} 个）停在第 {step} 步。已训练的部分显示在下面；“继续训练”从那里训练其余部分，结果与从未中断的扫描相同（“再训练一次”从头开始）。")
        }
        /// The training seed's checkpoint is kept: seed {0} of {1}, step {2}.
        pub saved: fn(&str, &str, &str) -> String {
            |s, ns, step| format!("Seed {s} of {ns} saved at step {step}: a reload goes on from there."), |s, ns, step| format!("第 {s} 个种子（共 {ns} 个）已保存在第 {step} 步：重新加载页面后从这里继续。")
        }
        /// The sweep could not be kept in the browser: {0} (the storage error's words).
        pub store_failed: fn(&str) -> String {
            |e| format!("This sweep could not be kept in this browser: {e}"), |e| format!("这次扫描无法保存在此浏览器中：{e}")
        }
        /// The button that goes on with a sweep a reload stopped.
        pub go_on: &'static str {
            "Go on", "继续训练"
        }
        /// What the default T and budget show, in Unroll and in PyTorch, per task.
        pub default_shows: [&'static str; 3] {
            [
                "What the default shows (T = 50, 1500 steps, 3 seeds): LSTM and GRU solve the task, the RNN stays on the baseline — in Unroll and in PyTorch alike (docs/memory-tasks.md).",
                "What the default shows (T = 20, 1000 steps, 3 seeds): only the GRU gets clearly below the baseline, RNN and LSTM stay on it, and no cell solves it within the budget — in Unroll and in PyTorch alike (docs/memory-tasks.md).",
                "What the default shows (T = 100, 800 steps, 3 seeds): every cell stays at chance, in Unroll and in PyTorch alike, and still at 2500 steps — with this recipe no page-sized budget shows a difference between cells here (docs/memory-tasks.md).",
            ],
            [
                "默认设置（T = 50，1500 步，3 个种子）显示：LSTM 和 GRU 解决了任务，RNN 停留在基线——Unroll 与 PyTorch 结果一致（docs/memory-tasks.md）。",
                "默认设置（T = 20，1000 步，3 个种子）显示：只有 GRU 明显低于基线，RNN 和 LSTM 停留在基线上，预算内没有单元解决任务——Unroll 与 PyTorch 结果一致（docs/memory-tasks.md）。",
                "默认设置（T = 100，800 步，3 个种子）显示：每种单元都停留在随机水平，Unroll 与 PyTorch 一致，2500 步时仍然如此——用这个配方，页面规模的预算在这里显示不出单元之间的差别（docs/memory-tasks.md）。",
            ]
        }
        /// Settings heading.
        pub settings: &'static str {
            "Settings", "设置"
        }
        /// Field names: T, steps, seeds, first seed, hidden, lr, batch, clipping, forget bias.
        pub fields: [&'static str; 9] {
            ["T (length)", "Steps per run", "Seeds per cell", "First seed", "Hidden size", "Learning rate", "Batch size", "Clipping (0 = off)", "Forget-gate bias"], ["T（长度）", "每次运行的步数", "每种单元的种子数", "第一个种子", "隐藏大小", "学习率", "批大小", "裁剪（0 = 关闭）", "遗忘门偏置"]
        }
        /// Under the form: how the keys work.
        pub form_note: &'static str {
            "Each field writes its URL key. A key at its delay-copy default (length 96, steps 3000, hidden_size 128) takes this task's default.", "每个字段写入它的 URL 键。保持延迟复制默认值的键（length 96、steps 3000、hidden_size 128）取本任务的默认值。"
        }
        /// The form is locked while a sweep runs.
        pub locked: &'static str {
            "The settings are locked while the sweep trains.", "扫描训练期间设置被锁定。"
        }
        /// T out of the task's range: {0} task name, {1} smallest T, {2} T asked for.
        pub length_error: fn(&str, &str, &str) -> String {
            |task, min, got| format!("The {task} task needs T of at least {min}; T = {got} does not fit. Choose a larger T."), |task, min, got| format!("{task}任务需要 T 至少为 {min}；T = {got} 不合适。请选择更大的 T。")
        }
        /// Outcome heading.
        pub outcome: &'static str {
            "What the runs show", "运行结果说明了什么"
        }
        /// Spread table heading.
        pub spread: &'static str {
            "Per cell, over its seeds", "每种单元在各种子上的结果"
        }
        /// Spread columns: cell, seeds, final held-out loss (lowest–highest), beats the baseline, solved.
        pub spread_columns: [&'static str; 5] {
            ["Cell", "Seeds", "Final loss (lowest–highest)", "Beats the baseline", "Solved"], ["单元", "种子", "最终损失（最低–最高）", "优于基线", "解决"]
        }
        /// "{0} of {1}" (seeds).
        pub of: fn(&str, &str) -> String {
            |k, n| format!("{k} of {n}"), |k, n| format!("{k}/{n}")
        }
        /// The run failed: {0} why.
        pub failed: fn(&str) -> String {
            |e| format!("The run could not go on: {e}"), |e| format!("运行无法继续：{e}")
        }
        /// Start / Train again / Pause / Resume / Reset.
        pub buttons: [&'static str; 5] {
            ["Start", "Train again", "Pause", "Resume", "Reset"], ["开始", "再训练一次", "暂停", "继续", "重置"]
        }
        /// Status: idle, running, paused, finished, stopped, error.
        pub status: [&'static str; 6] {
            ["idle", "training", "paused", "finished", "stopped", "failed"], ["未开始", "训练中", "已暂停", "已完成", "已停止", "失败"]
        }
        /// "As PyTorch" heading.
        pub pytorch_heading: &'static str {
            "As PyTorch", "对应的 PyTorch 代码"
        }
        /// What the task's script is and how it compares with the page.
        pub pytorch_help: &'static str {
            "These settings as a complete PyTorch script: the same task and generator (the same distributions), the same models (nn.RNN / nn.LSTM / nn.GRU and a Linear head at the readout steps, parameters rnn.* and fc.*), PyTorch's initialisation plus the forget-gate bias, Adam, the clipping, the budget, the seeds and a held-out set of 1024 sequences evaluated on this page's schedule. It draws its sequences and weights from the same seeds with torch's generator, so its runs agree with this page's in outcome, not digit for digit.", "把这些设置写成一个完整的 PyTorch 脚本：同样的任务和生成方式（同样的分布）、同样的模型（nn.RNN / nn.LSTM / nn.GRU，在读出步接一个 Linear 输出层，参数名 rnn.* 和 fc.*）、PyTorch 的初始化加遗忘门偏置、Adam、梯度裁剪、预算、种子，以及按本页的节奏评估的 1024 条留出序列。它用 torch 的随机数生成器从相同的种子抽取序列和权重，所以结果与本页在结论上一致，而不是逐位相同。"
        }
        /// No script while T does not fit the task.
        pub pytorch_waiting: &'static str {
            "The script is written once T fits the task.", "T 符合该任务的要求后才会生成脚本。"
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

/// `value` with the decimals of the task's figures: 4 below a baseline of 1 (MSE), else 3.
pub fn fmt_loss(value: f64, baseline: f64) -> String {
    if baseline < 1.0 {
        format!("{value:.4}")
    } else {
        format!("{value:.3}")
    }
}

/// `RNN 0.167–0.170` (one value for one seed).
fn cell_range(c: &CellOutcome, baseline: f64) -> String {
    let (lo, hi) = (fmt_loss(c.min, baseline), fmt_loss(c.max, baseline));
    if c.seeds == 1 || lo == hi {
        format!("{} {lo}", c.cell.name())
    } else {
        format!("{} {lo}–{hi}", c.cell.name())
    }
}

/// The cells' names joined: `LSTM and GRU`, `LSTM 和 GRU`.
fn names(cells: &[&CellOutcome], lang: Lang) -> String {
    let names: Vec<&str> = cells.iter().map(|c| c.cell.name()).collect();
    let (sep, last) = match lang {
        Lang::En => (", ", " and "),
        Lang::Zh => ("、", " 和 "),
    };
    match names.split_last() {
        Some((l, rest)) if !rest.is_empty() => format!("{}{last}{l}", rest.join(sep)),
        Some((l, _)) => (*l).to_owned(),
        None => String::new(),
    }
}

/// The cells' ranges joined.
fn ranges(cells: &[&CellOutcome], baseline: f64, lang: Lang) -> String {
    let sep = match lang {
        Lang::En => ", ",
        Lang::Zh => "，",
    };
    cells
        .iter()
        .map(|c| cell_range(c, baseline))
        .collect::<Vec<_>>()
        .join(sep)
}

/// Which cells met the criterion of "solved", on how many seeds and after how many sequences.
fn solved_clause(o: &MemoryOutcome, lang: Lang) -> String {
    let solved: Vec<String> = o
        .cells
        .iter()
        .filter(|c| c.solved > 0)
        .map(|c| {
            let (a, b) = c.solved_after.unwrap_or((0, 0));
            let after = if a == b {
                count_commas(a)
            } else {
                format!("{}–{}", count_commas(a), count_commas(b))
            };
            match lang {
                Lang::En => format!(
                    "{} on {} of {} (after {after} sequences)",
                    c.cell.name(),
                    c.solved,
                    crate::kit::text::count_en(&c.seeds.to_string(), "seed")
                ),
                Lang::Zh => format!(
                    "{} 在 {} 个种子中的 {} 个上（{after} 个序列后）",
                    c.cell.name(),
                    c.seeds,
                    c.solved
                ),
            }
        })
        .collect();
    match (lang, solved.is_empty()) {
        (Lang::En, true) => "No run met the criterion of solved.".into(),
        (Lang::Zh, true) => "没有运行达到“解决”的标准。".into(),
        (Lang::En, false) => format!("Solved: {}.", solved.join("; ")),
        (Lang::Zh, false) => format!("解决：{}。", solved.join("；")),
    }
}

/// The outcome of a sweep in `lang`: one sentence on what the runs show, then which cells
/// solved the task, then (with one seed per cell) that no spread was measured. Every number
/// comes from the outcome; an unfinished sweep gets only its count of finished runs.
pub fn outcome_text(o: &MemoryOutcome, lang: Lang) -> String {
    let b = o.baseline;
    let base = fmt_loss(b, b);
    let all: Vec<&CellOutcome> = o.cells.iter().collect();
    let (ahead, behind) = (o.ahead(), o.behind());
    let main = match (o.kind, lang) {
        (OutcomeKind::Unfinished { finished, runs }, Lang::En) => {
            return format!("{finished} of {runs} runs finished: the outcome is written when every run is done.")
        }
        (OutcomeKind::Unfinished { finished, runs }, Lang::Zh) => {
            return format!("{runs} 次运行中已完成 {finished} 次：所有运行完成后才给出结论。")
        }
        (OutcomeKind::NoneBeatsBaseline, Lang::En) => format!("No cell beats the baseline ({base}): final held-out loss {} — none 10 % below it. At this T and budget the runs show no difference between the cells.", ranges(&all, b, lang)),
        (OutcomeKind::NoneBeatsBaseline, Lang::Zh) => format!("没有单元优于基线（{base}）：最终留出损失 {}——都没有比基线低 10%。在这个 T 和预算下，运行显示不出单元之间的差别。", ranges(&all, b, lang)),
        (OutcomeKind::AllBeatBaseline, Lang::En) => format!("Every cell beats the baseline ({base}) on every seed: final held-out loss {}.", ranges(&all, b, lang)),
        (OutcomeKind::AllBeatBaseline, Lang::Zh) => format!("每种单元在每个种子上都优于基线（{base}）：最终留出损失 {}。", ranges(&all, b, lang)),
        (OutcomeKind::Split, Lang::En) => {
            let verb = |cells: &[&CellOutcome], one: &'static str, many: &'static str| if cells.len() == 1 { one } else { many };
            format!("{} {} the baseline ({base}) on every seed ({}); {} {} on it ({}): the cells differ beyond the seeds' spread.", names(&ahead, lang), verb(&ahead, "beats", "beat"), ranges(&ahead, b, lang), names(&behind, lang), verb(&behind, "stays", "stay"), ranges(&behind, b, lang))
        }
        (OutcomeKind::Split, Lang::Zh) => format!("{} 在每个种子上都优于基线（{base}）（{}）；{} 停留在基线上（{}）：单元之间的差别超出了种子间的波动。", names(&ahead, lang), ranges(&ahead, b, lang), names(&behind, lang), ranges(&behind, b, lang)),
        (OutcomeKind::SeedsDisagree, _) => {
            let mixed: Vec<String> = o.cells.iter().filter(|c| !c.all_beat() && !c.none_beat()).map(|c| match lang {
                Lang::En => format!("{} beats the baseline on {} of {}", c.cell.name(), c.beat, crate::kit::text::count_en(&c.seeds.to_string(), "seed")),
                Lang::Zh => format!("{} 在 {} 个种子中的 {} 个上优于基线", c.cell.name(), c.seeds, c.beat),
            }).collect();
            match lang {
                Lang::En => format!("The seeds disagree: {}. Final held-out loss {} (baseline {base}).", mixed.join("; "), ranges(&all, b, lang)),
                Lang::Zh => format!("种子之间不一致：{}。最终留出损失 {}（基线 {base}）。", mixed.join("；"), ranges(&all, b, lang)),
            }
        }
    };
    let mut parts = vec![main, solved_clause(o, lang)];
    if o.seeds == 1 {
        parts.push(match lang {
            Lang::En => "With one seed per cell the spread between seeds is not measured.".into(),
            Lang::Zh => "每种单元只有一个种子，种子间的波动没有测量。".into(),
        });
    }
    parts.join(match lang {
        Lang::En => " ",
        Lang::Zh => "",
    })
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
