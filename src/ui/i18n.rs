//! Interface language: English and 简体中文.
//!
//! Every piece of UI text lives in one [`Strings`] table per language ([`EN`], [`ZH`]); a
//! missing translation is a compile error, because both are values of the same struct. The
//! language is `lang=en|zh` in the URL when the user chose one, otherwise the browser's
//! (`navigator.language`). [`Locale`] is provided as context by the app shell.
//!
//! Numbers inside sentences go through the `fn` fields, so each language orders them itself.
//! Messages that come from the layers below (loader and training errors) stay in English.

use crate::config::query::{NoticeKind, UrlNotice};
use leptos::prelude::*;

pub use crate::config::Lang;

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

/// Text of the charts (axis titles, legends, empty-chart messages).
#[derive(Debug)]
pub struct ChartText {
    /// x axis of the loss chart.
    pub step: &'static str,
    /// x axis of the validation chart.
    pub epoch: &'static str,
    /// Loss axis.
    pub loss: &'static str,
    /// Accuracy axis.
    pub accuracy: &'static str,
    /// Legend: per-step batch loss.
    pub batch_loss: &'static str,
    /// Legend: mean of the last 20 steps.
    pub mean_20: &'static str,
    /// Legend: the loss of a uniform guess, ln C.
    pub uniform: &'static str,
    /// Legend: mean training loss of an epoch.
    pub train_loss: &'static str,
    /// Legend: validation loss.
    pub val_loss: &'static str,
    /// Legend: validation accuracy.
    pub val_acc: &'static str,
    /// Empty loss chart.
    pub loss_empty: &'static str,
    /// Empty validation chart.
    pub val_empty: &'static str,
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
    pub lede: &'static str,

    pub config_title: &'static str,
    pub cell: &'static str,
    pub cell_help_lstm: &'static str,
    pub cell_help_gru: &'static str,
    pub cell_help_rnn: &'static str,
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
    pub data_note: &'static str,
    pub data_languages: &'static str,
    pub data_lines: &'static str,
    pub data_pairs: &'static str,
    pub data_skipped: &'static str,
    pub data_train: &'static str,
    pub data_val: &'static str,
    pub per_language: &'static str,
    pub col_language: &'static str,
    pub col_lines: &'static str,
    pub col_distinct: &'static str,
    pub loading: &'static str,
    pub loading_files: fn(usize, usize) -> String,
    pub data_error: &'static str,

    pub notice: fn(&UrlNotice) -> String,
}

fn notice_en(n: &UrlNotice) -> String {
    n.to_string()
}

fn notice_zh(n: &UrlNotice) -> String {
    let (field, raw) = (&n.field, &n.raw);
    match &n.kind {
        NoticeKind::Clamped { range, to } => {
            format!("{field}：“{raw}”超出范围 {range}，已改用 {to}")
        }
        NoticeKind::Invalid { expected, default } => {
            format!("{field}：“{raw}”无效（应为 {expected}），已改用默认值 {default}")
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
    footer: "Unroll computes every number on this page in your browser: Rust compiled to WebAssembly, \
             WGSL compute shaders on WebGPU, and the same maths in plain Rust on the CPU.",
    unknown_lesson: |l| format!("lesson: “{l}” is not a page of Unroll; showing the training page"),

    url_notice_title: "Some settings in the link were adjusted",
    dismiss: "Dismiss",

    title: "Which language is this surname from?",
    lede: "A recurrent network reads a surname one letter at a time and guesses its language among 18. \
           It trains right here in this tab: on your GPU through WebGPU when the browser offers it, \
           otherwise on the CPU. Every number below is computed live.",

    config_title: "Model & training",
    cell: "Cell",
    cell_help_lstm: "nn.LSTM: gates i, f, g, o and a cell state c_t",
    cell_help_gru: "nn.GRU: gates r, z, n",
    cell_help_rnn: "nn.RNN: h_t = tanh(W_ih x_t + W_hh h_(t−1) + b)",
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
    chart_val_caption: "Validation loss and accuracy per epoch",
    chart: ChartText {
        step: "step",
        epoch: "epoch",
        loss: "loss (nats)",
        accuracy: "accuracy",
        batch_loss: "batch loss",
        mean_20: "mean of last 20",
        uniform: "uniform guess",
        train_loss: "train loss",
        val_loss: "validation loss",
        val_acc: "validation accuracy",
        loss_empty: "The loss appears here once training starts",
        val_empty: "Validation runs at the end of each epoch",
    },

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
    data_note: "Surnames from the PyTorch tutorial's 18 language files, normalised to the letters a–z, \
                A–Z and a few marks; each (name, language) pair counts once.",
    data_languages: "Languages",
    data_lines: "Lines in the files",
    data_pairs: "Distinct pairs",
    data_skipped: "Skipped lines",
    data_train: "Training pairs",
    data_val: "Validation pairs",
    per_language: "Per language",
    col_language: "Language",
    col_lines: "Lines",
    col_distinct: "Distinct",
    loading: "Loading the names data set…",
    loading_files: |done, total| format!("Loading the names data set… {done} of {total} files"),
    data_error: "The data set could not be loaded. ",

    notice: notice_en,
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
    lede: "循环神经网络逐个字母读入一个姓氏，并在 18 种语言中猜出它的来源。训练就在这个标签页里进行：\
           浏览器支持时通过 WebGPU 在你的 GPU 上运行，否则在 CPU 上运行。下面的每个数字都是实时计算的。",

    config_title: "模型与训练",
    cell: "单元",
    cell_help_lstm: "nn.LSTM：门 i、f、g、o 和细胞状态 c_t",
    cell_help_gru: "nn.GRU：门 r、z、n",
    cell_help_rnn: "nn.RNN：h_t = tanh(W_ih x_t + W_hh h_(t−1) + b)",
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
    chart_val_caption: "每轮的验证损失与准确率",
    chart: ChartText {
        step: "步数",
        epoch: "轮次",
        loss: "损失（nats）",
        accuracy: "准确率",
        batch_loss: "批次损失",
        mean_20: "最近 20 步平均",
        uniform: "均匀猜测",
        train_loss: "训练损失",
        val_loss: "验证损失",
        val_acc: "验证准确率",
        loss_empty: "开始训练后这里会显示损失",
        val_empty: "每轮结束时进行验证",
    },

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
    data_note: "姓氏来自 PyTorch 教程的 18 个语言文件，规范化为字母 a–z、A–Z 和少数标点；\
                每个（姓氏，语言）对只计一次。",
    data_languages: "语言数",
    data_lines: "文件行数",
    data_pairs: "不同的对",
    data_skipped: "跳过的行",
    data_train: "训练对",
    data_val: "验证对",
    per_language: "按语言",
    col_language: "语言",
    col_lines: "行数",
    col_distinct: "去重后",
    loading: "正在加载姓氏数据集…",
    loading_files: |done, total| format!("正在加载姓氏数据集… {done} / {total} 个文件"),
    data_error: "数据集无法加载。",

    notice: notice_zh,
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
