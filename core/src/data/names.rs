//! The names data set: one UTF-8 file per language (file stem = language), one name per line.
//!
//! Loading rules: each line is normalised with [`normalize`] (trim, Unicode
//! NFD, keep the 57 vocabulary symbols); a line that ends up empty is skipped and counted; each
//! (normalised name, language) pair counts once. Classes are sorted by name, so label `k` is the
//! `k`-th language in alphabetical order whatever order the files arrive in. Samples are ordered
//! by class, then by first appearance in the file.
//!
//! On the real files (`../shared/data/names`): 20,074 raw lines, 18 classes, 17,994 distinct
//! pairs, 0 skipped lines (the figures PyTorch's tutorial loader gives).

use super::normalize::{encode_normalized, normalize};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// One distinct (name, language) pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// The normalised name (non-empty, only vocabulary symbols).
    pub name: String,
    /// `[seq_len]` symbol indices of `name` (see [`super::normalize::VOCAB`]), `seq_len >= 1`.
    pub tokens: Vec<u32>,
    /// Class index in `0..num_classes` (index into [`NamesDataset::classes`]).
    pub label: u32,
}

/// Counts for one class (language file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassReport {
    /// Language (the file stem, e.g. `Arabic`).
    pub class: String,
    /// Lines in the file (a final newline does not start another line).
    pub raw_lines: usize,
    /// Distinct normalised names of this class: the samples trained and evaluated on.
    pub distinct: usize,
    /// Lines that normalised to "" and were skipped.
    pub skipped: usize,
    /// Lines whose normalised name already appeared earlier in the same file
    /// (`raw_lines = distinct + skipped + duplicates`).
    pub duplicates: usize,
}

/// What the loader read: per class and in total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadReport {
    /// One entry per class, in label order.
    pub classes: Vec<ClassReport>,
    /// Sum of the classes' raw lines.
    pub raw_lines: usize,
    /// Number of distinct (name, language) pairs = number of samples.
    pub distinct: usize,
    /// Lines skipped because they normalised to "".
    pub skipped: usize,
    /// Repeated lines within a class (counted once).
    pub duplicates: usize,
    /// Distinct normalised names that occur in more than one language.
    pub multi_language_names: usize,
}

/// A data set that could not be built. Every message names the file (and line) at fault.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoadError {
    /// No class files were given.
    NoFiles,
    /// A file is not valid UTF-8; `line` (from 1) holds the first invalid byte.
    NotUtf8 {
        /// The file as named by the caller (e.g. `Arabic.txt`).
        file: String,
        /// Line number, from 1.
        line: usize,
    },
    /// A class has no line that normalises to a usable name.
    EmptyClass {
        /// The file as named by the caller.
        file: String,
        /// Lines the file has (all empty after normalisation).
        raw_lines: usize,
    },
    /// Two files map to the same class name.
    DuplicateClass {
        /// The class name.
        class: String,
    },
    /// A file name gives an empty class name (e.g. `.txt`).
    BadClassName {
        /// The file as named by the caller.
        file: String,
    },
    /// Reading from disk failed.
    Io {
        /// The path.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// No folder with name files was found.
    DataDirNotFound {
        /// Folders tried, in order.
        tried: Vec<String>,
    },
    /// `manifest.json` is malformed.
    BadManifest {
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NoFiles => write!(f, "no name files were given (expected one .txt file per language)"),
            LoadError::NotUtf8 { file, line } => {
                write!(f, "{file}, line {line}: the file is not valid UTF-8 text")
            }
            LoadError::EmptyClass { file, raw_lines: 0 } => {
                write!(f, "{file} has no names (the file is empty)")
            }
            LoadError::EmptyClass { file, raw_lines } => write!(
                f,
                "{file}: no usable names ({raw_lines} lines, none with letters a–z after normalisation)"
            ),
            LoadError::DuplicateClass { class } => {
                write!(f, "two files give the same language \"{class}\"")
            }
            LoadError::BadClassName { file } => {
                write!(f, "\"{file}\": the file name gives no language name")
            }
            LoadError::Io { path, message } => write!(f, "{path}: {message}"),
            LoadError::DataDirNotFound { tried } => write!(
                f,
                "the names data was not found (tried {}); run `node scripts/fetch-data.mjs` or set UNROLL_NAMES_DIR",
                tried.join(", ")
            ),
            LoadError::BadManifest { message } => write!(f, "manifest.json: {message}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// The class (language) of a file name: the stem, without any folder and without `.txt`
/// (`data/names/Arabic.txt` → `Arabic`).
pub fn class_name_from_file(file: &str) -> &str {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    base.strip_suffix(".txt").unwrap_or(base)
}

/// The loaded names: classes, distinct samples and the load report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NamesDataset {
    classes: Vec<String>,
    samples: Vec<Sample>,
    report: LoadReport,
}

impl NamesDataset {
    /// Builds the data set from `(class_name, file_bytes)` pairs (the class is the language,
    /// e.g. `("Arabic", bytes of Arabic.txt)`); the pairs may come in any order.
    ///
    /// Errors: [`LoadError::NoFiles`] for an empty set, [`LoadError::NotUtf8`] with the line of
    /// the first invalid byte, [`LoadError::EmptyClass`] for a class without usable names,
    /// [`LoadError::DuplicateClass`], [`LoadError::BadClassName`] for an empty class name.
    pub fn from_class_files<I, S, B>(files: I) -> Result<Self, LoadError>
    where
        I: IntoIterator<Item = (S, B)>,
        S: Into<String>,
        B: AsRef<[u8]>,
    {
        let files: Vec<(String, String, B)> = files
            .into_iter()
            .map(|(class, bytes)| {
                let class = class.into();
                let file = format!("{class}.txt");
                (class, file, bytes)
            })
            .collect();
        Self::build(files)
    }

    /// Like [`NamesDataset::from_class_files`], from `(file_name, file_bytes)` pairs; the class
    /// is the file stem ([`class_name_from_file`]), and errors name the file as given.
    pub fn from_named_files<I, S, B>(files: I) -> Result<Self, LoadError>
    where
        I: IntoIterator<Item = (S, B)>,
        S: AsRef<str>,
        B: AsRef<[u8]>,
    {
        let files: Vec<(String, String, B)> = files
            .into_iter()
            .map(|(file, bytes)| {
                let file = file.as_ref().to_owned();
                (class_name_from_file(&file).to_owned(), file, bytes)
            })
            .collect();
        Self::build(files)
    }

    /// Like [`NamesDataset::from_class_files`], from `(class, file_label, bytes)` triples: the
    /// class is given explicitly and `file_label` is how error messages name the source (e.g.
    /// `names.zip/data/names/Arabic.txt`, or `own.tsv (label Arabic)` for the names a TSV gives one
    /// label). Same rules and errors as [`NamesDataset::from_class_files`].
    pub fn from_labelled_files<B: AsRef<[u8]>>(
        files: Vec<(String, String, B)>,
    ) -> Result<Self, LoadError> {
        Self::build(files)
    }

    fn build<B: AsRef<[u8]>>(files: Vec<(String, String, B)>) -> Result<Self, LoadError> {
        let mut texts = Vec::with_capacity(files.len());
        for (class, file, bytes) in files {
            let bytes = bytes.as_ref();
            let text = std::str::from_utf8(bytes).map_err(|e| {
                let line = bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count()
                    + 1;
                LoadError::NotUtf8 {
                    file: file.clone(),
                    line,
                }
            })?;
            texts.push((class, file, text.to_owned()));
        }
        let mut builder = DatasetBuilder::new(texts)?;
        while !builder.step(usize::MAX)? {}
        Ok(builder.finish())
    }

    /// Reads every `*.txt` file of `dir` (not recursive) and builds the data set.
    ///
    /// Errors: [`LoadError::Io`] when the folder or a file cannot be read or holds no `.txt`
    /// file, and the errors of [`NamesDataset::from_named_files`].
    pub fn load_dir(dir: &Path) -> Result<Self, LoadError> {
        let io = |path: &Path, e: std::io::Error| LoadError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| io(dir, e))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|ext| ext == "txt"))
            .collect();
        if paths.is_empty() {
            return Err(LoadError::Io {
                path: dir.display().to_string(),
                message: "no .txt name files in this folder".into(),
            });
        }
        paths.sort();
        let mut files = Vec::with_capacity(paths.len());
        for path in paths {
            let bytes = std::fs::read(&path).map_err(|e| io(&path, e))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            files.push((name, bytes));
        }
        Self::from_named_files(files)
    }

    /// Class (language) names in label order (sorted).
    pub fn classes(&self) -> &[String] {
        &self.classes
    }

    /// Number of classes C (the `fc` head's output size).
    pub fn num_classes(&self) -> usize {
        self.classes.len()
    }

    /// Label of a class name, or `None` when the class is unknown.
    pub fn class_index(&self, class: &str) -> Option<u32> {
        self.classes
            .iter()
            .position(|c| c == class)
            .map(|i| i as u32)
    }

    /// All distinct (name, language) pairs, ordered by label, then first appearance.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Number of samples (distinct pairs).
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// `true` when there are no samples (never the case for a successfully built data set).
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The load report (raw lines, distinct pairs, skipped lines per class and in total).
    pub fn report(&self) -> &LoadReport {
        &self.report
    }

    /// Number of samples of each class, `[num_classes]`.
    pub fn class_counts(&self) -> Vec<usize> {
        self.report.classes.iter().map(|r| r.distinct).collect()
    }
}

/// Finds the folder holding the name files, trying in order:
/// 1. the environment variable `UNROLL_NAMES_DIR` (when set, it must be a folder with `.txt` files),
/// 2. `<root>/www/data/names` (written by `scripts/fetch-data.mjs`),
/// 3. `<root>/../shared/data/names`.
///
/// `root` is the project root (for tests: `env!("CARGO_MANIFEST_DIR")`).
///
/// Errors: [`LoadError::DataDirNotFound`] listing the folders tried.
pub fn locate_names_dir(root: &Path) -> Result<PathBuf, LoadError> {
    let has_txt = |dir: &Path| {
        std::fs::read_dir(dir).is_ok_and(|mut it| {
            it.any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "txt")))
        })
    };
    if let Some(dir) = std::env::var_os("UNROLL_NAMES_DIR").filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(dir);
        return if has_txt(&dir) {
            Ok(dir)
        } else {
            Err(LoadError::DataDirNotFound {
                tried: vec![format!("UNROLL_NAMES_DIR={}", dir.display())],
            })
        };
    }
    let candidates = [
        root.join("www/data/names"),
        root.join("../shared/data/names"),
    ];
    for dir in &candidates {
        if has_txt(dir) {
            return Ok(dir.clone());
        }
    }
    Err(LoadError::DataDirNotFound {
        tried: candidates.iter().map(|d| d.display().to_string()).collect(),
    })
}

/// One class file listed in `manifest.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestEntry {
    /// Language, e.g. `Arabic`.
    pub class: String,
    /// File name relative to the manifest, e.g. `Arabic.txt`.
    pub file: String,
    /// SHA-256 of the file, lowercase hex.
    pub sha256: String,
}

/// `data/names/manifest.json` as written by `scripts/fetch-data.mjs`:
/// `{"version": 1, "files": [{"class": "Arabic", "file": "Arabic.txt", "sha256": "…"}, …]}`.
/// HTTP cannot list a folder, so the browser reads this to know which files to fetch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Format version (1).
    pub version: u32,
    /// One entry per class, sorted by class.
    pub files: Vec<ManifestEntry>,
}

impl Manifest {
    /// Parses and checks a manifest: at least one entry, and every `file` is a plain
    /// `<class>.txt` name (no folder, no `..`).
    ///
    /// Errors: [`LoadError::BadManifest`] saying what is wrong.
    pub fn parse(json: &str) -> Result<Manifest, LoadError> {
        let manifest: Manifest =
            serde_json::from_str(json).map_err(|e| LoadError::BadManifest {
                message: e.to_string(),
            })?;
        if manifest.files.is_empty() {
            return Err(LoadError::BadManifest {
                message: "lists no class files".into(),
            });
        }
        for entry in &manifest.files {
            let plain = !entry.file.contains(['/', '\\']) && !entry.file.starts_with('.');
            if !plain || entry.file != format!("{}.txt", entry.class) {
                return Err(LoadError::BadManifest {
                    message: format!(
                        "unexpected file \"{}\" for class \"{}\"",
                        entry.file, entry.class
                    ),
                });
            }
        }
        Ok(manifest)
    }
}

/// Builds a [`NamesDataset`] from `(class, file_label, text)` triples a bounded number of lines
/// at a time, so a page can load a large upload without blocking: [`DatasetBuilder::step`]
/// until it returns `true`, then [`DatasetBuilder::finish`]. The rules, errors and result are
/// [`NamesDataset::from_labelled_files`]'s (which runs it to the end in one go).
#[derive(Debug)]
pub struct DatasetBuilder {
    /// Sorted by class.
    files: Vec<(String, String, String)>,
    /// The file being read.
    file: usize,
    /// Byte offset of the next line in it.
    pos: usize,
    seen: HashSet<String>,
    report: ClassReport,
    classes: Vec<String>,
    samples: Vec<Sample>,
    reports: Vec<ClassReport>,
    languages_of_name: HashMap<String, usize>,
    done_bytes: usize,
    total_bytes: usize,
}

fn empty_report(class: &str) -> ClassReport {
    ClassReport {
        class: class.to_owned(),
        raw_lines: 0,
        distinct: 0,
        skipped: 0,
        duplicates: 0,
    }
}

impl DatasetBuilder {
    /// Checks the classes and sorts the files by class.
    ///
    /// Errors: [`LoadError::NoFiles`], [`LoadError::BadClassName`], [`LoadError::DuplicateClass`].
    pub fn new(mut files: Vec<(String, String, String)>) -> Result<Self, LoadError> {
        if files.is_empty() {
            return Err(LoadError::NoFiles);
        }
        if let Some((_, file, _)) = files.iter().find(|(class, _, _)| class.trim().is_empty()) {
            return Err(LoadError::BadClassName { file: file.clone() });
        }
        files.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some(w) = files.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(LoadError::DuplicateClass {
                class: w[0].0.clone(),
            });
        }
        let total_bytes = files.iter().map(|f| f.2.len()).sum();
        let report = empty_report(&files[0].0);
        Ok(DatasetBuilder {
            files,
            file: 0,
            pos: 0,
            seen: HashSet::new(),
            report,
            classes: Vec::new(),
            samples: Vec::new(),
            reports: Vec::new(),
            languages_of_name: HashMap::new(),
            done_bytes: 0,
            total_bytes,
        })
    }

    /// `(bytes read, total bytes)` of the texts.
    pub fn progress(&self) -> (usize, usize) {
        (self.done_bytes, self.total_bytes)
    }

    /// Reads at most `max_lines` lines; `Ok(true)` when every file is read.
    ///
    /// Errors: [`LoadError::EmptyClass`] for a class without a usable name.
    pub fn step(&mut self, max_lines: usize) -> Result<bool, LoadError> {
        let mut budget = max_lines;
        while self.file < self.files.len() {
            let (class, file, text) = &self.files[self.file];
            while self.pos < text.len() {
                if budget == 0 {
                    return Ok(false);
                }
                budget -= 1;
                let rest = &text[self.pos..];
                let (raw, next) = match rest.find('\n') {
                    Some(i) => (&rest[..i], self.pos + i + 1),
                    None => (rest, text.len()),
                };
                let line = raw.strip_suffix('\r').unwrap_or(raw);
                self.done_bytes += next - self.pos;
                self.pos = next;
                self.report.raw_lines += 1;
                let name = normalize(line);
                if name.is_empty() {
                    self.report.skipped += 1;
                } else if self.seen.contains(&name) {
                    self.report.duplicates += 1;
                } else {
                    self.seen.insert(name.clone());
                    *self.languages_of_name.entry(name.clone()).or_insert(0) += 1;
                    self.samples.push(Sample {
                        tokens: encode_normalized(&name),
                        name,
                        label: self.file as u32,
                    });
                    self.report.distinct += 1;
                }
            }
            if self.report.distinct == 0 {
                return Err(LoadError::EmptyClass {
                    file: file.clone(),
                    raw_lines: self.report.raw_lines,
                });
            }
            self.classes.push(class.clone());
            self.file += 1;
            self.pos = 0;
            self.seen.clear();
            let next = self
                .files
                .get(self.file)
                .map_or_else(|| empty_report(""), |f| empty_report(&f.0));
            self.reports.push(std::mem::replace(&mut self.report, next));
        }
        Ok(true)
    }

    /// The data set, once [`DatasetBuilder::step`] returned `true`.
    pub fn finish(self) -> NamesDataset {
        let reports = self.reports;
        let report = LoadReport {
            raw_lines: reports.iter().map(|r| r.raw_lines).sum(),
            distinct: self.samples.len(),
            skipped: reports.iter().map(|r| r.skipped).sum(),
            duplicates: reports.iter().map(|r| r.duplicates).sum(),
            multi_language_names: self.languages_of_name.values().filter(|&&n| n > 1).count(),
            classes: reports,
        };
        NamesDataset {
            classes: self.classes,
            samples: self.samples,
            report,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_duplicates_skips_and_sorts_classes() {
        let ds = NamesDataset::from_class_files([
            ("Korean", "Park \nKim\n\n😀\nKim\n".as_bytes()),
            ("English", "Park\nSmith\n".as_bytes()),
        ])
        .unwrap();
        assert_eq!(ds.classes(), ["English", "Korean"]);
        let r = ds.report();
        assert_eq!(
            (r.raw_lines, r.distinct, r.skipped, r.duplicates),
            (7, 4, 2, 1)
        );
        assert_eq!(
            r.multi_language_names, 1,
            "Park is English and (trimmed) Korean"
        );
        let korean = &r.classes[1];
        assert_eq!(
            (
                korean.raw_lines,
                korean.distinct,
                korean.skipped,
                korean.duplicates
            ),
            (5, 2, 2, 1)
        );
        let names: Vec<(&str, u32)> = ds
            .samples()
            .iter()
            .map(|s| (s.name.as_str(), s.label))
            .collect();
        assert_eq!(names, [("Park", 0), ("Smith", 0), ("Park", 1), ("Kim", 1)]);
        assert_eq!(ds.samples()[3].tokens, vec![36, 8, 12]);
    }

    #[test]
    fn crlf_and_missing_final_newline() {
        let ds = NamesDataset::from_class_files([("A", "Ab\r\nCd")]).unwrap();
        assert_eq!(ds.report().raw_lines, 2);
        assert_eq!(ds.samples()[1].name, "Cd");
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let bad = b"Abe\nBob\nCa\xffl\n".to_vec();
        let err = NamesDataset::from_named_files([("data/names/Czech.txt", bad)]).unwrap_err();
        assert_eq!(
            err,
            LoadError::NotUtf8 {
                file: "data/names/Czech.txt".into(),
                line: 3
            }
        );
        assert_eq!(
            err.to_string(),
            "data/names/Czech.txt, line 3: the file is not valid UTF-8 text"
        );

        let none: [(&str, &[u8]); 0] = [];
        assert_eq!(
            NamesDataset::from_class_files(none).unwrap_err(),
            LoadError::NoFiles
        );

        let err =
            NamesDataset::from_class_files([("A", "x\n"), ("Emoji", "😀\n123\n")]).unwrap_err();
        assert_eq!(
            err,
            LoadError::EmptyClass {
                file: "Emoji.txt".into(),
                raw_lines: 2
            }
        );
        assert!(err.to_string().starts_with("Emoji.txt: no usable names"));

        let err = NamesDataset::from_class_files([("Empty", "")]).unwrap_err();
        assert_eq!(
            err,
            LoadError::EmptyClass {
                file: "Empty.txt".into(),
                raw_lines: 0
            }
        );

        let err = NamesDataset::from_named_files([("x/A.txt", "a"), ("A.txt", "b")]).unwrap_err();
        assert_eq!(err, LoadError::DuplicateClass { class: "A".into() });

        let err = NamesDataset::from_named_files([(".txt", "a")]).unwrap_err();
        assert_eq!(
            err,
            LoadError::BadClassName {
                file: ".txt".into()
            }
        );
    }

    #[test]
    fn class_names_from_files() {
        assert_eq!(class_name_from_file("Arabic.txt"), "Arabic");
        assert_eq!(class_name_from_file("data/names/Arabic.txt"), "Arabic");
        assert_eq!(class_name_from_file("C:\\x\\Greek.txt"), "Greek");
        assert_eq!(class_name_from_file("Greek"), "Greek");
    }

    #[test]
    fn manifest_parse_and_checks() {
        let m = Manifest::parse(
            r#"{"version":1,"files":[{"class":"Arabic","file":"Arabic.txt","sha256":"ab"}]}"#,
        )
        .unwrap();
        assert_eq!(m.files[0].file, "Arabic.txt");
        for bad in [
            r#"{"version":1,"files":[]}"#,
            r#"{"version":1,"files":[{"class":"A","file":"../A.txt","sha256":""}]}"#,
            r#"{"version":1,"files":[{"class":"A","file":"B.txt","sha256":""}]}"#,
            r#"[1,2]"#,
        ] {
            assert!(
                matches!(Manifest::parse(bad), Err(LoadError::BadManifest { .. })),
                "{bad}"
            );
        }
    }
}
