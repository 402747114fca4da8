//! The names training page: configuration, progress, charts, prediction, the data set, and
//! the run's errors and notices.
//!
//! A run's errors and notices arrive as typed values ([`TrainError`], [`TrainNotice`]: steps,
//! losses and the engine's fault as data) and are written here in each language (the path a
//! run trains on: [`crate::shell::backend_text`]); the English wording is their own `Display`. So are the built-in data
//! set's loading errors ([`DataLoadError`]: the URL, the HTTP status and the loader's error as
//! data).

use crate::charts::text::ChartText;
use crate::names::bridge::{DataInUse, DataLoadError};
use crate::shell::catalogue::catalogue;
use crate::shell::i18n::Locale;
use unroll_core::config::Lang;
use unroll_core::task::TaskError;
use unroll_core::train::messages::{EngineFault, TrainError, TrainNotice};
use unroll_core::train::sweep::ResumeRefused;

/// Classes listed by name in the data panel's note (the count covers all).
const CLASSES_LISTED: usize = 12;

/// `classes` for a note: the first [`CLASSES_LISTED`] (long labels cut) joined by `sep`, and how
/// many more there are.
fn class_list(classes: &[String], sep: &str) -> (String, usize) {
    let shown: Vec<String> = classes
        .iter()
        .take(CLASSES_LISTED)
        .map(|c| unroll_core::data::upload::display_label(c))
        .collect();
    (
        shown.join(sep),
        classes.len().saturating_sub(CLASSES_LISTED),
    )
}

const LEDE_TAIL_EN: &str =
    "It trains right here in this tab: on your GPU through WebGPU or on the CPU, whichever \
     a few timed steps find faster here. Every number below is computed live.";

fn lede_en(data: DataInUse) -> String {
    match data {
        DataInUse::Loading => format!(
            "A recurrent network reads a surname one letter at a time and guesses its language. {LEDE_TAIL_EN}"
        ),
        DataInUse::Builtin(n) => format!(
            "A recurrent network reads a surname one letter at a time and guesses its language among {n}. {LEDE_TAIL_EN}"
        ),
        DataInUse::Upload { classes, .. } => format!(
            "A recurrent network reads a name from your data one letter at a time and guesses its class among {}. {LEDE_TAIL_EN}",
            classes.len()
        ),
    }
}

fn data_note_en(data: DataInUse) -> String {
    const NORM: &str = "normalised to the letters a–z, A–Z and a few marks";
    match data {
        DataInUse::Loading | DataInUse::Builtin(0) => format!(
            "Surnames from the PyTorch tutorial's language files, {NORM}; each (name, language) pair counts once."
        ),
        DataInUse::Builtin(n) => format!(
            "Surnames from the PyTorch tutorial's {n} language files, {NORM}; each (name, language) pair counts once."
        ),
        DataInUse::Upload { files, classes } => {
            let (list, more) = class_list(classes, ", ");
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            let n = classes.len();
            let s = if files.len() == 1 { "" } else { "s" };
            format!(
                "Your own data: names from your file{s} {}, {n} classes ({list}{more}), {NORM}; each (name, class) pair counts once.",
                files.join(", ")
            )
        }
    }
}

const LEDE_TAIL_ZH: &str =
    "训练就在这个标签页里进行：通过 WebGPU 在你的 GPU 上，或在 CPU 上，先计时几步，哪个更快就用哪个。\
     下面的每个数字都是实时计算的。";

fn lede_zh(data: DataInUse) -> String {
    match data {
        DataInUse::Loading => format!("循环神经网络逐个字母读入一个姓氏，并猜出它来自哪种语言。{LEDE_TAIL_ZH}"),
        DataInUse::Builtin(n) => {
            format!("循环神经网络逐个字母读入一个姓氏，并在 {n} 种语言中猜出它的来源。{LEDE_TAIL_ZH}")
        }
        DataInUse::Upload { classes, .. } => format!(
            "循环神经网络逐个字母读入你的数据中的一个名字，并在 {} 个类别中猜出它的类别。{LEDE_TAIL_ZH}",
            classes.len()
        ),
    }
}

fn data_note_zh(data: DataInUse) -> String {
    const NORM: &str = "规范化为字母 a–z、A–Z 和少数标点";
    match data {
        DataInUse::Loading | DataInUse::Builtin(0) => {
            format!("姓氏来自 PyTorch 教程的语言文件，{NORM}；每个（姓氏，语言）对只计一次。")
        }
        DataInUse::Builtin(n) => {
            format!(
                "姓氏来自 PyTorch 教程的 {n} 个语言文件，{NORM}；每个（姓氏，语言）对只计一次。"
            )
        }
        DataInUse::Upload { files, classes } => {
            let (list, more) = class_list(classes, "、");
            let more = if more > 0 {
                format!(" 等（另有 {more} 个）")
            } else {
                String::new()
            };
            format!(
                "你自己的数据：名字来自你的文件 {}，共 {} 个类别（{list}{more}），{NORM}；每个（名字，类别）对只计一次。",
                files.join("、"),
                classes.len()
            )
        }
    }
}

catalogue! {
    /// The training page's texts.
    #[allow(missing_docs)] // the field names say what each text is
    #[derive(Debug)]
    pub struct TrainingText {
        pub title: &'static str {
            "Which language is this surname from?", "这个姓氏来自哪种语言？"
        }
        pub lede: fn(DataInUse) -> String {
            lede_en, lede_zh
        }

        pub config_title: &'static str {
            "Model & training", "模型与训练"
        }
        pub cell: &'static str {
            "Cell", "单元"
        }
        pub hidden_size: &'static str {
            "Hidden size", "隐藏层大小"
        }
        pub hidden_size_help: &'static str {
            "8–256 features in h_t", "h_t 的特征数，8–256"
        }
        pub batch_size: &'static str {
            "Batch size", "批大小"
        }
        pub batch_size_help: &'static str {
            "1–512 names per step", "每步 1–512 个姓氏"
        }
        pub lr: &'static str {
            "Learning rate", "学习率"
        }
        pub lr_help: &'static str {
            "Adam, 0.00001–1", "Adam，0.00001–1"
        }
        pub epochs: &'static str {
            "Epochs", "轮数"
        }
        pub epochs_help: &'static str {
            "1–100 passes over the training names", "遍历训练集 1–100 次"
        }
        pub seed: &'static str {
            "Seed", "随机种子"
        }
        pub seed_help: &'static str {
            "fixes initialisation, split and batch order", "决定初始化、数据划分和批次顺序"
        }
        pub start: &'static str {
            "Start training", "开始训练"
        }
        pub train_again: &'static str {
            "Train again", "重新训练"
        }
        /// Start's label while the data set is still loading (the button is disabled).
        pub start_preparing: &'static str {
            "Preparing the data…", "正在准备数据…"
        }
        /// Asked before Start replaces a restored or loaded model.
        pub confirm_replace: &'static str {
            "Start a new run from step 0? The model on this page (restored or loaded) will be replaced.", "从第 0 步开始新的训练？本页当前的模型（恢复或载入的）将被替换。"
        }
        pub pause: &'static str {
            "Pause", "暂停"
        }
        pub resume: &'static str {
            "Resume", "继续"
        }
        pub reset: &'static str {
            "Reset run", "重置训练"
        }
        pub locked_hint: &'static str {
            "Settings are locked while a session runs; reset the run to change them.", "训练进行中设置已锁定；重置训练后即可修改。"
        }
        /// The button that trains on from the page's weights.
        pub train_on: &'static str {
            "Train on from these weights", "从当前权重继续训练"
        }
        /// What training on does (fresh Adam moments).
        pub train_on_help: &'static str {
            "A new run of the form's epochs that starts from the weights on this page (trained here or loaded from a file) instead of a fresh initialisation. Adam starts again from zero moments: a weights file carries none.", "以本页现有的权重（在此训练或从文件加载）为起点，按表单的轮数开始新一轮训练，而不是重新初始化。Adam 的矩估计从零开始：权重文件不含这些状态。"
        }
        /// Why training on is unavailable: the form no longer matches the weights.
        pub train_on_mismatch: &'static str {
            "The form no longer matches these weights (cell, size, layers, directions, head or languages): set it back to train on from them.", "表单已与这些权重不一致（单元、大小、层数、方向、读出方式或语言）：改回原来的设置即可继续训练。"
        }

        pub progress: &'static str {
            "Progress", "进度"
        }
        pub status_idle: &'static str {
            "Ready", "就绪"
        }
        /// The status pill of a restored run that Resume continues.
        pub status_resumable: &'static str {
            "Can be resumed", "可以继续训练"
        }
        pub status_running: &'static str {
            "Training", "训练中"
        }
        pub status_paused: &'static str {
            "Paused", "已暂停"
        }
        pub status_finished: &'static str {
            "Finished", "已完成"
        }
        pub status_error: &'static str {
            "Stopped by an error", "因错误停止"
        }
        pub backend_label: &'static str {
            "Backend", "后端"
        }
        pub backend_pending: &'static str {
            "chosen when training starts", "开始训练时选择"
        }
        pub stat_epoch: &'static str {
            "Epoch", "轮次"
        }
        pub stat_step: &'static str {
            "Step", "步数"
        }
        pub stat_train_loss: &'static str {
            "Training loss", "训练损失"
        }
        pub stat_val_acc: &'static str {
            "Validation accuracy", "验证准确率"
        }
        pub stat_val_loss: &'static str {
            "Validation loss", "验证损失"
        }
        pub stat_epoch_time: &'static str {
            "Time per epoch", "每轮用时"
        }
        pub of_total: fn(&str) -> String {
            |n| format!("of {n}"), |n| format!("共 {n} 步")
        }
        pub mean_20_steps: &'static str {
            "mean of the last 20 steps", "最近 20 步的平均值"
        }
        pub after_epoch: fn(u32) -> String {
            |e| format!("after epoch {e}"), |e| format!("第 {e} 轮之后")
        }
        pub after_each_epoch: &'static str {
            "after each epoch", "每轮结束后计算"
        }
        pub progress_aria: &'static str {
            "Training progress", "训练进度"
        }
        pub progress_label: fn(u32, &str, f64) -> String {
            |epochs, steps, pct| {
                let unit = if epochs == 1 { "epoch" } else { "epochs" };
                format!("{epochs} {unit} × {steps} steps · {pct:.0}% done")
            },
            |epochs, steps, pct| {
                format!("{epochs} 轮 × 每轮 {steps} 步 · 已完成 {pct:.0}%")
            }
        }
        pub waiting_for_data: &'static str {
            "Waiting for the data set", "等待数据集"
        }

        pub curves: &'static str {
            "Learning curves", "学习曲线"
        }
        pub chart_loss_caption: &'static str {
            "Training loss per step", "每一步的训练损失"
        }
        /// Under the loss chart: why the per-step loss swings (batches of one name length).
        pub loss_swing_note: &'static str {
            "Each batch holds names of one length (so a step pads almost nothing): one step's loss may be over short names and the next over long ones, so the curve jumps from step to step. Read the trend from the mean of the last 20 steps and the validation curve.", "每个批次只含同一长度的名字（因此几乎不用填充）：这一步的损失来自短名字，下一步可能来自长名字，所以曲线逐步上下跳动。趋势请看最近 20 步的平均值和验证曲线。"
        }
        /// Under the loss chart: the rings mark the epoch's smaller batch (its names).
        pub small_batch_note: fn(u32) -> String {
            |n| {
                format!(
                    "Rings mark each epoch's smaller batch (the names left over: {n}): its loss is the \
                     mean over fewer names, so it jumps more than its neighbours."
                )
            },
            |n| {
                format!("圆圈标出每轮中较小的批次（剩下的 {n} 个名字）：它的损失只对较少的名字求平均，所以比相邻的步跳动更大。")
            }
        }
        pub chart_val_caption: &'static str {
            "Validation loss and accuracy per epoch", "每轮的验证损失与准确率"
        }
        /// The loss curve's CSV button (its visible name).
        pub csv_loss: &'static str {
            "Loss per step", "每步损失"
        }
        /// The validation curve's CSV button (its visible name).
        pub csv_val: &'static str {
            "Validation per epoch", "每轮验证"
        }
        pub chart: ChartText {
            ChartText::EN, ChartText::ZH
        }

        pub predict_title: &'static str {
            "Try a name", "试一个姓氏"
        }
        pub predict_placeholder: &'static str {
            "e.g. Nguyen, Schmidt, Rossi", "例如 Nguyen、Schmidt、Rossi"
        }
        pub predict_aria: &'static str {
            "Surname to classify", "要分类的姓氏"
        }
        pub predict_empty: &'static str {
            "Predictions update as you type, from the weights being trained.", "输入时预测会随之更新，使用的是正在训练的权重。"
        }
        pub predict_before_start: &'static str {
            "Start training, then type a name to see what the model thinks.", "先开始训练，再输入一个姓氏，看看模型怎么判断。"
        }
        pub predict_waiting_data: &'static str {
            "Waiting for the data set…", "正在等待数据集…"
        }
        /// The typed name (as given) normalises to nothing the model can read.
        pub predict_no_letters: fn(&str) -> String {
            |name| {
                format!(
                    "No usable letters in “{name}”: the model only reads the letters a–z and A–Z \
                     (accents are removed) and the symbols space . , ; '"
                )
            },
            |name| {
                format!("“{name}”中没有可用的字母：模型只读取字母 a–z、A–Z（重音会被去掉）以及空格和 . , ; ' 这几个符号")
            }
        }
        pub weights_init: &'static str {
            "Weights: the random initialisation (step 0)", "权重：随机初始化（第 0 步）"
        }
        pub weights_from_step: fn(&str) -> String {
            |s| format!("Weights from step {s}"), |s| format!("权重来自第 {s} 步")
        }

        pub data_title: &'static str {
            "The data set", "数据集"
        }
        pub data_note: fn(DataInUse) -> String {
            data_note_en, data_note_zh
        }
        pub data_classes: &'static str {
            "Classes", "类别数"
        }
        pub data_languages: &'static str {
            "Languages", "语言数"
        }
        pub data_lines: &'static str {
            "Lines in the files", "文件行数"
        }
        pub data_pairs: &'static str {
            "Distinct pairs", "不同的对"
        }
        pub data_skipped: &'static str {
            "Skipped lines", "跳过的行"
        }
        pub data_train: &'static str {
            "Training pairs", "训练对"
        }
        pub data_val: &'static str {
            "Validation pairs", "验证对"
        }
        pub loading: &'static str {
            "Loading the names data set…", "正在加载姓氏数据集…"
        }
        pub loading_files: fn(usize, usize) -> String {
            |done, total| format!("Loading the names data set… {done} of {total} files"), |done, total| format!("正在加载姓氏数据集… {done} / {total} 个文件")
        }
        pub data_error: &'static str {
            "The data set could not be loaded.", "数据集无法加载。"
        }
        /// Why the built-in data set did not load (the browser's own words go in a tooltip:
        /// [`DataLoadError::detail`]).
        pub data_failure: fn(&DataLoadError) -> String {
            |e| e.to_string(), crate::kit::names_data::data_failure_zh
        }

        /// Why a run stopped.
        pub train_error: fn(&TrainError) -> String {
            train_error_en, train_error_zh
        }
        /// A message of a run that goes on.
        pub train_notice: fn(&TrainNotice) -> String {
            train_notice_en, train_notice_zh
        }
    }
}

/// The detail of a run's error for a tooltip: the GPU's or the engine's own words, if any.
pub fn train_error_detail(e: &TrainError) -> Option<String> {
    match e {
        TrainError::Engine(f) => Some(f.to_string()),
        TrainError::Resume(r) => Some(r.to_string()),
        TrainError::BadLoss { .. } | TrainError::Task(_) => None,
    }
}

fn train_error_en(e: &TrainError) -> String {
    e.to_string()
}

fn train_notice_en(n: &TrainNotice) -> String {
    n.to_string()
}

/// A non-finite loss as a number: `NaN`, `∞` or `−∞` (finite values as Rust writes them).
fn fmt_loss(loss: f32) -> String {
    if loss.is_nan() {
        "NaN".into()
    } else if loss.is_infinite() {
        if loss > 0.0 { "∞" } else { "−∞" }.into()
    } else {
        loss.to_string()
    }
}

fn train_error_zh(e: &TrainError) -> String {
    match e {
        TrainError::BadLoss {
            loss,
            step,
            clipping,
        } => format!(
            "第 {step} 步的损失变成了 {}，训练已停止。请降低学习率（lr）{}后重新训练；第 {step} 步之前的权重已保留。",
            fmt_loss(*loss),
            if *clipping {
                ""
            } else {
                "或开启梯度裁剪（max_norm，例如 5）"
            }
        ),
        TrainError::Resume(r) => match r {
            ResumeRefused::Shape {
                saved, expected, ..
            } => format!("保存的运行有 {saved} 个参数，而当前配置有 {expected} 个，无法继续训练。"),
            ResumeRefused::Settings => "保存的运行来自另一组设置，无法继续训练。".into(),
            ResumeRefused::Runs { .. } => "保存的运行属于另一个种子或另一组单元，无法继续训练。".into(),
            ResumeRefused::Steps { step, budget, .. } => {
                format!("保存的运行已到第 {step} 步，超出了 {budget} 步的预算，无法继续训练。")
            }
            ResumeRefused::Started => "训练已经开始，无法再从保存的运行继续。".into(),
        },
        TrainError::Task(t) => match t {
            TaskError::Delay(e) => format!(
                "延迟必须满足 0 < delay < length（得到 delay {}，length {}）。",
                e.delay, e.length
            ),
            TaskError::Length(e) => format!("此任务的长度至少为 {}，得到 {}。", e.min, e.length),
            TaskError::NoData => "名字生成需要名字数据集。".into(),
        },
        TrainError::Engine(f) => match f {
            EngineFault::NoData => "训练引擎没有这次运行的数据集。",
            EngineFault::Stopped(_) => "训练引擎已停止。",
            EngineFault::CouldNotStart(_) => "训练引擎无法启动。",
            EngineFault::Unreadable(_) => "训练引擎发来了无法读取的消息。",
        }
        .into(),
    }
}

fn train_notice_zh(n: &TrainNotice) -> String {
    match n {
        TrainNotice::SkippedStep { step } => {
            format!("第 {step} 步：梯度范数不是有限数，已跳过这次更新。")
        }
    }
}

/// The training page's catalogue in the [`Locale`]'s language (reactive): `loc.t()` is
/// `TrainingText::of(loc.lang())`.
pub trait TrainingTextOf {
    /// The training page's catalogue in the language in effect.
    fn t(&self) -> &'static TrainingText;
}

impl TrainingTextOf for Locale {
    fn t(&self) -> &'static TrainingText {
        TrainingText::of(self.lang())
    }
}

pub use crate::kit::names_data::language_name;

/// A layer direction's name in `lang`: 0 reads forward, 1 (bidirectional only) in reverse, as
/// PyTorch's `_reverse` parameter suffix says.
pub fn direction_name(lang: Lang, d: usize) -> &'static str {
    match (lang, d) {
        (Lang::En, 0) => "forward",
        (Lang::En, _) => "reverse",
        (Lang::Zh, 0) => "正向",
        (Lang::Zh, _) => "反向",
    }
}
