//! The shell's texts (header, navigation, footer) and the URL notices, which every page shows.
//!
//! A URL notice arrives as a typed [`UrlNotice`] (key, raw text, accepted range or choices) and
//! is written here in each language; the English wording is the notice's own `Display`.

use crate::shell::catalogue::catalogue;
use unroll_core::config::query::{
    format_number, Accepted, Fallback, NoticeKind, TiedBy, UrlNotice,
};

catalogue! {
    /// The shell's texts: header, footer, URL notices.
    #[allow(missing_docs)] // the field names say what each text is
    #[derive(Debug)]
    pub struct ShellText {
        pub html_lang: &'static str {
            "en", "zh-CN"
        }
        /// The window's title (`document.title`).
        pub doc_title: &'static str {
            "Unroll: recurrent networks, live in the browser", "Unroll：循环神经网络，在浏览器中实时运行"
        }
        pub brand_tag: &'static str {
            "RNN · LSTM · GRU, live in your browser", "RNN · LSTM · GRU，在浏览器中实时运行"
        }
        pub nav_label: &'static str {
            "Pages", "页面"
        }
        pub nav_names: &'static str {
            "Train on names", "姓氏分类训练"
        }
        pub lang_label: &'static str {
            "Language", "语言"
        }
        pub footer: &'static str {
            "Unroll computes every number on this page in your browser: Rust compiled to WebAssembly, \
                     WGSL compute shaders on WebGPU, and the same maths in plain Rust on the CPU.",
            "本页的每一个数字都在你的浏览器中计算：Rust 编译为 WebAssembly，WGSL 计算着色器运行在 WebGPU 上，\
                     CPU 上则由纯 Rust 执行同样的数学运算。"
        }
        /// The first frame's line while the app's module arrives (`www/frame.js`).
        pub loading: &'static str {
            "Loading the interactive page…", "正在加载交互页面…"
        }
        pub unknown_lesson: fn(&str) -> String {
            |l| format!("lesson: “{l}” is not a page of Unroll; showing the training page"), |l| format!("lesson：“{l}”不是 Unroll 的页面，显示训练页面")
        }

        pub url_notice_title: &'static str {
            "Some settings in the link were adjusted", "链接中的部分设置已被调整"
        }
        pub dismiss: &'static str {
            "Dismiss", "关闭"
        }

        /// The embedded page's link to the full page.
        pub open_full: &'static str {
            "Open in Unroll ↗", "在 Unroll 中打开 ↗"
        }
        pub copy_embed: &'static str {
            "Copy embed code", "复制嵌入代码"
        }
        pub embed_copied: &'static str {
            "Embed code copied", "嵌入代码已复制"
        }
        /// The field holding the embed code.
        pub embed_code: &'static str {
            "Embed code to paste into a page", "粘贴到网页中的嵌入代码"
        }
        /// The iframe's title: the page's title `{0}`.
        pub embed_title: fn(&str) -> String {
            |page| format!("{page} · Unroll"), |page| format!("{page} · Unroll")
        }

        /// A chart's CSV download button.
        pub export_csv: &'static str {
            "CSV", "CSV"
        }
        /// Its accessible name: what the file holds `{0}`.
        pub export_csv_label: fn(&str) -> String {
            |what| format!("Download {what} as CSV"), |what| format!("以 CSV 格式下载{what}")
        }
        /// A named CSV button's accessible name: {0} its words (e.g. "Loss per step CSV"), {1} what
        /// the file holds.
        pub export_csv_named: fn(&str, &str) -> String {
            |words, what| format!("{words}: download {what} as CSV"), |words, what| format!("{words}：以 CSV 格式下载{what}")
        }
        /// A figure's SVG download button's tooltip.
        pub export_svg_title: &'static str {
            "Download this figure as SVG (vector, for slides and papers)", "下载此图（SVG 矢量图，适用于幻灯片和论文）"
        }
        /// A figure's PNG download button's tooltip.
        pub export_png_title: &'static str {
            "Download this figure as PNG (twice its size on screen)", "下载此图（PNG，屏幕尺寸的两倍）"
        }
        /// The SVG button's accessible name: {0} the file's name (so that the buttons of two
        /// figures on one page have different names).
        pub export_svg_label: fn(&str) -> String {
            |a0| format!("Download {a0} (SVG, vector)"), |a0| format!("下载 {a0}（SVG 矢量图）")
        }
        /// The PNG button's accessible name: {0} the file's name.
        pub export_png_label: fn(&str) -> String {
            |a0| format!("Download {a0} (PNG, twice the size on screen)"), |a0| format!("下载 {a0}（PNG，屏幕尺寸的两倍）")
        }
        /// A figure's downloads wait while it shows the answer to an open question.
        pub export_held: &'static str {
            "This figure shows the answer: download it after you answer the question.", "此图显示了答案：回答问题之后即可下载。"
        }
        /// A table's CSV waits while it holds the answer to an open question.
        pub export_held_table: &'static str {
            "This table holds the answer: download it after you answer the question.", "此表包含答案：回答问题之后即可下载。"
        }

        pub notice: fn(&UrlNotice) -> String {
            notice_en, notice_zh
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
