//! The lessons' titles, one-line summaries and ledes, in one catalogue: the index's cards, each
//! page's introduction and the links to the previous and next lesson read them here, without
//! importing the lessons. Each lesson's other texts are in its own folder (`lstm/text.rs`).

use crate::shell::catalogue::catalogue;
use unroll_core::config::lessons::LessonId;
use unroll_core::config::Lang;

/// Title, one-line summary (index card) and lede (page intro) of a lesson in one language.
#[derive(Clone, Copy, Debug)]
pub struct LessonInfo {
    /// Title.
    pub title: &'static str,
    /// One line for the index.
    pub summary: &'static str,
    /// The page's introduction.
    pub lede: &'static str,
}

catalogue! {
    /// Every lesson's title, summary and lede.
    #[allow(missing_docs)] // one field per lesson, named as its `?lesson=` value
    #[derive(Debug)]
    pub struct LessonsText {
        pub unroll: LessonInfo {
            LessonInfo {
                title: "Recurrence and time unrolling",
                summary: "One cell, one set of weights, applied at every step: h_t = tanh(W_xh·x_t + W_hh·h_{t−1} + b).",
                lede: "A one-dimensional RNN reads a short sequence. Step through time and watch where every term of z_t comes from: the input, the previous state, or the bias.",
            },
            LessonInfo {
                title: "循环与按时间展开",
                summary: "一个单元、一组权重，在每一步重复使用：h_t = tanh(W_xh·x_t + W_hh·h_{t−1} + b)。",
                lede: "一个一维 RNN 读入一个短序列。逐步推进时间，看 z_t 的每一项从哪里来：输入、上一步的状态，还是偏置。",
            }
        }
        pub shapes: LessonInfo {
            LessonInfo {
                title: "Unrolling is not stacking: shapes",
                summary: "Layers × directions × time: which sizes change the parameter count, and why PyTorch counts two biases.",
                lede: "Choose a recurrent layer as in PyTorch and see the shapes it takes and returns, and every parameter it owns.",
            },
            LessonInfo {
                title: "展开不是堆叠：张量形状",
                summary: "层数 × 方向 × 时间：哪些尺寸会改变参数量，以及 PyTorch 为什么有两个偏置。",
                lede: "像在 PyTorch 中一样选择一个循环层，查看它的输入输出形状，以及它拥有的每一个参数。",
            }
        }
        pub bptt: LessonInfo {
            LessonInfo {
                title: "Why gradients vanish",
                summary: "Backpropagation through time multiplies tanh'(z_t)·W_hh once per step.",
                lede: "The gradient that reaches h₀ from step t is a product of one factor per step. Watch it shrink or explode.",
            },
            LessonInfo {
                title: "梯度为什么会消失",
                summary: "随时间反向传播每一步都要乘以一次 tanh'(z_t)·W_hh。",
                lede: "从第 t 步传回 h₀ 的梯度是每一步一个因子的连乘。看它如何缩小或爆炸。",
            }
        }
        pub lstm: LessonInfo {
            LessonInfo {
                title: "The LSTM conveyor belt",
                summary: "C_t = f_t·C_{t−1} + i_t·g_t: the cell state is carried forward with only a gate in the way.",
                lede: "Set each gate by hand, or let weights compute them, and follow the cell state along the belt.",
            },
            LessonInfo {
                title: "LSTM 的传送带",
                summary: "C_t = f_t·C_{t−1} + i_t·g_t：细胞状态向前传递，途中只经过一个门。",
                lede: "手动设置每个门，或让权重计算它们，沿着传送带追踪细胞状态。",
            }
        }
        pub gru: LessonInfo {
            LessonInfo {
                title: "GRU: one gate to keep and write",
                summary: "h_t = (1 − z)·h_{t−1} + z·h̃: the update gate blends old and new; PyTorch's z means the opposite.",
                lede: "The update gate z decides how much of the candidate replaces the old state. The reset gate r decides how much of the past enters the candidate.",
            },
            LessonInfo {
                title: "GRU：一个门同时负责保留与写入",
                summary: "h_t = (1 − z)·h_{t−1} + z·h̃：更新门混合新旧状态；PyTorch 中的 z 含义正好相反。",
                lede: "更新门 z 决定候选状态替换旧状态的比例；重置门 r 决定过去有多少进入候选状态。",
            }
        }
        pub bidir: LessonInfo {
            LessonInfo {
                title: "Bidirectional: two readers, one concatenation",
                summary: "A forward and a backward RNN read the sentence; each position concatenates both into 2H.",
                lede: "One direction reads left to right, the other right to left. Each position gets both states side by side: what, then, does the last position hold?",
            },
            LessonInfo {
                title: "双向：两个读者，一次拼接",
                summary: "一个正向、一个反向 RNN 读取句子；每个位置把两者拼接成 2H。",
                lede: "一个方向从左往右读，另一个从右往左读。每个位置都并排得到两个方向的状态：那么，最后一个位置里装的是什么？",
            }
        }
        pub softmax: LessonInfo {
            LessonInfo {
                title: "logits → softmax → log → NLL",
                summary: "What CrossEntropyLoss computes from raw scores, and why it takes logits.",
                lede: "Raw scores become probabilities, log-probabilities and a loss for the target class.",
            },
            LessonInfo {
                title: "logits → softmax → log → NLL",
                summary: "CrossEntropyLoss 如何从原始分数计算损失，以及为什么它接收 logits。",
                lede: "原始分数变成概率、对数概率，以及目标类别的损失。",
            }
        }
        pub parallel: LessonInfo {
            LessonInfo {
                title: "Why Transformers replaced RNNs",
                summary: "How serial depth grows with the length, for an RNN and for attention: measured live in this tab.",
                lede: "An RNN must finish step t before step t + 1. Attention compares all positions in one operation. Time both here.",
            },
            LessonInfo {
                title: "为什么 Transformer 取代了 RNN",
                summary: "RNN 与注意力的串行深度如何随长度增长：在这个标签页中实时测量。",
                lede: "RNN 必须先算完第 t 步才能算第 t + 1 步；注意力机制在一次运算里比较所有位置。在这里为两者计时。",
            }
        }
    }
}

/// The title, summary and lede of `id` in `lang`.
pub fn lesson_info(id: LessonId, lang: Lang) -> LessonInfo {
    let t = LessonsText::of(lang);
    match id {
        LessonId::Unroll => t.unroll,
        LessonId::Shapes => t.shapes,
        LessonId::Bptt => t.bptt,
        LessonId::Lstm => t.lstm,
        LessonId::Gru => t.gru,
        LessonId::Bidir => t.bidir,
        LessonId::Softmax => t.softmax,
        LessonId::Parallel => t.parallel,
    }
}
