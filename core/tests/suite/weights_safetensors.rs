//! `.safetensors` interchange: round trips for every cell × layers ×
//! directions and the classifier, every import problem reported by name, corrupt bytes, the
//! classifier rebuilt from metadata or from shapes within the UI's limits, and the PyTorch
//! fixtures' parameters imported from safetensors bytes reproducing the fixtures' outputs.

use crate::common;

use std::collections::BTreeMap;

use common::{Fixture, Tensor};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use safetensors::tensor::{Dtype, SafeTensors, View};
use unroll_core::data::normalize::{encode, VOCAB, VOCAB_SIZE};
use unroll_core::math::init::init_params;
use unroll_core::math::model::{SeqBatch, SeqModel};
use unroll_core::math::optim::{Adam, AdamConfig};
use unroll_core::math::params::{CellKind, Nonlinearity, ParamLayout, RnnSpec};
use unroll_core::math::recurrent::{RnnModule, TensorRef};
use unroll_core::weights::{
    export_classifier, export_module, export_params, import_classifier, import_module,
    import_params, looks_like_safetensors, read_metadata, ClassifierInfo, ClassifierLimits,
    LimitProblem, MetadataProblem, TensorProblem, WeightsError,
};

// ---------------------------------------------------------------------------------------------
// Helpers: a raw tensor of any dtype, written with the safetensors crate itself
// ---------------------------------------------------------------------------------------------

/// A tensor as raw little-endian bytes of any dtype (to build files Unroll did not write).
struct Raw {
    dtype: Dtype,
    shape: Vec<usize>,
    bytes: Vec<u8>,
}

impl View for &Raw {
    fn dtype(&self) -> Dtype {
        self.dtype
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> std::borrow::Cow<'_, [u8]> {
        std::borrow::Cow::Borrowed(&self.bytes)
    }
    fn data_len(&self) -> usize {
        self.bytes.len()
    }
}

fn f32_raw(shape: &[usize], v: &[f32]) -> Raw {
    Raw {
        dtype: Dtype::F32,
        shape: shape.to_vec(),
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

fn f64_raw(shape: &[usize], v: &[f64]) -> Raw {
    Raw {
        dtype: Dtype::F64,
        shape: shape.to_vec(),
        bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    }
}

fn zeros_raw(dtype: Dtype, shape: &[usize], bytes_per_value: usize) -> Raw {
    Raw {
        dtype,
        shape: shape.to_vec(),
        bytes: vec![0; shape.iter().product::<usize>() * bytes_per_value],
    }
}

/// safetensors bytes of `tensors` with optional metadata.
fn file(tensors: &[(&str, &Raw)], metadata: Option<&[(&str, &str)]>) -> Vec<u8> {
    let meta = metadata.map(|m| {
        m.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    });
    safetensors::serialize(tensors.iter().map(|(n, r)| (n.to_string(), *r)), meta)
        .expect("test file serialises")
}

fn random_params(len: usize, seed: u64) -> Vec<f32> {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    (0..len).map(|_| r.random_range(-0.5f32..0.5)).collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn mismatch(e: WeightsError) -> Vec<TensorProblem> {
    match e {
        WeightsError::Mismatch(p) => p,
        other => panic!("expected a Mismatch, got {other:?} ({other})"),
    }
}

/// Tensor name → (dtype, shape).
type Header = BTreeMap<String, (Dtype, Vec<usize>)>;

/// What a safetensors header says: name → (dtype, shape), and the metadata.
fn header(bytes: &[u8]) -> (Header, BTreeMap<String, String>) {
    let st = SafeTensors::deserialize(bytes).expect("valid file");
    let tensors = st
        .tensors()
        .into_iter()
        .map(|(n, v)| (n, (v.dtype(), v.shape().to_vec())))
        .collect();
    (tensors, read_metadata(bytes).expect("metadata"))
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

/// Export → import gives the same bits for RNN (tanh and ReLU) / LSTM / GRU × 1–3 layers ×
/// one or two directions; the file has exactly PyTorch's names and shapes, in F32, and the
/// metadata describes the module.
#[test]
fn module_round_trip_every_cell_layers_and_directions() {
    let cells = crate::common::CELL_VARIANTS;
    let mut cases = 0;
    for (cell, nonlinearity) in cells {
        for num_layers in 1..=3 {
            for bidirectional in [false, true] {
                let spec = RnnSpec {
                    cell,
                    nonlinearity,
                    input_size: 5,
                    hidden_size: 3,
                    num_layers,
                    bidirectional,
                };
                let layout = ParamLayout::rnn(&spec, "");
                let params = random_params(layout.total_len(), cases);
                let bytes = export_module(&spec, &params).unwrap();

                let (tensors, meta) = header(&bytes);
                let expected: BTreeMap<String, (Dtype, Vec<usize>)> = layout
                    .entries
                    .iter()
                    .map(|e| (e.name.clone(), (Dtype::F32, e.shape.clone())))
                    .collect();
                assert_eq!(
                    tensors, expected,
                    "{spec:?}: names/dtypes/shapes in the file"
                );
                assert_eq!(meta["model"], "module");
                assert_eq!(meta["cell"], cell.as_str());
                assert_eq!(
                    meta["nonlinearity"],
                    if nonlinearity == Nonlinearity::Relu {
                        "relu"
                    } else {
                        "tanh"
                    }
                );
                assert_eq!(meta["num_layers"], num_layers.to_string());
                assert_eq!(meta["bidirectional"], bidirectional.to_string());
                assert_eq!(meta["hidden_size"], "3");
                assert_eq!(meta["input_size"], "5");

                let back = import_module(&bytes, &spec).unwrap();
                assert_eq!(
                    bits(&back.params),
                    bits(&params),
                    "{spec:?}: parameters changed in the round trip"
                );
                assert!(
                    back.notes.is_empty(),
                    "F32 needs no conversion: {:?}",
                    back.notes
                );
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 24);
}

/// Spot check of the names a bidirectional 2-layer GRU writes (PyTorch's `_reverse` and
/// `l1` input width `D·H`).
#[test]
fn bidirectional_names_and_shapes_are_pytorchs() {
    let spec = RnnSpec::stacked(CellKind::Gru, 10, 8, 2, true);
    let bytes = export_module(&spec, &vec![0.25; ParamLayout::rnn(&spec, "").total_len()]).unwrap();
    let (tensors, _) = header(&bytes);
    assert_eq!(tensors.len(), 16);
    assert_eq!(tensors["weight_ih_l0_reverse"], (Dtype::F32, vec![24, 10]));
    assert_eq!(tensors["weight_ih_l1"], (Dtype::F32, vec![24, 16]));
    assert_eq!(tensors["weight_hh_l1_reverse"], (Dtype::F32, vec![24, 8]));
    assert_eq!(tensors["bias_hh_l1_reverse"], (Dtype::F32, vec![24]));
}

fn names_batch() -> SeqBatch {
    let names = [
        "Nguyen", "Schmidt", "O'Brien", "Kowalski", "Tanaka", "Rossi", "Li",
    ];
    let encoded: Vec<Vec<u32>> = names.iter().map(|n| encode(n).unwrap()).collect();
    let seq_len = encoded.iter().map(Vec::len).max().unwrap();
    let rows: Vec<&[u32]> = encoded.iter().map(Vec::as_slice).collect();
    let labels = (0..names.len() as u32).map(|i| i % 4).collect();
    crate::common::padded_batch(&rows, labels, seq_len)
}

fn class_names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("Class{i}")).collect()
}

/// A classifier trained a few Adam steps on the CPU, exported and rebuilt from the file alone:
/// same architecture, same parameter bits, same class names and vocabulary, and bit-identical
/// logits and predictions.
#[test]
fn classifier_exported_from_cpu_model_reproduces_predictions_after_import() {
    for (cell, num_layers, bidirectional) in [
        (CellKind::Lstm, 1, false),
        (CellKind::Gru, 2, true),
        (CellKind::Rnn, 1, true),
    ] {
        let spec = RnnSpec::stacked(cell, VOCAB_SIZE, 16, num_layers, bidirectional);
        let model = SeqModel::new(spec, 4);
        let mut params = init_params(&model.layout, &spec, 7);
        let batch = names_batch();
        let mut adam = Adam::new(AdamConfig::default(), params.len());
        for _ in 0..3 {
            let (_, grads, _) = {
                let (sums, grads) = model.loss_and_grads(&params, &batch);
                (
                    sums.mean_loss() as f32,
                    grads,
                    model.forward(&params, &batch).outputs,
                )
            };
            adam.update(&mut params, &grads);
        }
        let info = ClassifierInfo {
            classes: Some(class_names(4)),
            vocabulary: Some(VOCAB.to_string()),
        };
        let bytes = export_classifier(&model, &params, &info).unwrap();

        let (tensors, meta) = header(&bytes);
        assert_eq!(tensors.len(), 4 * num_layers * spec.num_directions() + 2);
        assert_eq!(
            tensors["fc.weight"],
            (Dtype::F32, vec![4, 16 * spec.num_directions()])
        );
        assert_eq!(tensors["fc.bias"], (Dtype::F32, vec![4]));
        assert!(tensors.contains_key("rnn.weight_ih_l0"));
        assert_eq!(meta["model"], "classifier");
        assert_eq!(meta["batch_first"], "true");
        assert_eq!(meta["num_classes"], "4");
        assert_eq!(meta["classes"], r#"["Class0","Class1","Class2","Class3"]"#);
        assert_eq!(meta["vocabulary"], VOCAB);

        let loaded = import_classifier(&bytes, &ClassifierLimits::UI).unwrap();
        assert_eq!(loaded.model.spec, spec);
        assert_eq!(loaded.model.outputs, 4);
        assert_eq!(loaded.info, info);
        assert!(loaded.notes.is_empty(), "{:?}", loaded.notes);
        assert_eq!(bits(&loaded.params), bits(&params));
        let before = model.forward(&params, &batch).outputs;
        let after = loaded.model.forward(&loaded.params, &batch).outputs;
        assert_eq!(
            bits(&after),
            bits(&before),
            "{cell:?}: logits differ after import"
        );
        let name = encode("Dvorak").unwrap();
        assert_eq!(
            bits(&loaded.model.predict(&loaded.params, &name).unwrap()),
            bits(&model.predict(&params, &name).unwrap())
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Import problems, each by name
// ---------------------------------------------------------------------------------------------

/// Files with a missing tensor, an unsupported dtype, a wrong shape, non-finite values and
/// unexpected tensors: one error lists them all, by name, in layout order then the unexpected
/// names sorted; the message names each.
#[test]
fn every_problem_is_reported_by_name_in_one_error() {
    let spec = RnnSpec::new(CellKind::Lstm, 3, 4);
    let w_ih = f32_raw(&[16, 3], &[0.1; 48]);
    let b_ih = zeros_raw(Dtype::I64, &[16], 8);
    let b_hh = f32_raw(&[12], &[0.0; 12]);
    let mut bad_values = vec![0.5f32; 16 * 4];
    bad_values[3] = f32::NAN;
    bad_values[7] = f32::INFINITY;
    let w_hh = f32_raw(&[16, 4], &bad_values);
    let extra1 = f32_raw(&[16, 4], &[0.0; 64]);
    let extra2 = f32_raw(&[2, 4], &[0.0; 8]);
    let bytes = file(
        &[
            ("weight_ih_l0", &w_ih),
            ("bias_ih_l0", &b_ih),
            ("bias_hh_l0", &b_hh),
            ("weight_hh_l0", &w_hh),
            ("weight_ih_l1", &extra1),
            ("fc.weight", &extra2),
        ],
        None,
    );
    let problems = mismatch(import_module(&bytes, &spec).unwrap_err());
    assert_eq!(
        problems,
        vec![
            TensorProblem::NonFinite {
                name: "weight_hh_l0".into(),
                count: 2
            },
            TensorProblem::Dtype {
                name: "bias_ih_l0".into(),
                dtype: "I64".into()
            },
            TensorProblem::Shape {
                name: "bias_hh_l0".into(),
                expected: vec![16],
                got: vec![12]
            },
            TensorProblem::Unexpected {
                name: "fc.weight".into(),
                shape: vec![2, 4]
            },
            TensorProblem::Unexpected {
                name: "weight_ih_l1".into(),
                shape: vec![16, 4]
            },
        ]
    );

    let without_hh = file(
        &[
            ("weight_ih_l0", &w_ih),
            ("bias_ih_l0", &b_ih),
            ("bias_hh_l0", &b_hh),
        ],
        None,
    );
    let err = import_module(&without_hh, &spec).unwrap_err();
    let msg = err.to_string();
    assert_eq!(
        mismatch(err),
        vec![
            TensorProblem::Missing {
                name: "weight_hh_l0".into(),
                shape: vec![16, 4]
            },
            TensorProblem::Dtype {
                name: "bias_ih_l0".into(),
                dtype: "I64".into()
            },
            TensorProblem::Shape {
                name: "bias_hh_l0".into(),
                expected: vec![16],
                got: vec![12]
            },
        ]
    );
    assert_eq!(
        msg,
        "the weights do not fit this model (3 problem(s)):\n\
         - missing tensor `weight_hh_l0` (expected shape [16, 4])\n\
         - `bias_ih_l0` has dtype I64; expected F32 (F64, F16 and BF16 are converted to f32, other dtypes are rejected)\n\
         - `bias_hh_l0` has shape [12] in the file, the model expects [16]"
    );
}

/// A bare `nn.GRU` file loaded as a classifier: every `rnn.*` / `fc.*` tensor missing and every
/// bare name unexpected, by name (what PyTorch's `load_state_dict` would say too).
#[test]
fn bare_module_file_into_classifier_layout_lists_every_name() {
    let spec = RnnSpec::new(CellKind::Gru, 4, 2);
    let bytes = export_module(&spec, &vec![0.0; ParamLayout::rnn(&spec, "").total_len()]).unwrap();
    let layout = ParamLayout::classifier(&spec, 3);
    let problems = mismatch(import_params(&bytes, &layout).unwrap_err());
    let names: Vec<String> = problems
        .iter()
        .map(|p| {
            format!(
                "{}:{}",
                matches!(p, TensorProblem::Missing { .. }),
                p.name()
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            "true:rnn.weight_ih_l0",
            "true:rnn.weight_hh_l0",
            "true:rnn.bias_ih_l0",
            "true:rnn.bias_hh_l0",
            "true:fc.weight",
            "true:fc.bias",
            "false:bias_hh_l0",
            "false:bias_ih_l0",
            "false:weight_hh_l0",
            "false:weight_ih_l0",
        ]
    );
    // The classifier loader refuses the bare module up front (its metadata says `module`).
    let err = import_classifier(&bytes, &ClassifierLimits::UI).unwrap_err();
    assert!(
        matches!(err, WeightsError::Metadata(MetadataProblem::NotClassifier { ref model }) if model == "module")
            && err
                .to_string()
                .contains("holds a `module`, not a classifier"),
        "{err}"
    );
}

/// F64, F16 and BF16 tensors are converted to f32 with a note per tensor; values that are exact
/// in the source dtype arrive exactly, F64 is rounded to nearest.
#[test]
fn f64_f16_bf16_are_converted_with_a_note_each() {
    let spec = RnnSpec::new(CellKind::Rnn, 2, 2); // w_ih [2,2], w_hh [2,2], b_ih [2], b_hh [2]
    let w_ih = f64_raw(&[2, 2], &[0.1, -2.5, 1e-3, 3.0]);
    let f16 = |v: &[f32]| {
        v.iter()
            .flat_map(|&x| half::f16::from_f32(x).to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let bf16 = |v: &[f32]| {
        v.iter()
            .flat_map(|&x| half::bf16::from_f32(x).to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let w_hh = Raw {
        dtype: Dtype::F16,
        shape: vec![2, 2],
        bytes: f16(&[0.5, -1.25, 0.099975586, 65504.0]),
    };
    let b_ih = Raw {
        dtype: Dtype::BF16,
        shape: vec![2],
        bytes: bf16(&[-0.75, 3.0e38]),
    };
    let b_hh = f32_raw(&[2], &[0.125, -0.5]);
    let bytes = file(
        &[
            ("weight_ih_l0", &w_ih),
            ("weight_hh_l0", &w_hh),
            ("bias_ih_l0", &b_ih),
            ("bias_hh_l0", &b_hh),
        ],
        None,
    );
    let got = import_module(&bytes, &spec).unwrap();
    let bf16_big = half::bf16::from_f32(3.0e38).to_f32();
    assert_eq!(
        got.params,
        vec![
            0.1f32,
            -2.5,
            1e-3,
            3.0,
            0.5,
            -1.25,
            0.099975586,
            65504.0,
            -0.75,
            bf16_big,
            0.125,
            -0.5
        ]
    );
    assert_eq!(
        got.notes,
        [
            "`weight_ih_l0`: converted from F64 to f32",
            "`weight_hh_l0`: converted from F16 to f32",
            "`bias_ih_l0`: converted from BF16 to f32"
        ]
    );
    // An F64 value beyond f32's range becomes inf: reported, not imported.
    let huge = f64_raw(&[2, 2], &[1e300, 0.0, 0.0, 0.0]);
    let bytes = file(
        &[
            ("weight_ih_l0", &huge),
            ("weight_hh_l0", &w_hh),
            ("bias_ih_l0", &b_ih),
            ("bias_hh_l0", &b_hh),
        ],
        None,
    );
    assert_eq!(
        mismatch(import_module(&bytes, &spec).unwrap_err()),
        vec![TensorProblem::NonFinite {
            name: "weight_ih_l0".into(),
            count: 1
        }]
    );
}

/// Bytes that are not a safetensors file at all (a renamed PNG, a text file, too short, a
/// header length no file has) give `NotSafetensors`; a damaged safetensors file gives `Corrupt`
/// with the reader's reason. Never a panic.
#[test]
fn corrupt_bytes_give_a_clear_error() {
    let spec = RnnSpec::new(CellKind::Lstm, 3, 4);
    let good = export_module(&spec, &vec![0.5; ParamLayout::rnn(&spec, "").total_len()]).unwrap();
    let header_len = u64::from_le_bytes(good[..8].try_into().unwrap()) as usize;
    // The first bytes of a real PNG: signature, then the IHDR chunk of a 1×1 image.
    let png = [
        &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a][..],
        &[
            0, 0, 0, 13, b'I', b'H', b'D', b'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
        ],
        &[
            0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82,
        ],
    ]
    .concat();
    let mut bad_json = good.clone();
    bad_json[8] = b'[';
    let not_safetensors: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("7 bytes", vec![1, 0, 0, 0, 0, 0, 0]),
        ("header length 0", 0u64.to_le_bytes().to_vec()),
        ("header length u64::MAX", u64::MAX.to_le_bytes().to_vec()),
        ("text file", b"weight_ih_l0 = [0.1, 0.2]\n".to_vec()),
        ("a PNG renamed", png),
        (
            "a zip renamed",
            b"PK\x03\x04\x14\0\0\0\x08\0 not weights".to_vec(),
        ),
        ("header not a JSON object", bad_json),
    ];
    for (what, bytes) in not_safetensors {
        assert!(!looks_like_safetensors(&bytes), "{what}");
        let err = import_module(&bytes, &spec).unwrap_err();
        assert_eq!(err, WeightsError::NotSafetensors, "{what}");
        assert!(
            err.to_string().starts_with("not a safetensors file"),
            "{what}: {err}"
        );
        assert_eq!(
            import_classifier(&bytes, &ClassifierLimits::UI).unwrap_err(),
            WeightsError::NotSafetensors,
            "{what}"
        );
        assert_eq!(
            read_metadata(&bytes).unwrap_err(),
            WeightsError::NotSafetensors,
            "{what}"
        );
    }

    assert!(looks_like_safetensors(&good));
    let mut cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "header longer than the file",
            [&200u64.to_le_bytes()[..], b"{}"].concat(),
            "invalid header length",
        ),
        (
            "truncated data",
            good[..good.len() - 1].to_vec(),
            "incomplete metadata",
        ),
        (
            "one byte too many",
            [&good[..], &[0u8]].concat(),
            "incomplete metadata",
        ),
    ];
    let mut bad_utf8 = good.clone();
    bad_utf8[10] = 0xff;
    cases.push(("header not UTF-8", bad_utf8, "invalid UTF-8 in header"));
    let mut bad_offsets = good.clone();
    let header = std::str::from_utf8(&good[8..8 + header_len]).unwrap();
    let moved = header.replacen("\"data_offsets\":[0,", "\"data_offsets\":[4,", 1);
    assert_ne!(moved, header, "test setup: an offset to move");
    bad_offsets[8..8 + header_len].copy_from_slice(moved.as_bytes());
    cases.push(("offsets with a gap", bad_offsets, "invalid offset"));

    for (what, bytes, reason) in cases {
        assert!(looks_like_safetensors(&bytes), "{what}");
        let err = import_module(&bytes, &spec).unwrap_err();
        let msg = err.to_string();
        assert!(
            matches!(err, WeightsError::Corrupt { .. }),
            "{what}: {err:?}"
        );
        assert!(
            msg.starts_with("not a valid .safetensors file: ") && msg.contains(reason),
            "{what}: {msg}"
        );
        assert!(err.detail().is_some_and(|d| d.contains(reason)), "{what}");
        assert!(
            matches!(
                import_classifier(&bytes, &ClassifierLimits::UI),
                Err(WeightsError::Corrupt { .. })
            ),
            "{what}"
        );
        assert!(
            matches!(read_metadata(&bytes), Err(WeightsError::Corrupt { .. })),
            "{what}"
        );
    }
}

/// Export with a parameter vector of the wrong length is an error, not a panic.
#[test]
fn export_rejects_a_parameter_vector_of_the_wrong_length() {
    let spec = RnnSpec::new(CellKind::Gru, 3, 4);
    let n = ParamLayout::rnn(&spec, "").total_len();
    assert_eq!(
        export_module(&spec, &vec![0.0; n - 1]).unwrap_err(),
        WeightsError::ParamsLength {
            expected: n,
            got: n - 1
        }
    );
    let layout = ParamLayout::classifier(&spec, 2);
    let e = export_params(&layout, &[], &BTreeMap::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "parameter vector has 0 values, the layout has {}",
            layout.total_len()
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Rebuilding the classifier: metadata, limits, inference from shapes
// ---------------------------------------------------------------------------------------------

fn tiny_classifier_tensors(
    hidden: usize,
    gates: usize,
    input: usize,
    classes: usize,
) -> Vec<(String, Raw)> {
    let gh = gates * hidden;
    vec![
        (
            "rnn.weight_ih_l0".into(),
            f32_raw(&[gh, input], &vec![0.1; gh * input]),
        ),
        (
            "rnn.weight_hh_l0".into(),
            f32_raw(&[gh, hidden], &vec![0.1; gh * hidden]),
        ),
        ("rnn.bias_ih_l0".into(), f32_raw(&[gh], &vec![0.0; gh])),
        ("rnn.bias_hh_l0".into(), f32_raw(&[gh], &vec![0.0; gh])),
        (
            "fc.weight".into(),
            f32_raw(&[classes, hidden], &vec![0.2; classes * hidden]),
        ),
        ("fc.bias".into(), f32_raw(&[classes], &vec![0.0; classes])),
    ]
}

fn meta_with(overrides: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut m: BTreeMap<String, String> = [
        ("format", "pt"),
        ("model", "classifier"),
        ("cell", "lstm"),
        ("input_size", "5"),
        ("hidden_size", "2"),
        ("num_layers", "1"),
        ("bidirectional", "false"),
        ("batch_first", "true"),
        ("num_classes", "3"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in overrides {
        if v.is_empty() {
            m.remove(*k);
        } else {
            m.insert(k.to_string(), v.to_string());
        }
    }
    m.into_iter().collect()
}

fn classifier_file(tensors: &[(String, Raw)], meta: Option<Vec<(String, String)>>) -> Vec<u8> {
    let meta = meta.map(|m| m.into_iter().collect());
    safetensors::serialize(tensors.iter().map(|(n, r)| (n.clone(), r)), meta).unwrap()
}

/// Sizes from the metadata beyond the UI's limits (hidden_size ≤ 256, num_layers ≤ 4) are
/// refused before anything is allocated: a hidden_size of 10¹² in a 1 KB file returns at once.
#[test]
fn classifier_sizes_beyond_the_ui_limits_are_refused_before_allocation() {
    let tensors = tiny_classifier_tensors(2, 4, 5, 3);
    let cases: [(&[(&str, &str)], &str); 5] = [
        (
            &[("hidden_size", "1000000000000")],
            "hidden_size = 1000000000000 (at most 256)",
        ),
        (&[("hidden_size", "257")], "hidden_size = 257 (at most 256)"),
        (&[("num_layers", "5")], "num_layers = 5 (at most 4)"),
        (
            &[("num_layers", "0"), ("num_classes", "100000")],
            "num_layers = 0 (must be at least 1), num_classes = 100000 (at most 1000)",
        ),
        (
            &[("input_size", "18446744073709551615")],
            "input_size = 18446744073709551615 (at most 256)",
        ),
    ];
    for (overrides, expected) in cases {
        let bytes = classifier_file(&tensors, Some(meta_with(overrides)));
        let err = import_classifier(&bytes, &ClassifierLimits::UI).unwrap_err();
        assert!(matches!(err, WeightsError::Limits(_)), "{overrides:?}");
        assert_eq!(err.to_string(), format!("model too large: {expected}"));
    }
    // The same file within the limits but with tensors of another size: a by-name mismatch.
    let bytes = classifier_file(&tensors, Some(meta_with(&[("hidden_size", "3")])));
    let problems = mismatch(import_classifier(&bytes, &ClassifierLimits::UI).unwrap_err());
    assert_eq!(
        problems[0],
        TensorProblem::Shape {
            name: "rnn.weight_ih_l0".into(),
            expected: vec![12, 5],
            got: vec![8, 5]
        }
    );
    assert_eq!(problems.len(), 5, "{problems:?}"); // all but fc.bias [3]
                                                   // Inferred from shapes (no metadata): hidden_size 300 > 256 is refused the same way.
    let big = classifier_file(&tiny_classifier_tensors(300, 1, 2, 2), None);
    assert_eq!(
        import_classifier(&big, &ClassifierLimits::UI).unwrap_err(),
        WeightsError::Limits(vec![LimitProblem {
            key: "hidden_size",
            value: 300,
            max: 256
        }])
    );
}

/// Malformed or inconsistent metadata names the key.
#[test]
fn classifier_metadata_errors_name_the_key() {
    let tensors = tiny_classifier_tensors(2, 4, 5, 3);
    let cases: [(&[(&str, &str)], &str); 7] = [
        (
            &[("cell", "transformer")],
            "metadata `cell` = \"transformer\" is not rnn, lstm or gru",
        ),
        (&[("hidden_size", "")], "metadata has no `hidden_size`"),
        (
            &[("hidden_size", "-2")],
            "metadata `hidden_size` = \"-2\" is not a non-negative integer",
        ),
        (
            &[("bidirectional", "yes")],
            "metadata `bidirectional` = \"yes\" is not true or false",
        ),
        (
            &[("nonlinearity", "gelu")],
            "metadata `nonlinearity` = \"gelu\" is not tanh or relu",
        ),
        (
            &[("classes", r#"["a","b"]"#)],
            "2 class names for 3 classes",
        ),
        (
            &[("classes", "a,b,c")],
            "`classes` is not a JSON list of strings",
        ),
    ];
    for (overrides, expected) in cases {
        let bytes = classifier_file(&tensors, Some(meta_with(overrides)));
        match import_classifier(&bytes, &ClassifierLimits::UI).unwrap_err() {
            WeightsError::Metadata(m) => {
                let m = m.to_string();
                assert!(m.starts_with(expected), "{overrides:?}: {m}")
            }
            other => panic!("{overrides:?}: expected a metadata error, got {other}"),
        }
    }
    let bytes = classifier_file(&tensors, Some(meta_with(&[("vocabulary", "abc")])));
    let err = import_classifier(&bytes, &ClassifierLimits::UI).unwrap_err();
    assert_eq!(
        err,
        WeightsError::Metadata(MetadataProblem::VocabularyLength {
            symbols: 3,
            input_size: 5
        })
    );
    assert_eq!(
        err.to_string(),
        "cannot rebuild the model from the file: vocabulary has 3 symbols, input_size is 5"
    );
    let model = SeqModel::new(RnnSpec::new(CellKind::Lstm, 5, 2), 3);
    let params = vec![0.0; model.layout.total_len()];
    let info = ClassifierInfo {
        classes: Some(class_names(2)),
        vocabulary: None,
    };
    assert_eq!(
        export_classifier(&model, &params, &info).unwrap_err(),
        WeightsError::Metadata(MetadataProblem::ClassNames {
            names: 2,
            classes: 3
        })
    );
}

/// Without metadata (as `safetensors.torch.save_file(model.state_dict(), path)` writes it) the
/// architecture is read off the shapes: cell from `rnn.weight_hh_l0`, layers and directions from
/// the names, classes from `fc.bias`; a file with nothing to infer from says what it has.
#[test]
fn classifier_without_metadata_is_inferred_from_shapes() {
    for (gates, cell) in [(1, CellKind::Rnn), (3, CellKind::Gru), (4, CellKind::Lstm)] {
        let loaded = import_classifier(
            &classifier_file(&tiny_classifier_tensors(2, gates, 5, 3), None),
            &ClassifierLimits::UI,
        )
        .unwrap();
        assert_eq!(loaded.model.spec, RnnSpec::new(cell, 5, 2));
        assert_eq!(loaded.model.outputs, 3);
        assert_eq!(
            loaded.info,
            ClassifierInfo {
                classes: None,
                vocabulary: None
            }
        );
        assert_eq!(
            loaded.notes[0],
            "no metadata: architecture inferred from tensor shapes"
        );
        assert_eq!(
            loaded.notes.len(),
            if cell == CellKind::Rnn { 2 } else { 1 }
        );
    }
    // A 2-layer bidirectional GRU exported by Unroll, metadata stripped.
    let spec = RnnSpec::stacked(CellKind::Gru, 6, 3, 2, true);
    let model = SeqModel::new(spec, 4);
    let params = random_params(model.layout.total_len(), 3);
    let tensors: Vec<(String, Raw)> = model
        .layout
        .entries
        .iter()
        .map(|e| (e.name.clone(), f32_raw(&e.shape, &params[e.range()])))
        .collect();
    let loaded = import_classifier(
        &classifier_file(&tensors, Some(vec![("format".into(), "pt".into())])),
        &ClassifierLimits::UI,
    )
    .unwrap();
    assert_eq!(loaded.model.spec, spec);
    assert_eq!(bits(&loaded.params), bits(&params));

    let odd = tiny_classifier_tensors(2, 2, 5, 3); // 4 rows for hidden 2: no cell has 2 gates
    match import_classifier(&classifier_file(&odd, None), &ClassifierLimits::UI).unwrap_err() {
        WeightsError::Metadata(m) => assert!(
            m.to_string()
                .contains("4 rows are not 1, 3 or 4 times hidden_size 2"),
            "{m}"
        ),
        other => panic!("{other}"),
    }
    let unrelated = file(&[("encoder.weight", &f32_raw(&[2], &[1.0, 2.0]))], None);
    assert_eq!(
        import_classifier(&unrelated, &ClassifierLimits::UI).unwrap_err().to_string(),
        "cannot rebuild the model from the file: the file has no Unroll metadata and no tensor `rnn.weight_hh_l0` to infer the classifier from (it has [\"encoder.weight\"])"
    );
}

// ---------------------------------------------------------------------------------------------
// PyTorch's own parameters (the golden fixtures) through safetensors
// ---------------------------------------------------------------------------------------------

/// The fixture's float64 tensors as an F64 safetensors file (as `save_file(m.double().state_dict())`
/// would write it), or rounded to F32.
fn fixture_file(params: &BTreeMap<String, Tensor>, dtype: Dtype) -> Vec<u8> {
    let raws: Vec<(String, Raw)> = params
        .iter()
        .map(|(name, t)| {
            let raw = match dtype {
                Dtype::F64 => f64_raw(&t.shape, &t.data),
                _ => f32_raw(&t.shape, &t.to_f32()),
            };
            (name.clone(), raw)
        })
        .collect();
    safetensors::serialize(raws.iter().map(|(n, r)| (n.clone(), r)), None).unwrap()
}

/// Every fixture (core/tests/fixtures and `$UNROLL_FIXTURES`): its PyTorch parameters written as
/// safetensors (F64 and F32) import under the fixture's architecture, and `math::recurrent`
/// (module fixtures) or the classifier (classifier fixtures, architecture inferred from the
/// shapes) reproduces the fixture's `output`, `h_n`, `c_n` / `logits` within
/// |err| ≤ 1e-5 + 1e-4·|ref|.
#[test]
fn pytorch_fixture_parameters_import_and_reproduce_the_outputs() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in common::fixture_paths() {
        let fixture =
            common::load_fixture(&path).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        for dtype in [Dtype::F64, Dtype::F32] {
            let label = format!("{} ({dtype})", path.file_name().unwrap().to_string_lossy());
            let mut check = |res: Result<(), String>| {
                if let Err(e) = res {
                    failures.push(format!("{label}: {e}"));
                }
            };
            match &fixture {
                Fixture::Module(fx) => {
                    let case = fx.case().unwrap_or_else(|e| panic!("{label}: {e:?}"));
                    let bytes = fixture_file(&fx.params, dtype);
                    let imported = import_module(&bytes, &case.spec)
                        .unwrap_or_else(|e| panic!("{label}: {e}"));
                    assert_eq!(
                        imported.notes.len(),
                        if dtype == Dtype::F64 {
                            case.layout.entries.len()
                        } else {
                            0
                        },
                        "{label}"
                    );
                    assert_eq!(
                        bits(&imported.params),
                        bits(&case.params),
                        "{label}: imported parameters"
                    );
                    let module = RnnModule::new(case.spec, &case.layout, "");
                    let h0 = case.h0.as_ref().map(|(d, s)| TensorRef::new(s, d));
                    let c0 = case.c0.as_ref().map(|(d, s)| TensorRef::new(s, d));
                    let out = module
                        .forward(
                            &imported.params,
                            TensorRef::new(&case.input_shape, &case.input),
                            case.batch_first,
                            case.lengths.as_deref(),
                            h0,
                            c0,
                        )
                        .unwrap_or_else(|e| panic!("{label}: {e}"));
                    check(fx.output.check("output", &out.output));
                    check(fx.h_n.check("h_n", &out.h_n));
                    match (&fx.c_n, &out.c_n) {
                        (Some(t), Some(c)) => check(t.check("c_n", c)),
                        (None, None) => {}
                        _ => check(Err("c_n present on one side only".into())),
                    }
                }
                Fixture::Classifier(fx) => {
                    let case = fx.case().unwrap_or_else(|e| panic!("{label}: {e:?}"));
                    let bytes = fixture_file(&fx.params_before, dtype);
                    let loaded = import_classifier(&bytes, &ClassifierLimits::UI)
                        .unwrap_or_else(|e| panic!("{label}: {e}"));
                    assert_eq!(
                        loaded.model.spec, case.spec,
                        "{label}: inferred architecture"
                    );
                    assert_eq!(loaded.model.outputs, case.num_classes, "{label}");
                    assert_eq!(
                        bits(&loaded.params),
                        bits(&case.params),
                        "{label}: imported parameters"
                    );
                    check(fx.logits.check(
                        "logits",
                        &loaded.model.forward(&loaded.params, &case.batch).outputs,
                    ));
                }
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 20,
        "expected the 10 shipped fixtures × 2 dtypes, checked {checked}"
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
