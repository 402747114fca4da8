//! The lesson index page.

use unroll_core::config::Lang;

/// The lesson index page.
#[derive(Debug)]
pub struct IndexText {
    /// Title.
    pub title: &'static str,
    /// Lede: {0} number of lessons.
    pub lede: fn(&str) -> String,
    /// Training card title.
    pub train_title: &'static str,
    /// Training card text.
    pub train_text: &'static str,
    /// Delay-copy card title.
    pub delay_title: &'static str,
    /// Delay-copy card text.
    pub delay_text: &'static str,
    /// Delay-copy card link.
    pub delay_link: &'static str,
}

impl IndexText {
    /// English.
    pub const EN: IndexText = IndexText {
        title: "Recurrent networks, step by step",
        lede: |a0| format!("{a0} lessons from the course, each a worked example you can change: drag a slider and the same Rust code that trains the networks recomputes every number. Every page is a link you can share."),
        train_title: "Then train one",
        train_text: "An LSTM learns which language a surname comes from, in this tab, on your GPU through WebGPU (or on the CPU).",
        delay_title: "The delay-copy task",
        delay_text: "An RNN and an LSTM learn to repeat the token seen a number of steps earlier (the delay), side by side in this tab: which one remembers further?",
        delay_link: "Open the delay-copy task",
    };

    /// 简体中文.
    pub const ZH: IndexText = IndexText {
        title: "循环神经网络，一步一步来",
        lede: |a0| format!("课程中的 {a0} 节课，每节都是一个可以动手修改的例题：拖动滑块，训练网络所用的同一份 Rust 代码会重新计算每个数字。每个页面都是可以分享的链接。"),
        train_title: "然后亲手训练一个",
        train_text: "一个 LSTM 在这个标签页里学习判断姓氏来自哪种语言，通过 WebGPU 在你的 GPU 上运行（或在 CPU 上）。",
        delay_title: "延迟复制任务",
        delay_text: "RNN 与 LSTM 在本标签页里并排学习复述若干步（延迟）之前的符号：谁记得更远？",
        delay_link: "打开延迟复制任务",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static IndexText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
