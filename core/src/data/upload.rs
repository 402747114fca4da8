//! A names data set from the user's own files ("Load your own data" on the training page).
//!
//! Three layouts are accepted, in any mix, by [`dataset_from_uploads`]:
//!
//! - **A `.zip` of class files**, as in the PyTorch tutorial (`data/names/Arabic.txt`, …): every
//!   `.txt` entry is one class named by its file stem (folders are ignored; `__MACOSX/` and
//!   hidden entries are skipped). A `.tsv` entry inside the archive is read as a TSV.
//! - **Several `.txt` files** named by class (`Arabic.txt`, `Czech.txt`, …), one name a line.
//! - **A TSV** (`.tsv`, or a `.txt` whose every non-empty line has a tab): one `name<TAB>label`
//!   pair a line; empty lines are skipped. A first line that reads exactly `name<TAB>label`
//!   (or `name<TAB>language`, `name<TAB>class`; case-insensitive) is taken as a header: the words
//!   `label`/`language`/`class` are never a real label next to the name `name`, so the detection
//!   is unambiguous. Any other first line is data.
//!
//! Class files keep the loader's rules (a line that normalises to "" is skipped and counted, see
//! [`super::names`]). A bad TSV line (no tab, a third field, an empty label, a name without
//! usable letters) is skipped and reported in [`Upload::skipped`] with its file and 1-based
//! line; a TSV file is rejected as a whole only when it has no usable line at all (the error
//! names its first bad line). Every layout ends in the same loader
//! ([`NamesDataset::from_labelled_files`]), so normalisation, de-duplication and class order are
//! the built-in data set's. The result must have at least 2 classes.
//!
//! Text is read as UTF-8 (a leading BOM is dropped) and, when that fails, as Latin-1 (ISO
//! 8859-1, every byte one character); [`Upload::encodings`] says which files needed Latin-1.
//! Bidirectional and zero-width control characters (U+200B–U+200F, U+202A–U+202E,
//! U+2060–U+2069, U+061C, U+FEFF) are removed from labels and class names, so `\u{202e}German`
//! is the class `German`; names lose them in normalisation anyway.
//!
//! Nothing here panics on any input: corrupt archives and binary files are errors with the
//! file's name.

use super::names::{DatasetBuilder, LoadError, LoadReport, NamesDataset};
use super::normalize::normalize;
use super::split::{SplitCounts, VAL_FRACTION};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{Cursor, Read};

/// Largest total of uncompressed bytes read from the archives of one upload (64 MiB); the
/// real names data set is about 0.2 MiB.
pub const MAX_UNCOMPRESSED_BYTES: u64 = 64 * 1024 * 1024;

/// Why an upload gives no data set. Every message names the file, and the 1-based line where
/// one is at fault. Typed (with its data) and serialisable, so the engine's worker sends it to
/// the page, which words it in its language; [`fmt::Display`] is the English wording.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UploadError {
    /// No file was chosen.
    NoFiles,
    /// A file is neither `.zip`, `.txt` nor `.tsv`.
    UnsupportedFile {
        /// The file as named by the user.
        file: String,
    },
    /// A file holds binary data (a NUL byte) where text was expected.
    Binary {
        /// The file (for an archive entry: `archive.zip/entry`).
        file: String,
    },
    /// A `.zip` cannot be read.
    CorruptZip {
        /// The archive.
        file: String,
        /// The zip reader's message (English; for a tooltip).
        message: String,
    },
    /// A `.zip` holds no `.txt` or `.tsv` file.
    EmptyZip {
        /// The archive.
        file: String,
    },
    /// The archives unpack to more than [`MAX_UNCOMPRESSED_BYTES`].
    TooLarge {
        /// The archive where the limit was passed.
        file: String,
    },
    /// A TSV line has no tab between name and label.
    MissingTab {
        /// The file.
        file: String,
        /// Line number, from 1.
        line: usize,
    },
    /// A TSV line has more than one tab-separated field after the name.
    ExtraFields {
        /// The file.
        file: String,
        /// Line number, from 1.
        line: usize,
    },
    /// A TSV line has an empty label.
    EmptyLabel {
        /// The file.
        file: String,
        /// Line number, from 1.
        line: usize,
    },
    /// A TSV name has none of the 57 symbols, even after accents are removed (e.g. "😀").
    NoUsableLetters {
        /// The file.
        file: String,
        /// Line number, from 1.
        line: usize,
        /// The name as written.
        name: String,
    },
    /// The files give fewer than 2 classes (a classifier needs at least 2).
    TooFewClasses {
        /// The classes found (0 or 1).
        classes: Vec<String>,
    },
    /// The loader rejected the class files (its message names the file).
    Load(LoadError),
}

impl fmt::Display for UploadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UploadError::NoFiles => write!(f, "no file was chosen"),
            UploadError::UnsupportedFile { file } => write!(
                f,
                "{file}: not a .zip, .txt or .tsv file (use a .zip of class files, one .txt file per class, or a name<TAB>label .tsv)"
            ),
            UploadError::Binary { file } => {
                write!(f, "{file}: binary data, not text (expected one name per line)")
            }
            UploadError::CorruptZip { file, message } => {
                write!(f, "{file}: the .zip archive cannot be read ({message})")
            }
            UploadError::EmptyZip { file } => {
                write!(f, "{file}: the archive holds no .txt or .tsv file")
            }
            UploadError::TooLarge { file } => write!(
                f,
                "{file}: the archive unpacks to more than {} MiB",
                MAX_UNCOMPRESSED_BYTES / (1024 * 1024)
            ),
            UploadError::MissingTab { file, line } => write!(
                f,
                "{file}, line {line}: no tab; each line must be name<TAB>label"
            ),
            UploadError::ExtraFields { file, line } => write!(
                f,
                "{file}, line {line}: more than two tab-separated fields; each line must be name<TAB>label"
            ),
            UploadError::EmptyLabel { file, line } => {
                write!(f, "{file}, line {line}: the label after the tab is empty")
            }
            UploadError::NoUsableLetters { file, line, name } => write!(
                f,
                "{file}, line {line}: the name “{name}” has no usable letters (the model reads a–z, A–Z, space . , ; ' after accents are removed)"
            ),
            UploadError::TooFewClasses { classes } => match classes.as_slice() {
                [] => write!(f, "the files give no class; a classifier needs at least 2"),
                [one] => write!(
                    f,
                    "the files give only one class (“{one}”); a classifier needs at least 2"
                ),
                _ => write!(f, "a classifier needs at least 2 classes"),
            },
            UploadError::Load(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for UploadError {}

impl From<LoadError> for UploadError {
    fn from(e: LoadError) -> Self {
        UploadError::Load(e)
    }
}

/// How the files were read (for the page's "data source" line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UploadLayout {
    /// Class files only (`.txt` files or a `.zip` of them).
    ClassFiles,
    /// `name<TAB>label` lines only.
    Tsv,
    /// Both kinds.
    Mixed,
}

/// A data set built from uploaded files.
#[derive(Clone, Debug)]
pub struct Upload {
    /// The data set (classes sorted by name, as the loader orders them).
    pub dataset: NamesDataset,
    /// How it was read.
    pub layout: UploadLayout,
    /// The uploaded file names, as given.
    pub files: Vec<String>,
    /// TSV lines skipped as unusable, in file and line order.
    pub skipped: Vec<SkippedLine>,
    /// Every text file read (archive entries as `archive.zip/entry`) and how it was decoded.
    pub encodings: Vec<(String, TextEncoding)>,
    /// Lines of every text file read (class files and TSVs, bad lines, headers and empty lines
    /// included; a final newline does not start another line).
    pub file_lines: usize,
}

impl Upload {
    /// The first `limit` skipped lines as the page lists them: `6,38` (1-based line numbers) when
    /// they all come from one uploaded file, otherwise `file:line` each (`names.zip/own.tsv:6`;
    /// always for archive entries).
    pub fn skipped_lines(&self, limit: usize) -> String {
        let one_file = self
            .skipped
            .first()
            .is_some_and(|f| !f.in_archive && self.skipped.iter().all(|s| s.file == f.file));
        self.skipped
            .iter()
            .take(limit)
            .map(|s| {
                if one_file {
                    s.line.to_string()
                } else {
                    format!("{}:{}", s.file, s.line)
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The files that were not valid UTF-8 and were read as Latin-1.
    pub fn latin1_files(&self) -> Vec<&str> {
        self.encodings
            .iter()
            .filter(|(_, e)| *e == TextEncoding::Latin1)
            .map(|(f, _)| f.as_str())
            .collect()
    }

    /// Every line skipped: the unusable TSV lines ([`Upload::skipped`]) and the class-file
    /// lines without usable letters (the loader's count).
    pub fn skipped_total(&self) -> usize {
        self.skipped.len() + self.dataset.report().skipped
    }

    /// What a page shows about the upload without its names: the loader's counts, the
    /// lines of the files and every skipped line (all counted, the first `shown` unusable TSV
    /// lines listed as [`Upload::skipped_lines`]), the Latin-1 files and the seeded 90/10 split
    /// for `seed` ([`VAL_FRACTION`]).
    pub fn summary(&self, seed: u64, shown: usize) -> UploadSummary {
        UploadSummary {
            files: self.files.clone(),
            classes: self.dataset.classes().to_vec(),
            report: self.dataset.report().clone(),
            file_lines: self.file_lines,
            skipped: self.skipped_total(),
            skipped_lines: self.skipped_lines(shown),
            skipped_listed: self.skipped.len().min(shown),
            latin1: self.latin1_files().into_iter().map(str::to_owned).collect(),
            split: SplitCounts::new(&self.dataset, seed, VAL_FRACTION),
        }
    }
}

/// An upload as a page shows it ([`Upload::summary`]): everything but the names, so a data
/// set of millions of names can stay where it was parsed (the engine's worker).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UploadSummary {
    /// The uploaded file names, as given.
    pub files: Vec<String>,
    /// Class names in class-index order.
    pub classes: Vec<String>,
    /// The loader's counts (per class and in total; for TSV lines, of the usable ones).
    pub report: LoadReport,
    /// Lines of the files read ([`Upload::file_lines`]): what the page calls the file lines.
    pub file_lines: usize,
    /// Every line skipped ([`Upload::skipped_total`]): the count the page's data panel and
    /// its upload message both show.
    pub skipped: usize,
    /// The first few unusable TSV lines, as [`Upload::skipped_lines`] lists them.
    pub skipped_lines: String,
    /// How many lines `skipped_lines` lists.
    pub skipped_listed: usize,
    /// Files read as Latin-1 ([`Upload::latin1_files`]).
    pub latin1: Vec<String>,
    /// The split for the page's seed.
    pub split: SplitCounts,
}

/// One source of names before the loader: a class, how errors name it, its text.
struct ClassSource {
    class: String,
    label: String,
    text: String,
}

/// Names collected from TSV lines: label → (first file that used it, names in order).
type TsvClasses = BTreeMap<String, (String, Vec<String>)>;

/// How a text file was decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    /// Valid UTF-8.
    Utf8,
    /// Not valid UTF-8: read as Latin-1 (ISO 8859-1).
    Latin1,
}

/// A TSV line that was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedLine {
    /// The file (for an archive entry: `archive.zip/entry`).
    pub file: String,
    /// Line number, from 1.
    pub line: usize,
    /// `true` for an entry of a `.zip` archive.
    pub in_archive: bool,
    /// Why: [`UploadError::MissingTab`], [`UploadError::ExtraFields`],
    /// [`UploadError::EmptyLabel`] or [`UploadError::NoUsableLetters`].
    pub problem: UploadError,
}

/// What the parser collects besides the class files: TSV texts still to read, skipped lines
/// and encodings.
#[derive(Default)]
struct Collected {
    tsv: Vec<TsvReader>,
    skipped: Vec<SkippedLine>,
    encodings: Vec<(String, TextEncoding)>,
    file_lines: usize,
}

/// `true` for the bidirectional and zero-width control characters removed from labels.
pub fn is_invisible_control(c: char) -> bool {
    matches!(c,
        '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `label` without bidirectional and zero-width controls (and other control characters),
/// trimmed.
pub fn clean_label(label: &str) -> String {
    label
        .chars()
        .filter(|&c| !is_invisible_control(c) && !c.is_control())
        .collect::<String>()
        .trim()
        .to_owned()
}

/// Longest label shown in full ([`display_label`]).
pub const DISPLAY_LABEL_CHARS: usize = 32;

/// `label` for tables: at most [`DISPLAY_LABEL_CHARS`] characters, a longer one cut with "…".
pub fn display_label(label: &str) -> String {
    match label.char_indices().nth(DISPLAY_LABEL_CHARS) {
        Some((i, _)) => format!("{}…", &label[..i]),
        None => label.to_owned(),
    }
}

fn is_binary(bytes: &[u8]) -> bool {
    bytes.contains(&0)
}

/// The text of `bytes`: UTF-8 (without a leading BOM) or, when that fails, Latin-1.
///
/// Errors: [`UploadError::Binary`] for a NUL byte.
fn decode(file: &str, bytes: &[u8]) -> Result<(String, TextEncoding), UploadError> {
    if is_binary(bytes) {
        return Err(UploadError::Binary {
            file: file.to_owned(),
        });
    }
    Ok(match std::str::from_utf8(bytes) {
        Ok(text) => (
            text.strip_prefix('\u{feff}').unwrap_or(text).to_owned(),
            TextEncoding::Utf8,
        ),
        Err(_) => (
            bytes.iter().map(|&b| char::from(b)).collect(),
            TextEncoding::Latin1,
        ),
    })
}

fn lower_ext(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    match base.rsplit_once('.') {
        Some((_, ext)) => ext.to_ascii_lowercase(),
        None => String::new(),
    }
}

/// Non-empty lines [`looks_like_tsv`] reads: enough to tell the two layouts apart without a
/// pass over a whole large file (a later line without a tab is a bad line of the TSV, skipped
/// and reported like any other).
const LAYOUT_SAMPLE_LINES: usize = 1000;

/// `true` when every non-empty line of the first [`LAYOUT_SAMPLE_LINES`] has a tab (and there
/// is at least one such line): a `.txt` that is really a TSV. A class file never has tabs (a
/// name is one line).
fn looks_like_tsv(text: &str) -> bool {
    let mut any = false;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(LAYOUT_SAMPLE_LINES)
    {
        if line.trim().is_empty() {
            continue;
        }
        if !line.contains('\t') {
            return false;
        }
        any = true;
    }
    any
}

fn is_header(name: &str, label: &str) -> bool {
    name.trim().eq_ignore_ascii_case("name")
        && ["label", "language", "class"]
            .iter()
            .any(|h| label.trim().eq_ignore_ascii_case(h))
}

/// Reads the `name<TAB>label` lines of one TSV text into a [`TsvClasses`] a bounded number of
/// lines at a time (see the module docs for the rules); bad lines go to the skipped list.
struct TsvReader {
    file: String,
    text: String,
    in_archive: bool,
    /// Byte offset of the next line.
    pos: usize,
    /// Number of the next line, from 1.
    line_no: usize,
    first_data_line: bool,
    usable: usize,
    first_problem: Option<UploadError>,
}

impl TsvReader {
    fn new(file: &str, text: String, in_archive: bool) -> Self {
        TsvReader {
            file: file.to_owned(),
            text,
            in_archive,
            pos: 0,
            line_no: 1,
            first_data_line: true,
            usable: 0,
            first_problem: None,
        }
    }

    fn skip(&mut self, problem: UploadError, skipped: &mut Vec<SkippedLine>) {
        if self.first_problem.is_none() {
            self.first_problem = Some(problem.clone());
        }
        skipped.push(SkippedLine {
            file: self.file.clone(),
            line: self.line_no,
            in_archive: self.in_archive,
            problem,
        });
    }

    /// Reads at most `max_lines` lines; `Ok(true)` at the end of the text.
    ///
    /// Errors (at the end, only when the file has no usable line): its first bad line, as
    /// [`UploadError::MissingTab`], [`UploadError::ExtraFields`], [`UploadError::EmptyLabel`]
    /// or [`UploadError::NoUsableLetters`], each with the 1-based line.
    fn step(
        &mut self,
        max_lines: usize,
        out: &mut TsvClasses,
        skipped: &mut Vec<SkippedLine>,
    ) -> Result<bool, UploadError> {
        let mut budget = max_lines;
        while self.pos < self.text.len() {
            if budget == 0 {
                return Ok(false);
            }
            budget -= 1;
            let rest = &self.text[self.pos..];
            let (raw, next) = match rest.find('\n') {
                Some(i) => (&rest[..i], self.pos + i + 1),
                None => (rest, self.text.len()),
            };
            let line = raw.strip_suffix('\r').unwrap_or(raw).to_owned();
            self.pos = next;
            self.read_line(&line, out, skipped);
            self.line_no += 1;
        }
        match self.first_problem.take() {
            Some(problem) if self.usable == 0 => Err(problem),
            _ => Ok(true),
        }
    }

    fn read_line(&mut self, line: &str, out: &mut TsvClasses, skipped: &mut Vec<SkippedLine>) {
        if line.trim().is_empty() {
            return;
        }
        let line_no = self.line_no;
        let file = || self.file.clone();
        let Some((name, rest)) = line.split_once('\t') else {
            let file = file();
            self.skip(
                UploadError::MissingTab {
                    file,
                    line: line_no,
                },
                skipped,
            );
            return;
        };
        // Tabs or spaces after the label are ignored; a tab inside it is a third field.
        let label = rest.trim();
        if label.contains('\t') {
            let file = file();
            self.skip(
                UploadError::ExtraFields {
                    file,
                    line: line_no,
                },
                skipped,
            );
            return;
        }
        let label = clean_label(label);
        if std::mem::take(&mut self.first_data_line) && is_header(name, &label) {
            return;
        }
        if label.is_empty() {
            let file = file();
            self.skip(
                UploadError::EmptyLabel {
                    file,
                    line: line_no,
                },
                skipped,
            );
            return;
        }
        if normalize(name).is_empty() {
            let (file, name) = (file(), name.trim().to_owned());
            self.skip(
                UploadError::NoUsableLetters {
                    file,
                    line: line_no,
                    name,
                },
                skipped,
            );
            return;
        }
        self.usable += 1;
        out.entry(label)
            .or_insert_with(|| (self.file.clone(), Vec::new()))
            .1
            .push(name.to_owned());
    }
}

/// The class of a class file: its stem (`data/names/Arabic.txt` → `Arabic`), without
/// invisible controls.
fn class_of(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    clean_label(match base.rsplit_once('.') {
        Some((stem, _)) => stem,
        None => base,
    })
}

/// Sorts one text file (`file` names it in messages) into class files or TSV lines.
fn add_text(
    file: &str,
    bytes: &[u8],
    force_tsv: bool,
    in_archive: bool,
    classes: &mut Vec<ClassSource>,
    collected: &mut Collected,
) -> Result<bool, UploadError> {
    let (text, encoding) = decode(file, bytes)?;
    collected.encodings.push((file.to_owned(), encoding));
    collected.file_lines += text.lines().count();
    if force_tsv || looks_like_tsv(&text) {
        collected.tsv.push(TsvReader::new(file, text, in_archive));
        Ok(true)
    } else {
        classes.push(ClassSource {
            class: class_of(file),
            label: file.to_owned(),
            text,
        });
        Ok(false)
    }
}

/// Builds a data set from uploaded `(file name, bytes)` pairs: `.zip` archives, `.txt` class
/// files and `.tsv` files (see the module docs). A file without a known extension is read as a
/// zip when it starts with the zip signature `PK\x03\x04`. The same as running an
/// [`UploadParser`] to its end.
///
/// Errors: [`UploadError`], naming the file and, for a line-level problem, the 1-based line.
pub fn dataset_from_uploads<S: AsRef<str>, B: AsRef<[u8]>>(
    files: &[(S, B)],
) -> Result<Upload, UploadError> {
    let mut parser = UploadParser::new(files)?;
    while !parser.step(usize::MAX)? {}
    parser.finish()
}

/// Where an [`UploadParser`] is.
enum Phase {
    /// Reading the TSV texts (index of the one being read).
    Tsv(usize),
    /// Building the data set from the classes.
    Build(DatasetBuilder),
    /// Done.
    Done(NamesDataset),
}

/// Parses an upload a bounded number of lines at a time, so a page can show progress, stay
/// responsive and cancel: [`UploadParser::new`] unpacks and decodes the files (one pass over
/// the bytes), each [`UploadParser::step`] reads at most so many lines, and
/// [`UploadParser::finish`] gives the [`Upload`]. The rules and result are
/// [`dataset_from_uploads`]'s.
pub struct UploadParser {
    files: Vec<String>,
    classes: Vec<ClassSource>,
    collected: Collected,
    tsv: TsvClasses,
    layout: UploadLayout,
    /// Bytes of the TSV texts (read in the first phase).
    tsv_bytes: usize,
    phase: Phase,
}

impl UploadParser {
    /// Unpacks archives and decodes every text file.
    ///
    /// Errors: [`UploadError::NoFiles`], [`UploadError::UnsupportedFile`],
    /// [`UploadError::Binary`], [`UploadError::CorruptZip`], [`UploadError::EmptyZip`],
    /// [`UploadError::TooLarge`].
    pub fn new<S: AsRef<str>, B: AsRef<[u8]>>(files: &[(S, B)]) -> Result<Self, UploadError> {
        if files.is_empty() {
            return Err(UploadError::NoFiles);
        }
        let mut classes: Vec<ClassSource> = Vec::new();
        let mut collected = Collected::default();
        let mut saw_tsv = false;
        let mut unpacked: u64 = 0;
        for (name, bytes) in files {
            let (name, bytes) = (name.as_ref(), bytes.as_ref());
            let ext = lower_ext(name);
            let is_zip = ext == "zip" || (ext.is_empty() && bytes.starts_with(b"PK\x03\x04"));
            if is_zip {
                saw_tsv |= add_zip(name, bytes, &mut unpacked, &mut classes, &mut collected)?;
            } else if ext == "tsv" || ext == "txt" {
                saw_tsv |= add_text(
                    name,
                    bytes,
                    ext == "tsv",
                    false,
                    &mut classes,
                    &mut collected,
                )?;
            } else {
                return Err(UploadError::UnsupportedFile {
                    file: name.to_owned(),
                });
            }
        }
        let layout = match (classes.is_empty(), saw_tsv) {
            (false, true) => UploadLayout::Mixed,
            (true, _) => UploadLayout::Tsv,
            (false, false) => UploadLayout::ClassFiles,
        };
        let tsv_bytes = collected.tsv.iter().map(|r| r.text.len()).sum();
        Ok(UploadParser {
            files: files.iter().map(|(n, _)| n.as_ref().to_owned()).collect(),
            classes,
            collected,
            tsv: BTreeMap::new(),
            layout,
            tsv_bytes,
            phase: Phase::Tsv(0),
        })
    }

    /// The share of the work done, 0–1 (TSV lines first, then the loader's pass over every
    /// class, weighted by bytes).
    pub fn progress(&self) -> f64 {
        let tsv_done: usize = self.collected.tsv.iter().map(|r| r.pos).sum();
        let (build_done, build_total) = match &self.phase {
            Phase::Tsv(_) => (0, self.tsv_bytes.max(1)),
            Phase::Build(b) => b.progress(),
            Phase::Done(_) => return 1.0,
        };
        let total = self.tsv_bytes + build_total.max(1);
        ((tsv_done + build_done) as f64 / total as f64).clamp(0.0, 1.0)
    }

    /// Reads at most `max_lines` lines; `Ok(true)` when the data set is built.
    ///
    /// Errors: a TSV file without a usable line (its first bad line), fewer than 2 classes
    /// ([`UploadError::TooFewClasses`], or the loader's [`LoadError::EmptyClass`] for a class
    /// file without names) and the loader's other errors.
    pub fn step(&mut self, max_lines: usize) -> Result<bool, UploadError> {
        let mut budget = max_lines;
        loop {
            match &mut self.phase {
                Phase::Tsv(i) => {
                    let Some(reader) = self.collected.tsv.get_mut(*i) else {
                        self.phase = Phase::Build(self.start_build()?);
                        continue;
                    };
                    let before = reader.line_no;
                    let done = reader.step(budget, &mut self.tsv, &mut self.collected.skipped)?;
                    budget = budget.saturating_sub(reader.line_no - before);
                    if done {
                        *i += 1;
                    } else {
                        return Ok(false);
                    }
                }
                Phase::Build(builder) => {
                    if !builder.step(budget)? {
                        return Ok(false);
                    }
                    let Phase::Build(builder) = std::mem::replace(&mut self.phase, Phase::Tsv(0))
                    else {
                        unreachable!("matched above");
                    };
                    self.phase = Phase::Done(builder.finish());
                }
                Phase::Done(_) => return Ok(true),
            }
        }
    }

    /// The classes of the class files and of the TSV labels, checked for at least 2.
    fn start_build(&mut self) -> Result<DatasetBuilder, UploadError> {
        let mut sources: Vec<(String, String, String)> = std::mem::take(&mut self.classes)
            .into_iter()
            .map(|c| (c.class, c.label, c.text))
            .collect();
        for (label, (file, names)) in std::mem::take(&mut self.tsv) {
            let mut text = names.join("\n");
            text.push('\n');
            sources.push((label.clone(), format!("{file} (label “{label}”)"), text));
        }
        if sources.len() < 2 {
            // A class file without usable names is the clearer message (it names the file).
            if let Some((_, file, text)) = sources
                .iter()
                .find(|(_, _, text)| text.lines().all(|l| normalize(l).is_empty()))
            {
                return Err(UploadError::Load(LoadError::EmptyClass {
                    file: file.clone(),
                    raw_lines: text.lines().count(),
                }));
            }
            let mut found: Vec<String> = sources.into_iter().map(|s| s.0).collect();
            found.dedup();
            return Err(UploadError::TooFewClasses { classes: found });
        }
        DatasetBuilder::new(sources).map_err(UploadError::from)
    }

    /// The upload, once [`UploadParser::step`] returned `true`.
    ///
    /// Errors: [`UploadError::NoFiles`] when called before the end (a caller's mistake).
    pub fn finish(self) -> Result<Upload, UploadError> {
        let Phase::Done(dataset) = self.phase else {
            return Err(UploadError::NoFiles);
        };
        Ok(Upload {
            dataset,
            layout: self.layout,
            files: self.files,
            skipped: self.collected.skipped,
            encodings: self.collected.encodings,
            file_lines: self.collected.file_lines,
        })
    }
}

/// Reads the `.txt` and `.tsv` entries of one archive. Returns whether a TSV was among them.
fn add_zip(
    file: &str,
    bytes: &[u8],
    unpacked: &mut u64,
    classes: &mut Vec<ClassSource>,
    collected: &mut Collected,
) -> Result<bool, UploadError> {
    let corrupt = |e: &dyn fmt::Display| UploadError::CorruptZip {
        file: file.to_owned(),
        message: e.to_string(),
    };
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| corrupt(&e))?;
    let mut found = false;
    let mut saw_tsv = false;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| corrupt(&e))?;
        if !entry.is_file() {
            continue;
        }
        let path = entry.name().replace('\\', "/");
        let base = path.rsplit('/').next().unwrap_or(&path).to_owned();
        if path.starts_with("__MACOSX/") || path.contains("/__MACOSX/") || base.starts_with('.') {
            continue;
        }
        let ext = lower_ext(&base);
        if ext != "txt" && ext != "tsv" {
            continue;
        }
        let budget = MAX_UNCOMPRESSED_BYTES.saturating_sub(*unpacked);
        let mut data = Vec::new();
        (&mut entry)
            .take(budget + 1)
            .read_to_end(&mut data)
            .map_err(|e| corrupt(&e))?;
        *unpacked += data.len() as u64;
        if *unpacked > MAX_UNCOMPRESSED_BYTES {
            return Err(UploadError::TooLarge {
                file: file.to_owned(),
            });
        }
        found = true;
        let label = format!("{file}/{path}");
        saw_tsv |= add_text(&label, &data, ext == "tsv", true, classes, collected)?;
    }
    if !found {
        return Err(UploadError::EmptyZip {
            file: file.to_owned(),
        });
    }
    Ok(saw_tsv)
}
