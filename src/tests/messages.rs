//! Every message in the page's language: the typed upload and weights errors rendered by the
//! keep panel's catalogue in English and 简体中文 (each variant; the Chinese has no English run
//! outside the allowlist that `scripts/e2e/zh-text.test.mjs` uses), the URL notices of a
//! repeated list and of a value clamped twice, one count of skipped lines for the data panel
//! and the upload message, one grouping of numbers in both languages, the notices of the model
//! kept in this browser (saving, reading, restoring, deleting it) and the built-in data set's
//! loading errors.

use crate::kit::keep_text::KeepText;
use crate::kit::keep_text::SavedModel;
use crate::kit::text::count;
use crate::names::bridge::{upload_summary_of, DataLoadError, FetchProblem, FETCH_DATA_COMMAND};
use crate::names::text::TrainingText;
use crate::shell::text::ShellText;
use unroll_core::config::lessons::{LessonId, LessonState};
use unroll_core::config::{Lang, NoticeKind};
use unroll_core::data::names::LoadError;
use unroll_core::data::upload::{dataset_from_uploads, UploadError};
use unroll_core::keep::{
    import_trained, match_classes, ClassMatch, ClassMismatch, SavedSession, StorageAction,
    StorageError, StorageProblem,
};
use unroll_core::math::params::CellKind;
use unroll_core::train::messages::EngineFault;
use unroll_core::weights::{LimitProblem, MetadataProblem, TensorProblem, WeightsError};

/// The words a Chinese page may show in Latin letters: the URL keys and values of
/// `docs/url.md` (read as the e2e test reads them), the cells' and the platform's names, NaN,
/// and the file formats the panels name (their extensions).
fn allowlist() -> Vec<String> {
    let mut words: Vec<String> = [
        "RNN",
        "LSTM",
        "GRU",
        "WebGPU",
        "GPU",
        "CPU",
        "NaN",
        "safetensors",
        "zip",
        "txt",
        "tsv",
        "UTF",
    ]
    .iter()
    .map(|w| w.to_string())
    .collect();
    let md = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/url.md")).unwrap();
    let ident = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| {
                w.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            })
            .map(str::to_owned)
            .collect()
    };
    for line in md.lines() {
        let cells: Vec<&str> = line.trim().split('|').map(str::trim).collect();
        if cells.len() < 5 || !cells[1].starts_with('`') {
            continue;
        }
        let (key, values, default) = (cells[1], cells[2], cells[3]);
        words.extend(ident(&format!("{key} {default}")));
        let list = values.split(", ").collect::<Vec<_>>();
        if list.len() > 1
            && list.iter().all(|w| {
                !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            })
        {
            words.extend(list.iter().map(|w| w.to_string()));
        }
    }
    words
}

/// The words of `text` with a run of three ASCII letters that the allowlist does not hold,
/// after removing `data` (file names, tensor names, values from the file: the user's data,
/// shown as given).
fn english(text: &str, data: &[&str]) -> Vec<String> {
    let allowed = allowlist();
    let mut text = text.to_owned();
    for d in data {
        text = text.replace(d, " ");
    }
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        let w = std::mem::take(&mut word);
        let starts = w
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        let run = w
            .as_bytes()
            .windows(3)
            .any(|b| b.iter().all(u8::is_ascii_alphabetic));
        if starts && run && !allowed.contains(&w) {
            out.push(w);
        }
    }
    out
}

#[test]
fn the_check_finds_english() {
    assert_eq!(english("hidden_size：超出范围", &[]), Vec::<String>::new());
    assert_eq!(english("the files give only one class", &[]).len(), 6);
    assert_eq!(
        english("名单.tsv 第 3 行", &["名单.tsv"]),
        Vec::<String>::new()
    );
    assert_eq!(english("binary data 二进制", &[]), ["binary", "data"]);
}

/// Every variant of [`UploadError`] (and of the loader's errors it carries), with the data the
/// message needs.
fn upload_errors() -> Vec<UploadError> {
    let file = "名单.tsv".to_string();
    vec![
        UploadError::NoFiles,
        UploadError::UnsupportedFile {
            file: "名单.pdf".into(),
        },
        UploadError::Binary { file: file.clone() },
        UploadError::CorruptZip {
            file: "名单.zip".into(),
            message: "invalid Zip archive: Could not find EOCD".into(),
        },
        UploadError::EmptyZip {
            file: "名单.zip".into(),
        },
        UploadError::TooLarge {
            file: "名单.zip".into(),
        },
        UploadError::MissingTab {
            file: file.clone(),
            line: 6,
        },
        UploadError::ExtraFields {
            file: file.clone(),
            line: 11,
        },
        UploadError::EmptyLabel {
            file: file.clone(),
            line: 21,
        },
        UploadError::NoUsableLetters {
            file: file.clone(),
            line: 26,
            name: "😀".into(),
        },
        UploadError::TooFewClasses { classes: vec![] },
        UploadError::TooFewClasses {
            classes: vec!["希腊".into()],
        },
        UploadError::TooFewClasses {
            classes: vec!["甲".into(), "乙".into()],
        },
        UploadError::Load(LoadError::NoFiles),
        UploadError::Load(LoadError::NotUtf8 {
            file: "希腊.txt".into(),
            line: 3,
        }),
        UploadError::Load(LoadError::EmptyClass {
            file: "希腊.txt".into(),
            raw_lines: 0,
        }),
        UploadError::Load(LoadError::EmptyClass {
            file: "希腊.txt".into(),
            raw_lines: 1234,
        }),
        UploadError::Load(LoadError::DuplicateClass {
            class: "希腊".into(),
        }),
        UploadError::Load(LoadError::BadClassName {
            file: "名单/.txt".into(),
        }),
        UploadError::Load(LoadError::Io {
            path: "名单".into(),
            message: "permission denied".into(),
        }),
        UploadError::Load(LoadError::DataDirNotFound {
            tried: vec!["名单".into()],
        }),
        UploadError::Load(LoadError::BadManifest {
            message: "expected value".into(),
        }),
    ]
}

#[test]
fn every_upload_error_is_worded_in_both_languages() {
    let (en, zh) = (KeepText::of(Lang::En), KeepText::of(Lang::Zh));
    let data = [
        "名单.tsv",
        "名单.pdf",
        "名单.zip",
        "希腊.txt",
        "名单/.txt",
        "manifest.json",
    ];
    let mut seen = std::collections::HashSet::new();
    for e in upload_errors() {
        let (e_en, e_zh) = ((en.upload_failure)(&e), (zh.upload_failure)(&e));
        assert_eq!(e_en, e.to_string());
        assert!(!english(&e_en, &data).is_empty(), "English: {e_en}");
        assert_eq!(english(&e_zh, &data), Vec::<String>::new(), "{e:?}: {e_zh}");
        assert!(
            e_zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{e_zh}"
        );
        assert!(
            seen.insert(e_zh.clone()),
            "two variants read the same: {e_zh}"
        );
        // The data the message needs is in both languages.
        let numbers: Vec<String> = match &e {
            UploadError::MissingTab { line, .. }
            | UploadError::ExtraFields { line, .. }
            | UploadError::EmptyLabel { line, .. }
            | UploadError::NoUsableLetters { line, .. }
            | UploadError::Load(LoadError::NotUtf8 { line, .. }) => vec![line.to_string()],
            UploadError::Load(LoadError::EmptyClass { raw_lines, .. }) if *raw_lines > 0 => {
                vec![count(*raw_lines)]
            }
            UploadError::TooLarge { .. } => vec!["64".into(), "67,108,864".into()],
            _ => vec![],
        };
        for n in numbers {
            assert!(e_zh.contains(&n), "{n} in {e_zh}");
        }
        for f in data.iter().filter(|f| format!("{e:?}").contains(*f)) {
            assert!(e_zh.contains(f) && e_en.contains(f), "{f}: {e_zh} / {e_en}");
        }
    }
    // The zip reader's own words stay out of the Chinese message.
    let zip = UploadError::CorruptZip {
        file: "名单.zip".into(),
        message: "invalid Zip archive".into(),
    };
    assert!(!(zh.upload_failure)(&zip).contains("invalid"));
    assert_eq!(
        (zh.upload_failure)(&UploadError::TooFewClasses {
            classes: vec!["希腊".into()]
        }),
        "这些文件只给出了一个类别（“希腊”）；分类器至少需要 2 个类别"
    );
}

/// A renamed PNG: the first bytes of a real 1×1 PNG.
fn png() -> Vec<u8> {
    [
        &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a][..],
        &[
            0, 0, 0, 13, b'I', b'H', b'D', b'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
        ],
    ]
    .concat()
}

#[test]
fn a_renamed_png_is_not_a_safetensors_file_in_both_languages() {
    let e = import_trained(&png()).unwrap_err();
    assert_eq!(e, WeightsError::NotSafetensors);
    let en = (KeepText::of(Lang::En).weights_failure)(&e);
    let zh = (KeepText::of(Lang::Zh).weights_failure)(&e);
    assert!(en.starts_with("not a safetensors file"), "{en}");
    assert!(!en.contains("header too large"), "{en}");
    assert!(zh.starts_with("不是 safetensors 文件"), "{zh}");
    assert_eq!(english(&zh, &[]), Vec::<String>::new(), "{zh}");
    assert_eq!(e.detail(), None);
}

// long: one entry per error variant, so a new variant without a wording is seen in one list
/// Every variant of [`WeightsError`], [`MetadataProblem`], [`TensorProblem`] and
/// [`LimitProblem`], and the identifiers from the file each names (shown as written).
fn weights_errors() -> Vec<(WeightsError, Vec<&'static str>)> {
    let meta = |p: MetadataProblem| WeightsError::Metadata(p);
    vec![
        (WeightsError::NotSafetensors, vec![]),
        (
            WeightsError::Corrupt {
                detail: "invalid header length".into(),
            },
            vec![],
        ),
        (
            WeightsError::MissingTensors {
                names: vec!["rnn.bias_hh_l0".into(), "fc.bias".into()],
                detail: "invalid offset".into(),
            },
            vec!["rnn.bias_hh_l0", "fc.bias"],
        ),
        (
            WeightsError::Mismatch(vec![
                TensorProblem::Missing {
                    name: "rnn.weight_hh_l0".into(),
                    shape: vec![512, 128],
                },
                TensorProblem::Unexpected {
                    name: "encoder.weight".into(),
                    shape: vec![2],
                },
                TensorProblem::Dtype {
                    name: "fc.weight".into(),
                    dtype: "I64".into(),
                },
                TensorProblem::Shape {
                    name: "rnn.weight_ih_l0".into(),
                    expected: vec![12, 5],
                    got: vec![8, 5],
                },
                TensorProblem::NonFinite {
                    name: "fc.bias".into(),
                    count: 1234,
                },
            ]),
            vec![
                "rnn.weight_hh_l0",
                "encoder.weight",
                "fc.weight",
                "rnn.weight_ih_l0",
                "fc.bias",
            ],
        ),
        (
            meta(MetadataProblem::ClassNames {
                names: 2,
                classes: 3,
            }),
            vec![],
        ),
        (
            meta(MetadataProblem::VocabularyLength {
                symbols: 3,
                input_size: 5,
            }),
            vec![],
        ),
        (
            meta(MetadataProblem::NotClassifier {
                model: "module".into(),
            }),
            vec!["module"],
        ),
        (
            meta(MetadataProblem::MissingKey {
                key: "num_classes".into(),
            }),
            vec!["num_classes"],
        ),
        (
            meta(MetadataProblem::NotInteger {
                key: "step".into(),
                raw: "-3".into(),
            }),
            vec!["step"],
        ),
        (
            meta(MetadataProblem::NotBool {
                key: "bidirectional".into(),
                raw: "yes".into(),
            }),
            vec!["yes"],
        ),
        (
            meta(MetadataProblem::BadCell {
                raw: "transformer".into(),
            }),
            vec!["transformer"],
        ),
        (
            meta(MetadataProblem::BadNonlinearity { raw: "gelu".into() }),
            vec!["gelu", "nonlinearity"],
        ),
        (
            meta(MetadataProblem::NotBatchFirst {
                raw: "false".into(),
            }),
            vec!["false"],
        ),
        (
            meta(MetadataProblem::ClassesNotJson {
                detail: "expected value at line 1".into(),
            }),
            vec![],
        ),
        (
            meta(MetadataProblem::BadHead {
                raw: "middle".into(),
            }),
            vec!["middle"],
        ),
        (
            meta(MetadataProblem::InputSize {
                got: 5,
                expected: 57,
            }),
            vec![],
        ),
        (meta(MetadataProblem::NotNamesVocabulary), vec![]),
        (
            meta(MetadataProblem::NothingToInfer {
                name: "rnn.weight_hh_l0".into(),
                found: vec!["encoder.weight".into()],
                more: 12,
            }),
            vec!["rnn.weight_hh_l0", "encoder.weight"],
        ),
        (
            meta(MetadataProblem::InferShape {
                name: "fc.bias".into(),
                shape: vec![3, 2],
                expected: "[C]",
            }),
            vec!["fc.bias"],
        ),
        (
            meta(MetadataProblem::AmbiguousCell {
                shape: vec![8, 2],
                cells: [CellKind::Lstm, CellKind::Gru],
            }),
            vec!["rnn.weight_hh_l0"],
        ),
        (
            meta(MetadataProblem::GateRows { shape: vec![4, 2] }),
            vec!["rnn.weight_hh_l0"],
        ),
        (
            WeightsError::Limits(vec![
                LimitProblem {
                    key: "hidden_size",
                    value: 300,
                    max: 256,
                },
                LimitProblem {
                    key: "num_layers",
                    value: 0,
                    max: 4,
                },
            ]),
            vec![],
        ),
        (
            WeightsError::ParamsLength {
                expected: 10,
                got: 9,
            },
            vec![],
        ),
        (
            WeightsError::Write {
                detail: "header too large".into(),
            },
            vec![],
        ),
    ]
}

#[test]
fn every_weights_error_is_worded_in_both_languages() {
    let (en, zh) = (KeepText::of(Lang::En), KeepText::of(Lang::Zh));
    let mut seen = std::collections::HashSet::new();
    for (e, ids) in weights_errors() {
        let (e_en, e_zh) = ((en.weights_failure)(&e), (zh.weights_failure)(&e));
        assert_eq!(e_en, e.to_string());
        assert!(!english(&e_en, &ids).is_empty(), "English: {e_en}");
        assert_eq!(english(&e_zh, &ids), Vec::<String>::new(), "{e:?}: {e_zh}");
        assert!(
            seen.insert(e_zh.clone()),
            "two variants read the same: {e_zh}"
        );
        for id in &ids {
            if *id != "nonlinearity" {
                assert!(e_zh.contains(id), "{id} in {e_zh}");
            }
        }
        // A library's own English words are left to the tooltip.
        if let Some(detail) = e.detail() {
            assert!(!e_zh.contains(detail), "{e_zh}");
            assert!(e_en.contains(detail), "{e_en}");
        }
    }
    let limits = &weights_errors()[21].0;
    assert_eq!(
        (zh.weights_failure)(limits),
        "模型太大：hidden_size = 300（最多 256），num_layers = 0（至少为 1）"
    );
    let mismatch = &weights_errors()[3].0;
    let text = (zh.weights_failure)(mismatch);
    assert!(
        text.starts_with("权重与这个模型不符（5 个问题）："),
        "{text}"
    );
    assert!(text.contains("含有 1,234 个非有限值"), "{text}");
    assert_eq!(text.lines().count(), 6, "{text}");
}

#[test]
fn class_mismatches_and_the_saved_model_are_worded_in_both_languages() {
    let loaded: Vec<String> = ["阿拉伯", "捷克"].iter().map(|s| s.to_string()).collect();
    let file: Vec<String> = ["甲", "乙", "丙"].iter().map(|s| s.to_string()).collect();
    let (en, zh) = (KeepText::of(Lang::En), KeepText::of(Lang::Zh));
    for (names, classes) in [(Some(&file[..]), 3), (None, 4)] {
        let ClassMatch::Mismatch(m) = match_classes(names, classes, &loaded, None) else {
            panic!("a mismatch")
        };
        let (m_en, m_zh) = ((en.class_mismatch)(&m), (zh.class_mismatch)(&m));
        assert_eq!(m_en, m.to_string());
        assert_eq!(english(&m_zh, &[]), Vec::<String>::new(), "{m_zh}");
        assert!(m_zh.contains(&format!("{classes} 个类别")), "{m_zh}");
    }
    assert_eq!(
        (zh.class_mismatch)(&ClassMismatch {
            file: None,
            file_classes: 4,
            loaded: loaded.clone()
        }),
        "文件有 4 个类别，但没有类别名；已加载的数据有 2 个类别"
    );

    let saved = SavedModel {
        cell: "LSTM".into(),
        hidden_size: 16,
        num_layers: 2,
        bidirectional: true,
        seed: 0,
        step: 1254,
    };
    let offer_zh = (zh.saved_offer)(&(zh.saved_model)(&saved));
    assert_eq!(english(&offer_zh, &[]), Vec::<String>::new(), "{offer_zh}");
    assert!(
        offer_zh.contains("LSTM，隐藏层大小 16，2 层，双向，随机种子 0，训练到第 1,254 步"),
        "{offer_zh}"
    );
    let offer_en = (en.saved_offer)(&(en.saved_model)(&saved));
    assert!(
        offer_en.contains("LSTM, hidden_size 16, num_layers 2, bidirectional, seed 0, step 1,254"),
        "{offer_en}"
    );
}

/// `f=0.5` has one value where the other gate lists have two: the notice says it was repeated,
/// not that it was out of range. `t=99` on a lesson with three inputs: one notice, 99 → 3.
#[test]
fn url_notices_say_what_is_wrong_once() {
    let shell = |lang| ShellText::of(lang).notice;
    let d = LessonState::decode(LessonId::Lstm, "f=0.5&lang=zh");
    assert_eq!(d.notices.len(), 1, "{:?}", d.notices);
    let n = &d.notices[0];
    assert!(
        matches!(n.kind, NoticeKind::Cycled { steps: 2, .. }),
        "{n:?}"
    );
    let zh = shell(Lang::Zh)(n);
    assert_eq!(
        zh,
        "f：“0.5”只有 1 个值，而共有 2 步，已循环重复为“0.5,0.5”"
    );
    assert!(!zh.contains("超出范围"));
    assert_eq!(english(&zh, &[]), Vec::<String>::new());
    let en = shell(Lang::En)(n);
    assert!(!en.contains("outside"), "{en}");
    assert!(en.contains("repeated"), "{en}");

    let d = LessonState::decode(LessonId::Unroll, "t=99");
    let LessonState::Unroll(c) = &d.config else {
        panic!()
    };
    assert_eq!(c.t, 3, "the default has three inputs");
    assert_eq!(d.notices.len(), 1, "{:?}", d.notices);
    assert_eq!(d.notices[0].raw, "99");
    assert_eq!(
        shell(Lang::Zh)(&d.notices[0]),
        "t：“99”超出范围 1–3（每个输入一步），已改用 3"
    );
    assert_eq!(
        shell(Lang::En)(&d.notices[0]),
        "t: “99” is outside 1–3 (one per input); using 3"
    );
    // A value only its own range clamps keeps its one notice.
    let d = LessonState::decode(LessonId::Unroll, "x=1,2,3,4,5,1,2,3,4,5,1,2&t=99");
    assert_eq!(d.notices.len(), 1, "{:?}", d.notices);
    assert!(matches!(&d.notices[0].kind, NoticeKind::Clamped { to, .. } if to == "12"));
}

/// A TSV of 36 lines with bad lines 6, 11, 21, 26 and 31: the data panel's counts and the
/// upload message come from the same numbers (36 lines, 5 skipped).
#[test]
fn the_panel_and_the_message_count_the_same_lines() {
    let names = [
        "Abe", "Sato", "Ito", "Mori", "Ueda", "Kato", "Endo", "Goto", "Kudo", "Ono", "Oda", "Abe",
    ];
    let mut lines = Vec::new();
    for i in 0..36 {
        let (name, label) = if i % 2 == 0 {
            (names[i % names.len()].to_owned(), "Japanese")
        } else {
            (format!("Muller{}", "x".repeat(i)), "German")
        };
        lines.push(format!("{name}\t{label}"));
    }
    lines[5] = "Schmidt German".into(); // no tab
    lines[10] = "Weber\tGerman\textra".into(); // a third field
    lines[20] = "Wagner\t".into(); // an empty label
    lines[25] = "😀\tGerman".into(); // no usable letters
    lines[30] = "Becker".into(); // no tab
    let tsv = lines.join("\n") + "\n";
    let upload = dataset_from_uploads(&[("own.tsv", tsv.as_bytes())]).unwrap();
    let summary = upload.summary(0, 5);
    assert_eq!(summary.file_lines, 36);
    assert_eq!(summary.skipped, 5);
    assert_eq!(summary.skipped_lines, "6,11,21,26,31");
    assert_eq!(summary.skipped_listed, 5);
    let panel = upload_summary_of(&summary);
    assert_eq!((panel.raw_lines, panel.skipped), (36, 5));
    // Every line is a pair, a repeat or skipped.
    assert_eq!(
        panel.distinct_pairs + summary.report.duplicates + panel.skipped,
        panel.raw_lines
    );
    for lang in [Lang::En, Lang::Zh] {
        let t = KeepText::of(lang);
        let text = (t.upload_skipped)(
            summary.skipped,
            &summary.skipped_lines,
            summary.skipped > summary.skipped_listed,
        );
        assert!(
            text.contains('5') && text.contains("6,11,21,26,31"),
            "{text}"
        );
        assert!(!text.contains('…'), "{text}");
    }

    // A class file's lines without usable letters are skipped lines too, in both counts.
    let upload = dataset_from_uploads(&[
        ("Greek.txt", "Papadopoulos\n😀\nNikolaidis\n".as_bytes()),
        ("Japanese.txt", "Sato\nAbe\n".as_bytes()),
    ])
    .unwrap();
    let summary = upload.summary(0, 5);
    let panel = upload_summary_of(&summary);
    assert_eq!((panel.raw_lines, panel.skipped), (5, 1));
    assert_eq!((summary.skipped, summary.skipped_listed), (1, 0));
    let text = (KeepText::of(Lang::En).upload_skipped)(1, &summary.skipped_lines, true);
    assert_eq!(
        text,
        "Skipped 1 unusable line: no tab, a third field, an empty label or a name without usable letters."
    );
}

/// One grouping of numbers: `3,395,120` in both languages, in the upload message as on the
/// data panel.
#[test]
fn numbers_are_grouped_the_same_way_in_both_languages() {
    assert_eq!(count(0), "0");
    assert_eq!(count(999), "999");
    assert_eq!(count(1000), "1,000");
    assert_eq!(count(20_074), "20,074");
    assert_eq!(count(3_395_120), "3,395,120");
    for lang in [Lang::En, Lang::Zh] {
        let t = KeepText::of(lang);
        let ok = (t.upload_ok)(3_395_120, 18, 1);
        assert!(ok.contains("3,395,120"), "{ok}");
        assert!(!ok.contains("3395120"), "{ok}");
        let skipped = (t.upload_skipped)(12_345, "6,11", true);
        assert!(skipped.contains("12,345"), "{skipped}");
        let estimate = (t.upload_estimate)(53_054, 64, None, None);
        assert!(estimate.contains("53,054"), "{estimate}");
    }
}

/// Every variant of [`StorageError`].
fn storage_errors() -> Vec<StorageError> {
    vec![
        StorageError::Unavailable {
            detail: "IndexedDB is not available (DOMException: The user denied permission)".into(),
        },
        StorageError::Refused {
            detail: "could not save the model in IndexedDB (QuotaExceededError)".into(),
        },
        StorageError::Damaged {
            detail: "saved record: `weights` is not bytes".into(),
        },
        StorageError::Version { found: 7 },
        StorageError::Weights(WeightsError::NotSafetensors),
        StorageError::SavedData(UploadError::MissingTab {
            file: "名单.tsv".into(),
            line: 6,
        }),
        StorageError::Engine(EngineFault::Stopped("RuntimeError: unreachable".into())),
        StorageError::Cancelled,
        StorageError::TrainingStarted,
        StorageError::OtherClasses {
            saved: 1234,
            loaded: 18,
        },
    ]
}

// long: every storage action crossed with every problem, checked as one table
/// The storage notice of every error while saving, reading, restoring and deleting the model:
/// the English is the error's own wording, the Chinese has no English run (the browser's words
/// are left to the tooltip), each action and each error reads differently (storage that is not
/// there reads the same whatever the action: saving is unavailable), and the numbers are in
/// both.
#[test]
fn every_storage_problem_is_worded_in_both_languages() {
    let (en, zh) = (KeepText::of(Lang::En), KeepText::of(Lang::Zh));
    let mut seen = std::collections::HashSet::new();
    for e in storage_errors() {
        let (e_en, e_zh) = ((en.storage_error)(&e), (zh.storage_error)(&e));
        assert_eq!(e_en, e.to_string());
        assert!(!english(&e_en, &["名单.tsv"]).is_empty(), "English: {e_en}");
        assert_eq!(
            english(&e_zh, &["名单.tsv"]),
            Vec::<String>::new(),
            "{e:?}: {e_zh}"
        );
        assert!(
            seen.insert(e_zh.clone()),
            "two errors read the same: {e_zh}"
        );
        if let Some(detail) = e.detail() {
            assert!(!e_zh.contains(&detail), "{e_zh}");
        }
        for action in [
            StorageAction::Save,
            StorageAction::Read,
            StorageAction::Restore,
            StorageAction::Forget,
        ] {
            let p = StorageProblem::new(action, e.clone());
            let (p_en, p_zh) = ((en.storage_problem)(&p), (zh.storage_problem)(&p));
            assert_eq!(p_en, p.to_string());
            assert!(p_en.contains(&e_en), "{p_en}");
            assert!(p_zh.contains(&e_zh), "{p_zh}");
            assert_eq!(
                english(&p_zh, &["名单.tsv"]),
                Vec::<String>::new(),
                "{p_zh}"
            );
            // Without storage nothing is saved, whatever the page was doing: one notice.
            let unavailable = matches!(e, StorageError::Unavailable { .. });
            if !unavailable || action == StorageAction::Save {
                assert!(seen.insert(p_zh.clone()), "read the same: {p_zh}");
            }
        }
    }
    // The data each message needs.
    let version = StorageError::Version { found: 7 };
    assert_eq!(
        (zh.storage_error)(&version),
        "记录的格式版本是 7；本页面读取版本 1–4"
    );
    assert_eq!(
        version.to_string(),
        "the record has format version 7; this page reads versions 1–4"
    );
    let classes = StorageError::OtherClasses {
        saved: 1234,
        loaded: 18,
    };
    assert_eq!(
        (zh.storage_error)(&classes),
        "它的 1,234 个类别不是已加载数据的 18 个类别"
    );
    let upload = &storage_errors()[5];
    assert!((zh.storage_error)(upload).contains("名单.tsv 第 6 行：没有制表符"));
    // Whole notices, in both languages.
    let unavailable = StorageProblem::new(StorageAction::Read, storage_errors()[0].clone());
    assert_eq!(
        (zh.storage_problem)(&unavailable),
        "无法在此浏览器中保存：此浏览器不给页面提供本地存储（例如隐私模式或禁止了网站数据）；页面不保存也能继续使用。"
    );
    assert_eq!(
        (en.storage_problem)(&unavailable),
        "Saving is unavailable: this browser gives the page no storage (IndexedDB), as in private mode or with site data blocked; the page works on without it."
    );
    let refused = StorageProblem::new(StorageAction::Save, storage_errors()[1].clone());
    assert_eq!(
        (zh.storage_problem)(&refused),
        "无法在此浏览器中保存模型：浏览器拒绝了这次操作（存储空间可能已满）。"
    );
    assert_eq!(
        (en.storage_problem)(&refused),
        "The model could not be saved in this browser: the browser refused it (its storage may be full)."
    );
    let damaged = StorageProblem::new(StorageAction::Read, storage_errors()[2].clone());
    assert_eq!(
        (zh.storage_problem)(&damaged),
        "无法读取此浏览器中保存的模型：此浏览器中的记录已损坏或不完整。"
    );
    assert_eq!(
        (en.storage_problem)(&damaged),
        "The model saved in this browser could not be read: the record in this browser is damaged or incomplete."
    );
    // The browser's words stay in the tooltip.
    assert_eq!(
        storage_errors()[0].detail().as_deref(),
        Some("IndexedDB is not available (DOMException: The user denied permission)")
    );
    assert_eq!(StorageError::Cancelled.detail(), None);
}

/// A record this page did not write (bad JSON, another format version) is a typed error,
/// restored as a notice in the page's language.
#[test]
fn a_damaged_or_newer_record_is_a_typed_storage_error() {
    assert!(matches!(
        SavedSession::from_json("{"),
        Err(StorageError::Damaged { .. })
    ));
    let newer = r#"{"version":99,"query":"","source":{"kind":"builtin"},"classes":[],"step":0,"epoch":0,"step_loss":[],"mean_loss":[],"epochs":[],"val_report":null,"finished":false}"#;
    assert_eq!(
        SavedSession::from_json(newer),
        Err(StorageError::Version { found: 99 })
    );
    let p = StorageProblem::new(StorageAction::Restore, StorageError::Version { found: 99 });
    assert_eq!(
        (KeepText::of(Lang::Zh).storage_problem)(&p),
        "没有恢复保存的模型：记录的格式版本是 99；本页面读取版本 1–4。"
    );
}

/// Every way the built-in data set can fail to load, with its URL.
fn data_load_errors() -> Vec<DataLoadError> {
    let manifest = "data/names/manifest.json".to_string();
    let file = "data/names/Arabic.txt".to_string();
    vec![
        DataLoadError::Missing {
            url: manifest.clone(),
            problem: FetchProblem::Status(404),
        },
        DataLoadError::Missing {
            url: manifest.clone(),
            problem: FetchProblem::Network("Failed to fetch".into()),
        },
        DataLoadError::File {
            url: file.clone(),
            problem: FetchProblem::Status(503),
        },
        DataLoadError::File {
            url: file.clone(),
            problem: FetchProblem::Network("Failed to fetch".into()),
        },
        DataLoadError::File {
            url: file,
            problem: FetchProblem::Body("network error".into()),
        },
        DataLoadError::Load(LoadError::BadManifest {
            message: "expected value at line 1 column 1".into(),
        }),
        DataLoadError::Load(LoadError::EmptyClass {
            file: "Arabic.txt".into(),
            raw_lines: 2000,
        }),
        DataLoadError::Load(LoadError::NotUtf8 {
            file: "Arabic.txt".into(),
            line: 12,
        }),
    ]
}

/// The built-in data set's loading errors in both languages: the English is the error's own
/// wording, the Chinese has no English run outside the URL, the file names and the commands
/// (shown as code); the browser's words go to the tooltip.
#[test]
fn every_data_load_error_is_worded_in_both_languages() {
    let (en, zh) = (TrainingText::of(Lang::En), TrainingText::of(Lang::Zh));
    let data = [
        "data/names/manifest.json",
        "data/names/Arabic.txt",
        "Arabic.txt",
        "manifest.json",
        FETCH_DATA_COMMAND,
        "trunk build",
    ];
    let mut seen = std::collections::HashSet::new();
    for e in data_load_errors() {
        let (e_en, e_zh) = ((en.data_failure)(&e), (zh.data_failure)(&e));
        assert_eq!(e_en, e.to_string());
        assert!(!english(&e_en, &data).is_empty(), "English: {e_en}");
        assert_eq!(english(&e_zh, &data), Vec::<String>::new(), "{e:?}: {e_zh}");
        assert!(
            seen.insert(e_zh.clone()),
            "two errors read the same: {e_zh}"
        );
        if let Some(detail) = e.detail() {
            assert!(!e_zh.contains(&detail), "{e_zh}");
            assert!(e_en.contains(&detail), "{e_en}");
        }
    }
    let missing = &data_load_errors()[0];
    assert_eq!(
        (zh.data_failure)(missing),
        "姓名数据集缺失（data/names/manifest.json：服务器返回状态 404）。请运行 `node scripts/fetch-data.mjs`（直接运行 `trunk build` 也会获取数据），然后重新加载页面。"
    );
    assert_eq!(
        (en.data_failure)(missing),
        "The names data set is missing (data/names/manifest.json: HTTP 404). Run `node scripts/fetch-data.mjs` (a plain `trunk build` does it too) and reload."
    );
    let file = &data_load_errors()[2];
    assert_eq!(
        (zh.data_failure)(file),
        "无法获取 data/names/Arabic.txt（服务器返回状态 503）。"
    );
    assert_eq!(
        (en.data_failure)(file),
        "data/names/Arabic.txt could not be fetched (HTTP 503)."
    );
    assert_eq!(
        (zh.data_failure)(&data_load_errors()[6]),
        "Arabic.txt：没有可用的名字（共 2,000 行，规范化后都没有字母）。"
    );
    assert_eq!(data_load_errors()[0].detail(), None);
    assert_eq!(
        data_load_errors()[1].detail().as_deref(),
        Some("Failed to fetch")
    );
}
