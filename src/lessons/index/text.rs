//! The lesson index page.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// The lesson index page.
    #[derive(Debug)]
    pub struct IndexText {
        /// Title.
        pub title: &'static str {
            "Recurrent networks, step by step", "循环神经网络，一步一步来"
        }
        /// Lede: {0} number of lessons.
        pub lede: fn(&str) -> String {
            |a0| format!("{a0} lessons from the course, each a worked example you can change: drag a slider and the same Rust code that trains the networks recomputes every number. Every page is a link you can share."), |a0| format!("课程中的 {a0} 节课，每节都是一个可以动手修改的例题：拖动滑块，训练网络所用的同一份 Rust 代码会重新计算每个数字。每个页面都是可以分享的链接。")
        }
        /// Training card title.
        pub train_title: &'static str {
            "Then train one", "然后亲手训练一个"
        }
        /// Training card text.
        pub train_text: &'static str {
            "An LSTM learns which language a surname comes from, in this tab, on your GPU through WebGPU (or on the CPU).", "一个 LSTM 在这个标签页里学习判断姓氏来自哪种语言，通过 WebGPU 在你的 GPU 上运行（或在 CPU 上）。"
        }
        /// Delay-copy card title.
        pub delay_title: &'static str {
            "The delay-copy task", "延迟复制任务"
        }
        /// Delay-copy card text.
        pub delay_text: &'static str {
            "An RNN and an LSTM learn to repeat the token seen a number of steps earlier (the delay), side by side in this tab: which one remembers further?", "RNN 与 LSTM 在本标签页里并排学习复述若干步（延迟）之前的符号：谁记得更远？"
        }
        /// Delay-copy card link.
        pub delay_link: &'static str {
            "Open the delay-copy task", "打开延迟复制任务"
        }
        /// The input–output structures' section.
        pub structures: StructuresText {
            StructuresText::EN, StructuresText::ZH
        }
    }
}

catalogue! {
    /// The section mapping the course's four input–output structures to what Unroll trains.
    #[derive(Debug)]
    pub struct StructuresText {
        /// Section title.
        pub title: &'static str {
            "Where the structures meet", "四种输入–输出结构在哪里"
        }
        /// What the section shows.
        pub lede: &'static str {
            "The course names four input–output structures. Each is a way of reading the unrolled chain of lesson 1: which steps take an input, which give an output. Here is where Unroll trains each of them.", "课程列出了四种输入–输出结构。每一种都是读第 1 课那条展开链的一种方式：哪些时间步接收输入，哪些时间步给出输出。下面是 Unroll 训练每一种结构的地方。"
        }
        /// N → 1: title, text, link.
        pub many_to_one: [&'static str; 3] {
            [
                "N → 1: a sequence in, one answer out",
                "The names classifier reads a surname letter by letter and gives its language at the last step only.",
                "Open the names classifier",
            ],
            [
                "N → 1：输入一个序列，输出一个答案",
                "姓名分类器逐个字母读入一个姓氏，只在最后一步给出它的语言。",
                "打开姓名分类器",
            ]
        }
        /// N → N: title, text, link.
        pub many_to_many: [&'static str; 3] {
            [
                "N → N: an output at every step",
                "The delay tasks answer at every step with the token seen d steps earlier (here d = 2: the first d steps have no target). The generation lab trains the same way: with teacher forcing, each step reads the true previous letter and predicts the next.",
                "Open the delay tasks",
            ],
            [
                "N → N：每一步都有输出",
                "延迟任务在每一步输出 d 步之前看到的符号（此处 d = 2：前 d 步没有目标）。生成实验室也这样训练：在教师强制下，每一步读入真实的上一个字母，预测下一个字母。",
                "打开延迟任务",
            ]
        }
        /// 1 → N: title, text, link.
        pub one_to_many: [&'static str; 3] {
            [
                "1 → N: one input, a sequence out",
                "The generation lab writes a name from a language alone: the language sets the initial state (or is given at every step), and each letter written is read back at the next step, until the end marker.",
                "Open the generation lab",
            ],
            [
                "1 → N：一个输入，输出一个序列",
                "生成实验室只凭一种语言写出一个名字：语言设定初始状态（或在每一步一同输入），每写出一个字母，下一步就把它读回，直到结束标记。",
                "打开生成实验室",
            ]
        }
        /// N → M: title, text, link.
        pub read_then_write: [&'static str; 3] {
            [
                "N → M: read everything, then write",
                "The copy-memory task reads symbols, waits through blanks, and after the delimiter ▶ writes the symbols back in order: the output starts only once the input has been read.",
                "Open the copy-memory task",
            ],
            [
                "N → M：先读完，再写出",
                "复制记忆任务读入一串符号，经过一段空白，在分隔符 ▶ 之后按顺序写回这些符号：输入读完之后，输出才开始。",
                "打开复制记忆任务",
            ]
        }
        /// The encoder–decoder (Seq2Seq) is the next chapter's.
        pub seq2seq: &'static str {
            "An encoder–decoder (Seq2Seq), where one network reads the whole input into a state and a second network writes the output from it, is the next chapter's subject: Unroll does not train one. The copy task above is N → M with a single network.", "编码器–解码器（Seq2Seq）——一个网络把整个输入读进一个状态，另一个网络再从这个状态写出输出——是下一章的内容：Unroll 不训练这种模型。上面的复制任务是用单个网络实现的 N → M。"
        }
        /// Diagram labels: the names example's language.
        pub japanese: &'static str {
            "Japanese", "日语"
        }
        /// Diagram labels: the generation example's language.
        pub italian: &'static str {
            "Italian", "意大利语"
        }
        /// Diagram labels: the start marker.
        pub start: &'static str {
            "start", "起始"
        }
        /// Diagram labels: the end marker.
        pub end: &'static str {
            "end", "结束"
        }
    }
}
