//! "Load your own data": a data set from a .zip of class files, several .txt files or a TSV,
//! bad lines skipped and reported (file and 1-based line), Latin-1 text, invisible controls in
//! labels, and the errors for files that cannot be used.
//!
//! The layout tests use the real names files (found as in `core/tests/suite/data_names.rs`) and compare
//! with the built-in loader, so the upload path is checked against the same rules.

use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;
use unroll_core::data::names::LoadError;
use unroll_core::data::upload::{
    clean_label, dataset_from_uploads, display_label, TextEncoding, UploadError, UploadLayout,
    DISPLAY_LABEL_CHARS,
};
use unroll_core::data::{locate_names_dir, NamesDataset};

/// The real class files as `(file name, bytes)`, sorted by name.
fn real_files() -> &'static Vec<(String, Vec<u8>)> {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = locate_names_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
            .unwrap_or_else(|e| panic!("names data needed by this test: {e}"));
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "txt"))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    })
}

/// The real class files named in `pick`, in that order, as `(file name, bytes)`.
fn picked(pick: &[&str]) -> Vec<(&'static str, &'static [u8])> {
    pick.iter()
        .map(|p| {
            let (n, b) = real_files().iter().find(|(n, _)| n == p).unwrap();
            (n.as_str(), b.as_slice())
        })
        .collect()
}

fn builtin() -> NamesDataset {
    NamesDataset::from_named_files(real_files().iter().map(|(n, b)| (n.as_str(), b))).unwrap()
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    {
        let mut w = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in entries {
            if name.ends_with('/') {
                w.add_directory(name.trim_end_matches('/'), opts).unwrap();
            } else {
                w.start_file(*name, opts).unwrap();
                w.write_all(bytes).unwrap();
            }
        }
        w.finish().unwrap();
    }
    buf.into_inner()
}

fn err(files: &[(&str, &[u8])]) -> UploadError {
    match dataset_from_uploads(files) {
        Ok(u) => panic!(
            "expected an error, got a data set with classes {:?}",
            u.dataset.classes()
        ),
        Err(e) => e,
    }
}

/// The tutorial's layout zipped (`data/names/Arabic.txt`, …, with a folder entry and macOS
/// clutter) gives exactly the built-in data set.
#[test]
fn zip_of_tutorial_layout_equals_builtin() {
    let mut entries: Vec<(String, &[u8])> = vec![
        ("data/".into(), b"".as_slice()),
        ("data/names/".into(), b"".as_slice()),
        (
            "__MACOSX/data/names/._Arabic.txt".into(),
            b"\0\x05junk".as_slice(),
        ),
        ("data/names/.DS_Store".into(), b"\0\0\0\x01Bud1".as_slice()),
        ("data/README.md".into(), b"# names".as_slice()),
    ];
    for (n, b) in real_files() {
        entries.push((format!("data/names/{n}"), b.as_slice()));
    }
    let refs: Vec<(&str, &[u8])> = entries.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let zip = zip_of(&refs);
    let up = dataset_from_uploads(&[("data.zip", zip.as_slice())]).unwrap();
    let b = builtin();
    assert_eq!(up.layout, UploadLayout::ClassFiles);
    assert_eq!(up.dataset.classes(), b.classes());
    assert_eq!(up.dataset.num_classes(), 18);
    assert_eq!(up.dataset.samples(), b.samples());
    assert_eq!(up.dataset.report().raw_lines, b.report().raw_lines);
    assert_eq!(up.dataset.len(), 17_994);
}

/// Several .txt files in any order give the loader's classes (sorted) and counts.
#[test]
fn txt_files_named_by_class() {
    let pick = ["Scottish.txt", "Arabic.txt", "Czech.txt"];
    let files = picked(&pick);
    let up = dataset_from_uploads(&files).unwrap();
    assert_eq!(up.layout, UploadLayout::ClassFiles);
    assert_eq!(up.dataset.classes(), ["Arabic", "Czech", "Scottish"]);
    let b = builtin();
    for (k, class) in up.dataset.classes().iter().enumerate() {
        let full = b.class_index(class).unwrap() as usize;
        assert_eq!(
            up.dataset.class_counts()[k],
            b.class_counts()[full],
            "{class}"
        );
    }
}

/// A TSV written from three real languages gives the same samples as their class files.
#[test]
fn tsv_three_classes_equals_class_files() {
    let pick = ["Greek.txt", "Japanese.txt", "Polish.txt"];
    let mut tsv = String::from("name\tlabel\r\n");
    for p in pick {
        let (_, b) = picked(&[p])[0];
        let class = p.trim_end_matches(".txt");
        for line in std::str::from_utf8(b).unwrap().lines() {
            if !line.trim().is_empty() {
                tsv.push_str(&format!("{line}\t{class}\r\n"));
            }
        }
        tsv.push('\n'); // empty lines are skipped
    }
    let up = dataset_from_uploads(&[("three.tsv", tsv.as_bytes())]).unwrap();
    assert_eq!(up.layout, UploadLayout::Tsv);
    assert_eq!(up.dataset.classes(), ["Greek", "Japanese", "Polish"]);
    let files = picked(&pick);
    let direct = NamesDataset::from_named_files(files).unwrap();
    assert_eq!(up.dataset.samples(), direct.samples());
    // The header line is not a sample.
    assert!(up.dataset.samples().iter().all(|s| s.name != "name"));
}

/// A first line that is not exactly a header is data; `name<TAB>label` later on is data too.
#[test]
fn header_only_when_unambiguous() {
    let up = dataset_from_uploads(&[(
        "a.tsv",
        "Name\tLanguage\nSato\tJapanese\nNovak\tCzech\n".as_bytes(),
    )])
    .unwrap();
    assert_eq!(up.dataset.classes(), ["Czech", "Japanese"]);
    assert_eq!(up.dataset.len(), 2);
    let up = dataset_from_uploads(&[("a.tsv", "Nom\tlabel\nSato\tJapanese\n".as_bytes())]).unwrap();
    assert_eq!(up.dataset.classes(), ["Japanese", "label"]);
    // A .txt whose every line has a tab is a TSV.
    let up = dataset_from_uploads(&[("pairs.txt", "Sato\tJapanese\nNovak\tCzech\n".as_bytes())])
        .unwrap();
    assert_eq!(up.layout, UploadLayout::Tsv);
    assert_eq!(up.dataset.classes(), ["Czech", "Japanese"]);
}

fn seven_line_tsv_missing_tab_on_7() -> String {
    let mut s = String::new();
    for (i, (n, l)) in [
        ("Sato", "Japanese"),
        ("Novak", "Czech"),
        ("Abe", "Japanese"),
        ("Dvorak", "Czech"),
        ("Ito", "Japanese"),
        ("Svoboda", "Czech"),
    ]
    .iter()
    .enumerate()
    {
        s.push_str(&format!("{n}\t{l}\n"));
        assert!(i < 6);
    }
    s.push_str("Kato Japanese\n"); // line 7: a space, not a tab
    s.push_str("Horak\tCzech\n");
    s
}

/// A bad line is skipped and reported (file and 1-based line); the rest loads.
#[test]
fn missing_tab_is_skipped_and_reported() {
    let tsv = seven_line_tsv_missing_tab_on_7();
    let up = dataset_from_uploads(&[("own.tsv", tsv.as_bytes())]).unwrap();
    assert_eq!(up.dataset.len(), 7, "the 7 good lines load");
    assert_eq!(up.skipped.len(), 1);
    assert_eq!(
        up.skipped[0].problem,
        UploadError::MissingTab {
            file: "own.tsv".into(),
            line: 7
        }
    );
    assert_eq!(up.skipped_lines(5), "7");
    // Line numbers count empty lines too.
    let up = dataset_from_uploads(&[(
        "own.tsv",
        "\n\nSato\tJapanese\nNovak\nAbe\tCzech\n".as_bytes(),
    )])
    .unwrap();
    assert_eq!(up.skipped_lines(5), "4");
    // A file without any usable line is rejected, naming its first bad line.
    let e = err(&[("own.tsv", "Sato Japanese\nNovak Czech\n".as_bytes())]);
    assert_eq!(
        e,
        UploadError::MissingTab {
            file: "own.tsv".into(),
            line: 1
        }
    );
    let msg = e.to_string();
    assert!(msg.contains("line 1") && msg.contains("own.tsv"), "{msg}");
}

/// Lines 6 and 38 bad (a missing tab, a name without usable letters) in a 40-line file: 38
/// lines load, the hooks' list is "6,38"; inside a zip each is `file:line`.
#[test]
fn bad_lines_six_and_thirty_eight() {
    let mut lines: Vec<String> = (1..=40)
        .map(|i| {
            format!(
                "Name{}\t{}",
                "abcdefghij".chars().nth(i % 10).unwrap(),
                if i % 2 == 0 { "Even" } else { "Odd" }
            )
        })
        .collect();
    lines[5] = "Kato Japanese".into();
    lines[37] = "😀\tOdd".into();
    let text = lines.join("\n") + "\n";
    let up = dataset_from_uploads(&[("bad.tsv", text.as_bytes())]).unwrap();
    assert_eq!(up.skipped.len(), 2);
    assert_eq!(up.skipped_lines(5), "6,38");
    assert!(matches!(
        up.skipped[1].problem,
        UploadError::NoUsableLetters { line: 38, .. }
    ));
    assert_eq!(up.dataset.report().raw_lines, 38);
    let z = zip_of(&[("data/bad.tsv", text.as_bytes())]);
    let up = dataset_from_uploads(&[("own.zip", z.as_slice())]).unwrap();
    assert_eq!(
        up.skipped_lines(5),
        "own.zip/data/bad.tsv:6,own.zip/data/bad.tsv:38"
    );
    // Two uploaded files: each line names its file.
    let up = dataset_from_uploads(&[
        ("a.tsv", text.as_bytes()),
        ("b.tsv", "X\tOdd\nbroken\n".as_bytes()),
    ])
    .unwrap();
    assert_eq!(up.skipped_lines(2), "a.tsv:6,a.tsv:38");
    assert_eq!(up.skipped_lines(5), "a.tsv:6,a.tsv:38,b.tsv:2");
}

#[test]
fn empty_label_extra_fields_and_no_letters_are_skipped() {
    let up = dataset_from_uploads(&[(
        "a.tsv",
        "Sato\tJapanese\nNovak\t  \nAbe\tCzech\n".as_bytes(),
    )])
    .unwrap();
    assert_eq!(
        up.skipped[0].problem,
        UploadError::EmptyLabel {
            file: "a.tsv".into(),
            line: 2
        }
    );
    let up = dataset_from_uploads(&[(
        "a.tsv",
        "Sato\tJapanese\tx\nNovak\tCzech\nAbe\tJapanese\n".as_bytes(),
    )])
    .unwrap();
    assert!(matches!(
        up.skipped[0].problem,
        UploadError::ExtraFields { line: 1, .. }
    ));
    // A trailing tab after the label is not a third field.
    let up =
        dataset_from_uploads(&[("a.tsv", "Sato\tJapanese\t\nNovak\tCzech\n".as_bytes())]).unwrap();
    assert!(up.skipped.is_empty());
    let up = dataset_from_uploads(&[(
        "a.tsv",
        "Sato\tJapanese\nNovak\tCzech\n😀🎉\tCzech\n".as_bytes(),
    )])
    .unwrap();
    assert_eq!(
        up.skipped[0].problem,
        UploadError::NoUsableLetters {
            file: "a.tsv".into(),
            line: 3,
            name: "😀🎉".into()
        }
    );
    let msg = up.skipped[0].problem.to_string();
    assert!(msg.contains("line 3") && msg.contains("😀🎉"), "{msg}");
    // Accents alone are fine (the loader's rules: "Ślusàrski" → "Slusarski").
    let up = dataset_from_uploads(&[("a.tsv", "Ślusàrski\tPolish\nSato\tJapanese\n".as_bytes())])
        .unwrap();
    assert!(up.dataset.samples().iter().any(|s| s.name == "Slusarski"));
}

/// Not UTF-8: read as Latin-1 and said so; UTF-8 files are listed as UTF-8.
#[test]
fn latin1_files_load() {
    let up = dataset_from_uploads(&[("a.tsv", b"Sato\tJapanese\nM\xfcller\tGerman\n".as_slice())])
        .unwrap();
    assert!(
        up.dataset.samples().iter().any(|s| s.name == "Muller"),
        "ü (0xFC in Latin-1) → u"
    );
    assert_eq!(up.latin1_files(), ["a.tsv"]);
    assert_eq!(up.encodings, [("a.tsv".to_string(), TextEncoding::Latin1)]);
    let z = zip_of(&[
        ("names/A.txt", b"Sato\n"),
        ("names/B.txt", b"Fran\xe7ois\n"),
    ]);
    let up = dataset_from_uploads(&[("n.zip", z.as_slice())]).unwrap();
    assert_eq!(up.latin1_files(), ["n.zip/names/B.txt"]);
    assert!(up.dataset.samples().iter().any(|s| s.name == "Francois"));
    let up =
        dataset_from_uploads(&[("a.tsv", "Sato\tJapanese\nMüller\tGerman\n".as_bytes())]).unwrap();
    assert!(up.latin1_files().is_empty());
}

/// Bidi and zero-width controls are removed from labels; long labels are cut for display.
#[test]
fn invisible_controls_and_long_labels() {
    let up = dataset_from_uploads(&[(
        "a.tsv",
        "Sato\tGerman\nAbe\t\u{202e}German\nNovak\tCz\u{200b}ech\u{2066}\n".as_bytes(),
    )])
    .unwrap();
    assert_eq!(up.dataset.classes(), ["Czech", "German"]);
    assert_eq!(clean_label("\u{feff}\u{200f}Arabic\u{200e} "), "Arabic");
    let long = "x".repeat(300);
    let shown = display_label(&long);
    assert_eq!(shown.chars().count(), DISPLAY_LABEL_CHARS + 1);
    assert!(shown.ends_with('…'));
    assert_eq!(display_label("German"), "German");
}

#[test]
fn fewer_than_two_classes() {
    let e = err(&[("a.tsv", "Sato\tJapanese\nAbe\tJapanese\n".as_bytes())]);
    assert_eq!(
        e,
        UploadError::TooFewClasses {
            classes: vec!["Japanese".into()]
        }
    );
    let (n, b) = &real_files()[0];
    let e = err(&[(n.as_str(), b.as_slice())]);
    assert!(
        matches!(e, UploadError::TooFewClasses { ref classes } if classes.len() == 1),
        "{e}"
    );
    let e = err(&[("a.tsv", "\n\n".as_bytes())]);
    assert_eq!(e, UploadError::TooFewClasses { classes: vec![] });
    // A class file alone without names: the file is named, not "only one class".
    let e = err(&[("empty.txt", b"".as_slice())]);
    assert_eq!(
        e,
        UploadError::Load(LoadError::EmptyClass {
            file: "empty.txt".into(),
            raw_lines: 0
        })
    );
    assert_eq!(e.to_string(), "empty.txt has no names (the file is empty)");
    let e = err(&[("blank.txt", "😀\n\n".as_bytes())]);
    assert!(
        e.to_string()
            .starts_with("blank.txt: no usable names (2 lines"),
        "{e}"
    );
    assert_eq!(err(&[] as &[(&str, &[u8])]), UploadError::NoFiles);
}

#[test]
fn corrupt_zip_and_binary() {
    let good = zip_of(&[("A.txt", b"Sato\n"), ("B.txt", b"Novak\n")]);
    assert_eq!(
        dataset_from_uploads(&[("ok.zip", good.as_slice())])
            .unwrap()
            .dataset
            .len(),
        2
    );
    // Truncated archive: the central directory is gone.
    let cut = &good[..good.len() / 2];
    let e = err(&[("names.zip", cut)]);
    assert!(
        matches!(e, UploadError::CorruptZip { ref file, .. } if file == "names.zip"),
        "{e}"
    );
    let e = err(&[("names.zip", b"this is not a zip at all".as_slice())]);
    assert!(matches!(e, UploadError::CorruptZip { .. }), "{e}");
    // Flipped bytes inside the compressed data: CRC or inflate error, never a panic.
    let mut flipped = good.clone();
    for b in flipped.iter_mut().skip(40).take(8) {
        *b ^= 0xA5;
    }
    assert!(dataset_from_uploads(&[("names.zip", flipped.as_slice())]).is_err());
    let e = err(&[("none.zip", zip_of(&[("x.md", b"hi")]).as_slice())]);
    assert_eq!(
        e,
        UploadError::EmptyZip {
            file: "none.zip".into()
        }
    );

    let junk: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    let e = err(&[
        ("Arabic.txt", junk.as_slice()),
        ("B.txt", b"Novak\n".as_slice()),
    ]);
    assert_eq!(
        e,
        UploadError::Binary {
            file: "Arabic.txt".into()
        }
    );
    let e = err(&[("photo.png", b"\x89PNG".as_slice())]);
    assert_eq!(
        e,
        UploadError::UnsupportedFile {
            file: "photo.png".into()
        }
    );
}

/// Class-file rules stay the loader's: unusable lines are skipped and counted; a class with
/// none left is the loader's error; two files of one class are rejected.
#[test]
fn class_file_rules_are_the_loaders() {
    let up = dataset_from_uploads(&[
        ("A.txt", "Sato\n😀\nSato\n".as_bytes()),
        ("B.txt", "Novak\n".as_bytes()),
    ])
    .unwrap();
    assert_eq!(up.dataset.report().skipped, 1);
    assert_eq!(up.dataset.report().duplicates, 1);
    let e = err(&[
        ("A.txt", "😀\n".as_bytes()),
        ("B.txt", "Novak\n".as_bytes()),
    ]);
    assert!(
        matches!(e, UploadError::Load(_)) && e.to_string().contains("A.txt"),
        "{e}"
    );
    let z = zip_of(&[
        ("x/A.txt", b"Sato\n"),
        ("y/A.txt", b"Abe\n"),
        ("B.txt", b"Novak\n"),
    ]);
    let e = err(&[("n.zip", z.as_slice())]);
    assert!(e.to_string().contains("\"A\""), "{e}");
}

/// A class with a single name goes to training (it has no validation sample); classes with
/// 2 or more names keep at least one name on each side.
#[test]
fn singleton_class_is_trained() {
    let mut text = String::new();
    for i in 0..30 {
        text.push_str(&format!(
            "Sato{}\tJapanese\nNovak{}\tCzech\n",
            "abcdefghijklmnopqrstuvwxyzABCD".chars().nth(i).unwrap(),
            "abcdefghijklmnopqrstuvwxyzABCD".chars().nth(i).unwrap()
        ));
    }
    text.push_str("Papadopoulos\tGreek\nAbe\tKorean\nLee\tKorean\n");
    let up = dataset_from_uploads(&[("own.tsv", text.as_bytes())]).unwrap();
    let ds = &up.dataset;
    let greek = ds.class_index("Greek").unwrap();
    let korean = ds.class_index("Korean").unwrap();
    for seed in 0..20 {
        let split = unroll_core::data::Split::new(ds, seed, 0.1);
        let side = |idx: &[usize], class: u32| {
            idx.iter()
                .filter(|&&i| ds.samples()[i].label == class)
                .count()
        };
        assert_eq!(
            (side(&split.train, greek), side(&split.val, greek)),
            (1, 0),
            "seed {seed}"
        );
        assert_eq!(
            (side(&split.train, korean), side(&split.val, korean)),
            (1, 1),
            "seed {seed}"
        );
        for c in 0..ds.num_classes() as u32 {
            assert!(
                side(&split.train, c) >= 1,
                "class {c} is trained (seed {seed})"
            );
        }
    }
}

/// The summary a page gets instead of the names: the loader's counts, the skipped lines, the
/// Latin-1 files and the split for the page's seed, all read from the upload itself.
#[test]
fn summary_is_the_uploads() {
    let mut text = String::from("name\tlabel\n");
    for i in 0..30 {
        text.push_str(&format!(
            "Na{}me\tGreek\nKo{}x\tKorean\n",
            "a".repeat(i),
            "o".repeat(i)
        ));
    }
    text.push_str("no tab here\nShared\tGreek\nShared\tKorean\n");
    let mut bytes = text.into_bytes();
    bytes.extend_from_slice(b"M\xfcller\tGerman\nSchmidt\tGerman\n");
    let up = dataset_from_uploads(&[("own.tsv", bytes.as_slice())]).unwrap();
    for seed in [0u64, 7] {
        let s = up.summary(seed, 5);
        assert_eq!(s.files, vec!["own.tsv".to_owned()]);
        assert_eq!(s.classes, up.dataset.classes().to_vec());
        assert_eq!(&s.report, up.dataset.report());
        assert_eq!(s.skipped, up.skipped.len());
        assert_eq!(s.skipped, 1);
        assert_eq!(s.skipped_lines, up.skipped_lines(5));
        assert_eq!(s.latin1, vec!["own.tsv".to_owned()]);
        let split =
            unroll_core::data::Split::new(&up.dataset, seed, unroll_core::data::VAL_FRACTION);
        assert_eq!(s.split.seed, seed);
        assert_eq!(s.split.train, split.train.len());
        assert_eq!(s.split.val, split.val.len());
        assert_eq!(s.split.val_per_class, split.val_class_counts(&up.dataset));
    }
}
