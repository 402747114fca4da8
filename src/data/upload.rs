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
//! [`super::names`]). A TSV line is stricter, because it was written for this purpose: a line
//! without a tab, an empty label or a name without usable letters is an error naming the file
//! and the 1-based line. Every layout ends in the same loader
//! ([`NamesDataset::from_labelled_files`]), so normalisation, de-duplication and class order are
//! the built-in data set's. The result must have at least 2 classes.
//!
//! Nothing here panics on any input: corrupt archives, binary files and non-UTF-8 text are
//! errors with the file's name.

use super::names::{LoadError, NamesDataset};
use super::normalize::normalize;
use std::collections::BTreeMap;
use std::fmt;
use std::io::{Cursor, Read};

/// Largest total of uncompressed bytes read from the archives of one upload (64 MiB); the
/// real names data set is about 0.2 MiB.
pub const MAX_UNCOMPRESSED_BYTES: u64 = 64 * 1024 * 1024;

/// Why an upload gives no data set. Every message names the file, and the 1-based line where
/// one is at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// A text file is not valid UTF-8; `line` (from 1) holds the first invalid byte.
    NotUtf8 {
        /// The file.
        file: String,
        /// Line number, from 1.
        line: usize,
    },
    /// A `.zip` cannot be read.
    CorruptZip {
        /// The archive.
        file: String,
        /// The zip reader's message.
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
            UploadError::NotUtf8 { file, line } => {
                write!(f, "{file}, line {line}: the file is not valid UTF-8 text")
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
}

/// One source of names before the loader: a class, how errors name it, its text.
struct ClassSource {
    class: String,
    label: String,
    text: String,
}

/// Names collected from TSV lines: label → (first file that used it, names in order).
type TsvClasses = BTreeMap<String, (String, Vec<String>)>;

fn is_binary(bytes: &[u8]) -> bool {
    bytes.contains(&0)
}

fn utf8<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, UploadError> {
    if is_binary(bytes) {
        return Err(UploadError::Binary {
            file: file.to_owned(),
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| UploadError::NotUtf8 {
        file: file.to_owned(),
        line: bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1,
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

fn lower_ext(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    match base.rsplit_once('.') {
        Some((_, ext)) => ext.to_ascii_lowercase(),
        None => String::new(),
    }
}

/// `true` when every non-empty line has a tab (and there is at least one such line): a `.txt`
/// that is really a TSV. A class file never has tabs (a name is one line).
fn looks_like_tsv(text: &str) -> bool {
    let mut any = false;
    for line in text.lines() {
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

/// Reads `name<TAB>label` lines of `text` into `out` (see the module docs for the rules).
///
/// Errors: [`UploadError::MissingTab`], [`UploadError::ExtraFields`],
/// [`UploadError::EmptyLabel`], [`UploadError::NoUsableLetters`], each with the 1-based line.
fn read_tsv(file: &str, text: &str, out: &mut TsvClasses) -> Result<(), UploadError> {
    let mut first_data_line = true;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        let Some((name, rest)) = line.split_once('\t') else {
            return Err(UploadError::MissingTab {
                file: file.to_owned(),
                line: line_no,
            });
        };
        // Tabs or spaces after the label are ignored; a tab inside it is a third field.
        let label = rest.trim();
        if label.contains('\t') {
            return Err(UploadError::ExtraFields {
                file: file.to_owned(),
                line: line_no,
            });
        }
        if std::mem::take(&mut first_data_line) && is_header(name, label) {
            continue;
        }
        if label.is_empty() {
            return Err(UploadError::EmptyLabel {
                file: file.to_owned(),
                line: line_no,
            });
        }
        if normalize(name).is_empty() {
            return Err(UploadError::NoUsableLetters {
                file: file.to_owned(),
                line: line_no,
                name: name.trim().to_owned(),
            });
        }
        out.entry(label.to_owned())
            .or_insert_with(|| (file.to_owned(), Vec::new()))
            .1
            .push(name.to_owned());
    }
    Ok(())
}

/// The class of a class file: its stem (`data/names/Arabic.txt` → `Arabic`).
fn class_of(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    match base.rsplit_once('.') {
        Some((stem, _)) => stem.to_owned(),
        None => base.to_owned(),
    }
}

/// Sorts one text file (`file` names it in messages) into class files or TSV lines.
fn add_text(
    file: &str,
    bytes: &[u8],
    force_tsv: bool,
    classes: &mut Vec<ClassSource>,
    tsv: &mut TsvClasses,
) -> Result<bool, UploadError> {
    let text = utf8(file, bytes)?;
    if force_tsv || looks_like_tsv(text) {
        read_tsv(file, text, tsv)?;
        Ok(true)
    } else {
        classes.push(ClassSource {
            class: class_of(file),
            label: file.to_owned(),
            text: text.to_owned(),
        });
        Ok(false)
    }
}

/// Builds a data set from uploaded `(file name, bytes)` pairs: `.zip` archives, `.txt` class
/// files and `.tsv` files (see the module docs). A file without a known extension is read as a
/// zip when it starts with the zip signature `PK\x03\x04`.
///
/// Errors: [`UploadError`], naming the file and, for a line-level problem, the 1-based line.
pub fn dataset_from_uploads<S: AsRef<str>, B: AsRef<[u8]>>(
    files: &[(S, B)],
) -> Result<Upload, UploadError> {
    if files.is_empty() {
        return Err(UploadError::NoFiles);
    }
    let mut classes: Vec<ClassSource> = Vec::new();
    let mut tsv: TsvClasses = BTreeMap::new();
    let mut saw_tsv = false;
    let mut unpacked: u64 = 0;
    for (name, bytes) in files {
        let (name, bytes) = (name.as_ref(), bytes.as_ref());
        let ext = lower_ext(name);
        let is_zip = ext == "zip" || (ext.is_empty() && bytes.starts_with(b"PK\x03\x04"));
        if is_zip {
            saw_tsv |= add_zip(name, bytes, &mut unpacked, &mut classes, &mut tsv)?;
        } else if ext == "tsv" {
            saw_tsv |= add_text(name, bytes, true, &mut classes, &mut tsv)?;
        } else if ext == "txt" {
            saw_tsv |= add_text(name, bytes, false, &mut classes, &mut tsv)?;
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
    let mut sources: Vec<(String, String, String)> = classes
        .into_iter()
        .map(|c| (c.class, c.label, c.text))
        .collect();
    for (label, (file, names)) in tsv {
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
    let dataset = NamesDataset::from_labelled_files(sources)?;
    Ok(Upload {
        dataset,
        layout,
        files: files.iter().map(|(n, _)| n.as_ref().to_owned()).collect(),
    })
}

/// Reads the `.txt` and `.tsv` entries of one archive. Returns whether a TSV was among them.
fn add_zip(
    file: &str,
    bytes: &[u8],
    unpacked: &mut u64,
    classes: &mut Vec<ClassSource>,
    tsv: &mut TsvClasses,
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
        saw_tsv |= add_text(&label, &data, ext == "tsv", classes, tsv)?;
    }
    if !found {
        return Err(UploadError::EmptyZip {
            file: file.to_owned(),
        });
    }
    Ok(saw_tsv)
}
