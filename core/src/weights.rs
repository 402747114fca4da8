//! Weights ⇄ PyTorch: a model's flat parameters as `.safetensors` bytes, with PyTorch's
//! parameter names and shapes, and back.
//!
//! The file written by [`export_module`] loads into a bare `nn.RNN` / `nn.LSTM` / `nn.GRU`, and
//! the one written by [`export_classifier`] into a module with attributes `rnn` and `fc`, with
//!
//! ```python
//! model.load_state_dict(safetensors.torch.load_file(path))
//! ```
//!
//! Names and shapes are those of [`ParamLayout`]: `weight_ih_l{k}{sfx} [G·H, I_k]`,
//! `weight_hh_l{k}{sfx} [G·H, H]`, `bias_ih_l{k}{sfx} [G·H]`, `bias_hh_l{k}{sfx} [G·H]`
//! (`sfx` = `""` or `"_reverse"`; G = 1 RNN, 4 LSTM i,f,g,o, 3 GRU r,z,n), prefixed by `rnn.`
//! in the classifier, which adds `fc.weight [C, D·H]` and `fc.bias [C]`. Every tensor is
//! written as little-endian `F32`. The file format is Hugging Face's safetensors (8-byte
//! header length, JSON header, raw data); the `safetensors` crate reads and writes it.
//!
//! Metadata (`__metadata__`, string → string) describes the model so that the classifier can be
//! rebuilt from the file alone ([`METADATA_KEYS`]): `format` = `pt`, `model` = `module` |
//! `classifier`, `cell`, `nonlinearity`, `input_size`, `hidden_size`, `num_layers`,
//! `bidirectional` (`true`/`false`), and for the classifier `batch_first` = `true`,
//! `num_classes`, `classes` (a JSON list of strings) and optionally `vocabulary` (the one-hot
//! symbols in index order). PyTorch ignores the metadata.
//!
//! Import checks the file against the layout the model expects and reports **every** problem by
//! tensor name in one [`WeightsError::Mismatch`]: missing tensors, unexpected tensors,
//! unsupported dtypes, wrong shapes and non-finite values. Dtypes: `F32` is read as is; `F64`,
//! `F16` and `BF16` are converted to f32 (F16/BF16 exactly, F64 rounded to nearest) and each
//! conversion is listed in [`ImportedParams::notes`]; any other dtype is rejected. Bytes that
//! are not a safetensors file at all (a renamed PNG) give [`WeightsError::NotSafetensors`],
//! a damaged safetensors file [`WeightsError::Corrupt`]; nothing here panics on input bytes.
//! Every error is a typed value (its data included), so a page words it in its language.
//!
//! Allocation: nothing is sized from the file before it is validated. The header is parsed by
//! the `safetensors` crate (bounded by the bytes given); a classifier rebuilt from a file has
//! its sizes checked against [`ClassifierLimits`] before any layout or parameter vector exists.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use safetensors::tensor::{Dtype, SafeTensors, TensorView, View};

use crate::math::cell::or_list;
use crate::math::model::SeqModel;
use crate::math::params::{CellKind, Nonlinearity, ParamLayout, RnnSpec};

/// Metadata keys written by [`export_module`] / [`export_classifier`] (the last four only for
/// the classifier; `vocabulary` only when given).
pub const METADATA_KEYS: &[&str] = &[
    "format",
    "model",
    "cell",
    "nonlinearity",
    "input_size",
    "hidden_size",
    "num_layers",
    "bidirectional",
    "batch_first",
    "num_classes",
    "classes",
    "vocabulary",
];

/// One thing wrong with one tensor of a file, relative to the layout the model expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TensorProblem {
    /// The model has this tensor, the file does not.
    Missing {
        /// PyTorch name, e.g. `rnn.weight_hh_l0`.
        name: String,
        /// The shape the model expects.
        shape: Vec<usize>,
    },
    /// The file has this tensor, the model does not (PyTorch's "Unexpected key(s)").
    Unexpected {
        /// Name in the file.
        name: String,
        /// Its shape in the file.
        shape: Vec<usize>,
    },
    /// A dtype that is not a float Unroll can read (only F32, F64, F16, BF16 are).
    Dtype {
        /// Tensor name.
        name: String,
        /// The file's dtype, e.g. `I64`.
        dtype: String,
    },
    /// Same name, different shape.
    Shape {
        /// Tensor name.
        name: String,
        /// Shape the model expects.
        expected: Vec<usize>,
        /// Shape in the file.
        got: Vec<usize>,
    },
    /// The tensor holds NaN or ±inf values (after conversion to f32: an F64 value beyond
    /// ±3.4e38 becomes inf and is counted here).
    NonFinite {
        /// Tensor name.
        name: String,
        /// How many of its values are not finite.
        count: usize,
    },
}

impl TensorProblem {
    /// The tensor the problem is about.
    pub fn name(&self) -> &str {
        match self {
            TensorProblem::Missing { name, .. }
            | TensorProblem::Unexpected { name, .. }
            | TensorProblem::Dtype { name, .. }
            | TensorProblem::Shape { name, .. }
            | TensorProblem::NonFinite { name, .. } => name,
        }
    }
}

impl fmt::Display for TensorProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TensorProblem::Missing { name, shape } => write!(f, "missing tensor `{name}` (expected shape {shape:?})"),
            TensorProblem::Unexpected { name, shape } => {
                write!(f, "unexpected tensor `{name}` (shape {shape:?}) is not a parameter of this model")
            }
            TensorProblem::Dtype { name, dtype } => write!(
                f,
                "`{name}` has dtype {dtype}; expected F32 (F64, F16 and BF16 are converted to f32, other dtypes are rejected)"
            ),
            TensorProblem::Shape { name, expected, got } => {
                write!(f, "`{name}` has shape {got:?} in the file, the model expects {expected:?}")
            }
            TensorProblem::NonFinite { name, count } => write!(f, "`{name}` holds {count} non-finite value(s) (NaN or ±inf)"),
        }
    }
}

/// Why weights could not be exported or imported. Typed, so that a page can say it in its own
/// language; [`fmt::Display`] is the English wording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The bytes are not a safetensors file at all (a PNG, a zip, a text file renamed): fewer
    /// than 8 bytes, or a header length and header that no safetensors file has
    /// ([`looks_like_safetensors`]).
    NotSafetensors,
    /// The bytes start like a safetensors file but cannot be read (truncated, a header that
    /// is not valid JSON, offsets that do not cover the data).
    Corrupt {
        /// The reader's own words (English; for a tooltip).
        detail: String,
    },
    /// The header lacks tensors that the model its metadata describes needs (the other
    /// offsets then point at the wrong bytes, which the reader reports as `detail`).
    MissingTensors {
        /// The missing tensors' names, in layout order.
        names: Vec<String>,
        /// The reader's own words (English; for a tooltip).
        detail: String,
    },
    /// The file's tensors do not fit the model: every problem, in layout order, then the
    /// unexpected tensors sorted by name.
    Mismatch(Vec<TensorProblem>),
    /// Metadata needed to rebuild the model is missing, malformed or inconsistent.
    Metadata(MetadataProblem),
    /// The model the file describes is larger than allowed (checked before allocating): every
    /// size out of bounds.
    Limits(Vec<LimitProblem>),
    /// Export: `params` does not have `layout.total_len()` values.
    ParamsLength {
        /// `layout.total_len()`.
        expected: usize,
        /// `params.len()`.
        got: usize,
    },
    /// Export: the safetensors writer failed.
    Write {
        /// The writer's own words (English; for a tooltip).
        detail: String,
    },
}

impl WeightsError {
    /// The library's own words about the failure, for a tooltip (the typed error says the
    /// rest), when there are any.
    pub fn detail(&self) -> Option<&str> {
        match self {
            WeightsError::Corrupt { detail }
            | WeightsError::MissingTensors { detail, .. }
            | WeightsError::Write { detail } => Some(detail),
            WeightsError::Metadata(MetadataProblem::ClassesNotJson { detail }) => Some(detail),
            _ => None,
        }
    }
}

/// What is wrong with a file's metadata, or with the model it describes, for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetadataProblem {
    /// `names` class names for a model of `classes` classes.
    ClassNames {
        /// Class names given.
        names: usize,
        /// The model's number of classes.
        classes: usize,
    },
    /// The vocabulary has `symbols` symbols, the model reads `input_size`.
    VocabularyLength {
        /// Symbols in the vocabulary.
        symbols: usize,
        /// The model's `input_size`.
        input_size: usize,
    },
    /// The metadata's `model` is not `classifier` (e.g. a bare `module`).
    NotClassifier {
        /// The file's `model`.
        model: String,
    },
    /// A key the model needs is missing.
    MissingKey {
        /// The key.
        key: String,
    },
    /// A key that holds a count is not a non-negative integer.
    NotInteger {
        /// The key.
        key: String,
        /// Its value.
        raw: String,
    },
    /// A key that holds a flag is not true or false.
    NotBool {
        /// The key.
        key: String,
        /// Its value.
        raw: String,
    },
    /// `cell` is not one of the cells.
    BadCell {
        /// Its value.
        raw: String,
    },
    /// `nonlinearity` is not tanh or relu.
    BadNonlinearity {
        /// Its value.
        raw: String,
    },
    /// `batch_first` is not true (the classifier is batch_first).
    NotBatchFirst {
        /// Its value.
        raw: String,
    },
    /// `classes` is not a JSON list of strings.
    ClassesNotJson {
        /// The JSON reader's own words (English; for a tooltip).
        detail: String,
    },
    /// `head` is not `last` or `padded`.
    BadHead {
        /// Its value.
        raw: String,
    },
    /// The model reads `got` input symbols; the names classifier reads `expected`.
    InputSize {
        /// The file's `input_size`.
        got: usize,
        /// The names' vocabulary size.
        expected: usize,
    },
    /// The file's vocabulary is not the names' symbols.
    NotNamesVocabulary,
    /// No metadata, and no tensor `name` to read the architecture from.
    NothingToInfer {
        /// The tensor looked for.
        name: String,
        /// The file's first tensor names, sorted.
        found: Vec<String>,
        /// How many more it has.
        more: usize,
    },
    /// No metadata, and tensor `name` has a shape the architecture cannot be read from.
    InferShape {
        /// The tensor.
        name: String,
        /// Its shape.
        shape: Vec<usize>,
        /// The shape expected, e.g. `[G·H, H]`.
        expected: &'static str,
    },
    /// No metadata, and two cells have the same number of gate blocks.
    AmbiguousCell {
        /// `rnn.weight_hh_l0`'s shape.
        shape: Vec<usize>,
        /// The two cells.
        cells: [CellKind; 2],
    },
    /// No metadata, and `rnn.weight_hh_l0`'s rows are no cell's gate count times hidden_size.
    GateRows {
        /// `rnn.weight_hh_l0`'s shape.
        shape: Vec<usize>,
    },
}

impl fmt::Display for MetadataProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let infer = "cannot infer the classifier from the shapes";
        match self {
            MetadataProblem::ClassNames { names, classes } => {
                write!(f, "{names} class names for {classes} classes")
            }
            MetadataProblem::VocabularyLength {
                symbols,
                input_size,
            } => write!(
                f,
                "vocabulary has {symbols} symbols, input_size is {input_size}"
            ),
            MetadataProblem::NotClassifier { model } => write!(
                f,
                "the file holds a `{model}`, not a classifier (a bare nn.RNN/LSTM/GRU has no `fc` head)"
            ),
            MetadataProblem::MissingKey { key } => write!(f, "metadata has no `{key}`"),
            MetadataProblem::NotInteger { key, raw } => write!(
                f,
                "metadata `{key}` = {raw:?} is not a non-negative integer"
            ),
            MetadataProblem::NotBool { key, raw } => {
                write!(f, "metadata `{key}` = {raw:?} is not true or false")
            }
            MetadataProblem::BadCell { raw } => write!(
                f,
                "metadata `cell` = {raw:?} is not {}",
                CellKind::keys_or()
            ),
            MetadataProblem::BadNonlinearity { raw } => {
                write!(f, "metadata `nonlinearity` = {raw:?} is not tanh or relu")
            }
            MetadataProblem::NotBatchFirst { raw } => write!(
                f,
                "metadata `batch_first` = {raw:?}: the classifier is batch_first"
            ),
            MetadataProblem::ClassesNotJson { detail } => {
                write!(f, "`classes` is not a JSON list of strings: {detail}")
            }
            MetadataProblem::BadHead { raw } => {
                write!(f, "metadata `head` = {raw:?} is not last or padded")
            }
            MetadataProblem::InputSize { got, expected } => write!(
                f,
                "the model reads {got} input symbols; the names classifier reads {expected}"
            ),
            MetadataProblem::NotNamesVocabulary => f.write_str(
                "the file's vocabulary is not the names' 57 symbols (a–z, A–Z, space . , ; ')",
            ),
            MetadataProblem::NothingToInfer { name, found, more } => {
                let more = if *more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                write!(
                    f,
                    "the file has no Unroll metadata and no tensor `{name}` to infer the classifier from (it has {found:?}{more})"
                )
            }
            MetadataProblem::InferShape {
                name,
                shape,
                expected,
            } => write!(f, "{infer}: `{name}` has shape {shape:?}, expected {expected}"),
            MetadataProblem::AmbiguousCell { shape, cells: [a, b] } => write!(
                f,
                "{infer}: `rnn.weight_hh_l0` has shape {shape:?}: {} and {} both have {} gate blocks; the file needs its `cell` metadata",
                a.name(),
                b.name(),
                a.gates()
            ),
            MetadataProblem::GateRows { shape } => {
                let (rows, hidden) = (shape[0], shape[1]);
                let mut counts: Vec<String> =
                    CellKind::ALL.iter().map(|c| c.gates().to_string()).collect();
                counts.sort_unstable();
                counts.dedup();
                let cells: Vec<String> = CellKind::ALL
                    .iter()
                    .map(|c| format!("{} {}", c.name(), c.gates()))
                    .collect();
                write!(
                    f,
                    "{infer}: `rnn.weight_hh_l0` has shape {shape:?}: {rows} rows are not {} times hidden_size {hidden} ({})",
                    or_list(&counts),
                    cells.join(", ")
                )
            }
        }
    }
}

/// One size of a file's model outside [`ClassifierLimits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitProblem {
    /// The metadata key: `hidden_size`, `num_layers`, `input_size` or `num_classes`.
    pub key: &'static str,
    /// The file's value (0 is out of bounds too: every size is at least 1).
    pub value: usize,
    /// The largest value allowed.
    pub max: usize,
}

impl fmt::Display for LimitProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LimitProblem { key, value, max } = self;
        if *value == 0 {
            write!(f, "{key} = 0 (must be at least 1)")
        } else {
            write!(f, "{key} = {value} (at most {max})")
        }
    }
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NotSafetensors => f.write_str(
                "not a safetensors file (a .safetensors file starts with an 8-byte header length and a JSON header)",
            ),
            WeightsError::Corrupt { detail } => {
                write!(f, "not a valid .safetensors file: {detail}")
            }
            WeightsError::MissingTensors { names, detail } => {
                let noun = if names.len() == 1 { "tensor" } else { "tensors" };
                write!(
                    f,
                    "not a valid .safetensors file: missing {noun} {} ({detail})",
                    names.join(", ")
                )
            }
            WeightsError::Mismatch(problems) => {
                write!(
                    f,
                    "the weights do not fit this model ({} problem(s)):",
                    problems.len()
                )?;
                for p in problems {
                    write!(f, "\n- {p}")?;
                }
                Ok(())
            }
            WeightsError::Metadata(why) => {
                write!(f, "cannot rebuild the model from the file: {why}")
            }
            WeightsError::Limits(problems) => {
                let list: Vec<String> = problems.iter().map(ToString::to_string).collect();
                write!(f, "model too large: {}", list.join(", "))
            }
            WeightsError::ParamsLength { expected, got } => {
                write!(
                    f,
                    "parameter vector has {got} values, the layout has {expected}"
                )
            }
            WeightsError::Write { detail } => write!(f, "writing the file failed: {detail}"),
        }
    }
}

/// The largest header the safetensors format allows (the reader's own limit).
const MAX_HEADER_BYTES: u64 = 100_000_000;

/// `true` when `bytes` start as every safetensors file does: an 8-byte little-endian header
/// length of at most 100 MB that is not 0, then a header that opens a JSON object (`{`,
/// after optional spaces). A PNG (`\x89PNG…` reads as a length of ~10^18), a zip or a text
/// file fails this; a truncated safetensors file passes (and is [`WeightsError::Corrupt`]).
pub fn looks_like_safetensors(bytes: &[u8]) -> bool {
    let Some(len) = bytes.get(..8) else {
        return false;
    };
    let len = u64::from_le_bytes(len.try_into().expect("8 bytes"));
    if len == 0 || len > MAX_HEADER_BYTES {
        return false;
    }
    bytes[8..]
        .iter()
        .take(len as usize)
        .find(|b| !b.is_ascii_whitespace())
        == Some(&b'{')
}

impl std::error::Error for WeightsError {}

/// The result of an import: parameters in the expected layout plus what was in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedParams {
    /// `[layout.total_len()]` flat f32 parameters in the layout's order.
    pub params: Vec<f32>,
    /// The file's `__metadata__` (empty when it has none).
    pub metadata: BTreeMap<String, String>,
    /// Conversions that happened, one line per converted tensor, e.g.
    /// "`fc.weight`: converted from F64 to f32".
    pub notes: Vec<String>,
}

/// A flat f32 tensor as the safetensors writer wants it (little-endian bytes).
struct F32Tensor<'a> {
    shape: Vec<usize>,
    data: &'a [f32],
}

impl View for F32Tensor<'_> {
    fn dtype(&self) -> Dtype {
        Dtype::F32
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> Cow<'_, [u8]> {
        Cow::Owned(self.data.iter().flat_map(|v| v.to_le_bytes()).collect())
    }
    fn data_len(&self) -> usize {
        self.data.len() * 4
    }
}

/// Writes `params` (laid out by `layout`) as safetensors bytes: one F32 tensor per layout
/// entry under its PyTorch name and shape, plus `metadata` as `__metadata__`.
///
/// # Errors
/// [`WeightsError::ParamsLength`] when `params.len() != layout.total_len()`;
/// [`WeightsError::Write`] if the writer fails (e.g. a header over 100 MB).
pub fn export_params(
    layout: &ParamLayout,
    params: &[f32],
    metadata: &BTreeMap<String, String>,
) -> Result<Vec<u8>, WeightsError> {
    if params.len() != layout.total_len() {
        return Err(WeightsError::ParamsLength {
            expected: layout.total_len(),
            got: params.len(),
        });
    }
    let tensors = layout.entries.iter().map(|e| {
        (
            e.name.clone(),
            F32Tensor {
                shape: e.shape.clone(),
                data: &params[e.range()],
            },
        )
    });
    let info = if metadata.is_empty() {
        None
    } else {
        Some(
            metadata
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        )
    };
    safetensors::serialize(tensors, info).map_err(|e| WeightsError::Write {
        detail: e.to_string(),
    })
}

/// Parses the header (and checks that the offsets cover the buffer exactly); also returns the
/// `__metadata__` (empty when there is none).
///
/// Errors: [`WeightsError::NotSafetensors`] for bytes that do not start like a safetensors file
/// ([`looks_like_safetensors`]), [`WeightsError::Corrupt`] for one the reader rejects.
fn parse(bytes: &[u8]) -> Result<(SafeTensors<'_>, BTreeMap<String, String>), WeightsError> {
    if !looks_like_safetensors(bytes) {
        return Err(WeightsError::NotSafetensors);
    }
    let corrupt = |e: safetensors::SafeTensorError| WeightsError::Corrupt {
        detail: e.to_string(),
    };
    let (_, header) = SafeTensors::read_metadata(bytes).map_err(corrupt)?;
    let meta = header
        .metadata()
        .as_ref()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default();
    Ok((SafeTensors::deserialize(bytes).map_err(corrupt)?, meta))
}

/// The file's `__metadata__` without reading any tensor (empty map when it has none).
///
/// # Errors
/// [`WeightsError::NotSafetensors`] or [`WeightsError::Corrupt`] for unreadable bytes.
pub fn read_metadata(bytes: &[u8]) -> Result<BTreeMap<String, String>, WeightsError> {
    Ok(parse(bytes)?.1)
}

/// Decodes one tensor's little-endian data into `out` (which has the tensor's element count).
/// Returns `false` for a dtype that is not F32/F64/F16/BF16.
fn decode_into(view: &TensorView<'_>, out: &mut [f32]) -> bool {
    let data = view.data();
    match view.dtype() {
        Dtype::F32 => {
            for (o, c) in out.iter_mut().zip(data.chunks_exact(4)) {
                *o = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
        }
        Dtype::F64 => {
            for (o, c) in out.iter_mut().zip(data.chunks_exact(8)) {
                *o = f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]) as f32;
            }
        }
        Dtype::F16 => {
            for (o, c) in out.iter_mut().zip(data.chunks_exact(2)) {
                *o = half::f16::from_le_bytes([c[0], c[1]]).to_f32();
            }
        }
        Dtype::BF16 => {
            for (o, c) in out.iter_mut().zip(data.chunks_exact(2)) {
                *o = half::bf16::from_le_bytes([c[0], c[1]]).to_f32();
            }
        }
        _ => return false,
    }
    true
}

/// Reads safetensors `bytes` into a flat vector laid out by `layout` (the model's expected
/// tensors), checking every name, dtype, shape and value.
///
/// - Returns `[layout.total_len()]` parameters, the metadata and conversion notes.
///
/// # Errors
/// [`WeightsError::Corrupt`] for unreadable bytes; [`WeightsError::Mismatch`] listing every
/// missing tensor, unexpected tensor, unsupported dtype, wrong shape and tensor with non-finite
/// values, by name.
pub fn import_params(bytes: &[u8], layout: &ParamLayout) -> Result<ImportedParams, WeightsError> {
    let (st, meta) = parse(bytes)?;
    import_parsed(&st, meta, layout)
}

fn import_parsed(
    st: &SafeTensors<'_>,
    metadata: BTreeMap<String, String>,
    layout: &ParamLayout,
) -> Result<ImportedParams, WeightsError> {
    let mut problems = Vec::new();
    let mut notes = Vec::new();
    let mut params = vec![0.0f32; layout.total_len()];
    for entry in &layout.entries {
        let view = match st.tensor(&entry.name) {
            Ok(v) => v,
            Err(_) => {
                problems.push(TensorProblem::Missing {
                    name: entry.name.clone(),
                    shape: entry.shape.clone(),
                });
                continue;
            }
        };
        let dtype = view.dtype();
        let float = matches!(dtype, Dtype::F32 | Dtype::F64 | Dtype::F16 | Dtype::BF16);
        if !float {
            problems.push(TensorProblem::Dtype {
                name: entry.name.clone(),
                dtype: dtype.to_string(),
            });
        }
        if view.shape() != entry.shape.as_slice() {
            problems.push(TensorProblem::Shape {
                name: entry.name.clone(),
                expected: entry.shape.clone(),
                got: view.shape().to_vec(),
            });
            continue;
        }
        if !float {
            continue;
        }
        // The shape matches the layout, so the element count is the layout's (trusted).
        let out = &mut params[entry.range()];
        decode_into(&view, out);
        if dtype != Dtype::F32 {
            notes.push(format!("`{}`: converted from {dtype} to f32", entry.name));
        }
        let count = out.iter().filter(|v| !v.is_finite()).count();
        if count > 0 {
            problems.push(TensorProblem::NonFinite {
                name: entry.name.clone(),
                count,
            });
        }
    }
    let mut unexpected: Vec<(&str, TensorView<'_>)> = st
        .iter()
        .filter(|(name, _)| layout.get(name).is_none())
        .collect();
    unexpected.sort_by(|a, b| a.0.cmp(b.0));
    for (name, view) in unexpected {
        problems.push(TensorProblem::Unexpected {
            name: name.to_string(),
            shape: view.shape().to_vec(),
        });
    }
    if !problems.is_empty() {
        return Err(WeightsError::Mismatch(problems));
    }
    Ok(ImportedParams {
        params,
        metadata,
        notes,
    })
}

/// The metadata [`export_module`] writes for `spec` (`model` = `module`).
pub fn module_metadata(spec: &RnnSpec) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    m.insert("format".to_string(), "pt".to_string());
    m.insert("model".to_string(), "module".to_string());
    m.insert("cell".to_string(), spec.cell.as_str().to_string());
    m.insert(
        "nonlinearity".to_string(),
        match spec.nonlinearity {
            Nonlinearity::Tanh => "tanh",
            Nonlinearity::Relu => "relu",
        }
        .to_string(),
    );
    m.insert("input_size".to_string(), spec.input_size.to_string());
    m.insert("hidden_size".to_string(), spec.hidden_size.to_string());
    m.insert("num_layers".to_string(), spec.num_layers.to_string());
    m.insert("bidirectional".to_string(), spec.bidirectional.to_string());
    m
}

/// A bare `nn.RNN` / `nn.LSTM` / `nn.GRU`'s parameters (layout [`ParamLayout::rnn`]`(spec, "")`,
/// names `weight_ih_l0`, …) as safetensors bytes with [`module_metadata`].
///
/// # Errors
/// As [`export_params`].
pub fn export_module(spec: &RnnSpec, params: &[f32]) -> Result<Vec<u8>, WeightsError> {
    export_params(&ParamLayout::rnn(spec, ""), params, &module_metadata(spec))
}

/// Reads a bare module's parameters for `spec` (the caller's architecture; the file's metadata
/// is returned, not trusted).
///
/// # Errors
/// As [`import_params`].
pub fn import_module(bytes: &[u8], spec: &RnnSpec) -> Result<ImportedParams, WeightsError> {
    import_params(bytes, &ParamLayout::rnn(spec, ""))
}

/// What a classifier file says about the model besides its tensors (`Default`: neither).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassifierInfo {
    /// Class names in logit order (`[C]`); `None` when the file does not say.
    pub classes: Option<Vec<String>>,
    /// The one-hot symbols in index order (`input_size` characters); `None` when not given.
    pub vocabulary: Option<String>,
}

/// The metadata [`export_classifier`] writes (`model` = `classifier`).
pub fn classifier_metadata(
    spec: &RnnSpec,
    num_classes: usize,
    info: &ClassifierInfo,
) -> BTreeMap<String, String> {
    let mut m = module_metadata(spec);
    m.insert("model".to_string(), "classifier".to_string());
    m.insert("batch_first".to_string(), "true".to_string());
    m.insert("num_classes".to_string(), num_classes.to_string());
    if let Some(classes) = &info.classes {
        m.insert(
            "classes".to_string(),
            serde_json::to_string(classes).expect("a list of strings serialises"),
        );
    }
    if let Some(vocabulary) = &info.vocabulary {
        m.insert("vocabulary".to_string(), vocabulary.clone());
    }
    m
}

/// The name classifier's parameters (layout `model.layout`: `rnn.weight_ih_l0`, …, `fc.weight`,
/// `fc.bias`) as safetensors bytes with [`classifier_metadata`], loadable into a PyTorch module
/// with attributes `rnn` (batch_first) and `fc`.
///
/// # Errors
/// As [`export_params`]; [`WeightsError::Metadata`] when `info.classes` does not have
/// `model.outputs` names or `info.vocabulary` not `spec.input_size` symbols.
pub fn export_classifier(
    model: &SeqModel,
    params: &[f32],
    info: &ClassifierInfo,
) -> Result<Vec<u8>, WeightsError> {
    check_info(info, model.spec.input_size, model.outputs)?;
    export_params(
        &model.layout,
        params,
        &classifier_metadata(&model.spec, model.outputs, info),
    )
}

fn check_info(
    info: &ClassifierInfo,
    input_size: usize,
    num_classes: usize,
) -> Result<(), WeightsError> {
    if let Some(classes) = &info.classes {
        if classes.len() != num_classes {
            return Err(WeightsError::Metadata(MetadataProblem::ClassNames {
                names: classes.len(),
                classes: num_classes,
            }));
        }
    }
    if let Some(vocabulary) = &info.vocabulary {
        let n = vocabulary.chars().count();
        if n != input_size {
            return Err(WeightsError::Metadata(MetadataProblem::VocabularyLength {
                symbols: n,
                input_size,
            }));
        }
    }
    Ok(())
}

/// Largest classifier [`import_classifier`] rebuilds; checked on the file's header before
/// anything is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassifierLimits {
    /// Largest `hidden_size` H.
    pub max_hidden_size: usize,
    /// Largest `num_layers` L.
    pub max_num_layers: usize,
    /// Largest one-hot vocabulary (`input_size`).
    pub max_input_size: usize,
    /// Largest number of classes C.
    pub max_classes: usize,
}

impl ClassifierLimits {
    /// The training page's limits: hidden_size ≤ 256, num_layers ≤ 4; a vocabulary of
    /// at most 256 symbols and at most 1000 classes.
    pub const UI: ClassifierLimits = ClassifierLimits {
        max_hidden_size: 256,
        max_num_layers: 4,
        max_input_size: 256,
        max_classes: 1000,
    };
}

/// A classifier rebuilt from a file.
#[derive(Clone, Debug)]
pub struct LoadedClassifier {
    /// The model (spec and `num_classes` from the file).
    pub model: SeqModel,
    /// `[model.layout.total_len()]` parameters.
    pub params: Vec<f32>,
    /// Class names and vocabulary, where the file gives them.
    pub info: ClassifierInfo,
    /// How the architecture was found and what was converted, e.g. "no metadata: architecture
    /// inferred from tensor shapes" or "`fc.bias`: converted from F64 to f32".
    pub notes: Vec<String>,
}

/// Rebuilds the name classifier from safetensors bytes: the architecture comes from the
/// metadata written by [`export_classifier`] or, for a file without it (e.g.
/// `safetensors.torch.save_file(model.state_dict(), path)` in PyTorch), from the tensor shapes
/// (cell from `rnn.weight_hh_l0 [G·H, H]`, layers and directions from the names, classes from
/// `fc.bias [C]`; an RNN is then assumed to use tanh). The sizes are checked against `limits`
/// before anything is allocated, then every tensor as in [`import_params`].
///
/// # Errors
/// [`WeightsError::Corrupt`], [`WeightsError::Metadata`] (a missing or malformed key, class names
/// that do not match `num_classes`), [`WeightsError::Limits`], [`WeightsError::Mismatch`].
pub fn import_classifier(
    bytes: &[u8],
    limits: &ClassifierLimits,
) -> Result<LoadedClassifier, WeightsError> {
    let (st, meta) = parse(bytes).map_err(|e| missing_in_header(bytes, limits, &e).unwrap_or(e))?;
    let mut notes = Vec::new();
    let (spec, num_classes) = if meta.contains_key("cell") {
        if let Some(model) = meta.get("model") {
            if model != "classifier" {
                return Err(WeightsError::Metadata(MetadataProblem::NotClassifier {
                    model: model.clone(),
                }));
            }
        }
        spec_from_metadata(&meta)?
    } else {
        notes.push("no metadata: architecture inferred from tensor shapes".to_string());
        let inferred = infer_classifier_spec(&st)?;
        if inferred.0.cell.spec().takes_nonlinearity {
            notes.push(format!(
                "no metadata: {} nonlinearity assumed to be tanh",
                inferred.0.cell.name()
            ));
        }
        inferred
    };
    check_limits(&spec, num_classes, limits)?;
    let info = ClassifierInfo {
        classes: match meta.get("classes") {
            None => None,
            Some(json) => Some(serde_json::from_str::<Vec<String>>(json).map_err(|e| {
                WeightsError::Metadata(MetadataProblem::ClassesNotJson {
                    detail: e.to_string(),
                })
            })?),
        },
        vocabulary: meta.get("vocabulary").cloned(),
    };
    check_info(&info, spec.input_size, num_classes)?;
    let model = SeqModel::new(spec, num_classes);
    let imported = import_parsed(&st, BTreeMap::new(), &model.layout)?;
    notes.extend(imported.notes);
    Ok(LoadedClassifier {
        model,
        params: imported.params,
        info,
        notes,
    })
}

/// When the safetensors parser rejects a classifier file, a cheaper look at the raw header
/// (8-byte little-endian length, then JSON) can often say why: a tensor the metadata's model
/// needs is not in it (removing it leaves the other offsets pointing at the wrong bytes, which
/// the parser reports as an invalid offset). Returns that as [`WeightsError::MissingTensors`]
/// with the parser's message as its detail; `None` when the header or its metadata cannot be
/// read or nothing is missing.
fn missing_in_header(
    bytes: &[u8],
    limits: &ClassifierLimits,
    error: &WeightsError,
) -> Option<WeightsError> {
    let WeightsError::Corrupt { detail } = error else {
        return None;
    };
    let len = u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?);
    let end = 8usize.checked_add(usize::try_from(len).ok()?)?;
    let header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(bytes.get(8..end)?).ok()?;
    let meta: BTreeMap<String, String> = header
        .get("__metadata__")?
        .as_object()?
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
        .collect();
    if !meta.contains_key("cell") {
        return None;
    }
    let (spec, num_classes) = spec_from_metadata(&meta).ok()?;
    check_limits(&spec, num_classes, limits).ok()?;
    let layout = SeqModel::new(spec, num_classes).layout;
    let names: Vec<String> = layout
        .entries
        .iter()
        .map(|e| e.name.clone())
        .filter(|name| !header.contains_key(name))
        .collect();
    if names.is_empty() {
        return None;
    }
    Some(WeightsError::MissingTensors {
        names,
        detail: detail.clone(),
    })
}

fn meta_usize(meta: &BTreeMap<String, String>, key: &str) -> Result<usize, WeightsError> {
    let raw = meta.get(key).ok_or_else(|| {
        WeightsError::Metadata(MetadataProblem::MissingKey {
            key: key.to_owned(),
        })
    })?;
    raw.trim().parse::<usize>().map_err(|_| {
        WeightsError::Metadata(MetadataProblem::NotInteger {
            key: key.to_owned(),
            raw: raw.clone(),
        })
    })
}

fn meta_bool(meta: &BTreeMap<String, String>, key: &str) -> Result<bool, WeightsError> {
    match meta.get(key).map(|s| s.trim().to_ascii_lowercase()) {
        None => Err(WeightsError::Metadata(MetadataProblem::MissingKey {
            key: key.to_owned(),
        })),
        Some(s) if s == "true" || s == "1" => Ok(true),
        Some(s) if s == "false" || s == "0" => Ok(false),
        Some(s) => Err(WeightsError::Metadata(MetadataProblem::NotBool {
            key: key.to_owned(),
            raw: s,
        })),
    }
}

/// `(spec, num_classes)` from the metadata keys of [`classifier_metadata`].
fn spec_from_metadata(meta: &BTreeMap<String, String>) -> Result<(RnnSpec, usize), WeightsError> {
    let cell_raw = &meta["cell"];
    let cell = CellKind::parse(cell_raw.trim()).ok_or_else(|| {
        WeightsError::Metadata(MetadataProblem::BadCell {
            raw: cell_raw.clone(),
        })
    })?;
    let nonlinearity = match meta
        .get("nonlinearity")
        .map(|s| s.trim().to_ascii_lowercase())
        .as_deref()
    {
        None | Some("tanh") => Nonlinearity::Tanh,
        Some("relu") => Nonlinearity::Relu,
        Some(other) => {
            return Err(WeightsError::Metadata(MetadataProblem::BadNonlinearity {
                raw: other.to_owned(),
            }))
        }
    };
    if let Some(bf) = meta.get("batch_first") {
        if !matches!(bf.trim().to_ascii_lowercase().as_str(), "true" | "1") {
            return Err(WeightsError::Metadata(MetadataProblem::NotBatchFirst {
                raw: bf.clone(),
            }));
        }
    }
    let spec = RnnSpec {
        cell,
        nonlinearity,
        input_size: meta_usize(meta, "input_size")?,
        hidden_size: meta_usize(meta, "hidden_size")?,
        num_layers: meta_usize(meta, "num_layers")?,
        bidirectional: meta_bool(meta, "bidirectional")?,
    };
    Ok((spec, meta_usize(meta, "num_classes")?))
}

/// `(spec, num_classes)` from the shapes of `rnn.weight_ih_l0 [G·H, I]`,
/// `rnn.weight_hh_l0 [G·H, H]`, the `rnn.weight_ih_l{k}` names present, `rnn.weight_ih_l0_reverse`
/// and `fc.bias [C]`. Only reads shapes; allocates nothing sized by them.
fn infer_classifier_spec(st: &SafeTensors<'_>) -> Result<(RnnSpec, usize), WeightsError> {
    let shape_of = |name: &str| -> Result<Vec<usize>, WeightsError> {
        st.tensor(name).map(|v| v.shape().to_vec()).map_err(|_| {
            let mut names = st.names();
            names.sort_unstable();
            WeightsError::Metadata(MetadataProblem::NothingToInfer {
                name: name.to_owned(),
                found: names.iter().take(8).map(|n| n.to_string()).collect(),
                more: names.len().saturating_sub(8),
            })
        })
    };
    let w_hh = shape_of("rnn.weight_hh_l0")?;
    let w_ih = shape_of("rnn.weight_ih_l0")?;
    let fc_bias = shape_of("fc.bias")?;
    let bad = |name: &str, shape: &[usize], expected: &'static str| {
        WeightsError::Metadata(MetadataProblem::InferShape {
            name: name.to_owned(),
            shape: shape.to_vec(),
            expected,
        })
    };
    let (gh, hidden_size) = match w_hh.as_slice() {
        [gh, h] if *h > 0 => (*gh, *h),
        other => return Err(bad("rnn.weight_hh_l0", other, "[G·H, H]")),
    };
    // The cell whose gate-block count G gives `G·H` rows; without metadata a cell is only
    // known by that count, so two cells with the same G cannot be told apart.
    let blocks = |cell: &CellKind| cell.gates() * hidden_size == gh;
    let mut matching = CellKind::ALL.into_iter().filter(blocks);
    let cell = match (matching.next(), matching.next()) {
        (Some(cell), None) => cell,
        (Some(a), Some(b)) => {
            return Err(WeightsError::Metadata(MetadataProblem::AmbiguousCell {
                shape: w_hh.clone(),
                cells: [a, b],
            }))
        }
        (None, _) => {
            return Err(WeightsError::Metadata(MetadataProblem::GateRows {
                shape: w_hh.clone(),
            }))
        }
    };
    let input_size = match w_ih.as_slice() {
        [_, i] => *i,
        other => return Err(bad("rnn.weight_ih_l0", other, "[G·H, I]")),
    };
    let num_classes = match fc_bias.as_slice() {
        [c] => *c,
        other => return Err(bad("fc.bias", other, "[C]")),
    };
    // Count consecutive layers; the count is bounded by the number of tensors in the file.
    let names: std::collections::HashSet<&str> = st.names().into_iter().collect();
    let num_layers = (0..)
        .take_while(|k| names.contains(format!("rnn.weight_ih_l{k}").as_str()))
        .count();
    let bidirectional = names.contains("rnn.weight_ih_l0_reverse");
    let spec = RnnSpec::stacked(cell, input_size, hidden_size, num_layers, bidirectional);
    Ok((spec, num_classes))
}

fn check_limits(
    spec: &RnnSpec,
    num_classes: usize,
    limits: &ClassifierLimits,
) -> Result<(), WeightsError> {
    let checks = [
        ("hidden_size", spec.hidden_size, limits.max_hidden_size),
        ("num_layers", spec.num_layers, limits.max_num_layers),
        ("input_size", spec.input_size, limits.max_input_size),
        ("num_classes", num_classes, limits.max_classes),
    ];
    let out: Vec<LimitProblem> = checks
        .into_iter()
        .filter(|&(_, value, max)| value == 0 || value > max)
        .map(|(key, value, max)| LimitProblem { key, value, max })
        .collect();
    if out.is_empty() {
        Ok(())
    } else {
        Err(WeightsError::Limits(out))
    }
}
