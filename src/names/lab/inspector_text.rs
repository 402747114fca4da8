//! The inspector panel ("Inside the trained model").

use crate::names::text::direction_name;
use crate::shell::catalogue::catalogue;
use unroll_core::config::Lang;

catalogue! {
    /// The inspector's texts.
    #[allow(missing_docs)] // the field names say what each text is
    #[derive(Debug)]
    pub struct InspectorText {
        pub title: &'static str {
            "Inside the trained model", "训练好的模型内部"
        }
        pub note: &'static str {
            "Type a name and watch the network read it, one character per step. Each column is a time step, each row a hidden unit; the colour is the unit's value. The weights are the session's latest (they update during training).", "输入一个名字，看网络逐个字符地读它。每一列是一个时间步，每一行是一个隐藏单元，颜色是该单元的值。权重是本次训练最新发布的（训练中也会更新）。"
        }
        pub input_label: &'static str {
            "Name", "名字"
        }
        pub placeholder: &'static str {
            "e.g. Nguyen", "例如 Nguyen"
        }
        pub where_label: &'static str {
            "Layer / direction", "层 / 方向"
        }
        pub layer_dir: fn(usize, usize) -> String {
            |l, d| format!("layer {l} · {}", direction_name(Lang::En, d)), |l, d| format!("第 {l} 层 · {}", direction_name(Lang::Zh, d))
        }
        pub before_start: &'static str {
            "Start training (or restore a model) to look inside it.", "先开始训练（或恢复一个模型），再查看它的内部。"
        }
        pub waiting_data: &'static str {
            "Waiting for the data set…", "正在等待数据集…"
        }
        pub empty: &'static str {
            "Type a name to see the network's states.", "输入一个名字，查看网络的状态。"
        }
        pub no_letters: fn(&str) -> String {
            |n| format!("“{n}” has no letters the model knows (a–z, A–Z, space . , ; ')."), |n| format!("“{n}”里没有模型认识的字符（a–z、A–Z、空格 . , ; '）。")
        }
        pub name_limit: fn(usize) -> String {
            |n| format!("At most {n} characters: the name is cut there (one heatmap column per character)."), |n| format!("最多 {n} 个字符：名字在此处被截断（每个字符占热图的一列）。")
        }
        pub weights_init: &'static str {
            "Weights: initialisation (no step trained yet).", "权重：初始化值（尚未训练任何一步）。"
        }
        pub weights_step: fn(&str, usize, u64) -> String {
            |cell, h, s| format!("Inspecting the trained model: {cell}, hidden_size {h}, step {s}."), |cell, h, s| format!("正在检查已训练的模型：{cell}，hidden_size {h}，第 {s} 步。")
        }
        pub h_caption: &'static str {
            "h_t: hidden state (units × steps)", "h_t：隐藏状态（单元 × 时间步）"
        }
        pub c_caption: &'static str {
            "c_t: cell state (units × steps)", "c_t：细胞状态（单元 × 时间步）"
        }
        pub gates_title: &'static str {
            "Gates over time", "门随时间的变化"
        }
        pub reads_last: fn(usize) -> String {
            |t| format!("The classifier reads the output at the last character (t = {t})."), |t| format!("分类器读取最后一个字符处（t = {t}）的输出。")
        }
        pub reads_padded: fn(usize, usize) -> String {
            |len, t| format!("head=padded: the name fills {len} of the 10 steps; the rest (∅, hatched) are zero vectors, and the classifier reads the output at t = {t}, after the padding."), |len, t| format!("head=padded：名字占 10 步中的 {len} 步，其余（∅，斜线标出）是零向量；分类器在填充之后读取 t = {t} 处的输出。")
        }
        pub truncated: fn(usize) -> String {
            |n| format!("head=padded keeps only the first 10 symbols: {n} more are cut off."), |n| format!("head=padded 只保留前 10 个符号：另有 {n} 个被截掉。")
        }
        pub top_title: &'static str {
            "Top 5", "前 5 名"
        }
        pub top_was: fn(f32) -> String {
            |p| format!("was {:.1}%", p * 100.0), |p| format!("原为 {:.1}%", p * 100.0)
        }
        pub pin_title: &'static str {
            "Pin a gate", "固定一个门"
        }
        pub pin_enable: &'static str {
            "Pin", "固定"
        }
        pub pin_gate: &'static str {
            "Gate", "门"
        }
        pub pin_step: &'static str {
            "Time step", "时间步"
        }
        pub pin_all: &'static str {
            "every step", "每一步"
        }
        pub pin_value: &'static str {
            "Value", "取值"
        }
        pub pin_clear: &'static str {
            "Reset the pin", "重置固定设置"
        }
        pub pin_off: &'static str {
            "No pin: the model runs as trained.", "未固定：模型按训练结果运行。"
        }
        pub pin_on: fn(&str, f32, Option<usize>, &str) -> String {
            |g, v, step, w| match step {
                None => format!("Pinned: {g} = {v:.2} at every step, {w}. The heatmaps and the top 5 show the changed model."),
                Some(t) => format!("Pinned: {g} = {v:.2} at t = {t}, {w}. The heatmaps and the top 5 show the changed model."),
            },
            |g, v, step, w| match step {
                None => format!("已固定：{g} = {v:.2}，每一步，{w}。热图和前 5 名显示的是改动后的模型。"),
                Some(t) => format!("已固定：{g} = {v:.2}，在 t = {t}，{w}。热图和前 5 名显示的是改动后的模型。"),
            }
        }
        pub pin_where: fn(usize, usize) -> String {
            |l, d| format!("layer {l} · {}", direction_name(Lang::En, d)), |l, d| format!("第 {l} 层 · {}", direction_name(Lang::Zh, d))
        }
        pub pin_rnn: &'static str {
            "Pinning needs gates: an RNN cell has none. Train an LSTM or a GRU to pin one.", "固定需要门：RNN 单元没有门。训练一个 LSTM 或 GRU 再来固定。"
        }
        pub pin_step_gone: fn(usize) -> String {
            |t| format!("This name has no step t = {t}: the pin is not applied."), |t| format!("这个名字没有 t = {t} 这一步：固定未生效。")
        }
        pub pin_help: &'static str {
            "The pin sets the gate to this value in every unit of the layer/direction shown; the rest of the network runs as trained.", "固定会把所显示的层/方向中每个单元的这个门设为该值；网络其余部分按训练结果运行。"
        }
    }
}
