//! The shell's texts (header, navigation, footer) and the URL notices, which every page shows.
//!
//! A URL notice arrives as a typed [`UrlNotice`] (key, raw text, accepted range or choices) and
//! is written here in each language; the English wording is the notice's own `Display`.

use unroll_core::config::query::{
    format_number, Accepted, Fallback, NoticeKind, TiedBy, UrlNotice,
};
use unroll_core::config::Lang;

/// The shell's texts: header, footer, URL notices.
#[allow(missing_docs)] // the field names say what each text is
#[derive(Debug)]
pub struct ShellText {
    pub html_lang: &'static str,
    /// The window's title (`document.title`).
    pub doc_title: &'static str,
    pub brand_tag: &'static str,
    pub nav_label: &'static str,
    pub nav_names: &'static str,
    pub lang_label: &'static str,
    pub footer: &'static str,
    /// The first frame's line while the app's module arrives (`www/frame.js`).
    pub loading: &'static str,
    pub unknown_lesson: fn(&str) -> String,

    pub url_notice_title: &'static str,
    pub dismiss: &'static str,

    /// The embedded page's link to the full page.
    pub open_full: &'static str,
    pub copy_embed: &'static str,
    pub embed_copied: &'static str,
    /// The field holding the embed code.
    pub embed_code: &'static str,
    /// The iframe's title: the page's title `{0}`.
    pub embed_title: fn(&str) -> String,

    /// A chart's CSV download button.
    pub export_csv: &'static str,
    /// Its accessible name: what the file holds `{0}`.
    pub export_csv_label: fn(&str) -> String,
    /// A named CSV button's accessible name: {0} its words (e.g. "Loss per step CSV"), {1} what
    /// the file holds.
    pub export_csv_named: fn(&str, &str) -> String,
    /// A figure's SVG download button's tooltip.
    pub export_svg_title: &'static str,
    /// A figure's PNG download button's tooltip.
    pub export_png_title: &'static str,
    /// The SVG button's accessible name: {0} the file's name (so that the buttons of two
    /// figures on one page have different names).
    pub export_svg_label: fn(&str) -> String,
    /// The PNG button's accessible name: {0} the file's name.
    pub export_png_label: fn(&str) -> String,
    /// A figure's downloads wait while it shows the answer to an open question.
    pub export_held: &'static str,
    /// A table's CSV waits while it holds the answer to an open question.
    pub export_held_table: &'static str,

    pub notice: fn(&UrlNotice) -> String,
}

impl ShellText {
    /// English.
    pub const EN: ShellText = ShellText {
        html_lang: "en",
        doc_title: "Unroll: recurrent networks, live in the browser",
        brand_tag: "RNN · LSTM · GRU, live in your browser",
        nav_label: "Pages",
        nav_names: "Train on names",
        lang_label: "Language",
        loading: "Loading the interactive page…",
        footer:
            "Unroll computes every number on this page in your browser: Rust compiled to WebAssembly, \
                 WGSL compute shaders on WebGPU, and the same maths in plain Rust on the CPU.",
        unknown_lesson: |l| format!("lesson: “{l}” is not a page of Unroll; showing the training page"),

        url_notice_title: "Some settings in the link were adjusted",
        dismiss: "Dismiss",

        open_full: "Open in Unroll ↗",
        copy_embed: "Copy embed code",
        embed_copied: "Embed code copied",
        embed_code: "Embed code to paste into a page",
        embed_title: |page| format!("{page} · Unroll"),

        export_csv: "CSV",
        export_csv_label: |what| format!("Download {what} as CSV"),
        export_csv_named: |words, what| format!("{words}: download {what} as CSV"),
        export_svg_title: "Download this figure as SVG (vector, for slides and papers)",
        export_png_title: "Download this figure as PNG (twice its size on screen)",
        export_svg_label: |a0| format!("Download {a0} (SVG, vector)"),
        export_png_label: |a0| format!("Download {a0} (PNG, twice the size on screen)"),
        export_held: "This figure shows the answer: download it after you answer the question.",
        export_held_table: "This table holds the answer: download it after you answer the question.",

        notice: notice_en,
    };

    /// 简体中文.
    pub const ZH: ShellText = ShellText {
        html_lang: "zh-CN",
        doc_title: "Unroll：循环神经网络，在浏览器中实时运行",
        brand_tag: "RNN · LSTM · GRU，在浏览器中实时运行",
        nav_label: "页面",
        nav_names: "姓氏分类训练",
        lang_label: "语言",
        loading: "正在加载交互页面…",
        footer: "本页的每一个数字都在你的浏览器中计算：Rust 编译为 WebAssembly，WGSL 计算着色器运行在 WebGPU 上，\
                 CPU 上则由纯 Rust 执行同样的数学运算。",
        unknown_lesson: |l| format!("lesson：“{l}”不是 Unroll 的页面，显示训练页面"),

        url_notice_title: "链接中的部分设置已被调整",
        dismiss: "关闭",

        open_full: "在 Unroll 中打开 ↗",
        copy_embed: "复制嵌入代码",
        embed_copied: "嵌入代码已复制",
        embed_code: "粘贴到网页中的嵌入代码",
        embed_title: |page| format!("{page} · Unroll"),

        export_csv: "CSV",
        export_csv_label: |what| format!("以 CSV 格式下载{what}"),
        export_csv_named: |words, what| format!("{words}：以 CSV 格式下载{what}"),
        export_svg_title: "下载此图（SVG 矢量图，适用于幻灯片和论文）",
        export_png_title: "下载此图（PNG，屏幕尺寸的两倍）",
        export_svg_label: |a0| format!("下载 {a0}（SVG 矢量图）"),
        export_png_label: |a0| format!("下载 {a0}（PNG，屏幕尺寸的两倍）"),
        export_held: "此图显示了答案：回答问题之后即可下载。",
        export_held_table: "此表包含答案：回答问题之后即可下载。",

        notice: notice_zh,
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static ShellText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
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
        NoticeKind::Cycled { steps, to } => format!(
            "{field}：“{raw}”只有 {} 个值，而共有 {steps} 步，已循环重复为“{to}”",
            raw.split(',').count()
        ),
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
