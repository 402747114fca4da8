//! The training lab's panels (configuration extras, metrics, compare mode).

use unroll_core::config::Lang;

/// All text of the lab panels in one language.
#[allow(missing_docs)] // the field names say what each text is
#[derive(Debug)]
pub struct LabText {
    // Configuration
    pub lab_fields: &'static str,
    pub num_layers: &'static str,
    pub num_layers_help: &'static str,
    pub bidirectional: &'static str,
    pub bidirectional_help: &'static str,
    pub max_norm: &'static str,
    pub max_norm_help: &'static str,
    pub head: &'static str,
    pub head_last: &'static str,
    pub head_padded: &'static str,
    pub head_help_last: &'static str,
    pub head_help_padded: &'static str,

    // Metrics
    pub metrics_title: &'static str,
    pub metrics_note: &'static str,
    pub majority_baseline: &'static str,
    pub majority_detail: fn(&str) -> String,
    pub val_accuracy: &'static str,
    pub after_epoch: fn(u32) -> String,
    pub classes_title: &'static str,
    pub col_language: &'static str,
    pub col_lines: &'static str,
    pub col_distinct: &'static str,
    pub col_val: &'static str,
    /// A class with no validation names (a single name, kept for training).
    pub no_val: &'static str,
    pub col_class_acc: &'static str,
    pub confusion_title: &'static str,
    pub confusion_note: &'static str,
    pub confusion_empty: &'static str,
    pub true_axis: &'static str,
    pub predicted_axis: &'static str,
    pub confusion_cell: fn(&str, &str, u32, f32) -> String,
    pub confusion_aria: fn(u32) -> String,

    // Compare
    pub compare_title: &'static str,
    pub compare_note: &'static str,
    pub compare_start: &'static str,
    pub compare_stop: &'static str,
    pub compare_idle: &'static str,
    pub compare_running: fn(&str, usize, usize) -> String,
    pub compare_finished: &'static str,
    pub compare_stopped: &'static str,
    pub compare_config: fn(usize, u32, u32) -> String,
    pub compare_chart: &'static str,
    pub compare_empty: &'static str,
    pub col_cell: &'static str,
    pub col_params: &'static str,
    pub col_sec_epoch: &'static str,
    /// The compare table's column of the path each run trained on.
    pub col_backend: &'static str,
    pub col_best_acc: &'static str,
    pub col_epochs_done: &'static str,
    pub epoch_axis: &'static str,
    pub accuracy_axis: &'static str,
    pub baseline_legend: &'static str,
    pub params_detail: fn(usize) -> String,
    pub busy_hint: &'static str,
}

impl LabText {
    /// English.
    pub const EN: LabText = LabText {
        lab_fields: "Architecture and optimiser",
        num_layers: "Layers",
        num_layers_help: "Stacked recurrent layers (1–4); layer 2 reads layer 1's outputs.",
        bidirectional: "Bidirectional",
        bidirectional_help: "A second direction reads each name backwards; the head sees both (D = 2).",
        max_norm: "Gradient clipping",
        max_norm_help: "Clip the global gradient norm to this value (clip_grad_norm_); 0 = off.",
        head: "Classifier head",
        head_last: "Last real character",
        head_padded: "Padded to 10 (course recipe)",
        head_help_last: "The head reads the output at each name's last character, so padding is never read.",
        head_help_padded: "Names are padded with zero vectors to 10 symbols and step 10 is read: short names reach the head through padding steps (padding pollution).",

        metrics_title: "Validation metrics",
        metrics_note: "Computed on the validation names (grouped by name, every language present) after each epoch.",
        majority_baseline: "Majority-class baseline",
        majority_detail: |lang| format!("always “{lang}”"),
        val_accuracy: "Validation accuracy",
        after_epoch: |e| format!("after epoch {e}"),
        classes_title: "Per language",
        col_language: "Language",
        col_lines: "Lines",
        col_distinct: "Distinct",
        col_val: "Validation",
        no_val: "none (its only name is trained)",
        col_class_acc: "Accuracy",
        confusion_title: "Confusion matrix (validation)",
        confusion_note: "Row = true language, column = predicted; each row is shaded by its share, the diagonal is correct.",
        confusion_empty: "The matrix appears after the first epoch.",
        true_axis: "true language",
        predicted_axis: "predicted language",
        confusion_cell: |t, p, n, share| {
            format!("true {t} → predicted {p}: {n} ({:.1}% of {t})", share * 100.0)
        },
        confusion_aria: |e| format!("Confusion matrix of the validation names after epoch {e}"),

        compare_title: "Compare RNN / LSTM / GRU",
        compare_note: "Trains the three cells one after another with the configuration above: same seed, split, batch order and hyper-parameters.",
        compare_start: "Compare RNN / LSTM / GRU",
        compare_stop: "Stop",
        compare_idle: "Not started",
        compare_running: |cell, i, n| format!("Training {cell} ({i} of {n})"),
        compare_finished: "Finished",
        compare_stopped: "Stopped",
        compare_config: |h, e, s| format!("hidden_size {h} · {e} epoch(s) · seed {s}"),
        compare_chart: "Validation accuracy per epoch",
        compare_empty: "Curves appear after each cell's first epoch",
        col_cell: "Cell",
        col_params: "Parameters",
        col_sec_epoch: "s / epoch",
        col_backend: "Backend",
        col_best_acc: "Best val. accuracy",
        col_epochs_done: "Epochs",
        epoch_axis: "epoch",
        accuracy_axis: "validation accuracy",
        baseline_legend: "majority class",
        params_detail: |n| format!("incl. {n} in the nn.Linear head"),
        busy_hint: "Stop the running training to compare.",
    };

    /// 简体中文.
    pub const ZH: LabText = LabText {
        lab_fields: "结构与优化器",
        num_layers: "层数",
        num_layers_help: "堆叠的循环层（1–4）；第 2 层读取第 1 层的输出。",
        bidirectional: "双向",
        bidirectional_help: "第二个方向从后往前读每个名字；分类头同时看到两个方向（D = 2）。",
        max_norm: "梯度裁剪",
        max_norm_help: "把全局梯度范数裁剪到该值（clip_grad_norm_）；0 = 关闭。",
        head: "分类头",
        head_last: "最后一个真实字符",
        head_padded: "填充到 10（课程做法）",
        head_help_last: "分类头读取每个名字最后一个字符处的输出，因此从不读到填充。",
        head_help_padded:
            "名字用零向量填充到 10 个符号并读取第 10 步：短名字要经过填充步才到达分类头（填充污染）。",

        metrics_title: "验证指标",
        metrics_note: "每个轮次结束后在验证集上计算（按名字分组，每种语言都有）。",
        majority_baseline: "多数类基线",
        majority_detail: |lang| format!("总是预测“{lang}”"),
        val_accuracy: "验证准确率",
        after_epoch: |e| format!("第 {e} 轮之后"),
        classes_title: "按语言",
        col_language: "语言",
        col_lines: "行数",
        col_distinct: "去重后",
        col_val: "验证集",
        no_val: "无（唯一的名字用于训练）",
        col_class_acc: "准确率",
        confusion_title: "混淆矩阵（验证集）",
        confusion_note: "行 = 真实语言，列 = 预测语言；每行按其占比着色，对角线为预测正确。",
        confusion_empty: "第一个轮次结束后显示矩阵。",
        true_axis: "真实语言",
        predicted_axis: "预测语言",
        confusion_cell: |t, p, n, share| {
            format!(
                "真实 {t} → 预测 {p}：{n}（占 {t} 的 {:.1}%）",
                share * 100.0
            )
        },
        confusion_aria: |e| format!("第 {e} 轮之后验证集的混淆矩阵"),

        compare_title: "比较 RNN / LSTM / GRU",
        compare_note: "用上面的配置依次训练三种单元：相同的种子、划分、批次顺序和超参数。",
        compare_start: "比较 RNN / LSTM / GRU",
        compare_stop: "停止",
        compare_idle: "尚未开始",
        compare_running: |cell, i, n| format!("正在训练 {cell}（第 {i} / {n} 个）"),
        compare_finished: "已完成",
        compare_stopped: "已停止",
        compare_config: |h, e, s| format!("hidden_size {h} · {e} 轮 · 种子 {s}"),
        compare_chart: "每轮的验证准确率",
        compare_empty: "每种单元完成第一轮后显示曲线",
        col_cell: "单元",
        col_params: "参数量",
        col_sec_epoch: "秒 / 轮",
        col_backend: "后端",
        col_best_acc: "最佳验证准确率",
        col_epochs_done: "轮次",
        epoch_axis: "轮次",
        accuracy_axis: "验证准确率",
        baseline_legend: "多数类",
        params_detail: |n| format!("含 nn.Linear 分类头 {n}"),
        busy_hint: "先停止正在进行的训练再比较。",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static LabText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
