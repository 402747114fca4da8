//! Shared test support: the PyTorch fixture format and a fixture suite runner that any backend
//! (the CPU reference, the WGSL kernels) plugs into. Values are compared with
//! `Tol::FIXTURE` (`tol`): |actual − expected| ≤ 1e-5 + 1e-4·|expected|, NaN failing.
#![allow(
    dead_code,
    reason = "the fixture format in full (e.g. each fixture's `name`), not only what the suite reads"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::tol::Tol;
use unroll_core::config::lessons::ShapesConfig;
use unroll_core::math::model::{SeqBatch, SeqModel};
use unroll_core::math::optim::{Adam, AdamConfig};
use unroll_core::math::params::{CellKind, Nonlinearity, ParamLayout, RnnSpec};
use unroll_core::math::recurrent::{RnnModule, TensorRef};

// ---------------------------------------------------------------------------------------------
// Fixture format: PyTorch float64 runs written as JSON (inputs, parameters, outputs, gradients)
// ---------------------------------------------------------------------------------------------

/// The shapes lesson's configuration of `nn.RNN/LSTM/GRU(input_size, hidden_size,
/// num_layers, bidirectional=…)`, its other settings the defaults.
pub fn shape_of(
    cell: CellKind,
    input_size: usize,
    hidden_size: usize,
    num_layers: usize,
    bidirectional: bool,
) -> ShapesConfig {
    ShapesConfig {
        cell,
        input_size,
        hidden_size,
        num_layers,
        bidirectional,
        ..ShapesConfig::default()
    }
}

/// The `state_dict` names of a one-layer unidirectional module under a linear head, in
/// PyTorch's order (`rnn` and `fc` attributes).
pub const ONE_LAYER_CLASSIFIER: [&str; 6] = [
    "rnn.weight_ih_l0",
    "rnn.weight_hh_l0",
    "rnn.bias_ih_l0",
    "rnn.bias_hh_l0",
    "fc.weight",
    "fc.bias",
];

/// Every cell with each nonlinearity it takes: RNN (tanh and ReLU), LSTM, GRU.
pub const CELL_VARIANTS: [(CellKind, Nonlinearity); 4] = [
    (CellKind::Rnn, Nonlinearity::Tanh),
    (CellKind::Rnn, Nonlinearity::Relu),
    (CellKind::Lstm, Nonlinearity::Tanh),
    (CellKind::Gru, Nonlinearity::Tanh),
];

/// `[B, T]` token rows of `names` (each a list of symbols) padded with 0 to `seq_len`, with
/// their lengths and `labels`, as a batch-first batch.
pub fn padded_batch(names: &[&[u32]], labels: Vec<u32>, seq_len: usize) -> SeqBatch {
    let mut tokens = vec![0u32; names.len() * seq_len];
    for (b, n) in names.iter().enumerate() {
        tokens[b * seq_len..][..n.len()].copy_from_slice(n);
    }
    SeqBatch::of_batch_first(
        names.len(),
        seq_len,
        &tokens,
        names.iter().map(|n| n.len() as u32).collect(),
        labels,
    )
}

/// Inputs where a textbook tanh/sigmoid (CPU or WGSL) overflows to NaN, including ±∞.
pub const EXTREMES: [f32; 15] = [
    f32::NEG_INFINITY,
    -1000.0,
    -100.0,
    -89.0,
    -88.7,
    -9.1,
    -1.0,
    0.0,
    1.0,
    9.1,
    88.7,
    89.0,
    100.0,
    1000.0,
    f32::INFINITY,
];

/// A tensor as stored in the fixtures: row-major float64.
#[derive(Clone, Debug, Deserialize)]
pub struct Tensor {
    /// Row-major shape.
    pub shape: Vec<usize>,
    /// Values.
    pub data: Vec<f64>,
}

impl Tensor {
    /// The values rounded to f32.
    pub fn to_f32(&self) -> Vec<f32> {
        self.data.iter().map(|&v| v as f32).collect()
    }

    /// Checks `actual` against this tensor (multi-index messages).
    pub fn check(&self, name: &str, actual: &[f32]) -> Result<(), String> {
        Tol::FIXTURE.check_shaped(name, actual, &self.data, &self.shape)
    }
}

/// A module fixture (`rnn_*`, `lstm_*`, `gru_*`).
#[derive(Clone, Debug, Deserialize)]
pub struct ModuleFixture {
    pub name: String,
    pub cell: String,
    #[serde(default)]
    pub nonlinearity: Option<String>,
    pub input_size: usize,
    pub hidden_size: usize,
    pub num_layers: usize,
    pub bidirectional: bool,
    pub batch_first: bool,
    pub batch: usize,
    pub seq_len: usize,
    pub params: BTreeMap<String, Tensor>,
    pub input: Tensor,
    pub h0: Option<Tensor>,
    pub c0: Option<Tensor>,
    pub output: Tensor,
    pub h_n: Tensor,
    pub c_n: Option<Tensor>,
    pub grad_output: Tensor,
    pub grad_h_n: Tensor,
    pub grad_c_n: Option<Tensor>,
    pub grads: BTreeMap<String, Tensor>,
    pub param_count: usize,
    #[serde(default)]
    pub lengths: Option<Vec<u32>>,
}

/// A classifier-step fixture (`clf_*`).
#[derive(Clone, Debug, Deserialize)]
pub struct ClassifierFixture {
    pub name: String,
    pub cell: String,
    pub vocab_size: usize,
    pub hidden_size: usize,
    #[serde(default = "one")]
    pub num_layers: usize,
    #[serde(default)]
    pub bidirectional: bool,
    pub num_classes: usize,
    pub batch: usize,
    pub seq_len: usize,
    pub input_indices: Vec<Vec<u32>>,
    pub lengths: Vec<u32>,
    pub targets: Vec<u32>,
    pub params_before: BTreeMap<String, Tensor>,
    pub logits: Tensor,
    pub loss: f64,
    pub grads: BTreeMap<String, Tensor>,
    pub params_after_one_adam_step: BTreeMap<String, Tensor>,
}

fn one() -> usize {
    1
}

/// Any fixture file.
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one value per fixture file, never stored in bulk (the sizes differ by target)"
)]
pub enum Fixture {
    /// `nn.RNN`/`nn.LSTM`/`nn.GRU` forward + backward.
    Module(ModuleFixture),
    /// One classifier training step.
    Classifier(ClassifierFixture),
}

/// Every `*.json` in `core/tests/fixtures/` and in the folder named by `UNROLL_FIXTURES` (if set),
/// sorted per folder.
///
/// # Panics
/// If a folder cannot be read (a missing `UNROLL_FIXTURES` folder is an error, not a skip).
pub fn fixture_paths() -> Vec<PathBuf> {
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")];
    if let Some(extra) = std::env::var_os("UNROLL_FIXTURES") {
        dirs.push(PathBuf::from(extra));
    }
    let mut out = Vec::new();
    for dir in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read fixture folder {}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// Parses one fixture file: `Failed` for unreadable or malformed JSON, `Unsupported` for a
/// kind of fixture this suite does not know.
pub fn load_fixture(path: &Path) -> Result<Fixture, BackendError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| BackendError::Failed(format!("cannot read: {e}")))?;
    parse_fixture(&text)
}

/// Parses one fixture's JSON text, as [`load_fixture`].
pub fn parse_fixture(text: &str) -> Result<Fixture, BackendError> {
    let failed = |e: String| BackendError::Failed(e);
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| failed(format!("not JSON: {e}")))?;
    if value.get("params_before").is_some() {
        serde_json::from_value(value)
            .map(Fixture::Classifier)
            .map_err(|e| failed(format!("bad classifier fixture: {e}")))
    } else if value.get("params").is_some() && value.get("cell").is_some() {
        serde_json::from_value(value)
            .map(Fixture::Module)
            .map_err(|e| failed(format!("bad module fixture: {e}")))
    } else {
        Err(BackendError::Unsupported(
            "neither a module fixture (cell, params) nor a classifier fixture (params_before)"
                .into(),
        ))
    }
}

/// Flat parameters in `layout` order from named fixture tensors (every name must be present,
/// no extra names, each with the layout's shape).
pub fn flatten_params(
    layout: &ParamLayout,
    named: &BTreeMap<String, Tensor>,
    what: &str,
) -> Result<Vec<f32>, String> {
    let mut flat = vec![0.0f32; layout.total_len()];
    for entry in &layout.entries {
        let t = named
            .get(&entry.name)
            .ok_or_else(|| format!("{what}: missing {}", entry.name))?;
        if t.shape != entry.shape {
            return Err(format!(
                "{what}: {} has shape {:?}, layout says {:?}",
                entry.name, t.shape, entry.shape
            ));
        }
        flat[entry.range()].copy_from_slice(&t.to_f32());
    }
    if let Some(extra) = named.keys().find(|k| layout.get(k).is_none()) {
        return Err(format!("{what}: {extra} is not in the layout"));
    }
    Ok(flat)
}

fn parse_cell(
    cell: &str,
    nonlinearity: Option<&str>,
) -> Result<(CellKind, Nonlinearity), BackendError> {
    let kind = CellKind::parse(cell)
        .ok_or_else(|| BackendError::Unsupported(format!("unknown cell {cell:?}")))?;
    let nl = match nonlinearity {
        None | Some("tanh") => Nonlinearity::Tanh,
        Some("relu") => Nonlinearity::Relu,
        Some(other) => {
            return Err(BackendError::Unsupported(format!(
                "unknown nonlinearity {other:?}"
            )))
        }
    };
    Ok((kind, nl))
}

// ---------------------------------------------------------------------------------------------
// Cases handed to a backend, results it returns
// ---------------------------------------------------------------------------------------------

/// A module fixture as f32 inputs for a backend.
#[derive(Clone, Debug)]
pub struct ModuleCase {
    pub name: String,
    pub spec: RnnSpec,
    /// `ParamLayout::rnn(&spec, "")`.
    pub layout: ParamLayout,
    pub batch_first: bool,
    pub batch: usize,
    pub seq_len: usize,
    /// `[layout.total_len()]`.
    pub params: Vec<f32>,
    /// `[T, B, I]` or `[B, T, I]` (batch_first), with its shape.
    pub input: Vec<f32>,
    pub input_shape: Vec<usize>,
    /// `[L·D, B, H]` with its shape.
    pub h0: Option<(Vec<f32>, Vec<usize>)>,
    pub c0: Option<(Vec<f32>, Vec<usize>)>,
    /// `[B]` (packed fixtures only).
    pub lengths: Option<Vec<u32>>,
    /// Same layout as the output.
    pub grad_output: Vec<f32>,
    /// `[L·D, B, H]`.
    pub grad_h_n: Vec<f32>,
    pub grad_c_n: Option<Vec<f32>>,
}

/// What a backend computed for a [`ModuleCase`].
#[derive(Clone, Debug, Default)]
pub struct ModuleResult {
    /// Same layout as the fixture's output.
    pub output: Vec<f32>,
    pub h_n: Vec<f32>,
    pub c_n: Option<Vec<f32>>,
    /// `[layout.total_len()]` gradients of every parameter.
    pub param_grads: Vec<f32>,
    /// Same layout as the input.
    pub d_input: Vec<f32>,
    pub d_h0: Vec<f32>,
    pub d_c0: Option<Vec<f32>>,
}

impl ModuleFixture {
    /// The f32 case; `Unsupported` when the fixture describes something the crate has no type
    /// for, `Failed` when it contradicts the layout.
    pub fn case(&self) -> Result<ModuleCase, BackendError> {
        let (cell, nonlinearity) = parse_cell(&self.cell, self.nonlinearity.as_deref())?;
        let spec = RnnSpec {
            cell,
            nonlinearity,
            input_size: self.input_size,
            hidden_size: self.hidden_size,
            num_layers: self.num_layers,
            bidirectional: self.bidirectional,
        };
        let layout = ParamLayout::rnn(&spec, "");
        Ok(ModuleCase {
            name: self.name.clone(),
            spec,
            params: flatten_params(&layout, &self.params, "params")
                .map_err(BackendError::Failed)?,
            layout,
            batch_first: self.batch_first,
            batch: self.batch,
            seq_len: self.seq_len,
            input: self.input.to_f32(),
            input_shape: self.input.shape.clone(),
            h0: self.h0.as_ref().map(|t| (t.to_f32(), t.shape.clone())),
            c0: self.c0.as_ref().map(|t| (t.to_f32(), t.shape.clone())),
            lengths: self.lengths.clone(),
            grad_output: self.grad_output.to_f32(),
            grad_h_n: self.grad_h_n.to_f32(),
            grad_c_n: self.grad_c_n.as_ref().map(Tensor::to_f32),
        })
    }

    /// Every check of a module fixture: output, h_n, c_n, each parameter gradient, the input,
    /// h0 and c0 gradients (when the fixture gives h0 and c0; without them PyTorch starts from
    /// zeros that take no gradient), and the parameter count. Returns the failures.
    pub fn check(&self, case: &ModuleCase, r: &ModuleResult) -> Vec<String> {
        let mut fails = Vec::new();
        let mut push = |res: Result<(), String>| {
            if let Err(e) = res {
                fails.push(e);
            }
        };
        if case.layout.total_len() != self.param_count {
            push(Err(format!(
                "param_count: layout has {}, PyTorch {}",
                case.layout.total_len(),
                self.param_count
            )));
        }
        push(self.output.check("output", &r.output));
        push(self.h_n.check("h_n", &r.h_n));
        push(check_optional("c_n", self.c_n.as_ref(), r.c_n.as_deref()));
        for entry in &case.layout.entries {
            match self.grads.get(&entry.name) {
                Some(t) => push(t.check(
                    &format!("grad {}", entry.name),
                    &r.param_grads[entry.range()],
                )),
                None => push(Err(format!("fixture has no gradient for {}", entry.name))),
            }
        }
        match self.grads.get("input") {
            Some(t) => push(t.check("grad input", &r.d_input)),
            None => push(Err("fixture has no input gradient".into())),
        }
        // Without `h0` (`c0`) the fixture ran from PyTorch's default zeros, which take no
        // gradient: the backend's gradient for them is not compared.
        push(check_optional(
            "grad h0",
            self.grads.get("h0"),
            case.h0.as_ref().map(|_| r.d_h0.as_slice()),
        ));
        push(check_optional(
            "grad c0",
            self.grads.get("c0"),
            case.c0.as_ref().and(r.d_c0.as_deref()),
        ));
        fails
    }
}

/// Both present → compare; both absent → fine; one missing → failure.
fn check_optional(
    name: &str,
    expected: Option<&Tensor>,
    actual: Option<&[f32]>,
) -> Result<(), String> {
    match (expected, actual) {
        (Some(t), Some(a)) => t.check(name, a),
        (None, None) => Ok(()),
        (Some(_), None) => Err(format!("{name}: expected by the fixture, not produced")),
        (None, Some(_)) => Err(format!("{name}: produced, but the fixture has none")),
    }
}

/// A classifier fixture as f32 inputs for a backend.
#[derive(Clone, Debug)]
pub struct ClassifierCase {
    pub name: String,
    /// `input_size` = vocabulary size.
    pub spec: RnnSpec,
    pub num_classes: usize,
    /// `ParamLayout::classifier(&spec, num_classes)`.
    pub layout: ParamLayout,
    /// `[layout.total_len()]` parameters before the step.
    pub params: Vec<f32>,
    pub batch: SeqBatch,
    /// The fixture's optimizer: Adam(lr=1e-3, betas=(0.9, 0.999), eps=1e-8).
    pub adam: AdamConfig,
}

/// What a backend computed for a [`ClassifierCase`].
#[derive(Clone, Debug, Default)]
pub struct ClassifierResult {
    /// `[B, C]`.
    pub logits: Vec<f32>,
    pub loss: f32,
    /// `[layout.total_len()]`.
    pub grads: Vec<f32>,
    /// `[layout.total_len()]` after one Adam step from zero moments.
    pub params_after: Vec<f32>,
}

impl ClassifierFixture {
    /// The f32 case (errors as [`ModuleFixture::case`]).
    pub fn case(&self) -> Result<ClassifierCase, BackendError> {
        let (cell, nonlinearity) = parse_cell(&self.cell, None)?;
        let spec = RnnSpec {
            cell,
            nonlinearity,
            input_size: self.vocab_size,
            hidden_size: self.hidden_size,
            num_layers: self.num_layers,
            bidirectional: self.bidirectional,
        };
        let layout = ParamLayout::classifier(&spec, self.num_classes);
        if self.input_indices.len() != self.batch
            || self.input_indices.iter().any(|r| r.len() != self.seq_len)
        {
            return Err(BackendError::Failed(
                "input_indices is not [batch, seq_len]".into(),
            ));
        }
        let batch = SeqBatch::of_batch_first(
            self.batch,
            self.seq_len,
            &self.input_indices.concat(),
            self.lengths.clone(),
            self.targets.clone(),
        );
        Ok(ClassifierCase {
            name: self.name.clone(),
            spec,
            num_classes: self.num_classes,
            params: flatten_params(&layout, &self.params_before, "params_before")
                .map_err(BackendError::Failed)?,
            layout,
            batch,
            adam: AdamConfig {
                lr: 1e-3,
                beta1: 0.9,
                beta2: 0.999,
                eps: 1e-8,
            },
        })
    }

    /// Checks logits, loss, every gradient and every parameter after the Adam step.
    pub fn check(&self, case: &ClassifierCase, r: &ClassifierResult) -> Vec<String> {
        let mut fails = Vec::new();
        let mut push = |res: Result<(), String>| {
            if let Err(e) = res {
                fails.push(e);
            }
        };
        push(self.logits.check("logits", &r.logits));
        push(Tol::FIXTURE.check("loss", &[r.loss], &[self.loss]));
        for entry in &case.layout.entries {
            for (what, named, actual) in [
                ("grad", &self.grads, &r.grads),
                (
                    "after Adam",
                    &self.params_after_one_adam_step,
                    &r.params_after,
                ),
            ] {
                match named.get(&entry.name) {
                    Some(t) => {
                        push(t.check(&format!("{what} {}", entry.name), &actual[entry.range()]))
                    }
                    None => push(Err(format!("fixture has no {what} for {}", entry.name))),
                }
            }
        }
        fails
    }
}

// ---------------------------------------------------------------------------------------------
// Suite runner
// ---------------------------------------------------------------------------------------------

/// Why a backend produced no result.
#[derive(Clone, Debug)]
pub enum BackendError {
    /// The backend does not implement this configuration (listed as UNSUPPORTED).
    Unsupported(String),
    /// The backend tried and failed (a FAIL).
    Failed(String),
}

/// Outcome of a whole fixture run.
#[derive(Debug, Default)]
pub struct SuiteSummary {
    pub passed: Vec<String>,
    /// (fixture, failure messages).
    pub failed: Vec<(String, Vec<String>)>,
    /// (fixture, reason).
    pub unsupported: Vec<(String, String)>,
}

impl SuiteSummary {
    /// Panics unless every fixture passed, except unsupported ones named in `allowed_unsupported`.
    pub fn assert_ok(&self, allowed_unsupported: &[&str]) {
        let mut problems: Vec<String> = self
            .failed
            .iter()
            .map(|(name, fails)| format!("FAIL {name}:\n    {}", fails.join("\n    ")))
            .collect();
        problems.extend(
            self.unsupported
                .iter()
                .filter(|(name, _)| !allowed_unsupported.contains(&name.as_str()))
                .map(|(name, why)| format!("UNSUPPORTED {name}: {why}")),
        );
        assert!(
            self.passed.len() + self.failed.len() + self.unsupported.len() > 0,
            "no fixtures found"
        );
        assert!(
            problems.is_empty(),
            "{} fixture problem(s):\n{}",
            problems.len(),
            problems.join("\n")
        );
    }
}

/// Runs every fixture of [`fixture_paths`] through the backends, printing one line per
/// fixture (`PASS` / `FAIL` / `UNSUPPORTED`, prefixed with `label`).
pub fn run_fixture_suite(
    label: &str,
    module_backend: impl Fn(&ModuleCase) -> Result<ModuleResult, BackendError>,
    classifier_backend: impl Fn(&ClassifierCase) -> Result<ClassifierResult, BackendError>,
) -> SuiteSummary {
    let fixtures = fixture_paths().into_iter().map(|path| {
        let file = path.file_name().map_or_else(
            || path.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        );
        (file, load_fixture(&path))
    });
    run_fixtures(label, fixtures, module_backend, classifier_backend)
}

/// Runs parsed fixtures `(file name, fixture)` through the backends, printing one line per
/// fixture as [`run_fixture_suite`] does (the wasm32 tests embed their fixtures' text).
pub fn run_fixtures(
    label: &str,
    fixtures: impl IntoIterator<Item = (String, Result<Fixture, BackendError>)>,
    module_backend: impl Fn(&ModuleCase) -> Result<ModuleResult, BackendError>,
    classifier_backend: impl Fn(&ClassifierCase) -> Result<ClassifierResult, BackendError>,
) -> SuiteSummary {
    let mut summary = SuiteSummary::default();
    for (file, fixture) in fixtures {
        let outcome: Result<Vec<String>, BackendError> = match fixture {
            Err(e) => Err(e),
            Ok(Fixture::Module(fx)) => match fx.case() {
                Err(e) => Err(e),
                Ok(case) => module_backend(&case).map(|r| fx.check(&case, &r)),
            },
            Ok(Fixture::Classifier(fx)) => match fx.case() {
                Err(e) => Err(e),
                Ok(case) => classifier_backend(&case).map(|r| fx.check(&case, &r)),
            },
        };
        match outcome {
            Ok(fails) if fails.is_empty() => {
                println!("[{label}] PASS        {file}");
                summary.passed.push(file);
            }
            Ok(fails) => {
                let more = if fails.len() > 2 {
                    format!(" | … {} more", fails.len() - 2)
                } else {
                    String::new()
                };
                println!(
                    "[{label}] FAIL        {file}: {}{more}",
                    fails[..fails.len().min(2)].join(" | ")
                );
                summary.failed.push((file, fails));
            }
            Err(BackendError::Failed(e)) => {
                println!("[{label}] FAIL        {file}: {e}");
                summary.failed.push((file, vec![e]));
            }
            Err(BackendError::Unsupported(why)) => {
                println!("[{label}] UNSUPPORTED {file}: {why}");
                summary.unsupported.push((file, why));
            }
        }
    }
    summary
}

/// The CPU reference as a fixture backend: `RnnModule::forward` then `backward` with the
/// fixture's upstream gradients.
pub fn cpu_module(case: &ModuleCase) -> Result<ModuleResult, BackendError> {
    let module = RnnModule::new(case.spec, &case.layout, "");
    let state = |s: &Option<(Vec<f32>, Vec<usize>)>| {
        s.as_ref().map(|(d, shape)| (d.clone(), shape.clone()))
    };
    let (h0, c0) = (state(&case.h0), state(&case.c0));
    let out = module
        .forward(
            &case.params,
            TensorRef::new(&case.input_shape, &case.input),
            case.batch_first,
            case.lengths.as_deref(),
            h0.as_ref().map(|(d, s)| TensorRef::new(s, d)),
            c0.as_ref().map(|(d, s)| TensorRef::new(s, d)),
        )
        .map_err(|e| BackendError::Failed(format!("forward rejected the fixture: {e}")))?;
    let mut param_grads = vec![0.0f32; case.layout.total_len()];
    let g = module.backward(
        &case.params,
        &out.cache,
        &case.grad_output,
        Some(&case.grad_h_n),
        case.grad_c_n.as_deref(),
        &mut param_grads,
    );
    Ok(ModuleResult {
        output: out.output,
        h_n: out.h_n,
        c_n: out.c_n,
        param_grads,
        d_input: g.input,
        d_h0: g.h0,
        d_c0: g.c0,
    })
}

/// The CPU classifier as a fixture backend: loss and gradients, then one Adam step.
pub fn cpu_classifier(case: &ClassifierCase) -> Result<ClassifierResult, BackendError> {
    let model = SeqModel::new(case.spec, case.num_classes);
    let (loss, grads, logits) = {
        let (sums, grads) = model.loss_and_grads(&case.params, &case.batch);
        (
            sums.mean_loss() as f32,
            grads,
            model.forward(&case.params, &case.batch).outputs,
        )
    };
    let mut params_after = case.params.clone();
    Adam::new(case.adam, params_after.len()).update(&mut params_after, &grads);
    Ok(ClassifierResult {
        logits,
        loss,
        grads,
        params_after,
    })
}

// ---------------------------------------------------------------------------------------------
// A task's model against a PyTorch run: its parameters by name, its loss and every gradient
// ---------------------------------------------------------------------------------------------

/// `model`'s flat parameters from a fixture's `params` by PyTorch name: every entry of the
/// layout, and nothing the layout lacks.
///
/// # Panics
/// If a tensor is missing, has another size, or the fixture holds more parameters.
pub fn params_of(
    name: &str,
    model: &unroll_core::math::model::SeqModel,
    params: &BTreeMap<String, Tensor>,
) -> Vec<f32> {
    let mut out = vec![0.0f32; model.param_count()];
    for e in &model.layout.entries {
        let t = params
            .get(&e.name)
            .unwrap_or_else(|| panic!("{name}: no {}", e.name));
        assert_eq!(t.data.len(), e.len(), "{name}: {}", e.name);
        for (p, &v) in out[e.range()].iter_mut().zip(&t.data) {
            *p = v as f32;
        }
    }
    assert_eq!(
        out.len(),
        params.values().map(|t| t.data.len()).sum::<usize>(),
        "{name}: the fixture has parameters the model lacks"
    );
    out
}

/// Checks `model`'s mean loss on `batch` and the gradient of every parameter against a
/// PyTorch run's (`Tol::FIXTURE`), and that most gradients are not zero (a test that could
/// not fail otherwise).
pub fn check_loss_and_grads(
    name: &str,
    model: &unroll_core::math::model::SeqModel,
    params: &[f32],
    batch: &SeqBatch,
    grads: &BTreeMap<String, Tensor>,
    loss: f64,
) {
    let (stats, got) = model.loss_and_grads(params, batch);
    assert!(
        Tol::FIXTURE.accepts(stats.mean_loss() as f32, loss),
        "{name}: loss {} vs {loss}",
        stats.mean_loss()
    );
    assert_eq!(stats.count as usize, batch.targets.len());
    let mut nonzero = 0;
    for e in &model.layout.entries {
        let want = &grads[&e.name].data;
        for (i, (&g, &w)) in got[e.range()].iter().zip(want).enumerate() {
            assert!(
                Tol::FIXTURE.accepts(g, w),
                "{name}: {}[{i}] {g} vs {w}",
                e.name
            );
            nonzero += usize::from(w.abs() > 1e-6);
        }
    }
    assert!(nonzero > params.len() / 2, "{name}: gradients mostly zero");
}
