//! The inspector panel ("Inside the trained model").

use crate::names::text::direction_name;
use unroll_core::config::Lang;

/// The inspector's texts.
#[allow(missing_docs)] // the field names say what each text is
#[derive(Debug)]
pub struct InspectorText {
    pub title: &'static str,
    pub note: &'static str,
    pub input_label: &'static str,
    pub placeholder: &'static str,
    pub where_label: &'static str,
    pub layer_dir: fn(usize, usize) -> String,
    pub before_start: &'static str,
    pub waiting_data: &'static str,
    pub empty: &'static str,
    pub no_letters: fn(&str) -> String,
    pub name_limit: fn(usize) -> String,
    pub weights_init: &'static str,
    pub weights_step: fn(&str, usize, u64) -> String,
    pub h_caption: &'static str,
    pub c_caption: &'static str,
    pub gates_title: &'static str,
    pub reads_last: fn(usize) -> String,
    pub reads_padded: fn(usize, usize) -> String,
    pub truncated: fn(usize) -> String,
    pub top_title: &'static str,
    pub top_was: fn(f32) -> String,
    pub pin_title: &'static str,
    pub pin_enable: &'static str,
    pub pin_gate: &'static str,
    pub pin_step: &'static str,
    pub pin_all: &'static str,
    pub pin_value: &'static str,
    pub pin_clear: &'static str,
    pub pin_off: &'static str,
    pub pin_on: fn(&str, f32, Option<usize>, &str) -> String,
    pub pin_where: fn(usize, usize) -> String,
    pub pin_rnn: &'static str,
    pub pin_step_gone: fn(usize) -> String,
    pub pin_help: &'static str,
}

impl InspectorText {
    /// English.
    pub const EN: InspectorText = InspectorText {
        title: "Inside the trained model",
        note: "Type a name and watch the network read it, one character per step. Each column is a time step, each row a hidden unit; the colour is the unit's value. The weights are the session's latest (they update during training).",
        input_label: "Name",
        placeholder: "e.g. Nguyen",
        where_label: "Layer / direction",
        layer_dir: |l, d| format!("layer {l} · {}", direction_name(Lang::En, d)),
        before_start: "Start training (or restore a model) to look inside it.",
        waiting_data: "Waiting for the data set…",
        empty: "Type a name to see the network's states.",
        no_letters: |n| format!("“{n}” has no letters the model knows (a–z, A–Z, space . , ; ')."),
        name_limit: |n| format!("At most {n} characters: the name is cut there (one heatmap column per character)."),
        weights_init: "Weights: initialisation (no step trained yet).",
        weights_step: |cell, h, s| format!("Inspecting the trained model: {cell}, hidden_size {h}, step {s}."),
        h_caption: "h_t: hidden state (units × steps)",
        c_caption: "c_t: cell state (units × steps)",
        gates_title: "Gates over time",
        reads_last: |t| format!("The classifier reads the output at the last character (t = {t})."),
        reads_padded: |len, t| format!("head=padded: the name fills {len} of the 10 steps; the rest (∅, hatched) are zero vectors, and the classifier reads the output at t = {t}, after the padding."),
        truncated: |n| format!("head=padded keeps only the first 10 symbols: {n} more are cut off."),
        top_title: "Top 5",
        top_was: |p| format!("was {:.1}%", p * 100.0),
        pin_title: "Pin a gate",
        pin_enable: "Pin",
        pin_gate: "Gate",
        pin_step: "Time step",
        pin_all: "every step",
        pin_value: "Value",
        pin_clear: "Reset the pin",
        pin_off: "No pin: the model runs as trained.",
        pin_on: |g, v, step, w| match step {
            None => format!("Pinned: {g} = {v:.2} at every step, {w}. The heatmaps and the top 5 show the changed model."),
            Some(t) => format!("Pinned: {g} = {v:.2} at t = {t}, {w}. The heatmaps and the top 5 show the changed model."),
        },
        pin_where: |l, d| format!("layer {l} · {}", direction_name(Lang::En, d)),
        pin_rnn: "Pinning needs gates: an RNN cell has none. Train an LSTM or a GRU to pin one.",
        pin_step_gone: |t| format!("This name has no step t = {t}: the pin is not applied."),
        pin_help: "The pin sets the gate to this value in every unit of the layer/direction shown; the rest of the network runs as trained.",
    };

    /// 简体中文.
    pub const ZH: InspectorText = InspectorText {
        title: "训练好的模型内部",
        note: "输入一个名字，看网络逐个字符地读它。每一列是一个时间步，每一行是一个隐藏单元，颜色是该单元的值。权重是本次训练最新发布的（训练中也会更新）。",
        input_label: "名字",
        placeholder: "例如 Nguyen",
        where_label: "层 / 方向",
        layer_dir: |l, d| format!("第 {l} 层 · {}", direction_name(Lang::Zh, d)),
        before_start: "先开始训练（或恢复一个模型），再查看它的内部。",
        waiting_data: "正在等待数据集…",
        empty: "输入一个名字，查看网络的状态。",
        no_letters: |n| format!("“{n}”里没有模型认识的字符（a–z、A–Z、空格 . , ; '）。"),
        name_limit: |n| format!("最多 {n} 个字符：名字在此处被截断（每个字符占热图的一列）。"),
        weights_init: "权重：初始化值（尚未训练任何一步）。",
        weights_step: |cell, h, s| format!("正在检查已训练的模型：{cell}，hidden_size {h}，第 {s} 步。"),
        h_caption: "h_t：隐藏状态（单元 × 时间步）",
        c_caption: "c_t：细胞状态（单元 × 时间步）",
        gates_title: "门随时间的变化",
        reads_last: |t| format!("分类器读取最后一个字符处（t = {t}）的输出。"),
        reads_padded: |len, t| format!("head=padded：名字占 10 步中的 {len} 步，其余（∅，斜线标出）是零向量；分类器在填充之后读取 t = {t} 处的输出。"),
        truncated: |n| format!("head=padded 只保留前 10 个符号：另有 {n} 个被截掉。"),
        top_title: "前 5 名",
        top_was: |p| format!("原为 {:.1}%", p * 100.0),
        pin_title: "固定一个门",
        pin_enable: "固定",
        pin_gate: "门",
        pin_step: "时间步",
        pin_all: "每一步",
        pin_value: "取值",
        pin_clear: "重置固定设置",
        pin_off: "未固定：模型按训练结果运行。",
        pin_on: |g, v, step, w| match step {
            None => format!("已固定：{g} = {v:.2}，每一步，{w}。热图和前 5 名显示的是改动后的模型。"),
            Some(t) => format!("已固定：{g} = {v:.2}，在 t = {t}，{w}。热图和前 5 名显示的是改动后的模型。"),
        },
        pin_where: |l, d| format!("第 {l} 层 · {}", direction_name(Lang::Zh, d)),
        pin_rnn: "固定需要门：RNN 单元没有门。训练一个 LSTM 或 GRU 再来固定。",
        pin_step_gone: |t| format!("这个名字没有 t = {t} 这一步：固定未生效。"),
        pin_help: "固定会把所显示的层/方向中每个单元的这个门设为该值；网络其余部分按训练结果运行。",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static InspectorText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
