//! The texts of the generation lab (names written letter by letter), in English and 简体中文.

use crate::shell::catalogue::catalogue;
use unroll_core::config::Lang;
use unroll_core::engine::generate::GenerateError;
use unroll_core::task::generate::sample::SampleError;

catalogue! {
    /// The generation lab's texts.
    #[derive(Debug)]
    pub struct GenerateText {
        /// The task's name (page title, switcher entry).
        pub name: &'static str {
            "Names, letter by letter", "逐字母写名字"
        }
        /// What the task is, with its source.
        pub what: &'static str {
            "A character-level model writes a name in the style of a language, one letter at a time until an end marker (PyTorch's tutorial on generating names with a character-level RNN). It is trained with teacher forcing on the names data set: at each step it reads the language and the letters so far and predicts the next letter.", "一个字符级模型按某种语言的风格写名字，一次一个字母，直到结束标记（PyTorch 用字符级 RNN 生成名字的教程）。它在姓名数据集上用教师强制训练：每一步读入语言和已写的字母，预测下一个字母。"
        }
        /// The structures it shows (N→N while training, 1→N when writing).
        pub structures: &'static str {
            "Training reads a name and predicts a letter at every step (N→N); writing starts from the language alone and produces a sequence (1→N).", "训练时读入一个名字并在每一步预测一个字母（N→N）；写名字时只从语言出发，产生一个序列（1→N）。"
        }
        /// While the names data set loads: {0} files fetched, {1} files in all.
        pub loading: fn(&str, &str) -> String {
            |d, n| format!("Loading the names data set… {d} / {n} files"), |d, n| format!("正在加载姓名数据集… {d} / {n} 个文件")
        }
        /// Recipe line: {0} cell, {1} layers, {2} hidden, {3} lr, {4} batch, {5} steps,
        /// {6} conditioning.
        pub recipe: fn(&str, &str, &str, &str, &str, &str, &str) -> String {
            |cell, layers, h, lr, b, steps, cond| {
                format!("{cell}, {layers} layer(s), hidden {h}; Adam lr {lr}, batches of {b} names of one length, {steps} steps; the language {cond}.")
            },
            |cell, layers, h, lr, b, steps, cond| {
                format!("{cell}，{layers} 层，隐藏维度 {h}；Adam 学习率 {lr}，每批 {b} 个等长的名字，{steps} 步；语言{cond}。")
            }
        }
        /// The conditioning modes: input, state.
        pub conditioning: [&'static str; 2] {
            [
                "concatenated to every step's input",
                "sets the initial hidden state",
            ],
            ["拼接到每一步的输入上", "设定初始隐藏状态"]
        }
        /// The training panel's heading.
        pub train: &'static str {
            "Train", "训练"
        }
        /// Run buttons: start, again, pause, resume, reset.
        pub buttons: [&'static str; 5] {
            ["Start", "Train again", "Pause", "Resume", "Reset"], ["开始", "重新训练", "暂停", "继续", "重置"]
        }
        /// Progress: {0} steps done, {1} steps in all.
        pub progress: fn(&str, &str) -> String {
            |d, n| format!("{d} / {n} steps"), |d, n| format!("{d} / {n} 步")
        }
        /// Held-out loss line: {0} loss per character, {1} perplexity, {2} step.
        pub heldout: fn(&str, &str, &str) -> String {
            |l, p, s| format!("Held-out loss {l} nats per character (perplexity {p}) at step {s}."), |l, p, s| format!("留出集损失 {l} 奈特/字符（困惑度 {p}），第 {s} 步。")
        }
        /// The training failed: {0} why.
        pub failed: fn(&str) -> String {
            |e| format!("Training stopped: {e}"), |e| format!("训练停止：{e}")
        }
        /// The sampler's heading.
        pub sampler: &'static str {
            "Write a name", "写一个名字"
        }
        /// Until a model is trained.
        pub no_model: &'static str {
            "Train the model first: the sampler writes with its weights (the latest ones while it trains).", "请先训练模型：采样器用它的权重写名字（训练中用最新的权重）。"
        }
        /// Which weights write: {0} step.
        pub weights_of: fn(&str) -> String {
            |s| format!("Written with the weights of step {s}."), |s| format!("用第 {s} 步的权重写出。")
        }
        /// Field labels: language, prefix, temperature, top-k, seed.
        pub fields: [&'static str; 5] {
            ["Language", "Starts with", "Temperature", "Top-k", "Seed"], ["语言", "开头字母", "温度", "Top-k", "种子"]
        }
        /// Top-k's note (0 = all).
        pub top_k_all: &'static str {
            "0 = all symbols", "0 = 全部符号"
        }
        /// Mode buttons: sample, greedy.
        pub modes: [&'static str; 2] {
            ["Sample", "Greedy"], ["采样", "贪心"]
        }
        /// Step, Play, Pause, Write again (from the start).
        pub steps: [&'static str; 4] {
            ["Step", "Play", "Pause", "From the start"], ["单步", "播放", "暂停", "从头开始"]
        }
        /// The name so far.
        pub so_far: &'static str {
            "The name so far", "目前写出的名字"
        }
        /// The name is ended (the end marker was chosen).
        pub ended: &'static str {
            "ended: the model chose the end marker", "已结束：模型选择了结束标记"
        }
        /// Stopped at the length limit.
        pub unended: &'static str {
            "stopped at the length limit without an end marker", "达到长度上限，没有结束标记"
        }
        /// Before the first step.
        pub press_step: &'static str {
            "Press Step to write the first letter, or Play to write them all.", "按“单步”写出第一个字母，或按“播放”全部写出。"
        }
        /// The softmax chart: {0} step, {1} temperature, {2} what it is over ([`GenerateText::over`]).
        pub softmax: fn(&str, &str, &str) -> String {
            |s, t, k| format!("Step {s}: softmax(logits / {t}) over {k}, the 10 most likely"), |s, t, k| format!("第 {s} 步：在{k}上计算 softmax(logits / {t})，显示最可能的 10 个")
        }
        /// What the softmax is over: {0} all symbols' count, or the top {0}.
        pub over: [fn(&str) -> String; 2] {
            [|n| format!("all {n} symbols"), |k| format!("the top {k}")], [|n| format!("全部 {n} 个符号"), |k| format!("最可能的 {k} 个符号")]
        }
        /// Greedy's softmax title: {0} step.
        pub softmax_greedy: fn(&str) -> String {
            |s| format!("Step {s}: softmax(logits), the 10 most likely; greedy takes the largest"), |s| format!("第 {s} 步：softmax(logits)，显示最可能的 10 个；贪心取最大者")
        }
        /// The end marker's label.
        pub end_marker: &'static str {
            "⟨end⟩", "⟨结束⟩"
        }
        /// The chosen bar's mark.
        pub chosen: &'static str {
            "chosen", "选中"
        }
        /// The h_t heatmap's caption: {0} units.
        pub hidden: fn(&str) -> String {
            |n| format!("h_t of the top layer at each step ({n} units; blue < 0 < orange)"), |n| format!("每一步顶层的 h_t（{n} 个单元；蓝 < 0 < 橙）")
        }
        /// The heatmap's axes: units, steps.
        pub hidden_axes: [&'static str; 2] {
            ["unit", "step"], ["单元", "步"]
        }
        /// Writing in the engine.
        pub writing: &'static str {
            "Writing…", "正在写…"
        }
        /// The held-out chart's title.
        pub chart: &'static str {
            "Held-out loss per character", "留出集上每个字符的损失"
        }
        /// The training chart's title.
        pub train_chart: &'static str {
            "Training loss per character (mean of the last 20 batches)", "训练集上每个字符的损失（最近 20 批的平均）"
        }
        /// Shown while the training chart has no point.
        pub train_empty: &'static str {
            "Start training to see the training loss fall.", "开始训练，看训练损失下降。"
        }
        /// The training loss line: {0} loss per character, {1} perplexity, {2} batches averaged,
        /// {3} step.
        pub train_loss: fn(&str, &str, &str, &str) -> String {
            |l, p, n, s| format!("Training loss {l} nats per character (perplexity {p}), the mean of the last {n} batches at step {s}: teacher-forced on the names it learns from, so it may sit below the held-out loss."), |l, p, n, s| format!("训练损失 {l} 奈特/字符（困惑度 {p}），第 {s} 步时最近 {n} 批的平均：在用来学习的名字上用教师强制计算，所以可能低于留出集损失。")
        }
        /// The chart's axes: x, y.
        pub axes: [&'static str; 2] {
            ["step", "nats per character"], ["步", "奈特/字符"]
        }
        /// Shown while the chart has no point.
        pub empty: &'static str {
            "Start training to see the held-out loss fall.", "开始训练，看留出集损失下降。"
        }
        /// Baseline legend labels: uniform {0} symbols, unigram, bigram.
        pub baseline_labels: (fn(&str) -> String, &'static str, &'static str) {
            (|k| format!("uniform over {k}"), "unigram", "bigram (to beat)"), (|k| format!("{k} 个符号上的均匀分布"), "一元模型", "二元模型（要超过的水平）")
        }
        /// The baselines: {0} uniform, {1} unigram, {2} bigram (nats per character), {3} held-out
        /// characters.
        pub baselines: fn(&str, &str, &str, &str) -> String {
            |u, g, b, n| format!("Baselines fitted on the training names, scored on the {n} held-out characters: uniform {u}, unigram {g}, bigram {b} nats per character."), |u, g, b, n| format!("在训练名字上拟合、在 {n} 个留出字符上评估的基线：均匀 {u}，一元 {g}，二元 {b} 奈特/字符。")
        }
        /// The held-out loss against the bigram: {0} the difference (nats), {1} the bigram's loss;
        /// below, at or above.
        pub versus_bigram: [fn(&str, &str) -> String; 2] {
            [
                |d, b| format!("Held-out loss is {d} nats per character below the bigram's {b}: the model uses more than the previous letter."),
                |d, b| format!("Held-out loss is {d} nats per character above the bigram's {b}: not yet better than counting letter pairs."),
            ],
            [
                |d, b| format!("留出集损失比二元模型的 {b} 低 {d} 奈特/字符：模型用到的不只是前一个字母。"),
                |d, b| format!("留出集损失比二元模型的 {b} 高 {d} 奈特/字符：还没有胜过统计字母对。"),
            ]
        }
        /// The bidirectional switch.
        pub bidirectional: &'static str {
            "Bidirectional (a backward direction beside the forward one)", "双向（在前向方向旁加一个反向方向）"
        }
        /// The comparison button, and its note.
        pub compare: &'static str {
            "Train both directions", "训练两个方向"
        }
        /// What the comparison button trains.
        pub compare_note: &'static str {
            "Trains the model as set without a backward direction, then with one, and measures both", "先训练按当前设置、不带反向方向的模型，再训练带反向方向的模型，并评估两者"
        }
        /// The quality panel's heading: {0} samples per language.
        pub quality: fn(&str) -> String {
            |n| format!("Quality of {n} samples per language"), |n| format!("每种语言 {n} 个样本的质量")
        }
        /// Which model the quality is of: unidirectional, bidirectional.
        pub quality_of: [&'static str; 2] {
            ["unidirectional model", "bidirectional model"], ["单向模型", "双向模型"]
        }
        /// Until the run finishes.
        pub quality_wait: &'static str {
            "Measured when a run finishes: 200 names per language written at the sampler's temperature, top-k and seed.", "训练结束后评估：按采样器的温度、top-k 和种子，每种语言写 200 个名字。"
        }
        /// While measuring: {0} languages done, {1} in all.
        pub measuring: fn(&str, &str) -> String {
            |d, n| format!("Writing samples… {d} / {n} languages"), |d, n| format!("正在写样本… {d} / {n} 种语言")
        }
        /// The table's columns: language, training names, new, mean length (data), bigram loss
        /// (data), unended, recognised by the classifier.
        pub quality_columns: [&'static str; 7] {
            ["Language", "Training names", "New", "Mean length (data)", "Bigram loss (data)", "Unended", "Classifier agrees"], ["语言", "训练集中的名字", "新名字", "平均长度（数据）", "二元损失（数据）", "未结束", "分类器认同"]
        }
        /// The mean row's label.
        pub mean_row: &'static str {
            "All languages", "所有语言"
        }
        /// The summary: {0} new share, {1} training-name share, {2} mean length, {3} data's mean
        /// length, {4} bigram loss, {5} data's bigram loss.
        pub quality_summary: fn(&str, &str, &str, &str, &str, &str) -> String {
            |new, tr, len, dlen, bl, dbl| format!("{new} of the samples are new names and {tr} repeat a training name; mean length {len} letters against the data's {dlen}; bigram loss {bl} nats per character against the data's {dbl}."), |new, tr, len, dlen, bl, dbl| format!("样本中 {new} 是新名字，{tr} 与训练集中的名字相同；平均长度 {len} 个字母，数据为 {dlen}；二元损失 {bl} 奈特/字符，数据为 {dbl}。")
        }
        /// What the bigram loss of the samples measures.
        pub bigram_note: &'static str {
            "Bigram loss of the samples: how unusual their letter pairs are under the bigram model of the training names (lower = more like real names). A collapsed model's samples are all “new”, so the new share alone does not measure quality.", "样本的二元损失：在训练名字的二元模型下，样本的字母对有多不寻常（越低越像真实的名字）。崩溃的模型写出的样本都是“新”的，所以只看新名字比例并不能衡量质量。"
        }
        /// No names classifier is kept in this browser.
        pub no_classifier: &'static str {
            "No names classifier is kept in this browser, so the samples are not judged by one: train a classifier on the names page (it is kept after every epoch), then train here again to see how often it recognises the language each name was written for.", "本浏览器中没有保存姓名分类器，所以样本没有经过分类器判断：在姓名页训练一个分类器（每轮结束后都会保存），再回到这里重新训练，即可看到它有多常认出每个名字要求的语言。"
        }
        /// Until the samples are measured.
        pub classifier_wait: &'static str {
            "When the samples are measured, a names classifier kept in this browser (by the names page) judges them too.", "评估样本时，本浏览器中（姓名页）保存的姓名分类器也会判断它们。"
        }
        /// The kept classifier knows none of the languages.
        pub classifier_unknown: &'static str {
            "The names classifier kept in this browser knows none of these languages (it was trained on other data), so it cannot judge the samples.", "本浏览器中保存的姓名分类器不认识这些语言（它是在其他数据上训练的），无法判断这些样本。"
        }
        /// The kept classifier could not be read: {0} why.
        pub classifier_failed: fn(&str) -> String {
            |e| format!("The names classifier kept in this browser could not be read ({e}), so the samples are not judged by one."), |e| format!("无法读取本浏览器中保存的姓名分类器（{e}），样本没有经过分类器判断。")
        }
        /// The classifier's figure: {0} share recognised, {1} languages it knows, {2} its step.
        pub classifier: fn(&str, &str, &str) -> String {
            |share, known, step| format!("The names classifier kept in this browser (its weights of step {step}) recognises the language asked for in {share} of the samples, the mean over the {known} languages it knows: how well the conditioning writes in the style of each language, judged by the product's other model."), |share, known, step| format!("本浏览器中保存的姓名分类器（第 {step} 步的权重）在 {share} 的样本中认出了所要求的语言（对它认识的 {known} 种语言取平均）：用本产品的另一个模型来衡量条件生成能否写出每种语言的风格。")
        }
        /// The CSV button's label.
        pub quality_csv: &'static str {
            "Samples' quality (CSV)", "样本质量（CSV）"
        }
        /// The As PyTorch panel's heading.
        pub pytorch_heading: &'static str {
            "As PyTorch", "PyTorch 脚本"
        }
        /// What the script is: {0} the page's steps, {1} the epochs they begin, {2} steps per
        /// epoch, {3} training names.
        pub pytorch_help: fn(&str, &str, &str, &str) -> String {
            |steps, epochs, per, names| format!("The run shown as a PyTorch script: the same names and split, the same batches in the same order, the same model, loss, Adam and clipping, the same baselines and sampler. It trains this page's {steps} steps: {epochs} pass(es) over the {names} training names at {per} steps each, the last one cut at the step where the page stops. What differs is PyTorch's initial weights and its random draws, so its held-out loss lands within the spread of seeds, not digit for digit."), |steps, epochs, per, names| format!("把当前显示的运行写成 PyTorch 脚本：同样的名字和划分、同样顺序的同样批次、同样的模型、损失、Adam 和梯度裁剪、同样的基线和采样器。它训练本页的 {steps} 步：在 {names} 个训练名字上走 {epochs} 轮，每轮 {per} 步，最后一轮在本页停下的那一步截止。不同的只有 PyTorch 的初始权重和随机抽样，所以它的留出集损失落在不同种子的波动范围内，而不是逐位相同。")
        }
        /// Until the names data set is loaded.
        pub pytorch_waiting: &'static str {
            "The script is written once the names data set is loaded.", "姓名数据集加载后即可生成脚本。"
        }
        /// The bidirectional section's heading.
        pub bidir_title: &'static str {
            "Why a bidirectional model cannot write names", "为什么双向模型不能写名字"
        }
        /// The course's claim and why, before the runs.
        pub bidir_claim: &'static str {
            "The course says a bidirectional layer cannot be used for generation: it leaks the future (§5 item 6). Train both directions and see: with teacher forcing, the backward direction at step t has already read letter t + 1, the very letter to predict.", "课程中说：双向层不能用于生成，因为它会泄露未来（§5 第 6 条）。训练两个方向来验证：在教师强制下，第 t 步的反向方向已经读到了第 t + 1 个字母，也就是要预测的那个字母。"
        }
        /// Until both runs and their samples are measured.
        pub bidir_wait: &'static str {
            "Train both directions (the button above) to measure the claim: both runs' held-out loss and their samples.", "训练两个方向（上面的按钮）来检验这一说法：两次运行的留出集损失和它们写出的样本。"
        }
        /// The verdict: {0} bidirectional loss, {1} unidirectional loss, {2} lower/higher, {3}
        /// bidirectional mean length, {4} unidirectional's, {5} the data's, {6} bidirectional
        /// bigram loss of samples, {7} unidirectional's, {8} the data's, {9} worse/better.
        pub verdict: fn([&str; 10]) -> String {
            |v| format!("Teacher-forced held-out loss: bidirectional {} against unidirectional {} nats per character ({}). Its samples: mean length {} letters against {} (the data's {}), bigram loss {} against {} nats per character (the data's {}): {}.", v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]), |v| format!("教师强制下的留出集损失：双向 {}，单向 {} 奈特/字符（{}）。它写出的样本：平均长度 {} 个字母，单向为 {}（数据为 {}）；二元损失 {}，单向为 {} 奈特/字符（数据为 {}）：{}。", v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9])
        }
        /// lower, higher.
        pub lower_higher: [&'static str; 2] {
            ["lower", "not lower"], ["更低", "并不更低"]
        }
        /// worse, not worse.
        pub worse_better: [&'static str; 2] {
            ["worse names", "not worse"], ["名字更差", "并不更差"]
        }
        /// The explanation after the verdict.
        pub bidir_why: &'static str {
            "At training time the backward direction reads the name from its end, so at step t it has seen the letter the head must predict: the loss falls almost to zero without learning to write. At generation time there is no future to read — the sampler runs the model on the letters written so far — and what the model learned to rely on is gone.", "训练时反向方向从名字末尾读起，所以在第 t 步它已经看到了输出层要预测的字母：损失几乎降到零，却没有学会写名字。生成时没有未来可读——采样器只在已写出的字母上运行模型——模型所依赖的信息就没有了。"
        }
        /// Until the learner has answered the question: where the verdict will be.
        pub bidir_hidden: &'static str {
            "The verdict on the two runs appears here once you have answered the question above (or skipped it) and both runs are measured.", "回答上面的问题（或跳过）并且两次运行都评估完后，关于两次运行的结论会显示在这里。"
        }
        /// The question asked before the bidirectional pair runs.
        pub question: &'static str {
            "Train both directions: the same model without, then with, a backward direction that reads each name from its end. Will the bidirectional model write better names? Better means letter pairs more like real names': a lower bigram loss of its 200 samples per language.", "训练两个方向：同一个模型先不带、再带一个从名字末尾读起的反向方向。双向模型会写出更好的名字吗？“更好”指字母对更像真实名字：每种语言 200 个样本的二元损失更低。"
        }
        /// Its choices: better names, worse names.
        pub question_choices: [&'static str; 2] {
            ["Yes: it will write better names", "No: it will write worse names"], ["会：它会写出更好的名字", "不会：它会写出更差的名字"]
        }
        /// What the answer waits for.
        pub question_until: &'static str {
            "The answer is the two runs' measurements: press Train both directions, then wait until both runs have finished and their samples are measured.", "答案来自两次运行的测量：点击“训练两个方向”，等两次运行都结束、样本都评估完。"
        }
        /// The reveal's sentence: {0} bidirectional loss, {1} unidirectional loss, {2}
        /// bidirectional samples' bigram loss, {3} unidirectional's, {4} bidirectional mean length,
        /// {5} unidirectional's.
        pub question_why: fn([&str; 6]) -> String {
            |v| format!("Teacher-forced held-out loss: bidirectional {} against unidirectional {} nats per character; yet its samples' bigram loss is {} against {}, and their mean length {} letters against {}.", v[0], v[1], v[2], v[3], v[4], v[5]), |v| format!("教师强制下的留出集损失：双向 {}，单向 {} 奈特/字符；但它写出的样本二元损失为 {}，单向为 {}，平均长度 {} 个字母，单向为 {}。", v[0], v[1], v[2], v[3], v[4], v[5])
        }
    }
}

/// Why the engine wrote nothing, in `lang`.
pub fn generate_error(lang: Lang, e: &GenerateError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        GenerateError::NoData => "姓名数据集尚未加载。".into(),
        GenerateError::NotGenerate => "这不是名字生成实验。".into(),
        GenerateError::Weights {
            features,
            input_size,
        } => format!("这组权重每步读入 {input_size} 个特征，而任务给出 {features} 个。"),
        GenerateError::Engine(_) => "训练引擎没有回答。".into(),
        GenerateError::Sample(s) => match s {
            SampleError::Language {
                language,
                languages,
            } => format!("语言 {language} 不存在：数据中有 {languages} 种语言。"),
            SampleError::Temperature { temperature } => {
                format!("温度 {temperature} 不在 0.1–2 之间。")
            }
            SampleError::Prefix { prefix } => {
                format!("“{prefix}”中没有可用的字母。")
            }
            SampleError::NotInAlphabet { symbol } => {
                format!("“{symbol}”没有出现在任何名字中，模型无法读取它。")
            }
            SampleError::TooLong { letters, max_len } => {
                format!("开头有 {letters} 个字母，超过了名字最多的 {max_len} 个。")
            }
        },
    }
}
