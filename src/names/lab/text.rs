//! The training lab's panels (configuration extras, metrics, compare mode).

use crate::shell::catalogue::catalogue;

catalogue! {
    /// All text of the lab panels in one language.
    #[allow(missing_docs)] // the field names say what each text is
    #[derive(Debug)]
    pub struct LabText {
        // Configuration
        pub lab_fields: &'static str {
            "Architecture and optimiser", "结构与优化器"
        }
        pub num_layers: &'static str {
            "Layers", "层数"
        }
        pub num_layers_help: &'static str {
            "Stacked recurrent layers (1–4); layer 2 reads layer 1's outputs.", "堆叠的循环层（1–4）；第 2 层读取第 1 层的输出。"
        }
        pub bidirectional: &'static str {
            "Bidirectional", "双向"
        }
        pub bidirectional_help: &'static str {
            "A second direction reads each name backwards; the head sees both (D = 2).", "第二个方向从后往前读每个名字；分类头同时看到两个方向（D = 2）。"
        }
        pub max_norm: &'static str {
            "Gradient clipping", "梯度裁剪"
        }
        pub max_norm_help: &'static str {
            "Clip the global gradient norm to this value (clip_grad_norm_); 0 = off.", "把全局梯度范数裁剪到该值（clip_grad_norm_）；0 = 关闭。"
        }
        pub head: &'static str {
            "Classifier head", "分类头"
        }
        pub head_last: &'static str {
            "Last real character", "最后一个真实字符"
        }
        pub head_padded: &'static str {
            "Padded to 10 (course recipe)", "填充到 10（课程做法）"
        }
        pub head_help_last: &'static str {
            "The head reads the output at each name's last character, so padding is never read.", "分类头读取每个名字最后一个字符处的输出，因此从不读到填充。"
        }
        pub head_help_padded: &'static str {
            "Names are padded with zero vectors to 10 symbols and step 10 is read: short names reach the head through padding steps (padding pollution).", "名字用零向量填充到 10 个符号并读取第 10 步：短名字要经过填充步才到达分类头（填充污染）。"
        }

        // Metrics
        pub metrics_title: &'static str {
            "Validation metrics", "验证指标"
        }
        pub metrics_note: &'static str {
            "Computed on the validation names (grouped by name, every language present) after each epoch.", "每个轮次结束后在验证集上计算（按名字分组，每种语言都有）。"
        }
        pub majority_baseline: &'static str {
            "Majority-class baseline", "多数类基线"
        }
        pub majority_detail: fn(&str) -> String {
            |lang| format!("always “{lang}”"), |lang| format!("总是预测“{lang}”")
        }
        pub val_accuracy: &'static str {
            "Validation accuracy", "验证准确率"
        }
        pub after_epoch: fn(u32) -> String {
            |e| format!("after epoch {e}"), |e| format!("第 {e} 轮之后")
        }
        pub classes_title: &'static str {
            "Per language", "按语言"
        }
        pub col_language: &'static str {
            "Language", "语言"
        }
        pub col_lines: &'static str {
            "Lines", "行数"
        }
        pub col_distinct: &'static str {
            "Distinct", "去重后"
        }
        pub col_val: &'static str {
            "Validation", "验证集"
        }
        /// A class with no validation names (a single name, kept for training).
        pub no_val: &'static str {
            "none (its only name is trained)", "无（唯一的名字用于训练）"
        }
        pub col_class_acc: &'static str {
            "Accuracy", "准确率"
        }
        pub confusion_title: &'static str {
            "Confusion matrix (validation)", "混淆矩阵（验证集）"
        }
        pub confusion_note: &'static str {
            "Row = true language, column = predicted; each row is shaded by its share, the diagonal is correct.", "行 = 真实语言，列 = 预测语言；每行按其占比着色，对角线为预测正确。"
        }
        pub confusion_empty: &'static str {
            "The matrix appears after the first epoch.", "第一个轮次结束后显示矩阵。"
        }
        pub true_axis: &'static str {
            "true language", "真实语言"
        }
        pub predicted_axis: &'static str {
            "predicted language", "预测语言"
        }
        pub confusion_cell: fn(&str, &str, u32, f32) -> String {
            |t, p, n, share| {
                format!("true {t} → predicted {p}: {n} ({:.1}% of {t})", share * 100.0)
            },
            |t, p, n, share| {
                format!(
                    "真实 {t} → 预测 {p}：{n}（占 {t} 的 {:.1}%）",
                    share * 100.0
                )
            }
        }
        pub confusion_aria: fn(u32) -> String {
            |e| format!("Confusion matrix of the validation names after epoch {e}"), |e| format!("第 {e} 轮之后验证集的混淆矩阵")
        }

        // Compare
        pub compare_title: &'static str {
            "Compare RNN / LSTM / GRU", "比较 RNN / LSTM / GRU"
        }
        pub compare_note: &'static str {
            "Trains the three cells one after another with the configuration above: same seed, split, batch order and hyper-parameters.", "用上面的配置依次训练三种单元：相同的种子、划分、批次顺序和超参数。"
        }
        pub compare_start: &'static str {
            "Compare RNN / LSTM / GRU", "比较 RNN / LSTM / GRU"
        }
        pub compare_stop: &'static str {
            "Stop", "停止"
        }
        pub compare_idle: &'static str {
            "Not started", "尚未开始"
        }
        pub compare_running: fn(&str, usize, usize) -> String {
            |cell, i, n| format!("Training {cell} ({i} of {n})"), |cell, i, n| format!("正在训练 {cell}（第 {i} / {n} 个）")
        }
        pub compare_finished: &'static str {
            "Finished", "已完成"
        }
        pub compare_stopped: &'static str {
            "Stopped", "已停止"
        }
        pub compare_config: fn(usize, u32, u32) -> String {
            |h, e, s| format!("hidden_size {h} · {e} epoch(s) · seed {s}"), |h, e, s| format!("hidden_size {h} · {e} 轮 · 种子 {s}")
        }
        pub compare_chart: &'static str {
            "Validation accuracy per epoch", "每轮的验证准确率"
        }
        pub compare_empty: &'static str {
            "Curves appear after each cell's first epoch", "每种单元完成第一轮后显示曲线"
        }
        pub col_cell: &'static str {
            "Cell", "单元"
        }
        pub col_params: &'static str {
            "Parameters", "参数量"
        }
        pub col_sec_epoch: &'static str {
            "s / epoch", "秒 / 轮"
        }
        /// The compare table's column of the path each run trained on.
        pub col_backend: &'static str {
            "Backend", "后端"
        }
        pub col_best_acc: &'static str {
            "Best val. accuracy", "最佳验证准确率"
        }
        pub col_epochs_done: &'static str {
            "Epochs", "轮次"
        }
        pub epoch_axis: &'static str {
            "epoch", "轮次"
        }
        pub accuracy_axis: &'static str {
            "validation accuracy", "验证准确率"
        }
        pub baseline_legend: &'static str {
            "majority class", "多数类"
        }
        pub params_detail: fn(usize) -> String {
            |n| format!("incl. {n} in the nn.Linear head"), |n| format!("含 nn.Linear 分类头 {n}")
        }
        pub busy_hint: &'static str {
            "Stop the running training to compare.", "先停止正在进行的训练再比较。"
        }
    }
}
