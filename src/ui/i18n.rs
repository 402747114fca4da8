//! Interface language: English and 简体中文.
//!
//! Every piece of UI text lives in one [`Strings`] table per language ([`EN`], [`ZH`]); a
//! missing translation is a compile error, because both are values of the same struct. The
//! language is `lang=en|zh` in the URL when the user chose one, otherwise the browser's
//! (`navigator.language`). [`Locale`] is provided as context by the app shell.
//!
//! Numbers inside sentences go through the `fn` fields, so each language orders them itself.
//! URL notices and the training run's errors and notices arrive as typed values (ranges,
//! steps, losses and the GPU's error as data) and are written here in each language; only the
//! data loader's messages (they name a file and line) stay in English.
//!
//! The lessons' texts are [`Tr`] pairs (English, Chinese) grouped by lesson ([`common`],
//! [`index`], [`unroll`], …), with `{0}`-style placeholders filled by [`Tr::fill`]; a pair
//! cannot lack one of its languages either. No lesson text contains a computed number.

use crate::config::lessons::LessonId;
use crate::config::query::{format_number, Accepted, Fallback, NoticeKind, TiedBy, UrlNotice};
use crate::gpu::GpuError;
use crate::train::session::{CpuReason, EngineFault, TrainError, TrainNotice};
use leptos::prelude::*;

pub use crate::config::Lang;
pub use crate::ui::charts::ChartText;

/// The app's language state: the language chosen in the URL (or by the switcher), if any, and
/// the browser's.
#[derive(Clone, Copy, Debug)]
pub struct Locale {
    /// `Some` when the user chose a language (then it is written to the URL as `lang`).
    pub chosen: RwSignal<Option<Lang>>,
    /// The browser's language, used when none was chosen.
    pub browser: Lang,
}

impl Locale {
    /// The language in effect (reactive).
    pub fn lang(&self) -> Lang {
        self.chosen.get().unwrap_or(self.browser)
    }

    /// The text table of the language in effect (reactive).
    pub fn t(&self) -> &'static Strings {
        strings(self.lang())
    }

    /// Chooses `lang` (the switcher).
    pub fn choose(&self, lang: Lang) {
        self.chosen.set(Some(lang));
    }
}

/// The [`Locale`] provided by the app shell. Panics only if called outside the app (a bug).
pub fn use_locale() -> Locale {
    expect_context::<Locale>()
}

/// `zh` when the browser's preferred language is Chinese, otherwise `en`.
pub fn browser_lang() -> Lang {
    let language = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    if language.to_ascii_lowercase().starts_with("zh") {
        Lang::Zh
    } else {
        Lang::En
    }
}

/// The text table of `lang`.
pub fn strings(lang: Lang) -> &'static Strings {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

/// The data in use, as the training page's lede and data panel describe it.
#[derive(Clone, Copy, Debug)]
pub enum DataInUse<'a> {
    /// Not loaded yet.
    Loading,
    /// The built-in names data set, with its number of languages.
    Builtin(usize),
    /// The user's own data: the uploaded file names and the class names.
    Upload {
        /// The files, as named by the user.
        files: &'a [String],
        /// The classes, in class-index order.
        classes: &'a [String],
    },
}

/// Classes listed by name in the data panel's note (the count covers all).
const CLASSES_LISTED: usize = 12;

/// `classes` for a note: the first [`CLASSES_LISTED`] (long labels cut) joined by `sep`, and how
/// many more there are.
fn class_list(classes: &[String], sep: &str) -> (String, usize) {
    let shown: Vec<String> = classes
        .iter()
        .take(CLASSES_LISTED)
        .map(|c| crate::data::upload::display_label(c))
        .collect();
    (
        shown.join(sep),
        classes.len().saturating_sub(CLASSES_LISTED),
    )
}

const LEDE_TAIL_EN: &str =
    "It trains right here in this tab: on your GPU through WebGPU when the browser \
     offers it, otherwise on the CPU. Every number below is computed live.";

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
    "训练就在这个标签页里进行：浏览器支持时通过 WebGPU 在你的 GPU 上运行，否则在 CPU 上运行。\
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

/// All UI text of one language.
#[allow(missing_docs)] // the field names say what each text is
#[derive(Debug)]
pub struct Strings {
    pub html_lang: &'static str,
    pub brand_tag: &'static str,
    pub nav_label: &'static str,
    pub nav_names: &'static str,
    pub lang_label: &'static str,
    pub footer: &'static str,
    pub unknown_lesson: fn(&str) -> String,

    pub url_notice_title: &'static str,
    pub dismiss: &'static str,

    pub title: &'static str,
    pub lede: fn(DataInUse) -> String,

    pub config_title: &'static str,
    pub cell: &'static str,
    pub hidden_size: &'static str,
    pub hidden_size_help: &'static str,
    pub batch_size: &'static str,
    pub batch_size_help: &'static str,
    pub lr: &'static str,
    pub lr_help: &'static str,
    pub epochs: &'static str,
    pub epochs_help: &'static str,
    pub seed: &'static str,
    pub seed_help: &'static str,
    pub backend: &'static str,
    pub backend_auto: &'static str,
    pub backend_cpu: &'static str,
    pub backend_help_auto: &'static str,
    pub backend_help_gpu: &'static str,
    pub backend_help_cpu: &'static str,
    pub start: &'static str,
    pub train_again: &'static str,
    /// Asked before Start replaces a restored or loaded model.
    pub confirm_replace: &'static str,
    pub pause: &'static str,
    pub resume: &'static str,
    pub reset: &'static str,
    pub locked_hint: &'static str,

    pub progress: &'static str,
    pub status_idle: &'static str,
    pub status_running: &'static str,
    pub status_paused: &'static str,
    pub status_finished: &'static str,
    pub status_error: &'static str,
    pub backend_label: &'static str,
    pub backend_pending: &'static str,
    pub stat_epoch: &'static str,
    pub stat_step: &'static str,
    pub stat_train_loss: &'static str,
    pub stat_val_acc: &'static str,
    pub stat_val_loss: &'static str,
    pub stat_epoch_time: &'static str,
    pub of_total: fn(&str) -> String,
    pub mean_20_steps: &'static str,
    pub after_epoch: fn(u32) -> String,
    pub after_each_epoch: &'static str,
    pub progress_aria: &'static str,
    pub progress_label: fn(u32, &str, f64) -> String,
    pub waiting_for_data: &'static str,

    pub curves: &'static str,
    pub chart_loss_caption: &'static str,
    /// Under the loss chart: the rings mark the epoch's smaller batch (its names).
    pub small_batch_note: fn(u32) -> String,
    pub chart_val_caption: &'static str,
    pub chart: ChartText,

    pub predict_title: &'static str,
    pub predict_placeholder: &'static str,
    pub predict_aria: &'static str,
    pub predict_empty: &'static str,
    pub predict_before_start: &'static str,
    pub predict_waiting_data: &'static str,
    /// The typed name (as given) normalises to nothing the model can read.
    pub predict_no_letters: fn(&str) -> String,
    pub weights_init: &'static str,
    pub weights_from_step: fn(&str) -> String,

    pub data_title: &'static str,
    pub data_note: fn(DataInUse) -> String,
    pub data_classes: &'static str,
    pub data_languages: &'static str,
    pub data_lines: &'static str,
    pub data_pairs: &'static str,
    pub data_skipped: &'static str,
    pub data_train: &'static str,
    pub data_val: &'static str,
    pub loading: &'static str,
    pub loading_files: fn(usize, usize) -> String,
    pub data_error: &'static str,

    pub notice: fn(&UrlNotice) -> String,
    /// Why a run stopped.
    pub train_error: fn(&TrainError) -> String,
    /// A message of a run that goes on.
    pub train_notice: fn(&TrainNotice) -> String,
    /// Why a run that wanted the GPU trains on the CPU.
    pub cpu_reason: fn(&CpuReason) -> String,
    /// A GPU failure in words (the Chinese table gives its kind; the detail, wgpu's or the
    /// browser's English, goes in a tooltip: [`gpu_detail`]).
    pub gpu_error: fn(&GpuError) -> String,
}

/// The GPU's own words about a failure, for a tooltip (`title`), in any language.
pub fn gpu_detail(e: &GpuError) -> String {
    e.to_string()
}

/// The detail of a run's error for a tooltip: the GPU's or the engine's own words, if any.
pub fn train_error_detail(e: &TrainError) -> Option<String> {
    match e {
        TrainError::Gpu(g) | TrainError::Validation(g) | TrainError::ResumeLoad(g) => {
            Some(gpu_detail(g))
        }
        TrainError::Engine(f) => Some(f.to_string()),
        TrainError::BadLoss { .. } | TrainError::ResumeMismatch { .. } => None,
    }
}

/// The detail of a CPU fallback's reason for a tooltip (the GPU's own words).
pub fn cpu_reason_detail(r: &CpuReason) -> String {
    match r {
        CpuReason::GpuUnavailable(e)
        | CpuReason::NoWorkerWebGpu(e)
        | CpuReason::DeviceLost { error: e, .. } => gpu_detail(e),
    }
}

fn train_error_en(e: &TrainError) -> String {
    e.to_string()
}

fn train_notice_en(n: &TrainNotice) -> String {
    n.to_string()
}

fn cpu_reason_en(r: &CpuReason) -> String {
    r.to_string()
}

fn gpu_error_en(e: &GpuError) -> String {
    e.to_string()
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

fn gpu_error_zh(e: &GpuError) -> String {
    match e {
        GpuError::NoAdapter(_) => "没有可用的 GPU 适配器",
        GpuError::RequestDevice(_) => "无法创建 GPU 设备",
        GpuError::DeviceLost(_) => "GPU 设备已丢失",
        GpuError::Device(_) => "GPU 出错",
        GpuError::Readback(_) => "从 GPU 读回数据失败",
        GpuError::InvalidInput(_) => "输入不适合 GPU 路径",
        GpuError::TooLarge(_) => "超出此 GPU 的限制",
        GpuError::Unsupported(_) => "GPU 路径尚不支持此配置",
    }
    .into()
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
        TrainError::Gpu(g) => format!("训练已停止：{}。", gpu_error_zh(g)),
        TrainError::Validation(g) => format!("验证失败：{}。", gpu_error_zh(g)),
        TrainError::ResumeMismatch { saved, expected } => format!(
            "保存的运行有 {saved} 个参数，而当前配置有 {expected} 个，无法继续训练。"
        ),
        TrainError::ResumeLoad(g) => format!("无法载入保存的运行：{}。", gpu_error_zh(g)),
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
        TrainNotice::WeightsUnreadable(g) => format!("无法读回权重：{}。", gpu_error_zh(g)),
    }
}

fn cpu_reason_zh(r: &CpuReason) -> String {
    match r {
        CpuReason::GpuUnavailable(g) => {
            format!("GPU 不可用（{}），改在 CPU 上训练。", gpu_error_zh(g))
        }
        CpuReason::NoWorkerWebGpu(g) => format!(
            "此浏览器不在后台线程（训练所在之处）中提供 WebGPU（{}），训练在 CPU 上进行。",
            gpu_error_zh(g)
        ),
        CpuReason::DeviceLost { error, step } => format!(
            "{}，训练从第 {step} 步起在 CPU 上继续。",
            gpu_error_zh(error)
        ),
    }
}

/// `a–b`, or `a 至 b` when `a` is negative.
fn span_zh(min: f64, max: f64) -> String {
    let (min, max) = (format_number(min), format_number(max));
    if min.starts_with('-') {
        format!("{min} 至 {max}")
    } else {
        format!("{min}–{max}")
    }
}

/// The accepted values of a URL key, in Chinese.
fn accepted_zh(a: &Accepted) -> String {
    match a {
        Accepted::Range { min, max } => span_zh(*min, *max),
        Accepted::Bool => "0 或 1".into(),
        Accepted::Choices(choices) => choices.join(", "),
        Accepted::Numbers {
            min,
            max,
            min_len,
            max_len,
        } => format!(
            "{min_len}–{max_len} 个 {} 范围内的数，以逗号分隔",
            span_zh(*min, *max)
        ),
        Accepted::Words {
            min_len,
            max_len,
            max_chars,
        } => format!("{min_len}–{max_len} 个词，每个最多 {max_chars} 个字符，以逗号分隔"),
        Accepted::Tied { min, max, rule } => {
            let span = span_zh(*min, *max);
            match rule {
                TiedBy::OnePerInput => format!("{span}（每个输入一步）"),
                TiedBy::StepsOfMode(mode) => format!("{span}（{mode} 模式的步数）"),
                TiedBy::OnePerTokenZeroLast => format!("{span}（每个词一个；0 = 最后一个）"),
                TiedBy::OnePerLogit => format!("{span}（每个类别一个）"),
                TiedBy::DelayBelowLength { length } => {
                    format!("{span}（0 < delay < length {length}）")
                }
            }
        }
        Accepted::OnePerStep { steps } => format!("每步一个值（共 {steps} 步）"),
    }
}

fn notice_en(n: &UrlNotice) -> String {
    n.to_string()
}

fn notice_zh(n: &UrlNotice) -> String {
    let (field, raw) = (&n.field, &n.raw);
    match &n.kind {
        NoticeKind::Clamped { range, to } => {
            format!(
                "{field}：“{raw}”超出范围 {}，已改用 {to}",
                accepted_zh(range)
            )
        }
        NoticeKind::Invalid { expected, default } => {
            let instead = match default {
                Fallback::Value(v) => format!("已改用默认值 {v}"),
                Fallback::BrowserLanguage => "已改用浏览器的语言".into(),
                Fallback::LessonIndex => "已改为显示课程目录".into(),
            };
            format!(
                "{field}：“{raw}”无效（应为 {}），{instead}",
                accepted_zh(expected)
            )
        }
        NoticeKind::UnknownKey => format!("“{field}”不是本页面的设置，已忽略"),
        NoticeKind::Repeated { used } => {
            format!("{field} 出现了多次：忽略“{raw}”，使用最后一个值“{used}”")
        }
        NoticeKind::NewerVersion => {
            format!("此链接来自更新版本的 Unroll（v={raw}），所有设置均使用默认值")
        }
        NoticeKind::IgnoredNewerVersion => {
            format!("{field}：“{raw}”已忽略，因为链接来自更新的版本")
        }
        NoticeKind::BadVersion => format!("v：“{raw}”不是已知的版本号，按 v=1 读取"),
        NoticeKind::OtherLesson { expected } => {
            format!("lesson：“{raw}”不是本页面（{expected}），已忽略")
        }
        NoticeKind::ListTruncated { max_len } => {
            format!("{field}：超过 {max_len} 个值，只使用前 {max_len} 个")
        }
        NoticeKind::Inconsistent { allowed } => format!(
            "{field}：“{raw}”与其他设置不相容（允许：{}），改正之前不会运行",
            accepted_zh(allowed)
        ),
        NoticeKind::NotUtf8 => {
            format!("{field}：链接中的字节不是 UTF-8 文本，无法读取的字节已按“�”读取（“{raw}”）")
        }
        NoticeKind::More { count } => format!("另有 {count} 项设置被忽略或调整"),
    }
}

/// English.
pub static EN: Strings = Strings {
    html_lang: "en",
    brand_tag: "RNN · LSTM · GRU, live in your browser",
    nav_label: "Pages",
    nav_names: "Train on names",
    lang_label: "Language",
    footer:
        "Unroll computes every number on this page in your browser: Rust compiled to WebAssembly, \
             WGSL compute shaders on WebGPU, and the same maths in plain Rust on the CPU.",
    unknown_lesson: |l| format!("lesson: “{l}” is not a page of Unroll; showing the training page"),

    url_notice_title: "Some settings in the link were adjusted",
    dismiss: "Dismiss",

    title: "Which language is this surname from?",
    lede: lede_en,

    config_title: "Model & training",
    cell: "Cell",
    hidden_size: "Hidden size",
    hidden_size_help: "8–256 features in h_t",
    batch_size: "Batch size",
    batch_size_help: "1–512 names per step",
    lr: "Learning rate",
    lr_help: "Adam, 0.00001–1",
    epochs: "Epochs",
    epochs_help: "1–100 passes over the training names",
    seed: "Seed",
    seed_help: "fixes initialisation, split and batch order",
    backend: "Backend",
    backend_auto: "Automatic",
    backend_cpu: "CPU",
    backend_help_auto: "WebGPU when the browser offers an adapter, else the CPU",
    backend_help_gpu: "WebGPU; falls back to the CPU with a notice",
    backend_help_cpu: "the same maths in Rust on the CPU",
    start: "Start training",
    train_again: "Train again",
    confirm_replace:
        "Start a new run from step 0? The model on this page (restored or loaded) will be replaced.",
    pause: "Pause",
    resume: "Resume",
    reset: "Reset",
    locked_hint: "Settings are locked while a session runs; reset to change them.",

    progress: "Progress",
    status_idle: "Ready",
    status_running: "Training",
    status_paused: "Paused",
    status_finished: "Finished",
    status_error: "Stopped by an error",
    backend_label: "Backend",
    backend_pending: "chosen when training starts",
    stat_epoch: "Epoch",
    stat_step: "Step",
    stat_train_loss: "Training loss",
    stat_val_acc: "Validation accuracy",
    stat_val_loss: "Validation loss",
    stat_epoch_time: "Time per epoch",
    of_total: |n| format!("of {n}"),
    mean_20_steps: "mean of the last 20 steps",
    after_epoch: |e| format!("after epoch {e}"),
    after_each_epoch: "after each epoch",
    progress_aria: "Training progress",
    progress_label: |epochs, steps, pct| {
        let unit = if epochs == 1 { "epoch" } else { "epochs" };
        format!("{epochs} {unit} × {steps} steps · {pct:.0}% done")
    },
    waiting_for_data: "Waiting for the data set",

    curves: "Learning curves",
    chart_loss_caption: "Training loss per step",
    small_batch_note: |n| {
        format!(
            "Rings mark each epoch's smaller batch (the names left over: {n}): its loss is the \
             mean over fewer names, so it jumps more than its neighbours."
        )
    },
    chart_val_caption: "Validation loss and accuracy per epoch",
    chart: ChartText::EN,

    predict_title: "Try a name",
    predict_placeholder: "e.g. Nguyen, Schmidt, Rossi",
    predict_aria: "Surname to classify",
    predict_empty: "Predictions update as you type, from the weights being trained.",
    predict_before_start: "Start training, then type a name to see what the model thinks.",
    predict_waiting_data: "Waiting for the data set…",
    predict_no_letters: |name| {
        format!(
            "No usable letters in “{name}”: the model only reads the letters a–z and A–Z \
             (accents are removed) and the symbols space . , ; '"
        )
    },
    weights_init: "Weights: the random initialisation (step 0)",
    weights_from_step: |s| format!("Weights from step {s}"),

    data_title: "The data set",
    data_note: data_note_en,
    data_classes: "Classes",
    data_languages: "Languages",
    data_lines: "Lines in the files",
    data_pairs: "Distinct pairs",
    data_skipped: "Skipped lines",
    data_train: "Training pairs",
    data_val: "Validation pairs",
    loading: "Loading the names data set…",
    loading_files: |done, total| format!("Loading the names data set… {done} of {total} files"),
    data_error: "The data set could not be loaded. ",

    notice: notice_en,
    train_error: train_error_en,
    train_notice: train_notice_en,
    cpu_reason: cpu_reason_en,
    gpu_error: gpu_error_en,
};

/// 简体中文.
pub static ZH: Strings = Strings {
    html_lang: "zh-CN",
    brand_tag: "RNN · LSTM · GRU，在浏览器中实时运行",
    nav_label: "页面",
    nav_names: "姓氏分类训练",
    lang_label: "语言",
    footer: "本页的每一个数字都在你的浏览器中计算：Rust 编译为 WebAssembly，WGSL 计算着色器运行在 WebGPU 上，\
             CPU 上则由纯 Rust 执行同样的数学运算。",
    unknown_lesson: |l| format!("lesson：“{l}”不是 Unroll 的页面，显示训练页面"),

    url_notice_title: "链接中的部分设置已被调整",
    dismiss: "关闭",

    title: "这个姓氏来自哪种语言？",
    lede: lede_zh,

    config_title: "模型与训练",
    cell: "单元",
    hidden_size: "隐藏层大小",
    hidden_size_help: "h_t 的特征数，8–256",
    batch_size: "批大小",
    batch_size_help: "每步 1–512 个姓氏",
    lr: "学习率",
    lr_help: "Adam，0.00001–1",
    epochs: "轮数",
    epochs_help: "遍历训练集 1–100 次",
    seed: "随机种子",
    seed_help: "决定初始化、数据划分和批次顺序",
    backend: "后端",
    backend_auto: "自动",
    backend_cpu: "CPU",
    backend_help_auto: "浏览器提供适配器时用 WebGPU，否则用 CPU",
    backend_help_gpu: "WebGPU；不可用时改用 CPU 并给出提示",
    backend_help_cpu: "在 CPU 上用 Rust 执行同样的数学运算",
    start: "开始训练",
    train_again: "重新训练",
    confirm_replace: "从第 0 步开始新的训练？本页当前的模型（恢复或载入的）将被替换。",
    pause: "暂停",
    resume: "继续",
    reset: "重置",
    locked_hint: "训练进行中设置已锁定；重置后即可修改。",

    progress: "进度",
    status_idle: "就绪",
    status_running: "训练中",
    status_paused: "已暂停",
    status_finished: "已完成",
    status_error: "因错误停止",
    backend_label: "后端",
    backend_pending: "开始训练时选择",
    stat_epoch: "轮次",
    stat_step: "步数",
    stat_train_loss: "训练损失",
    stat_val_acc: "验证准确率",
    stat_val_loss: "验证损失",
    stat_epoch_time: "每轮用时",
    of_total: |n| format!("共 {n} 步"),
    mean_20_steps: "最近 20 步的平均值",
    after_epoch: |e| format!("第 {e} 轮之后"),
    after_each_epoch: "每轮结束后计算",
    progress_aria: "训练进度",
    progress_label: |epochs, steps, pct| format!("{epochs} 轮 × 每轮 {steps} 步 · 已完成 {pct:.0}%"),
    waiting_for_data: "等待数据集",

    curves: "学习曲线",
    chart_loss_caption: "每一步的训练损失",
    small_batch_note: |n| {
        format!("圆圈标出每轮中较小的批次（剩下的 {n} 个名字）：它的损失只对较少的名字求平均，所以比相邻的步跳动更大。")
    },
    chart_val_caption: "每轮的验证损失与准确率",
    chart: ChartText::ZH,

    predict_title: "试一个姓氏",
    predict_placeholder: "例如 Nguyen、Schmidt、Rossi",
    predict_aria: "要分类的姓氏",
    predict_empty: "输入时预测会随之更新，使用的是正在训练的权重。",
    predict_before_start: "先开始训练，再输入一个姓氏，看看模型怎么判断。",
    predict_waiting_data: "正在等待数据集…",
    predict_no_letters: |name| {
        format!("“{name}”中没有可用的字母：模型只读取字母 a–z、A–Z（重音会被去掉）以及空格和 . , ; ' 这几个符号")
    },
    weights_init: "权重：随机初始化（第 0 步）",
    weights_from_step: |s| format!("权重来自第 {s} 步"),

    data_title: "数据集",
    data_note: data_note_zh,
    data_classes: "类别数",
    data_languages: "语言数",
    data_lines: "文件行数",
    data_pairs: "不同的对",
    data_skipped: "跳过的行",
    data_train: "训练对",
    data_val: "验证对",
    loading: "正在加载姓氏数据集…",
    loading_files: |done, total| format!("正在加载姓氏数据集… {done} / {total} 个文件"),
    data_error: "数据集无法加载。",

    notice: notice_zh,
    train_error: train_error_zh,
    train_notice: train_notice_zh,
    cpu_reason: cpu_reason_zh,
    gpu_error: gpu_error_zh,
};

/// The display name of a language class (the class files' English stems) in `lang`; unknown
/// classes (own data later) are shown as they are.
pub fn language_name(lang: Lang, class: &str) -> String {
    if lang == Lang::En {
        return class.to_owned();
    }
    let zh = match class {
        "Arabic" => "阿拉伯语",
        "Chinese" => "汉语",
        "Czech" => "捷克语",
        "Dutch" => "荷兰语",
        "English" => "英语",
        "French" => "法语",
        "German" => "德语",
        "Greek" => "希腊语",
        "Irish" => "爱尔兰语",
        "Italian" => "意大利语",
        "Japanese" => "日语",
        "Korean" => "韩语",
        "Polish" => "波兰语",
        "Portuguese" => "葡萄牙语",
        "Russian" => "俄语",
        "Scottish" => "苏格兰语",
        "Spanish" => "西班牙语",
        "Vietnamese" => "越南语",
        other => other,
    };
    zh.to_owned()
}

// ---------------------------------------------------------------------------------------------
// The lessons
// ---------------------------------------------------------------------------------------------

/// One text of the lessons in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tr {
    /// English.
    pub en: &'static str,
    /// Simplified Chinese.
    pub zh: &'static str,
}

impl Tr {
    /// The text in `lang`.
    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::Zh => self.zh,
        }
    }

    /// The text in `lang` with `{0}`, `{1}`, … replaced by `args`.
    pub fn fill(self, lang: Lang, args: &[&str]) -> String {
        let mut s = self.get(lang).to_owned();
        for (i, a) in args.iter().enumerate() {
            s = s.replace(&format!("{{{i}}}"), a);
        }
        s
    }
}

const fn tr(en: &'static str, zh: &'static str) -> Tr {
    Tr { en, zh }
}

impl Locale {
    /// The language in effect (reactive); the same as [`Locale::lang`].
    pub fn get(&self) -> Lang {
        self.lang()
    }

    /// `Some(lang)` when it belongs in the URL (the user chose it), reactive.
    pub fn url_lang(&self) -> Option<Lang> {
        self.chosen.get()
    }

    /// Adopts the `lang` of a query string (back/forward to an entry with `lang=`).
    pub fn follow_url(&self, query: &str) {
        if let Some(l) = url_lang(query) {
            self.choose(l);
        }
    }
}

/// The `lang` of a query (the last one when repeated), when valid.
pub fn url_lang(query: &str) -> Option<Lang> {
    let query = query.strip_prefix('?').unwrap_or(query);
    serde_urlencoded::from_str::<Vec<(String, String)>>(query)
        .unwrap_or_default()
        .into_iter()
        .rev()
        .find(|(k, _)| k == "lang")
        .and_then(|(_, v)| Lang::parse(&v))
}

/// Creates the [`Locale`] context from the page's query (its `lang`, else the browser's).
pub fn provide_lang(query: &str) -> Locale {
    let loc = Locale {
        chosen: RwSignal::new(url_lang(query)),
        browser: browser_lang(),
    };
    provide_context(loc);
    loc
}

/// The [`Locale`] of the app (English, not chosen, outside the app).
pub fn use_lang() -> Locale {
    use_context::<Locale>().unwrap_or_else(|| Locale {
        chosen: RwSignal::new(None),
        browser: Lang::En,
    })
}

/// A URL notice in words, in `lang` (quoted values are the raw URL text, shown as text).
pub fn notice_text(n: &UrlNotice, lang: Lang) -> String {
    (strings(lang).notice)(n)
}

/// Title, one-line summary (index card) and lede (page intro) of a lesson.
#[derive(Clone, Copy, Debug)]
pub struct LessonInfo {
    /// Title.
    pub title: Tr,
    /// One line for the index.
    pub summary: Tr,
    /// The page's introduction.
    pub lede: Tr,
}

/// The texts of `id`.
pub fn lesson_info(id: LessonId) -> LessonInfo {
    match id {
        LessonId::Unroll => unroll::INFO,
        LessonId::Shapes => shapes::INFO,
        LessonId::Bptt => bptt::INFO,
        LessonId::Lstm => lstm::INFO,
        LessonId::Gru => gru::INFO,
        LessonId::Bidir => bidir::INFO,
        LessonId::Softmax => softmax::INFO,
        LessonId::Parallel => parallel::INFO,
    }
}

/// Shell and shared lesson texts.
pub mod common {
    use super::{tr, Tr};
    /// Header navigation: lessons.
    pub const LESSONS: Tr = tr("Lessons", "课程");
    /// Breadcrumb: all lessons.
    pub const ALL_LESSONS: Tr = tr("All lessons", "全部课程");
    /// "Lesson {0}".
    pub const LESSON_N: Tr = tr("Lesson {0}", "第 {0} 课");
    /// Previous/next navigation label.
    pub const MORE_LESSONS: Tr = tr("More lessons", "更多课程");
    /// Copy link button.
    pub const COPY_LINK: Tr = tr("Copy link", "复制链接");
    /// After copying.
    pub const COPIED: Tr = tr("Link copied", "链接已复制");
    /// Manual copy field.
    pub const COPY_MANUALLY: Tr = tr("Link to copy", "要复制的链接");
    /// List editor.
    pub const ADD_STEP: Tr = tr("+ step", "+ 一步");
    /// List editor.
    pub const REMOVE_STEP: Tr = tr("− step", "− 一步");
    /// Step controls.
    pub const TIME_STEP: Tr = tr("Time step", "时间步");
    /// Step controls.
    pub const FIRST_STEP: Tr = tr("First step", "第一步");
    /// Step controls.
    pub const STEP_BACK: Tr = tr("Step back", "后退一步");
    /// Step controls.
    pub const STEP_FORWARD: Tr = tr("Step forward", "前进一步");
    /// Step controls.
    pub const PLAY: Tr = tr("Play", "播放");
    /// Step controls.
    pub const PAUSE: Tr = tr("Pause", "暂停");
    /// A seed field.
    pub const SEED: Tr = tr("Seed", "随机种子");
    /// "About" panel title.
    pub const ABOUT: Tr = tr("What to notice", "要点");
    /// Number of steps.
    pub const STEPS: Tr = tr("Steps", "步数");
}

/// The index page.
pub mod index {
    use super::{tr, Tr};
    /// Title.
    pub const TITLE: Tr = tr(
        "Recurrent networks, step by step",
        "循环神经网络，一步一步来",
    );
    /// Lede: {0} number of lessons.
    pub const LEDE: Tr = tr(
        "{0} lessons from the course, each a worked example you can change: drag a slider and the same Rust code that trains the networks recomputes every number. Every page is a link you can share.",
        "课程中的 {0} 节课，每节都是一个可以动手修改的例题：拖动滑块，训练网络所用的同一份 Rust 代码会重新计算每个数字。每个页面都是可以分享的链接。",
    );
    /// Training card title.
    pub const TRAIN_TITLE: Tr = tr("Then train one", "然后亲手训练一个");
    /// Training card text.
    pub const TRAIN_TEXT: Tr = tr(
        "An LSTM learns which language a surname comes from, in this tab, on your GPU through WebGPU (or on the CPU).",
        "一个 LSTM 在这个标签页里学习判断姓氏来自哪种语言，通过 WebGPU 在你的 GPU 上运行（或在 CPU 上）。",
    );
    /// Training card link.
    pub const TRAIN_LINK: Tr = tr("Open the training page", "打开训练页面");
}

/// Lesson 1.
pub mod unroll {
    use super::{tr, LessonInfo, Tr};
    /// The introduction in vector mode (hidden_size ≥ 2).
    pub const LEDE_VECTOR: Tr = tr(
        "An RNN with several hidden units reads a short sequence: W_hh is a matrix, h_t a vector. Step through time and watch where every term of z_t comes from: the input, the previous state, or the bias.",
        "一个有多个隐藏单元的 RNN 读入一个短序列：W_hh 是矩阵，h_t 是向量。逐步推进时间，看 z_t 的每一项从哪里来：输入、上一步的状态，还是偏置。",
    );
    /// Title, summary, lede.
    pub const INFO: LessonInfo = LessonInfo {
        title: tr("Recurrence and time unrolling", "循环与按时间展开"),
        summary: tr(
            "One cell, one set of weights, applied at every step: h_t = tanh(W_xh·x_t + W_hh·h_{t−1} + b).",
            "一个单元、一组权重，在每一步重复使用：h_t = tanh(W_xh·x_t + W_hh·h_{t−1} + b)。",
        ),
        lede: tr(
            "A one-dimensional RNN reads a short sequence. Step through time and watch where every term of z_t comes from: the input, the previous state, or the bias.",
            "一个一维 RNN 读入一个短序列。逐步推进时间，看 z_t 的每一项从哪里来：输入、上一步的状态，还是偏置。",
        ),
    };
    /// Controls panel.
    pub const CONTROLS: Tr = tr("Weights and inputs", "权重与输入");
    /// Slider.
    pub const W_XH: Tr = tr("W_xh (input weight)", "W_xh（输入权重）");
    /// Slider.
    pub const W_HH: Tr = tr("W_hh (recurrent weight)", "W_hh（循环权重）");
    /// Slider.
    pub const B: Tr = tr("b (bias)", "b（偏置）");
    /// Slider.
    pub const H0: Tr = tr("h₀ (initial state)", "h₀（初始状态）");
    /// Inputs.
    pub const INPUTS: Tr = tr("Input sequence x", "输入序列 x");
    /// Mode heading.
    pub const MODE: Tr = tr("Scalar or vector", "标量还是向量");
    /// Hidden size slider.
    pub const HIDDEN: Tr = tr(
        "Hidden size H (1 = scalar, 2–8 = vector)",
        "隐藏维度 H（1 = 标量，2–8 = 向量）",
    );
    /// Vector mode note.
    pub const VECTOR_NOTE: Tr = tr(
        "Vector mode: W_xh [H, 1], W_hh [H, H] and both biases come from PyTorch's initialisation U(−1/√H, 1/√H) with this seed; the scalar weight sliders do not apply.",
        "向量模式：W_xh [H, 1]、W_hh [H, H] 和两个偏置来自 PyTorch 的初始化 U(−1/√H, 1/√H)，使用此随机种子；标量权重滑块不再起作用。",
    );
    /// Diagram panel.
    pub const DIAGRAM: Tr = tr(
        "The rolled cell and the unrolled chain",
        "折叠的单元与展开的链",
    );
    /// Diagram caption.
    pub const ROLLED: Tr = tr("rolled", "折叠");
    /// Diagram caption.
    pub const UNROLLED: Tr = tr(
        "unrolled over time: the same cell at every step",
        "按时间展开：每一步都是同一个单元",
    );
    /// Under the diagram.
    pub const SAME_WEIGHTS: Tr = tr(
        "The same W_xh, W_hh and b are used at every step: unrolling copies the cell along time, it adds no parameters.",
        "每一步使用的都是同一组 W_xh、W_hh 和 b：展开只是把单元沿时间复制，并不增加参数。",
    );
    /// Step panel.
    pub const STEP: Tr = tr("Step t = {0}, term by term", "第 t = {0} 步，逐项计算");
    /// Column / label.
    pub const FROM_X1: Tr = tr("from x₁", "来自 x₁");
    /// Sentence: `{0}` value, `{1}` subscript t.
    pub const FROM_X1_SENTENCE: Tr = tr("{0} of z{1} comes from x₁", "z{1} 中有 {0} 来自 x₁");
    /// Sentence part.
    pub const FROM_X1_HOW: Tr = tr(
        "the part of z_t that comes from x₁: z_t minus z_t recomputed with x₁ = 0",
        "z_t 中来自 x₁ 的部分：z_t 减去把 x₁ 设为 0 后重新计算的 z_t",
    );
    /// Table panel.
    pub const TABLE: Tr = tr("Every step", "每一步");
    /// Vector mode panel.
    pub const WEIGHTS: Tr = tr(
        "The weights (one set for all steps)",
        "权重（所有步共用一组）",
    );
    /// Heatmap caption.
    pub const H_STATES: Tr = tr(
        "h_t of every step (one column per step)",
        "每一步的 h_t（每列一步）",
    );
    /// About.
    pub const ABOUT_1: Tr = tr(
        "This is nn.RNN(1, H) of Unroll's trainer, run forward by the same code that trains. With H = 1 the sliders are its parameters (b goes into bias_ih_l0; bias_hh_l0 stays 0, so their sum is b).",
        "这就是 Unroll 训练器里的 nn.RNN(1, H)，由训练所用的同一份代码做前向计算。H = 1 时滑块的值就是它的参数（b 放在 bias_ih_l0 中；bias_hh_l0 为 0，两者之和就是 b）。",
    );
    /// About.
    pub const ABOUT_2: Tr = tr(
        "h_{t−1} carries everything the network remembers about x₁ … x_{t−1}. Set W_hh to 0 and each step forgets the past; make it large and the past dominates until tanh saturates.",
        "h_{t−1} 携带了网络对 x₁ … x_{t−1} 的全部记忆。把 W_hh 设为 0，每一步都会忘记过去；把它调大，过去就会占主导，直到 tanh 饱和。",
    );
}

/// Lesson 2.
pub mod shapes {
    use super::{tr, LessonInfo, Tr};
    /// Title, summary, lede.
    pub const INFO: LessonInfo = LessonInfo {
        title: tr("Unrolling is not stacking: shapes", "展开不是堆叠：张量形状"),
        summary: tr(
            "Layers × directions × time: which sizes change the parameter count, and why PyTorch counts two biases.",
            "层数 × 方向 × 时间：哪些尺寸会改变参数量，以及 PyTorch 为什么有两个偏置。",
        ),
        lede: tr(
            "Choose a recurrent layer as in PyTorch and see the shapes it takes and returns, and every parameter it owns.",
            "像在 PyTorch 中一样选择一个循环层，查看它的输入输出形状，以及它拥有的每一个参数。",
        ),
    };
    /// Controls panel.
    pub const CONTROLS: Tr = tr("The layer", "循环层");
    /// Size label.
    pub const INPUT_SIZE: Tr = tr("Input features", "输入特征数");
    /// Size label.
    pub const HIDDEN_SIZE: Tr = tr("Hidden features", "隐藏特征数");
    /// Size label.
    pub const NUM_LAYERS: Tr = tr("Stacked layers", "堆叠层数");
    /// Heading.
    pub const THE_INPUT: Tr = tr("The input", "输入");
    /// Size label.
    pub const BATCH: Tr = tr("Batch size", "批大小");
    /// Size label.
    pub const SEQ_LEN: Tr = tr("Time steps", "时间步数");
    /// Panel.
    pub const CALL: Tr = tr("The call and its shapes", "调用与形状");
    /// Column.
    pub const TENSOR: Tr = tr("Tensor", "张量");
    /// Column.
    pub const SHAPE: Tr = tr("Shape", "形状");
    /// Column.
    pub const MEANING: Tr = tr("What it holds", "含义");
    /// Column.
    pub const NUMEL: Tr = tr("Elements", "元素个数");
    /// Row meaning.
    pub const M_INPUT: Tr = tr(
        "the sequence, one input_size vector per step and sample",
        "序列：每个样本每一步一个 input_size 维向量",
    );
    /// Row meaning.
    pub const M_H0: Tr = tr(
        "initial hidden state of every layer and direction (zeros if omitted)",
        "每一层、每个方向的初始隐藏状态（省略时为零）",
    );
    /// Row meaning.
    pub const M_C0: Tr = tr("initial cell state (LSTM only)", "初始细胞状态（仅 LSTM）");
    /// Row meaning.
    pub const M_OUTPUT: Tr = tr(
        "the last layer's h_t at every step, both directions concatenated",
        "最后一层在每一步的 h_t，两个方向拼接",
    );
    /// Row meaning.
    pub const M_H_N: Tr = tr(
        "the final h of every layer and direction",
        "每一层、每个方向最后的 h",
    );
    /// Row meaning.
    pub const M_C_N: Tr = tr(
        "the final cell state (LSTM only)",
        "最后的细胞状态（仅 LSTM）",
    );
    /// Note.
    pub const BATCH_FIRST_NOTE: Tr = tr(
        "batch_first moves the batch axis of input and output only: h0, h_n, c0 and c_n are always (num_layers·D, batch, hidden_size).",
        "batch_first 只移动 input 和 output 的批维度：h0、h_n、c0、c_n 的形状始终是 (num_layers·D, batch, hidden_size)。",
    );
    /// Panel.
    pub const GRID: Tr = tr("Layers × directions × time", "层 × 方向 × 时间");
    /// Row label.
    pub const LAYER: Tr = tr("layer", "层");
    /// Grid legend.
    pub const GRID_LEGEND: Tr = tr("one colour = one set of weights", "同一颜色 = 同一组权重");
    /// Note.
    pub const GRID_NOTE: Tr = tr(
        "Unrolling repeats a row along time with the same weights; stacking adds rows with new weights. Only rows cost parameters.",
        "展开是把一行沿时间重复，权重相同；堆叠是增加新的行，权重不同。只有行数会增加参数。",
    );
    /// Panel.
    pub const PARAMS: Tr = tr("Parameters", "参数");
    /// Label.
    pub const TOTAL: Tr = tr("PyTorch's count", "PyTorch 的参数量");
    /// Label.
    pub const ONE_BIAS: Tr = tr(
        "one-bias formula (Keras, textbooks)",
        "单偏置公式（Keras、教科书）",
    );
    /// Label with the other seq_len.
    pub const SEQ_INVARIANT: Tr = tr("with seq_len = {0}", "当 seq_len = {0} 时");
    /// Label with the other num_layers.
    pub const LAYERS_CHANGE: Tr = tr("with num_layers = {0}", "当 num_layers = {0} 时");
    /// Note: {0} difference, {1} layer·directions, {2} G·H.
    pub const TWO_BIASES: Tr = tr(
        "PyTorch keeps two bias vectors per layer and direction (bias_ih and bias_hh), so it counts {0} more than the one-bias formula: {1} × {2} (layers·directions × gates·hidden_size).",
        "PyTorch 每一层、每个方向都有两个偏置向量（bias_ih 和 bias_hh），所以比单偏置公式多 {0} 个：{1} × {2}（层数·方向数 × 门数·hidden_size）。",
    );
    /// About.
    pub const ABOUT_1: Tr = tr(
        "seq_len never changes the parameter count: the same weights are applied at every step. num_layers and bidirectional do: each adds a row of new weights.",
        "seq_len 从不改变参数量：每一步都用同一组权重。num_layers 和 bidirectional 会改变：每增加一行就多一组新权重。",
    );
    /// About.
    pub const ABOUT_2: Tr = tr(
        "Gate blocks are stacked in the weights: weight_ih_l0 is [G·H, I] with G = 1 (RNN), 4 (LSTM: i, f, g, o) or 3 (GRU: r, z, n). Layers above the first take the D·H outputs of the layer below.",
        "门按块堆叠在权重中：weight_ih_l0 的形状是 [G·H, I]，其中 G = 1（RNN）、4（LSTM：i, f, g, o）或 3（GRU：r, z, n）。第一层以上的各层以下一层的 D·H 维输出为输入。",
    );
}

/// Lesson 3.
pub mod bptt {
    use super::{tr, LessonInfo, Tr};
    /// Title, summary, lede.
    pub const INFO: LessonInfo = LessonInfo {
        title: tr("Why gradients vanish", "梯度为什么会消失"),
        summary: tr(
            "Backpropagation through time multiplies tanh'(z_t)·W_hh once per step.",
            "随时间反向传播每一步都要乘以一次 tanh'(z_t)·W_hh。",
        ),
        lede: tr(
            "The gradient that reaches h₀ from step t is a product of one factor per step. Watch it shrink or explode.",
            "从第 t 步传回 h₀ 的梯度是每一步一个因子的连乘。看它如何缩小或爆炸。",
        ),
    };
    /// Controls panel.
    pub const CONTROLS: Tr = tr("The recurrence", "循环");
    /// Legend: {0} the slider's W_hh.
    pub const CURRENT: Tr = tr("W_hh = {0} (sliders)", "W_hh = {0}（滑块）");
    /// Legend.
    pub const GRAD_NORM: Tr = tr("‖∂h_t/∂θ‖ before clipping", "裁剪前的 ‖∂h_t/∂θ‖");
    /// Legend.
    pub const CLIPPED_NORM: Tr = tr(
        "‖∂h_t/∂θ‖ after clip_grad_norm_",
        "clip_grad_norm_ 之后的 ‖∂h_t/∂θ‖",
    );
    /// Axis.
    pub const X_TITLE: Tr = tr("steps back in time (t)", "向前回溯的步数（t）");
    /// Axis.
    pub const Y_TITLE: Tr = tr("|∂h_t/∂h₀| (log scale)", "|∂h_t/∂h₀|（对数坐标）");
    /// Heading.
    pub const ACTIVATION: Tr = tr("Nonlinearity", "非线性函数");
    /// Slider.
    pub const MAX_NORM: Tr = tr(
        "Clip gradient norm to (0 = off)",
        "梯度范数裁剪阈值（0 = 关闭）",
    );
    /// Heading.
    pub const INPUTS: Tr = tr("Inputs x", "输入 x");
    /// Note.
    pub const CYCLIC: Tr = tr(
        "A list shorter than the number of steps repeats: one value 0.3 over 20 steps is a constant input.",
        "列表比步数短时会循环重复：只有一个值 0.3、共 20 步，就是恒定输入。",
    );
    /// Panel.
    pub const CHART: Tr = tr(
        "The running product against the number of steps",
        "连乘积随步数的变化",
    );
    /// Note.
    pub const CHART_NOTE: Tr = tr(
        "Dashed: the same inputs with W_hh = 0.5, 1 and 2. Each step multiplies by act'(z_t)·W_hh; tanh' ≤ 1, so unless |W_hh| is large the product shrinks geometrically — and a large W_hh saturates tanh, which makes tanh' tiny.",
        "虚线：相同输入下 W_hh = 0.5、1、2 的情况。每一步都乘以 act'(z_t)·W_hh；tanh' ≤ 1，所以除非 |W_hh| 很大，连乘积会按几何级数缩小——而 W_hh 很大时 tanh 又会饱和，使 tanh' 变得极小。",
    );
    /// Panel.
    pub const TABLE: Tr = tr("Step by step", "逐步计算");
    /// Column.
    pub const PRODUCT: Tr = tr("running product ∂h_t/∂h₀", "连乘积 ∂h_t/∂h₀");
    /// Panel.
    pub const CLIP: Tr = tr("Gradient clipping", "梯度裁剪");
    /// Clip outcome: {0} max_norm.
    pub const UNCHANGED: Tr = tr(
        "the norm is below max_norm = {0}: unchanged",
        "范数小于 max_norm = {0}：保持不变",
    );
    /// Clip outcome: {0} scale.
    pub const SCALED: Tr = tr("every gradient multiplied by {0}", "所有梯度乘以 {0}");
    /// Clip outcome.
    pub const SKIPPED: Tr = tr(
        "the norm is not finite: the optimizer step would be skipped and the weights kept (never zeroed)",
        "范数不是有限值：这一步优化会被跳过，权重保持不变（而不是被清零）",
    );
    /// Clip panel text.
    pub const CLIP_TEXT: Tr = tr(
        "The gradient of h_T with respect to the four parameters of nn.RNN(1, 1), by backpropagation through time, and what clip_grad_norm_(max_norm) does to it: scale all gradients together so that their global norm is at most max_norm.",
        "h_T 对 nn.RNN(1, 1) 四个参数的梯度（通过随时间反向传播计算），以及 clip_grad_norm_(max_norm) 对它的作用：把所有梯度一起缩放，使全局范数不超过 max_norm。",
    );
    /// Column.
    pub const AFTER_CLIP: Tr = tr("after clipping", "裁剪后");
    /// Label.
    pub const NORM: Tr = tr("Global norm:", "全局范数：");
    /// About.
    pub const ABOUT_1: Tr = tr(
        "The gradient that flows from h_t back to h₀ is this product. When it is tiny, the early inputs barely change the loss: the network cannot learn long-range dependencies.",
        "从 h_t 流回 h₀ 的梯度就是这个连乘积。当它极小时，早期的输入几乎不影响损失：网络学不到长距离依赖。",
    );
    /// Panel: the course's constant-input figures.
    pub const CONSTANT: Tr = tr("A constant input over 20 steps", "恒定输入走 20 步");
    /// Text: {0} x, {1} steps, {2} W_xh.
    pub const CONSTANT_TEXT: Tr = tr(
        "x = {0} at every step for {1} steps, W_xh = {2}, tanh — the running product ∂h_T/∂h₀ for three recurrent weights:",
        "每一步 x = {0}，共 {1} 步，W_xh = {2}，tanh——三种循环权重下的连乘积 ∂h_T/∂h₀：",
    );
    /// About.
    pub const ABOUT_2: Tr = tr(
        "With ReLU or no nonlinearity the factor is W_hh itself where the unit is active, so |W_hh| > 1 explodes like |W_hh|^t.",
        "使用 ReLU 或不用非线性函数时，单元激活处的因子就是 W_hh 本身，所以 |W_hh| > 1 会像 |W_hh|^t 一样爆炸。",
    );
    /// About.
    pub const ABOUT_3: Tr = tr(
        "Clipping caps an exploding gradient but cannot revive a vanishing one: it only ever scales down.",
        "梯度裁剪可以限制爆炸的梯度，但救不回消失的梯度：它只会把梯度缩小。",
    );
}

/// Lesson 4.
pub mod lstm {
    use super::{tr, LessonInfo, Tr};
    /// Title, summary, lede.
    pub const INFO: LessonInfo = LessonInfo {
        title: tr("The LSTM conveyor belt", "LSTM 的传送带"),
        summary: tr(
            "C_t = f_t·C_{t−1} + i_t·g_t: the cell state is carried forward with only a gate in the way.",
            "C_t = f_t·C_{t−1} + i_t·g_t：细胞状态向前传递，途中只经过一个门。",
        ),
        lede: tr(
            "Set each gate by hand, or let weights compute them, and follow the cell state along the belt.",
            "手动设置每个门，或让权重计算它们，沿着传送带追踪细胞状态。",
        ),
    };
    /// Controls panel.
    pub const CONTROLS: Tr = tr("Gates", "门");
    /// Mode.
    pub const MODE_GATES: Tr = tr("set every gate by hand", "手动设置每个门");
    /// Mode.
    pub const MODE_WEIGHTS: Tr = tr(
        "compute gates from x and h (seeded nn.LSTM(1, 1))",
        "由 x 和 h 计算门（带随机种子的 nn.LSTM(1, 1)）",
    );
    /// Mode.
    pub const MODE_RUN: Tr = tr("run to N with constant gates", "门保持不变，运行 N 步");
    /// Slider.
    pub const RUN_STEPS: Tr = tr("N (steps)", "N（步数）");
    /// Note.
    pub const RUN_NOTE: Tr = tr(
        "Step 1's gates are held for every step.",
        "每一步都使用第 1 步的门值。",
    );
    /// Heading.
    pub const GATES: Tr = tr("Gate values per step", "每一步的门值");
    /// "Step {0}".
    pub const STEP_N: Tr = tr("Step {0}", "第 {0} 步");
    /// Panel.
    pub const BELT: Tr = tr("The belt at step t = {0}", "第 t = {0} 步的传送带");
    /// Panel.
    pub const TABLE: Tr = tr("Every step", "每一步");
    /// Label.
    pub const LAST_C: Tr = tr("Last C_N:", "最后的 C_N：");
    /// Label.
    pub const FIXED: Tr = tr("fixed point i·g / (1 − f):", "不动点 i·g / (1 − f)：");
    /// Chart.
    pub const RUN_CHART: Tr = tr("C_t approaching its fixed point", "C_t 逼近不动点");
    /// Reference line: {0} value.
    pub const FIXED_POINT: Tr = tr("i·g / (1 − f) = {0}", "i·g / (1 − f) = {0}");
    /// Panel.
    pub const WEIGHTS: Tr = tr(
        "The weights (PyTorch order i, f, g, o)",
        "权重（PyTorch 顺序 i, f, g, o）",
    );
    /// Panel.
    pub const COMPARE: Tr = tr(
        "Gradient along the belt vs. through an RNN",
        "沿传送带的梯度与 RNN 的梯度",
    );
    /// Text.
    pub const COMPARE_TEXT: Tr = tr(
        "Along the belt ∂C_t/∂C_{t−1} = f_t: no weight matrix and no squashing derivative in the way. A plain RNN multiplies by tanh'(z_t)·W_hh instead (here W_hh = 1, W_xh = 0.5 on the same inputs x).",
        "沿着传送带，∂C_t/∂C_{t−1} = f_t：中间没有权重矩阵，也没有压缩函数的导数。普通 RNN 乘的则是 tanh'(z_t)·W_hh（这里 W_hh = 1，W_xh = 0.5，输入同为 x）。",
    );
    /// Legend / column.
    pub const BELT_PRODUCT: Tr = tr("LSTM: Π f_k", "LSTM：Π f_k");
    /// Legend / column.
    pub const RNN_PRODUCT: Tr = tr("RNN: Π tanh'(z_k)·W_hh", "RNN：Π tanh'(z_k)·W_hh");
    /// About.
    pub const ABOUT_1: Tr = tr(
        "The forget gate scales what the belt carries; the input gate decides how much of the candidate g is written. With f close to 1 the cell state — and its gradient — survives many steps.",
        "遗忘门缩放传送带上携带的内容；输入门决定写入多少候选值 g。f 接近 1 时，细胞状态及其梯度可以跨越很多步保存下来。",
    );
    /// About.
    pub const ABOUT_2: Tr = tr(
        "The output gate decides how much of tanh(C_t) is shown as h_t: the cell can remember something without exposing it.",
        "输出门决定把多少 tanh(C_t) 作为 h_t 输出：细胞可以记住某件事而不把它表现出来。",
    );
}

/// Lesson 5.
pub mod gru {
    use super::{tr, LessonInfo, Tr};
    /// Title, summary, lede.
    pub const INFO: LessonInfo = LessonInfo {
        title: tr("GRU: one gate to keep and write", "GRU：一个门同时负责保留与写入"),
        summary: tr(
            "h_t = (1 − z)·h_{t−1} + z·h̃: the update gate blends old and new; PyTorch's z means the opposite.",
            "h_t = (1 − z)·h_{t−1} + z·h̃：更新门混合新旧状态；PyTorch 中的 z 含义正好相反。",
        ),
        lede: tr(
            "The update gate z decides how much of the candidate replaces the old state. The reset gate r decides how much of the past enters the candidate.",
            "更新门 z 决定候选状态替换旧状态的比例；重置门 r 决定过去有多少进入候选状态。",
        ),
    };
    /// Controls panel.
    pub const CONTROLS: Tr = tr("The update", "更新");
    /// Convention choice.
    pub const COURSE_ONLY: Tr = tr("the course's convention", "课程的约定");
    /// Convention choice.
    pub const WITH_PYTORCH: Tr = tr(
        "… and PyTorch's, side by side",
        "……以及 PyTorch 的约定，并排对照",
    );
    /// Heading.
    pub const RESET_CONTROLS: Tr = tr("Reset gate panel", "重置门面板");
    /// Panel.
    pub const UPDATE: Tr = tr(
        "The update gate blends old and new",
        "更新门混合旧状态与新候选",
    );
    /// Panel.
    pub const PYTORCH: Tr = tr("PyTorch's convention", "PyTorch 的约定");
    /// Panel.
    pub const RESET: Tr = tr("The reset gate inside the candidate", "候选状态中的重置门");
    /// Text.
    pub const EXAMPLES: Tr = tr(
        "The same h_{t−1} and h̃ with other update gates:",
        "同样的 h_{t−1} 和 h̃，换成其他更新门取值：",
    );
    /// Heading.
    pub const COURSE_FORM: Tr = tr(
        "Course: z = share of the new candidate",
        "课程：z = 新候选所占的比例",
    );
    /// Heading.
    pub const PYTORCH_FORM: Tr = tr(
        "PyTorch: z = share of the old state",
        "PyTorch：z = 旧状态所占的比例",
    );
    /// Text: {0} h_prev, {1} n.
    pub const OPPOSITE: Tr = tr(
        "In PyTorch's nn.GRU, z multiplies the old state h, so z means the opposite: the course's z corresponds to PyTorch's 1 − z. With the same z the two formulas move h between {0} and {1} in opposite directions.",
        "在 PyTorch 的 nn.GRU 中，z 乘的是旧状态 h，所以 z 的含义正好相反：课程中的 z 对应 PyTorch 的 1 − z。用同一个 z，两个公式会让 h 在 {0} 和 {1} 之间朝相反方向移动。",
    );
    /// Text.
    pub const RESET_TEXT: Tr = tr(
        "PyTorch applies r after the hidden matmul, to W_hn·h + b_hn including its bias (Cho et al. 2014 apply it to h before the matmul). r = 0 drops the past from the candidate entirely: n = tanh(W_in·x + b_in).",
        "PyTorch 在隐藏矩阵乘法之后才乘 r，作用于包括偏置在内的 W_hn·h + b_hn（Cho 等 2014 的原文是在矩阵乘法之前作用于 h）。r = 0 时候选状态完全不含过去：n = tanh(W_in·x + b_in)。",
    );
    /// About.
    pub const ABOUT_1: Tr = tr(
        "One gate does the work of the LSTM's forget and input gates: what is kept (1 − z) and what is written (z) always add up to one.",
        "一个门完成了 LSTM 中遗忘门和输入门的工作：保留的部分（1 − z）与写入的部分（z）之和永远为一。",
    );
    /// About.
    pub const ABOUT_2: Tr = tr(
        "With z near 0 (course) the state passes through unchanged, which lets gradients flow over many steps, like the LSTM's belt with f near 1.",
        "z 接近 0（课程约定）时，状态几乎原样传递，梯度因此可以跨越很多步，就像 LSTM 传送带上 f 接近 1 一样。",
    );
}

/// Lesson 6.
pub mod bidir {
    use super::{tr, LessonInfo, Tr};
    /// Title, summary, lede.
    pub const INFO: LessonInfo = LessonInfo {
        title: tr("Bidirectional: two readers, one concatenation", "双向：两个读者，一次拼接"),
        summary: tr(
            "A forward and a backward RNN read the sentence; each position concatenates both into 2H.",
            "一个正向、一个反向 RNN 读取句子；每个位置把两者拼接成 2H。",
        ),
        lede: tr(
            "One direction reads left to right, the other right to left. Each position gets both states side by side — and the last position is not the backward direction's summary.",
            "一个方向从左往右读，另一个从右往左读。每个位置都得到两个方向的状态——而最后一个位置并不是反向的总结。",
        ),
    };
    /// Controls panel.
    pub const CONTROLS: Tr = tr("The sentence", "句子");
    /// Field.
    pub const TOKENS: Tr = tr("Tokens (comma-separated)", "词元（用逗号分隔）");
    /// Note.
    pub const TOKENS_NOTE: Tr = tr(
        "Up to 12 tokens of at most 16 characters. Each distinct token gets a seeded 2-d embedding; the weights of nn.RNN(2, 2, bidirectional=True) come from PyTorch's initialisation with the same seed.",
        "最多 12 个词元，每个最多 16 个字符。每个不同的词元都有一个带随机种子的二维嵌入；nn.RNN(2, 2, bidirectional=True) 的权重来自使用同一种子的 PyTorch 初始化。",
    );
    /// Heading.
    pub const EMBEDDINGS: Tr = tr("Embeddings", "嵌入");
    /// Column.
    pub const TOKEN: Tr = tr("token", "词元");
    /// Panel.
    pub const DIAGRAM: Tr = tr(
        "Two directions over the same sentence",
        "同一句子上的两个方向",
    );
    /// Row label.
    pub const FORWARD: Tr = tr("forward", "正向");
    /// Row label.
    pub const BACKWARD: Tr = tr("backward", "反向");
    /// Note.
    pub const DIAGRAM_NOTE: Tr = tr(
        "Step k: the forward direction has read the first k tokens, the backward direction the last k. A position's 2H output exists once both have passed it.",
        "第 k 步：正向已读入前 k 个词元，反向已读入后 k 个。只有两个方向都经过某个位置后，它的 2H 输出才完整。",
    );
    /// Panel.
    pub const OUTPUT: Tr = tr("output and h_n", "output 与 h_n");
    /// Label.
    pub const HN_FWD: Tr = tr(
        "h_n[0]: forward, after the last token",
        "h_n[0]：正向，读完最后一个词元后",
    );
    /// Label.
    pub const HN_BWD: Tr = tr(
        "h_n[1]: backward, after the first token",
        "h_n[1]：反向，读完第一个词元后",
    );
    /// Text: {0} index of the last position.
    pub const LAST_TEXT: Tr = tr(
        "output[:, -1, :] is position {0}: its forward half is h_n[0], but its backward half has read only the last token. The backward direction's summary of the whole sentence is output[:, 0, H:] = h_n[1]. To classify a sentence, concatenate h_n[0] and h_n[1].",
        "output[:, -1, :] 是位置 {0}：它的正向一半等于 h_n[0]，但反向一半只读过最后一个词元。反向对整句的总结是 output[:, 0, H:] = h_n[1]。要对整句分类，应拼接 h_n[0] 和 h_n[1]。",
    );
    /// Panel.
    pub const WEIGHTS: Tr = tr("The weights", "权重");
    /// Note.
    pub const WEIGHTS_NOTE: Tr = tr(
        "The _reverse tensors belong to the backward direction: the two directions share nothing but the input.",
        "带 _reverse 后缀的张量属于反向：两个方向除了输入之外没有任何共享。",
    );
}

/// Lesson 7.
pub mod softmax {
    use super::{tr, LessonInfo, Tr};
    /// List editor: add a logit.
    pub const ADD_LOGIT: Tr = tr("+ logit", "+ 一个 logit");
    /// List editor: remove the last logit.
    pub const REMOVE_LOGIT: Tr = tr("− logit", "− 一个 logit");
    /// Title, summary, lede.
    pub const INFO: LessonInfo = LessonInfo {
        title: tr(
            "logits → softmax → log → NLL",
            "logits → softmax → log → NLL",
        ),
        summary: tr(
            "What CrossEntropyLoss computes from raw scores, and why it takes logits.",
            "CrossEntropyLoss 如何从原始分数计算损失，以及为什么它接收 logits。",
        ),
        lede: tr(
            "Raw scores become probabilities, log-probabilities and a loss for the target class.",
            "原始分数变成概率、对数概率，以及目标类别的损失。",
        ),
    };
    /// Controls panel.
    pub const CONTROLS: Tr = tr("Logits", "Logits");
    /// Heading.
    pub const TARGET: Tr = tr("Target class", "目标类别");
    /// "class {0}".
    pub const CLASS_N: Tr = tr("class {0}", "类别 {0}");
    /// Column.
    pub const CLASS: Tr = tr("class", "类别");
    /// Panel.
    pub const PIPELINE: Tr = tr("From scores to probabilities", "从分数到概率");
    /// Text.
    pub const PIPELINE_TEXT: Tr = tr(
        "log_softmax subtracts the largest logit before exponentiating, so no exp ever overflows; softmax is its exponential and sums to 1.",
        "log_softmax 在取指数之前先减去最大的 logit，所以 exp 永远不会溢出；softmax 是它的指数，总和为 1。",
    );
    /// Panel.
    pub const LOSS: Tr = tr("The loss of the target class", "目标类别的损失");
    /// Text.
    pub const CE_TEXT: Tr = tr(
        "nn.CrossEntropyLoss takes the raw logits and does log_softmax + NLLLoss in one stable step; nn.NLLLoss expects log-probabilities.",
        "nn.CrossEntropyLoss 接收原始 logits，一步稳定地完成 log_softmax + NLLLoss；nn.NLLLoss 需要的是对数概率。",
    );
    /// Text.
    pub const WRONG: Tr = tr(
        "A classic mistake: NLLLoss applied to probabilities instead of log-probabilities gives −softmax[target], a negative \"loss\":",
        "一个常见错误：把 NLLLoss 用在概率而不是对数概率上，得到 −softmax[target]，一个负的\"损失\"：",
    );
    /// Panel.
    pub const STABILITY: Tr = tr(
        "Why it takes logits: log-sum-exp",
        "为什么接收 logits：log-sum-exp",
    );
    /// Text: {0} shift, {1} the largest shifted logit, {2} the largest float32.
    pub const STABILITY_TEXT: Tr = tr(
        "Add {0} to every logit so that the largest becomes {1}. Softmax does not change, but the textbook formula exp(x_k) / Σ exp(x_j) overflows in float32 (e^{1} > {2}) and gives NaN, while log_softmax subtracts the maximum first.",
        "给每个 logit 加上 {0}，使最大的变成 {1}。softmax 不应改变，但教科书公式 exp(x_k) / Σ exp(x_j) 在 float32 下溢出（e^{1} > {2}），得到 NaN；而 log_softmax 先减去了最大值。",
    );
    /// About.
    pub const ABOUT_1: Tr = tr(
        "Only differences between logits matter: adding the same number to all of them changes nothing.",
        "只有 logits 之间的差值才重要：给它们都加上同一个数不会改变任何结果。",
    );
    /// About.
    pub const ABOUT_2: Tr = tr(
        "An untrained classifier with C classes starts near a loss of ln C, the NLL of a uniform guess.",
        "一个未经训练、有 C 个类别的分类器，初始损失接近 ln C，也就是均匀猜测的 NLL。",
    );
}

/// Lesson 8.
pub mod parallel {
    use super::{tr, LessonInfo, Tr};
    /// Title, summary, lede.
    pub const INFO: LessonInfo = LessonInfo {
        title: tr("Why Transformers replaced RNNs", "为什么 Transformer 取代了 RNN"),
        summary: tr(
            "Serial depth O(L) against O(1): measured live in this tab.",
            "串行深度 O(L) 对比 O(1)：在这个标签页中实时测量。",
        ),
        lede: tr(
            "An RNN must finish step t before step t + 1. Attention compares all positions in one operation. Time both here.",
            "RNN 必须先算完第 t 步才能算第 t + 1 步；注意力机制在一次运算里比较所有位置。在这里为两者计时。",
        ),
    };
    /// Controls panel.
    pub const CONTROLS: Tr = tr("What to time", "计时对象");
    /// Series: {0} cell.
    pub const SEQ_SERIES: Tr = tr(
        "{0} forward, L dependent steps",
        "{0} 前向，L 个相互依赖的步",
    );
    /// Series.
    pub const PAR_SERIES: Tr = tr(
        "all-pairs scores Q·Kᵀ, one operation",
        "全部位置两两打分 Q·Kᵀ，一次运算",
    );
    /// Axis.
    pub const X_TITLE: Tr = tr("sequence length L", "序列长度 L");
    /// Axis.
    pub const Y_TITLE: Tr = tr(
        "time per call, ms (log scale)",
        "每次调用耗时，毫秒（对数坐标）",
    );
    /// Button.
    pub const MEASURE: Tr = tr("Measure again", "重新测量");
    /// Status.
    pub const MEASURING: Tr = tr("Measuring…", "测量中……");
    /// Status.
    pub const DONE: Tr = tr(
        "Each point is the median of {0} samples, each the mean time per call over a batch of calls lasting at least a few milliseconds (the browser's clock is coarse); the shaded bars span the fastest and slowest sample.",
        "每个点是 {0} 个样本的中位数，每个样本是一批调用（总时长至少几毫秒，因为浏览器的时钟精度较粗）的平均单次耗时；浅色竖条覆盖最快到最慢的样本。",
    );
    /// Backend note.
    pub const BACKEND: Tr = tr(
        "Backend: the Rust CPU path compiled to WebAssembly (single-threaded), the same code the CPU trainer runs.",
        "后端：编译为 WebAssembly 的 Rust CPU 路径（单线程），与 CPU 训练器运行的代码相同。",
    );
    /// Panel.
    pub const CHART: Tr = tr("Measured in this tab", "在本标签页中实测");
    /// Column: {0} workload.
    pub const DEPTH_COL: Tr = tr("{0}: serial depth", "{0}：串行深度");
    /// Column: {0} workload.
    pub const TIME_COL: Tr = tr(
        "{0}: ms, median (min–max)",
        "{0}：毫秒，中位数（最小–最大）",
    );
    /// About.
    pub const ABOUT_1: Tr = tr(
        "Serial depth is the length of the longest chain of operations that must wait for each other. An RNN's is O(L): h_t needs h_{t−1}. All L² attention scores are independent: depth O(1), so the work spreads over as many cores as a GPU has.",
        "串行深度是必须相互等待的最长运算链的长度。RNN 的串行深度是 O(L)：h_t 需要 h_{t−1}。注意力的 L² 个分数彼此独立：深度为 O(1)，所以计算可以分摊到 GPU 的所有核心上。",
    );
    /// About.
    pub const ABOUT_2: Tr = tr(
        "On one CPU thread both are sequential anyway, and attention does more arithmetic (L²·d against L·G·H²), so the all-pairs product can be the slower curve here. The difference that decided history is on parallel hardware: L dispatches that must wait for each other against one.",
        "在单个 CPU 线程上两者本来都是顺序执行的，而且注意力的计算量更大（L²·d 对比 L·G·H²），所以这里全部两两打分的曲线可能更慢。真正决定历史走向的差别在并行硬件上：L 次必须相互等待的调度，对比一次调度。",
    );
    /// About.
    pub const ABOUT_3: Tr = tr(
        "These are measurements of this machine and this moment: run them again and they change a little.",
        "这些是本机此刻的测量结果：再测一次，数字会有少许变化。",
    );
}

/// The "compared with the handout" notes (numbers are filled in from
/// [`crate::lessons::handout`]).
pub mod handout {
    use super::{tr, Tr};
    /// Lead-in of every note.
    pub const HEADING: Tr = tr("Compared with the handout:", "与讲义对照：");
    /// {0} printed 304, {1} app 160, {2} the app's 2-layer count, {3} printed 608,
    /// {4} printed 1216, {5} app bidirectional, {6} app LSTM.
    pub const RNN_TEN_EIGHT: Tr = tr(
        "it prints {0} parameters for nn.RNN(10, 8); PyTorch counts {1}. The printed figure is the count with num_layers=2 ({2}), and the handout's {3} (bidirectional) and {4} (LSTM) are that 2-layer figure × 2 and × 4; with one layer PyTorch counts {5} and {6}.",
        "讲义给出 nn.RNN(10, 8) 的参数量为 {0}，PyTorch 的计数是 {1}。讲义的数字是 num_layers=2 时的参数量（{2}）；讲义中的 {3}（双向）和 {4}（LSTM）是这个两层数字的 2 倍和 4 倍；单层时 PyTorch 的计数是 {5} 和 {6}。",
    );
    /// {0} input size, {1} hidden size, {2} printed LSTM, {3} printed GRU, {4}/{5} one-bias
    /// LSTM/GRU, {6}/{7} app LSTM/GRU, {8} printed RNN, {9} one-bias RNN, {10} app RNN.
    pub const PER_LAYER: Tr = tr(
        "its per-layer counts for input {0} and hidden {1} (LSTM {2}, GRU {3}) use one bias vector (one-bias formula: {4} and {5}); PyTorch has two (bias_ih and bias_hh) and counts {6} and {7}. Its RNN figure {8} is twice the one-bias RNN count {9}; PyTorch counts {10}.",
        "讲义中输入 {0}、隐藏 {1} 时每层的参数量（LSTM {2}、GRU {3}）只算了一个偏置向量（单偏置公式：{4} 和 {5}）；PyTorch 有两个（bias_ih 和 bias_hh），计数为 {6} 和 {7}。讲义中 RNN 的 {8} 是单偏置 RNN 参数量 {9} 的两倍；PyTorch 的计数是 {10}。",
    );
    /// {0} printed share, {1} the example's W_hh, {2} app share, {3} the handout's W_hh,
    /// {4} app share at the handout's W_hh.
    pub const UNROLL_SHARE: Tr = tr(
        "it prints {0} for x₁'s share of z₂; with this example's W_hh = {1} the app computes {2}. The printed value belongs to W_hh = {3} (the app gives {4} there).",
        "讲义给出 x₁ 在 z₂ 中所占的部分为 {0}；按本例的 W_hh = {1}，本应用算出 {2}。讲义的数值对应 W_hh = {3}（此时本应用算出 {4}）。",
    );
    /// {0} printed h₂, {1} app h₂ (4 decimals), {2} o₂, {3} C₂, {4} app h₂ (8 decimals).
    pub const LSTM_H2: Tr = tr(
        "it prints h₂ = {0}; the app computes {1}: h₂ = o₂·tanh(C₂) = {2}·tanh({3}) = {4} before rounding. The difference comes from rounding intermediate values in the handout.",
        "讲义给出 h₂ = {0}；本应用算出 {1}：舍入前 h₂ = o₂·tanh(C₂) = {2}·tanh({3}) = {4}。差别来自讲义对中间结果的舍入。",
    );
}
