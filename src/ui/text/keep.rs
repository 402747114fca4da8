//! The keep panels: own data, weights download and load, the model saved in this browser.
//! Messages from the layers below (loader, importer) stay in English, as elsewhere.

use crate::config::Lang;

/// All texts of the keep panels.
pub struct KeepText {
    /// Panel title.
    pub title: &'static str,
    /// "Data" sub-heading.
    pub data_heading: &'static str,
    /// The file input's label.
    pub upload_label: &'static str,
    /// What the file input accepts.
    pub upload_help: &'static str,
    /// Shown while files are read.
    pub upload_reading: &'static str,
    /// Success: `(names, classes, files)`.
    pub upload_ok: fn(usize, usize, usize) -> String,
    /// Skipped lines: `(count, first line numbers, more than listed)`.
    pub upload_skipped: fn(usize, &str, bool) -> String,
    /// Text encoding used: `None` = all UTF-8, or the files read as Latin-1.
    pub upload_encoding: fn(Option<&str>) -> String,
    /// Time per epoch: `(steps per epoch, batch size, measured ms/step, seconds per epoch)`.
    pub upload_estimate: fn(u64, usize, Option<f64>, Option<f64>) -> String,
    /// Parsing was cancelled.
    pub upload_cancelled: &'static str,
    /// Cancel button.
    pub cancel: &'static str,
    /// Prefix of an upload error.
    pub upload_error: &'static str,
    /// Nothing was changed after an error.
    pub upload_kept: &'static str,
    /// Back to the built-in data.
    pub use_builtin: &'static str,
    /// Source line: built-in, `(classes)`.
    pub source_builtin: fn(usize) -> String,
    /// Source line: upload, `(files, classes)`.
    pub source_upload: fn(&str, usize) -> String,
    /// Disabled while training.
    pub locked: &'static str,
    /// "Model" sub-heading.
    pub model_heading: &'static str,
    /// Download button.
    pub download: &'static str,
    /// Load weights label.
    pub load_weights: &'static str,
    /// Load weights help.
    pub load_weights_help: &'static str,
    /// Download done: file name.
    pub downloaded: fn(&str) -> String,
    /// Weights loaded: `(cell, hidden, step)`.
    pub weights_loaded: fn(&str, usize, u64) -> String,
    /// Weights without training metadata loaded: `(file, cell, hidden)`.
    pub weights_imported: fn(&str, &str, usize) -> String,
    /// The file has no class names; the loaded data's order is used.
    pub classes_from_data: &'static str,
    /// The saved trained model was not replaced.
    pub saved_kept: &'static str,
    /// The predict box's weights line for imported weights: file name.
    pub imported_label: fn(&str) -> String,
    /// The weights' classes are the built-in data's; switched to it.
    pub switched_builtin: &'static str,
    /// Prefix of a weights error.
    pub weights_error: &'static str,
    /// No weights yet.
    pub no_weights: &'static str,
    /// "Saved in this browser" sub-heading.
    pub saved_heading: &'static str,
    /// Restored: step.
    pub restored: fn(u64) -> String,
    /// Restored with a checkpoint: step (Resume goes on from it).
    pub restored_resumable: fn(u64) -> String,
    /// The run's latest checkpoint is saved: step.
    pub checkpoint_saved: fn(u64) -> String,
    /// A saved model with another configuration than the link's: its summary.
    pub saved_offer: fn(&str) -> String,
    /// Button restoring the offered model.
    pub restore_offer: &'static str,
    /// A model is saved (after each epoch).
    pub saved_note: &'static str,
    /// Nothing saved.
    pub nothing_saved: &'static str,
    /// Forget button.
    pub forget: &'static str,
    /// After forgetting.
    pub forgotten: &'static str,
    /// Prefix of a storage problem.
    pub storage_problem: &'static str,
    /// Device loss notice title.
    pub device_lost: &'static str,
}

impl KeepText {
    /// English.
    pub const EN: KeepText = KeepText {
        title: "Your data and model",
        data_heading: "Data",
        upload_label: "Load your own data",
        upload_help: "A .zip of class files (data/names/Arabic.txt …), several .txt files named by class, or a .tsv with name<TAB>label lines.",
        upload_reading: "Reading the files…",
        upload_ok: |n, c, f| format!("Loaded {n} names in {c} classes from {f} file(s). Training now uses this data."),
        upload_skipped: |n, lines, more| format!(
            "Skipped {n} unusable line{} (line{} {lines}{}): no tab, a third field, an empty label or a name without usable letters.",
            if n == 1 { "" } else { "s" },
            if n == 1 { "" } else { "s" },
            if more { ", …" } else { "" }
        ),
        upload_encoding: |latin1| match latin1 {
            None => "Read as UTF-8.".to_owned(),
            Some(files) => format!("Not valid UTF-8, read as Latin-1 (ISO 8859-1): {files}."),
        },
        upload_estimate: |steps, batch, ms, sec| match (ms, sec) {
            (Some(ms), Some(sec)) => format!(
                "Estimated time per epoch: about {} ({steps} step{} of {batch} names × {ms:.1} ms per step, measured in this tab's last run).",
                duration_en(sec),
                if steps == 1 { "" } else { "s" }
            ),
            _ => format!(
                "One epoch is {steps} step{} of {batch} names; the time per step is measured during the first epoch (no run in this tab yet).",
                if steps == 1 { "" } else { "s" }
            ),
        },
        upload_cancelled: "Cancelled.",
        cancel: "Cancel",
        upload_error: "Not loaded:",
        upload_kept: "The data already loaded is unchanged.",
        use_builtin: "Use the built-in names data",
        source_builtin: |c| format!("Built-in names data ({c} languages)"),
        source_upload: |f, c| format!("Your data: {f} ({c} classes)"),
        locked: "Not while training.",
        model_heading: "Weights",
        download: "Download weights",
        load_weights: "Load weights",
        load_weights_help: ".safetensors with PyTorch names (rnn.weight_ih_l0 …, fc.weight, fc.bias).",
        downloaded: |f| format!("Downloaded {f}."),
        weights_loaded: |cell, h, step| format!("Loaded a {cell} with hidden_size {h} (step {step}); the predict box uses it now."),
        weights_imported: |f, cell, h| format!("Imported {f}: a {cell} with hidden_size {h}, no training metadata (the file does not say how it was trained); the predict box uses it now."),
        classes_from_data: "Class order taken from the loaded data.",
        saved_kept: "The trained model saved in this browser is kept (Restore it below).",
        imported_label: |f| format!("Weights: imported from {f}, no training metadata"),
        switched_builtin: "Its classes are the built-in data's: switched back to the built-in names data.",
        weights_error: "Weights not loaded:",
        no_weights: "Train (or load weights) first.",
        saved_heading: "Saved in this browser",
        restored: |s| format!("Restored the model saved at step {s}."),
        restored_resumable: |s| format!("Restored the run saved at step {s}: Resume goes on from there."),
        checkpoint_saved: |s| format!("Saved at step {s}: a reload can resume from there."),
        saved_offer: |s| format!("A model trained with {s} is saved in this browser. The link's configuration is kept."),
        restore_offer: "Restore it",
        saved_note: "The model, its configuration and curves are saved every few seconds while training and after each epoch; after a reload they come back and Resume goes on.",
        nothing_saved: "Nothing saved yet: the model is saved after each epoch.",
        forget: "Forget saved model",
        forgotten: "The saved model was deleted from this browser.",
        storage_problem: "Saving is unavailable:",
        device_lost: "The GPU device was lost; training continues on the CPU from the same weights and step.",
    };

    /// 简体中文.
    pub const ZH: KeepText = KeepText {
        title: "你的数据与模型",
        data_heading: "数据",
        upload_label: "加载你自己的数据",
        upload_help: "类别文件的 .zip（data/names/Arabic.txt …）、若干以类别命名的 .txt 文件，或每行 name<TAB>label 的 .tsv。",
        upload_reading: "正在读取文件…",
        upload_ok: |n, c, f| format!("已从 {f} 个文件加载 {n} 个名字、{c} 个类别。训练现在使用这些数据。"),
        upload_skipped: |n, lines, more| format!(
            "跳过了 {n} 行无法使用的数据（第 {lines}{} 行）：缺少制表符、多出字段、标签为空，或名字中没有可用字母。",
            if more { "、…" } else { "" }
        ),
        upload_encoding: |latin1| match latin1 {
            None => "按 UTF-8 读取。".to_owned(),
            Some(files) => format!("不是有效的 UTF-8，已按 Latin-1（ISO 8859-1）读取：{files}。"),
        },
        upload_estimate: |steps, batch, ms, sec| match (ms, sec) {
            (Some(ms), Some(sec)) => format!(
                "预计每轮用时：约 {}（{steps} 步，每步 {batch} 个名字 × 每步 {ms:.1} 毫秒，取自本标签页上一次训练的测量）。",
                duration_zh(sec)
            ),
            _ => format!("一轮为 {steps} 步，每步 {batch} 个名字；每步用时将在第一轮训练中测量（本标签页尚无训练记录）。"),
        },
        upload_cancelled: "已取消。",
        cancel: "取消",
        upload_error: "未加载：",
        upload_kept: "已加载的数据保持不变。",
        use_builtin: "使用内置姓名数据",
        source_builtin: |c| format!("内置姓名数据（{c} 种语言）"),
        source_upload: |f, c| format!("你的数据：{f}（{c} 个类别）"),
        locked: "训练进行中，暂不可用。",
        model_heading: "权重",
        download: "下载权重",
        load_weights: "加载权重",
        load_weights_help: "使用 PyTorch 参数名的 .safetensors（rnn.weight_ih_l0 …、fc.weight、fc.bias）。",
        downloaded: |f| format!("已下载 {f}。"),
        weights_loaded: |cell, h, step| format!("已加载 {cell}，hidden_size {h}（第 {step} 步）；预测框现在使用它。"),
        weights_imported: |f, cell, h| format!("已导入 {f}：{cell}，hidden_size {h}，没有训练元数据（文件没有说明它是如何训练的）；预测框现在使用它。"),
        classes_from_data: "类别顺序取自已加载的数据。",
        saved_kept: "此浏览器中保存的已训练模型仍然保留（可在下方恢复）。",
        imported_label: |f| format!("权重：导入自 {f}，没有训练元数据"),
        switched_builtin: "其类别与内置数据一致：已切换回内置姓名数据。",
        weights_error: "权重未加载：",
        no_weights: "请先训练（或加载权重）。",
        saved_heading: "保存在此浏览器中",
        restored: |s| format!("已恢复第 {s} 步保存的模型。"),
        restored_resumable: |s| format!("已恢复第 {s} 步保存的训练：点“继续”从那里接着训练。"),
        checkpoint_saved: |s| format!("已保存到第 {s} 步：刷新页面后可从那里继续。"),
        saved_offer: |s| format!("此浏览器中保存了一个用 {s} 训练的模型。当前保留链接中的配置。"),
        restore_offer: "恢复它",
        saved_note: "训练时每隔几秒以及每个轮次后都会保存模型、配置和曲线；重新加载页面后会恢复，点“继续”即可接着训练。",
        nothing_saved: "尚未保存：模型在每个轮次后保存。",
        forget: "删除已保存的模型",
        forgotten: "已从此浏览器删除保存的模型。",
        storage_problem: "无法保存：",
        device_lost: "GPU 设备丢失；训练在 CPU 上从相同的权重和步数继续。",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static KeepText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}

/// `1 h 5 min`, `3 min 20 s`, `12 s`.
fn duration_en(sec: f64) -> String {
    let s = sec.round().max(0.0) as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

/// `1 小时 5 分钟`, `3 分 20 秒`, `12 秒`.
fn duration_zh(sec: f64) -> String {
    let s = sec.round().max(0.0) as u64;
    match s {
        0..=59 => format!("{s} 秒"),
        60..=3599 => format!("{} 分 {} 秒", s / 60, s % 60),
        _ => format!("{} 小时 {} 分钟", s / 3600, (s % 3600) / 60),
    }
}
