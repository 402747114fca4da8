//! The keep panels: own data, weights download and load, the model saved in this browser.
//! The errors of the layers below arrive typed ([`UploadError`], [`WeightsError`],
//! [`ClassMismatch`], [`StorageProblem`]) and are worded here in each language; a library's own English words
//! (a zip reader's, the safetensors reader's, the browser's storage's) go only in a tooltip
//! ([`WeightsError::detail`], [`StorageError::detail`]).

use crate::kit::text::count;
use crate::shell::catalogue::catalogue;
use unroll_core::data::names::LoadError;
use unroll_core::data::upload::{UploadError, MAX_UNCOMPRESSED_BYTES};
use unroll_core::keep::{
    class_preview, ClassMismatch, StorageAction, StorageError, StorageProblem, SAVED_VERSION,
    SAVED_VERSION_MIN,
};
use unroll_core::math::params::CellKind;
use unroll_core::weights::{LimitProblem, MetadataProblem, TensorProblem, WeightsError};

catalogue! {
    /// All texts of the keep panels.
    pub struct KeepText {
        /// Panel title.
        pub title: &'static str {
            "Your data and model", "你的数据与模型"
        }
        /// "Data" sub-heading.
        pub data_heading: &'static str {
            "Data", "数据"
        }
        /// The file input's label.
        pub upload_label: &'static str {
            "Load your own data", "加载你自己的数据"
        }
        /// The file picker's button for one file.
        pub choose_file: &'static str {
            "Choose a file…", "选择文件…"
        }
        /// The file picker's button for several files.
        pub choose_files: &'static str {
            "Choose files…", "选择文件…"
        }
        /// The file picker before a file is chosen.
        pub no_file: &'static str {
            "No file chosen", "尚未选择文件"
        }
        /// What the file input accepts.
        pub upload_help: &'static str {
            "A .zip of class files (data/names/Arabic.txt …), several .txt files named by class, or a .tsv with name<TAB>label lines.", "类别文件的 .zip（data/names/Arabic.txt …）、若干以类别命名的 .txt 文件，或每行 name<TAB>label 的 .tsv。"
        }
        /// Shown while files are read.
        pub upload_reading: &'static str {
            "Reading the files…", "正在读取文件…"
        }
        /// Success: `(names, classes, files)`.
        pub upload_ok: fn(usize, usize, usize) -> String {
            |n, c, f| format!(
                "Loaded {} names in {} classes from {} file{}. Training now uses this data.",
                count(n),
                count(c),
                count(f),
                if f == 1 { "" } else { "s" }
            ),
            |n, c, f| format!(
                "已从 {} 个文件加载 {} 个名字、{} 个类别。训练现在使用这些数据。",
                count(f),
                count(n),
                count(c)
            )
        }
        /// Skipped lines: `(count, first line numbers or "" when none is listed, more than
        /// listed)`.
        pub upload_skipped: fn(usize, &str, bool) -> String {
            |n, lines, more| format!(
                "Skipped {} unusable line{}{}: no tab, a third field, an empty label or a name without usable letters.",
                count(n),
                if n == 1 { "" } else { "s" },
                if lines.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (line{} {lines}{})",
                        if n == 1 { "" } else { "s" },
                        if more { ", …" } else { "" }
                    )
                }
            ),
            |n, lines, more| format!(
                "跳过了 {} 行无法使用的数据{}：缺少制表符、多出字段、标签为空，或名字中没有可用字母。",
                count(n),
                if lines.is_empty() {
                    String::new()
                } else {
                    format!("（第 {lines}{} 行）", if more { "、…" } else { "" })
                }
            )
        }
        /// Text encoding used: `None` = all UTF-8, or the files read as Latin-1.
        pub upload_encoding: fn(Option<&str>) -> String {
            |latin1| match latin1 {
                None => "Read as UTF-8.".to_owned(),
                Some(files) => format!("Not valid UTF-8, read as Latin-1 (ISO 8859-1): {files}."),
            },
            |latin1| match latin1 {
                None => "按 UTF-8 读取。".to_owned(),
                Some(files) => format!("不是有效的 UTF-8，已按 Latin-1（ISO 8859-1）读取：{files}。"),
            }
        }
        /// Time per epoch: `(steps per epoch, batch size, measured ms/step, seconds per epoch)`.
        pub upload_estimate: fn(u64, usize, Option<f64>, Option<f64>) -> String {
            |steps, batch, ms, sec| match (ms, sec) {
                (Some(ms), Some(sec)) => format!(
                    "Estimated time per epoch: about {} ({} step{} of {} names × {ms:.1} ms per step, measured in this tab's last run).",
                    duration_en(sec),
                    count(steps as usize),
                    if steps == 1 { "" } else { "s" },
                    count(batch)
                ),
                _ => format!(
                    "One epoch is {} step{} of {} names; the time per step is measured during the first epoch (no run in this tab yet).",
                    count(steps as usize),
                    if steps == 1 { "" } else { "s" },
                    count(batch)
                ),
            },
            |steps, batch, ms, sec| match (ms, sec) {
                (Some(ms), Some(sec)) => format!(
                    "预计每轮用时：约 {}（{} 步，每步 {} 个名字 × 每步 {ms:.1} 毫秒，取自本标签页上一次训练的测量）。",
                    duration_zh(sec),
                    count(steps as usize),
                    count(batch)
                ),
                _ => format!(
                    "一轮为 {} 步，每步 {} 个名字；每步用时将在第一轮训练中测量（本标签页尚无训练记录）。",
                    count(steps as usize),
                    count(batch)
                ),
            }
        }
        /// Parsing was cancelled.
        pub upload_cancelled: &'static str {
            "Cancelled.", "已取消。"
        }
        /// Cancel button.
        pub cancel: &'static str {
            "Cancel", "取消"
        }
        /// Prefix of an upload error.
        pub upload_error: &'static str {
            "Not loaded:", "未加载："
        }
        /// Nothing was changed after an error.
        pub upload_kept: &'static str {
            "The data already loaded is unchanged.", "已加载的数据保持不变。"
        }
        /// Back to the built-in data.
        pub use_builtin: &'static str {
            "Use the built-in names data", "使用内置姓名数据"
        }
        /// Source line: built-in, `(classes)`.
        pub source_builtin: fn(usize) -> String {
            |c| format!("Built-in names data ({} languages)", count(c)), |c| format!("内置姓名数据（{} 种语言）", count(c))
        }
        /// Source line: upload, `(files, classes)`.
        pub source_upload: fn(&str, usize) -> String {
            |f, c| format!("Your data: {f} ({} classes)", count(c)), |f, c| format!("你的数据：{f}（{} 个类别）", count(c))
        }
        /// Disabled while training.
        pub locked: &'static str {
            "Not while training.", "训练进行中，暂不可用。"
        }
        /// "Model" sub-heading.
        pub model_heading: &'static str {
            "Weights", "权重"
        }
        /// Download button.
        pub download: &'static str {
            "Download weights", "下载权重"
        }
        /// Load weights label.
        pub load_weights: &'static str {
            "Load weights", "加载权重"
        }
        /// Load weights help.
        pub load_weights_help: &'static str {
            ".safetensors with PyTorch names (rnn.weight_ih_l0 …, fc.weight, fc.bias).", "使用 PyTorch 参数名的 .safetensors（rnn.weight_ih_l0 …、fc.weight、fc.bias）。"
        }
        /// Download done: file name.
        pub downloaded: fn(&str) -> String {
            |f| format!("Downloaded {f}."), |f| format!("已下载 {f}。")
        }
        /// Weights loaded: `(cell, hidden, step)`.
        pub weights_loaded: fn(&str, usize, u64) -> String {
            |cell, h, step| format!("Loaded a {cell} with hidden_size {h} (step {step}); the predict box uses it now."), |cell, h, step| format!("已加载 {cell}，hidden_size {h}（第 {step} 步）；预测框现在使用它。")
        }
        /// Weights without training metadata loaded: `(file, cell, hidden)`.
        pub weights_imported: fn(&str, &str, usize) -> String {
            |f, cell, h| format!("Imported {f}: a {cell} with hidden_size {h}, no training metadata (the file does not say how it was trained); the predict box uses it now."), |f, cell, h| format!("已导入 {f}：{cell}，hidden_size {h}，没有训练元数据（文件没有说明它是如何训练的）；预测框现在使用它。")
        }
        /// The file has no class names; the loaded data's order is used.
        pub classes_from_data: &'static str {
            "Class order taken from the loaded data.", "类别顺序取自已加载的数据。"
        }
        /// The saved trained model was not replaced.
        pub saved_kept: &'static str {
            "The trained model saved in this browser is kept (Restore it below).", "此浏览器中保存的已训练模型仍然保留（可在下方恢复）。"
        }
        /// The predict box's weights line for imported weights: file name.
        pub imported_label: fn(&str) -> String {
            |f| format!("Weights: imported from {f}, no training metadata"), |f| format!("权重：导入自 {f}，没有训练元数据")
        }
        /// The weights' classes are the built-in data's; switched to it.
        pub switched_builtin: &'static str {
            "Its classes are the built-in data's: switched back to the built-in names data.", "其类别与内置数据一致：已切换回内置姓名数据。"
        }
        /// Prefix of a weights error.
        pub weights_error: &'static str {
            "Weights not loaded:", "权重未加载："
        }
        /// No weights yet.
        pub no_weights: &'static str {
            "Train (or load weights) first.", "请先训练（或加载权重）。"
        }
        /// "Saved in this browser" sub-heading.
        pub saved_heading: &'static str {
            "Saved in this browser", "保存在此浏览器中"
        }
        /// Restored: step.
        pub restored: fn(u64) -> String {
            |s| format!("Restored the model saved at step {s}."), |s| format!("已恢复第 {s} 步保存的模型。")
        }
        /// Restored with a checkpoint: step (Resume goes on from it).
        pub restored_resumable: fn(u64) -> String {
            |s| format!("Restored the run saved at step {s}: Resume goes on from there."), |s| format!("已恢复第 {s} 步保存的训练：点“继续”从那里接着训练。")
        }
        /// The run's latest checkpoint is saved: step.
        pub checkpoint_saved: fn(u64) -> String {
            |s| format!("Saved at step {s}: a reload can resume from there."), |s| format!("已保存到第 {s} 步：刷新页面后可从那里继续。")
        }
        /// A saved model with another configuration than the link's: its summary
        /// ([`KeepText::saved_model`]).
        pub saved_offer: fn(&str) -> String {
            |s| format!("A model trained with {s} is saved in this browser. The link's configuration is kept."), |s| format!("此浏览器中保存了一个已训练的模型（{s}）。当前保留链接中的配置。")
        }
        /// A saved model's configuration and step, for [`KeepText::saved_offer`].
        pub saved_model: fn(&SavedModel) -> String {
            |m| {
                let mut s = format!("{}, hidden_size {}", m.cell, count(m.hidden_size));
                if m.num_layers > 1 {
                    s.push_str(&format!(", num_layers {}", m.num_layers));
                }
                if m.bidirectional {
                    s.push_str(", bidirectional");
                }
                s.push_str(&format!(", seed {}, step {}", m.seed, count(m.step as usize)));
                s
            },
            |m| {
                let mut s = format!("{}，隐藏层大小 {}", m.cell, count(m.hidden_size));
                if m.num_layers > 1 {
                    s.push_str(&format!("，{} 层", m.num_layers));
                }
                if m.bidirectional {
                    s.push_str("，双向");
                }
                s.push_str(&format!("，随机种子 {}，训练到第 {} 步", m.seed, count(m.step as usize)));
                s
            }
        }
        /// Button restoring the offered model.
        pub restore_offer: &'static str {
            "Restore it", "恢复它"
        }
        /// A model is saved (after each epoch).
        pub saved_note: &'static str {
            "The model, its configuration and curves are saved every few seconds while training and after each epoch; after a reload they come back and Resume goes on.", "训练时每隔几秒以及每个轮次后都会保存模型、配置和曲线；重新加载页面后会恢复，点“继续”即可接着训练。"
        }
        /// Nothing saved.
        pub nothing_saved: &'static str {
            "Nothing saved yet: the model is saved after each epoch.", "尚未保存：模型在每个轮次后保存。"
        }
        /// Forget button.
        pub forget: &'static str {
            "Forget saved model", "删除已保存的模型"
        }
        /// After forgetting.
        pub forgotten: &'static str {
            "The saved model was deleted from this browser.", "已从此浏览器删除保存的模型。"
        }
        /// A failure of the model kept in this browser: what the page was doing and why (the
        /// browser's own words go in a tooltip: [`StorageError::detail`]).
        pub storage_problem: fn(&StorageProblem) -> String {
            |p| p.to_string(), storage_problem_zh
        }
        /// Why the browser's storage failed, as a clause (the delay page's notice uses it too).
        pub storage_error: fn(&StorageError) -> String {
            |e| e.to_string(), storage_error_zh
        }
        /// Device loss notice title.
        pub device_lost: &'static str {
            "The GPU device was lost; training continues on the CPU from the same weights and step.", "GPU 设备丢失；训练在 CPU 上从相同的权重和步数继续。"
        }
        /// Why an upload gives no data set.
        pub upload_failure: fn(&UploadError) -> String {
            |e| e.to_string(), upload_failure_zh
        }
        /// Why a weights file was not loaded (or not written).
        pub weights_failure: fn(&WeightsError) -> String {
            |e| e.to_string(), weights_failure_zh
        }
        /// A weights file whose classes are not the loaded data's.
        pub class_mismatch: fn(&ClassMismatch) -> String {
            |m| m.to_string(), class_mismatch_zh
        }
        /// A chosen file the browser could not read: its name (the browser's words go in a
        /// tooltip).
        pub unreadable_file: fn(&str) -> String {
            |f| format!("{f}: the browser could not read the file"), |f| format!("{f}：浏览器无法读取这个文件")
        }
        /// Between a file's name and what is wrong with it.
        pub file_sep: &'static str {
            ": ", "："
        }
        /// The browser refused the download (its words go in a tooltip).
        pub download_failed: &'static str {
            "The browser did not start the download.", "浏览器没有开始下载。"
        }
        /// "As PyTorch" heading.
        pub pytorch_heading: &'static str {
            "As PyTorch", "PyTorch 脚本"
        }
        /// What the PyTorch script is and what it is not.
        pub pytorch_help: &'static str {
            "This configuration as a complete PyTorch script: the same data and normalisation, the same model (parameters rnn.* and fc.*), initialisation, head, loss, Adam and clipping. It loads the weights downloaded above (--load model.safetensors) and trains on from them. It draws its split and batch order with the page's own generator (ChaCha8 from the same seed), so it validates on the page's names; its initial weights come from PyTorch's generator, so its accuracies agree with the page's within the spread of seeds, not digit for digit.", "当前配置对应的完整 PyTorch 脚本：相同的数据与规范化、相同的模型（参数 rnn.* 与 fc.*）、初始化、读出方式、损失、Adam 与梯度裁剪。它能加载上面下载的权重（--load model.safetensors）并在此基础上继续训练。它用本页自己的随机数生成器（同一个种子的 ChaCha8）抽取划分与批次顺序，所以验证用的正是本页的那些名字；它的初始权重来自 PyTorch 的生成器，所以准确率与本页在不同种子的波动范围内一致，而不是逐位相同。"
        }
        /// The script's download button.
        pub pytorch_download: &'static str {
            "Download .py", "下载 .py"
        }
        /// The summary that shows the script.
        pub pytorch_show: &'static str {
            "Show the script", "显示脚本"
        }
        /// Success: the file's name.
        pub pytorch_downloaded: fn(&str) -> String {
            |file| format!("Downloaded {file}. Run it with: python3 {file}"), |file| format!("已下载 {file}。运行：python3 {file}")
        }
        /// While the script's template is fetched.
        pub pytorch_fetching: &'static str {
            "Fetching the script's template…", "正在获取脚本模板……"
        }
        /// The script's template could not be fetched: its file and what went wrong (worded in
        /// the page's language).
        pub pytorch_fetch_failed: fn(&str, &str) -> String {
            |file, p| format!("The script's template ({file}) could not be fetched: {p}. Check the connection and try again."),
            |file, p| format!("无法获取脚本模板（{file}）：{p}。请检查网络连接后重试。")
        }
        /// The button that fetches the template again.
        pub pytorch_retry: &'static str {
            "Try again", "重试"
        }
        /// Shown before the data is loaded (the script needs its languages).
        pub pytorch_waiting: &'static str {
            "The script needs the data's languages: it is ready once the data is loaded.", "脚本需要数据中的语言列表：数据加载完成后即可使用。"
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

/// A saved model as the restore offer describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedModel {
    /// The cell, upper case (`LSTM`).
    pub cell: String,
    /// `hidden_size`.
    pub hidden_size: usize,
    /// `num_layers`.
    pub num_layers: usize,
    /// `bidirectional`.
    pub bidirectional: bool,
    /// `seed`.
    pub seed: u32,
    /// The step of the saved weights.
    pub step: u64,
}

/// A shape as the importer writes it: `[4, 57]`.
fn shape(dims: &[usize]) -> String {
    format!("{dims:?}")
}

/// A loader error in Chinese (the built-in data set's and an upload's).
pub(crate) fn load_error_zh(e: &LoadError) -> String {
    match e {
        LoadError::NoFiles => "没有选择任何名字文件（每种语言一个 .txt 文件）".into(),
        LoadError::NotUtf8 { file, line } => format!("{file} 第 {line} 行：不是有效的 UTF-8 文本"),
        LoadError::EmptyClass { file, raw_lines: 0 } => format!("{file} 中没有名字（文件是空的）"),
        LoadError::EmptyClass { file, raw_lines } => format!(
            "{file}：没有可用的名字（共 {} 行，规范化后都没有字母）",
            count(*raw_lines)
        ),
        LoadError::DuplicateClass { class } => format!("两个文件给出了同一个类别“{class}”"),
        LoadError::BadClassName { file } => format!("“{file}”：文件名给不出类别名"),
        LoadError::Io { path, .. } => format!("{path}：无法读取"),
        LoadError::DataDirNotFound { .. } => "找不到姓名数据".into(),
        LoadError::BadManifest { .. } => "数据清单（manifest.json）有误".into(),
    }
}

/// An upload error in Chinese (every variant; the zip reader's own words are left out).
fn upload_failure_zh(e: &UploadError) -> String {
    let rule = "每行应为“名字、制表符、标签”";
    match e {
        UploadError::NoFiles => "没有选择文件".into(),
        UploadError::UnsupportedFile { file } => format!(
            "{file}：不是 .zip、.txt 或 .tsv 文件（请使用类别文件的 .zip、每个类别一个 .txt 文件，或每行“名字、制表符、标签”的 .tsv）"
        ),
        UploadError::Binary { file } => {
            format!("{file}：是二进制数据，不是文本（应为每行一个名字）")
        }
        UploadError::CorruptZip { file, .. } => format!("{file}：无法读取这个 .zip 压缩包"),
        UploadError::EmptyZip { file } => format!("{file}：压缩包中没有 .txt 或 .tsv 文件"),
        UploadError::TooLarge { file } => format!(
            "{file}：压缩包解压后超过 {} 兆字节（{} 字节）",
            count((MAX_UNCOMPRESSED_BYTES / (1024 * 1024)) as usize),
            count(MAX_UNCOMPRESSED_BYTES as usize)
        ),
        UploadError::MissingTab { file, line } => {
            format!("{file} 第 {line} 行：没有制表符；{rule}")
        }
        UploadError::ExtraFields { file, line } => {
            format!("{file} 第 {line} 行：以制表符分隔的字段多于两个；{rule}")
        }
        UploadError::EmptyLabel { file, line } => {
            format!("{file} 第 {line} 行：制表符后面的标签是空的")
        }
        UploadError::NoUsableLetters { file, line, name } => format!(
            "{file} 第 {line} 行：名字“{name}”中没有可用的字母（去掉重音符号后，模型只读取拉丁字母 a–z、A–Z、空格和 . , ; '）"
        ),
        UploadError::TooFewClasses { classes } => match classes.as_slice() {
            [] => "这些文件没有给出任何类别；分类器至少需要 2 个类别".into(),
            [one] => format!("这些文件只给出了一个类别（“{one}”）；分类器至少需要 2 个类别"),
            _ => "分类器至少需要 2 个类别".into(),
        },
        UploadError::Load(e) => load_error_zh(e),
    }
}

fn tensor_problem_zh(p: &TensorProblem) -> String {
    match p {
        TensorProblem::Missing { name, shape: s } => {
            format!("缺少张量 {name}（应为形状 {}）", shape(s))
        }
        TensorProblem::Unexpected { name, shape: s } => {
            format!("多出的张量 {name}（形状 {}）不是这个模型的参数", shape(s))
        }
        TensorProblem::Dtype { name, dtype } => format!(
            "{name} 的数据类型是 {dtype}；应为 F32（F64、F16、BF16 会转换为 f32，其他类型不接受）"
        ),
        TensorProblem::Shape {
            name,
            expected,
            got,
        } => format!(
            "{name} 在文件中的形状是 {}，模型需要 {}",
            shape(got),
            shape(expected)
        ),
        TensorProblem::NonFinite { name, count: n } => {
            format!("{name} 含有 {} 个非有限值（NaN 或 ±∞）", count(*n))
        }
    }
}

fn cell_names_zh() -> String {
    CellKind::ALL
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join("、")
}

// long: one arm per metadata error, each a sentence of the catalogue; split, the catalogue would be read in pieces
fn metadata_problem_zh(p: &MetadataProblem) -> String {
    let infer = "无法从张量形状推断分类器";
    match p {
        MetadataProblem::ClassNames { names, classes } => format!(
            "有 {} 个类别名，但模型有 {} 个类别",
            count(*names),
            count(*classes)
        ),
        MetadataProblem::VocabularyLength {
            symbols,
            input_size,
        } => format!(
            "字符表有 {} 个符号，而 input_size 是 {}",
            count(*symbols),
            count(*input_size)
        ),
        MetadataProblem::NotClassifier { model } => format!(
            "文件中是一个“{model}”，不是分类器（单独的 RNN/LSTM/GRU 模块没有全连接输出层）"
        ),
        MetadataProblem::MissingKey { key } => format!("元数据中没有 {key}"),
        MetadataProblem::NotInteger { key, raw } => {
            format!("元数据 {key} = “{raw}”不是非负整数")
        }
        MetadataProblem::NotBool { key, raw } => format!("元数据 {key} = “{raw}”不是真或假"),
        MetadataProblem::BadCell { raw } => {
            format!("元数据 cell = “{raw}”不是 {} 之一", cell_names_zh())
        }
        MetadataProblem::BadNonlinearity { raw } => {
            format!("元数据 nonlinearity = “{raw}”不是 tanh 或 relu")
        }
        MetadataProblem::NotBatchFirst { raw } => {
            format!("元数据 batch_first = “{raw}”：分类器的批次维在前（batch_first 必须为真）")
        }
        MetadataProblem::ClassesNotJson { .. } => "元数据中的类别名不是字符串列表".into(),
        MetadataProblem::BadHead { raw } => {
            format!("元数据 head = “{raw}”不是 last 或 padded")
        }
        MetadataProblem::InputSize { got, expected } => format!(
            "模型读取 {} 个输入符号；姓名分类器读取 {} 个",
            count(*got),
            count(*expected)
        ),
        MetadataProblem::NotNamesVocabulary => {
            "文件的字符表不是姓名数据的 57 个符号（a–z、A–Z、空格和 . , ; '）".into()
        }
        MetadataProblem::NothingToInfer { name, found, more } => {
            let mut list = found.join("、");
            if *more > 0 {
                list.push_str(&format!(" 等另外 {} 个", count(*more)));
            }
            format!(
                "文件没有描述模型的元数据，也没有可用来推断分类器的张量 {name}（它有：{list}）"
            )
        }
        MetadataProblem::InferShape {
            name,
            shape: s,
            expected,
        } => format!("{infer}：{name} 的形状是 {}，应为 {expected}", shape(s)),
        MetadataProblem::AmbiguousCell {
            shape: s,
            cells: [a, b],
        } => format!(
            "{infer}：rnn.weight_hh_l0 的形状是 {}，{} 和 {} 的门块数相同（{}）；文件需要 cell 元数据",
            shape(s),
            a.name(),
            b.name(),
            a.gates()
        ),
        MetadataProblem::GateRows { shape: s } => {
            let cells: Vec<String> = CellKind::ALL
                .iter()
                .map(|c| format!("{} {}", c.name(), c.gates()))
                .collect();
            format!(
                "{infer}：rnn.weight_hh_l0 的形状是 {}，{} 行不是 hidden_size {} 的门块数倍（{}）",
                shape(s),
                count(s[0]),
                count(s[1]),
                cells.join("、")
            )
        }
    }
}

fn limit_zh(p: &LimitProblem) -> String {
    if p.value == 0 {
        format!("{} = 0（至少为 1）", p.key)
    } else {
        format!("{} = {}（最多 {}）", p.key, count(p.value), count(p.max))
    }
}

/// A weights error in Chinese (every variant; the readers' own words are left out).
fn weights_failure_zh(e: &WeightsError) -> String {
    match e {
        WeightsError::NotSafetensors => {
            "不是 safetensors 文件（safetensors 文件以 8 字节的文件头长度开始，随后是描述各张量的文件头）".into()
        }
        WeightsError::Corrupt { .. } => {
            "不是有效的 safetensors 文件：文件已损坏或不完整，无法读取".into()
        }
        WeightsError::MissingTensors { names, .. } => format!(
            "不是有效的 safetensors 文件：缺少张量 {}",
            names.join("、")
        ),
        WeightsError::Mismatch(problems) => {
            let mut s = format!("权重与这个模型不符（{} 个问题）：", count(problems.len()));
            for p in problems {
                s.push_str("\n- ");
                s.push_str(&tensor_problem_zh(p));
            }
            s
        }
        WeightsError::Metadata(p) => format!("无法根据文件重建模型：{}", metadata_problem_zh(p)),
        WeightsError::Limits(problems) => format!(
            "模型太大：{}",
            problems.iter().map(limit_zh).collect::<Vec<_>>().join("，")
        ),
        WeightsError::ParamsLength { expected, got } => format!(
            "参数向量有 {} 个值，布局需要 {} 个",
            count(*got),
            count(*expected)
        ),
        WeightsError::Write { .. } => "写入文件失败".into(),
    }
}

fn class_mismatch_zh(m: &ClassMismatch) -> String {
    match &m.file {
        Some(names) => format!(
            "文件的 {} 个类别（{}）不是已加载数据的 {} 个类别（{}）；请先加载训练这个模型所用的数据",
            count(names.len()),
            class_preview(names),
            count(m.loaded.len()),
            class_preview(&m.loaded)
        ),
        None => format!(
            "文件有 {} 个类别，但没有类别名；已加载的数据有 {} 个类别",
            count(m.file_classes),
            count(m.loaded.len())
        ),
    }
}

/// Why the browser's storage failed, in Chinese (every variant; the browser's own words are
/// left out).
fn storage_error_zh(e: &StorageError) -> String {
    match e {
        StorageError::Unavailable { .. } => {
            "此浏览器不给页面提供本地存储（例如隐私模式或禁止了网站数据）；页面不保存也能继续使用"
                .into()
        }
        StorageError::Refused { .. } => "浏览器拒绝了这次操作（存储空间可能已满）".into(),
        StorageError::Damaged { .. } => "此浏览器中的记录已损坏或不完整".into(),
        StorageError::Version { found } => {
            format!("记录的格式版本是 {found}；本页面读取版本 {SAVED_VERSION_MIN}–{SAVED_VERSION}")
        }
        StorageError::Weights(w) => format!("它的权重有误：{}", weights_failure_zh(w)),
        StorageError::SavedData(u) => format!("它的数据无法再加载：{}", upload_failure_zh(u)),
        StorageError::Engine(_) => "读取它的数据时训练引擎停止了".into(),
        StorageError::Cancelled => "读取它的数据已取消".into(),
        StorageError::TrainingStarted => "在它的数据读完之前训练已经开始".into(),
        StorageError::OtherClasses { saved, loaded } => format!(
            "它的 {} 个类别不是已加载数据的 {} 个类别",
            count(*saved),
            count(*loaded)
        ),
    }
}

/// A failure of the model kept in this browser, in Chinese.
fn storage_problem_zh(p: &StorageProblem) -> String {
    let lead = match p.action {
        _ if matches!(p.error, StorageError::Unavailable { .. }) => "无法在此浏览器中保存",
        StorageAction::Save => "无法在此浏览器中保存模型",
        StorageAction::Read => "无法读取此浏览器中保存的模型",
        StorageAction::Restore => "没有恢复保存的模型",
        StorageAction::Forget => "无法删除保存的模型",
    };
    format!("{lead}：{}。", storage_error_zh(&p.error))
}
