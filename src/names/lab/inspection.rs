//! The inspector's model: from the session's weights, an encoded name and the pin controls to
//! what the "Inside the trained model" panel shows (h_t, c_t and gate maps per layer and
//! direction, the top-k languages, whether the pin applies). Plain data, no Leptos: the panel
//! ([`super::inspector`]) renders it, and the native tests check it against [`unroll_core::math`].
//!
//! Every number comes from [`unroll_core::math::model::SeqModel::trace_pinned`] (the CPU
//! reference the trainer uses). One name is a few hundred multiply-adds per unit and step, so
//! the panel recomputes it synchronously when the name, the weights or the pin change.

use crate::charts::step_heatmap::{Scale, StepMap};
use unroll_core::config::Lang;
use unroll_core::data::normalize::symbol;
use unroll_core::math::cell::{GateActivation, LangText};
use unroll_core::math::model::{GatePin, SeqTrace};
use unroll_core::math::params::CellKind;
use unroll_core::math::recurrent::DirectionTrace;
use unroll_core::train::sweep::Weights;

/// Languages listed in the prediction.
pub const TOP_K: usize = 5;

/// The gate letters of `cell` in PyTorch's order (the index is [`GatePin::gate`]).
pub fn gate_letters(cell: CellKind) -> Vec<&'static str> {
    cell.spec().gates.iter().map(|g| g.letter).collect()
}

/// True for the tanh blocks (LSTM g, GRU n: values in −1…1); the others are sigmoids (0…1).
pub fn gate_is_tanh(cell: CellKind, gate: usize) -> bool {
    cell.spec()
        .gates
        .get(gate)
        .is_some_and(|g| g.activation == GateActivation::Tanh)
}

/// The pin as the controls hold it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PinControls {
    /// The pin is on.
    pub enabled: bool,
    /// Gate index (see [`gate_letters`]).
    pub gate: usize,
    /// `None` = every step.
    pub step: Option<usize>,
    /// The constant (0–1 for sigmoid gates, −1–1 for g/n).
    pub value: f32,
    /// Layer the pin acts on.
    pub layer: usize,
    /// Direction the pin acts on (0 forward, 1 reverse).
    pub direction: usize,
}

impl Default for PinControls {
    fn default() -> Self {
        PinControls {
            enabled: false,
            gate: 1,
            step: None,
            value: 0.0,
            layer: 0,
            direction: 0,
        }
    }
}

/// One row of the top-k list.
#[derive(Clone, Debug, PartialEq)]
pub struct TopEntry {
    /// Class (language) name.
    pub label: String,
    /// Probability with the pin (the model's own when no pin is on).
    pub p: f32,
    /// Probability of the unpinned model, while a pin is on.
    pub base: Option<f32>,
}

/// What the panel shows for one name.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    /// The cell of the model.
    pub cell: CellKind,
    /// Hidden size H.
    pub hidden_size: usize,
    /// Layers L.
    pub num_layers: usize,
    /// Directions D.
    pub num_directions: usize,
    /// Steps the model reads (columns of the maps).
    pub steps: usize,
    /// Symbols of the name (before padding/truncation).
    pub name_len: usize,
    /// One label per step: the character (space shown as ␣), empty for padding.
    pub col_labels: Vec<String>,
    /// First padding step, when the model reads padding.
    pub padded_from: Option<usize>,
    /// `[L·D]` traces (with the pin), layer-major.
    pub directions: Vec<DirectionTrace>,
    /// The top-k languages.
    pub top: Vec<TopEntry>,
    /// The pin that was applied (None: off, or its step is past the name).
    pub applied: Option<GatePin>,
    /// The pin is on but its step does not exist for this name.
    pub step_missing: Option<usize>,
    /// Step of the weights.
    pub weights_step: u64,
}

impl Inspection {
    /// Index of (layer, direction) in [`Inspection::directions`].
    pub fn index(&self, layer: usize, direction: usize) -> usize {
        layer * self.num_directions + direction
    }

    /// The h_t map of (layer, direction).
    pub fn h_map(&self, layer: usize, direction: usize) -> Option<StepMap> {
        let d = self.directions.get(self.index(layer, direction))?;
        Some(self.map(&d.h, Scale::Diverging { abs_max: 1.0 }))
    }

    /// The c_t map of (layer, direction) (LSTM), scaled to its largest |c|.
    pub fn c_map(&self, layer: usize, direction: usize) -> Option<StepMap> {
        let d = self.directions.get(self.index(layer, direction))?;
        let c = d.c.as_ref()?;
        let peak = c.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let abs_max = if peak <= 1.0 { 1.0 } else { peak.ceil() };
        Some(self.map(c, Scale::Diverging { abs_max }))
    }

    /// The map of gate `gate` of (layer, direction) (LSTM/GRU).
    pub fn gate_map(&self, layer: usize, direction: usize, gate: usize) -> Option<StepMap> {
        let d = self.directions.get(self.index(layer, direction))?;
        let gates = d.gates.as_ref()?;
        let h = self.hidden_size;
        let g_count = self.cell.gates();
        if gate >= g_count {
            return None;
        }
        let time_major: Vec<f32> = (0..self.steps)
            .flat_map(|t| gates[t * g_count * h + gate * h..][..h].iter().copied())
            .collect();
        let scale = if gate_is_tanh(self.cell, gate) {
            Scale::Diverging { abs_max: 1.0 }
        } else {
            Scale::UNIT
        };
        Some(self.map(&time_major, scale))
    }

    fn map(&self, time_major: &[f32], scale: Scale) -> StepMap {
        StepMap::from_time_major(
            time_major,
            self.hidden_size,
            self.col_labels.clone(),
            self.padded_from,
            scale,
        )
    }
}

/// Why there is nothing to inspect.
#[derive(Clone, Debug, PartialEq)]
pub enum NoInspection {
    /// The field is empty.
    Empty,
    /// No weights were published yet.
    BeforeStart,
    /// Class names not loaded.
    WaitingForData,
    /// Nothing of the typed name is in the vocabulary.
    NoLetters(String),
    /// The model refused (message in English, from the layer below).
    Error(String),
}

fn ranked(probs: &[f32]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..probs.len()).collect();
    idx.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    idx
}

/// The unpinned trace of `tokens` (the model as trained).
pub fn base_trace(weights: &Weights, tokens: &[u32]) -> Result<SeqTrace, NoInspection> {
    weights
        .model
        .trace_pinned(&weights.params, tokens, &[])
        .map_err(|e| NoInspection::Error(e.to_string()))
}

/// Gathers what the panel shows for `tokens`: `base` is their [`base_trace`]; with `pin` on
/// (and applicable) the name is traced again with the gate pinned. `classes`: class names in
/// index order.
pub fn inspect(
    weights: &Weights,
    classes: &[String],
    tokens: &[u32],
    base: &SeqTrace,
    pin: PinControls,
) -> Result<Inspection, NoInspection> {
    let model = &weights.model;
    let spec = model.spec;
    let params = &weights.params;
    let h = spec.hidden_size;
    let steps = base.directions.first().map_or(0, |d| d.h.len() / h.max(1));
    let has_gates = !gate_letters(spec.cell).is_empty();
    let wanted = (pin.enabled && has_gates).then_some(GatePin {
        layer: pin.layer.min(spec.num_layers - 1),
        direction: pin.direction.min(spec.num_directions() - 1),
        gate: pin.gate.min(spec.cell.gates() - 1),
        step: pin.step,
        value: pin.value,
    });
    let step_missing = wanted.and_then(|p| p.step.filter(|&t| t >= steps));
    let applied = wanted.filter(|_| step_missing.is_none());
    let trace = match applied {
        Some(p) => model
            .trace_pinned(params, tokens, &[p])
            .map_err(|e| NoInspection::Error(e.to_string()))?,
        None => base.clone(),
    };
    let top = ranked(&trace.probabilities)
        .into_iter()
        .take(TOP_K)
        .map(|i| TopEntry {
            label: classes
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("class {i}")),
            p: trace.probabilities[i],
            base: applied.map(|_| base.probabilities[i]),
        })
        .collect();
    let col_labels = (0..steps)
        .map(|t| match tokens.get(t).and_then(|&s| symbol(s)) {
            Some(' ') => "␣".to_owned(),
            Some(c) => c.to_string(),
            None => String::new(),
        })
        .collect();
    Ok(Inspection {
        cell: spec.cell,
        hidden_size: h,
        num_layers: spec.num_layers,
        num_directions: spec.num_directions(),
        steps,
        name_len: tokens.len(),
        col_labels,
        padded_from: (tokens.len() < steps).then_some(tokens.len()),
        directions: trace.directions,
        top,
        applied,
        step_missing,
        weights_step: weights.step,
    })
}

/// A cell description's text in the page's language.
pub(super) fn lang_text(text: LangText, lang: Lang) -> &'static str {
    match lang {
        Lang::En => text.en,
        Lang::Zh => text.zh,
    }
}

/// The label of gate `g` of `cell` (`f: forget gate`); `?` past the cell's gates.
pub(super) fn gate_label(cell: CellKind, g: usize, lang: Lang) -> &'static str {
    cell.spec()
        .gates
        .get(g)
        .map_or("?", |gate| lang_text(gate.label, lang))
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::data::{encode, VOCAB_SIZE};
    use unroll_core::math::cell::{forward_step, StepIn, StepOut};
    use unroll_core::math::model::SeqModel;
    use unroll_core::math::params::{Nonlinearity, RnnSpec};

    const H: usize = 3;
    const CLASSES: usize = 4;

    /// A small model of `cell` (one layer, forward only, H = 3, 4 classes) with fixed,
    /// irregular parameters (no random generator: the values are a formula of the index).
    fn weights(cell: CellKind) -> Weights {
        let model = SeqModel::new(RnnSpec::new(cell, VOCAB_SIZE, H), CLASSES);
        let params = (0..model.layout.total_len())
            .map(|i| ((i as f32) * 0.731).sin() * 0.8)
            .collect();
        Weights {
            model,
            params,
            step: 7,
        }
    }

    fn classes() -> Vec<String> {
        ["Arabic", "Czech", "Dutch", "English"]
            .map(String::from)
            .to_vec()
    }

    fn inspect_name(w: &Weights, name: &str, pin: PinControls) -> Inspection {
        let tokens = encode(name).expect("letters");
        let base = base_trace(w, &tokens).expect("trace");
        inspect(w, &classes(), &tokens, &base, pin).expect("inspection")
    }

    /// The layer-0 forward steps of `w` over `tokens`, one [`forward_step`] of `math` per step
    /// with the pre-activations computed here from the named parameters:
    /// `[(gates [G·H], c [H], h [H])]` per step.
    fn steps_by_math(w: &Weights, tokens: &[u32]) -> Vec<(Vec<f32>, Vec<f32>, Vec<f32>)> {
        let spec = w.model.spec;
        let view = |name: &str| w.model.layout.view(&w.params, name).expect(name);
        let (w_ih, w_hh) = (view("rnn.weight_ih_l0"), view("rnn.weight_hh_l0"));
        let (b_ih, b_hh) = (view("rnn.bias_ih_l0"), view("rnn.bias_hh_l0"));
        let rows = spec.cell.spec().blocks * H;
        let mut h = vec![0.0f32; H];
        let mut c = vec![0.0f32; H];
        let mut out = Vec::new();
        for &tok in tokens {
            // One-hot input: W_ih x is the token's column.
            let gi: Vec<f32> = (0..rows)
                .map(|r| w_ih[r * VOCAB_SIZE + tok as usize] + b_ih[r])
                .collect();
            let gh: Vec<f32> = (0..rows)
                .map(|r| (0..H).map(|k| w_hh[r * H + k] * h[k]).sum::<f32>() + b_hh[r])
                .collect();
            let mut gates = vec![0.0f32; rows];
            let mut c_new = vec![0.0f32; H];
            let mut aux = vec![0.0f32; H];
            let mut h_new = vec![0.0f32; H];
            forward_step(
                spec.cell,
                StepIn {
                    nonlinearity: Nonlinearity::Tanh,
                    gi: &gi,
                    gh: &gh,
                    h_prev: &h,
                    c_prev: &c,
                    pins: &[],
                },
                StepOut {
                    gates: &mut gates,
                    c: &mut c_new,
                    aux: &mut aux,
                    h: &mut h_new,
                },
            );
            h.clone_from(&h_new);
            c.clone_from(&c_new);
            out.push((gates, c_new, h_new));
        }
        out
    }

    fn sigmoid(x: f32) -> f32 {
        1.0 / (1.0 + (-x).exp())
    }

    #[test]
    fn lstm_maps_hold_maths_gates_and_states_unit_by_step() {
        let w = weights(CellKind::Lstm);
        let tokens = encode("Abe").unwrap();
        let ins = inspect_name(&w, "Abe", PinControls::default());
        assert_eq!((ins.steps, ins.name_len, ins.padded_from), (3, 3, None));
        assert_eq!(ins.col_labels, ["A", "b", "e"]);
        assert_eq!(ins.weights_step, 7);
        let expected = steps_by_math(&w, &tokens);
        for (g, letter) in gate_letters(CellKind::Lstm).iter().enumerate() {
            let map = ins.gate_map(0, 0, g).expect("gate map");
            assert_eq!((map.rows, map.cols), (H, 3), "gate {letter}");
            let want_scale = if *letter == "g" {
                Scale::Diverging { abs_max: 1.0 }
            } else {
                Scale::UNIT
            };
            assert_eq!(map.scale, want_scale, "gate {letter}");
            for (t, (gates, _, _)) in expected.iter().enumerate() {
                for j in 0..H {
                    let got = map.values[j * map.cols + t];
                    let want = gates[g * H + j];
                    assert!(
                        (got - want).abs() < 1e-6,
                        "{letter} unit {j} t {t}: {got} vs {want}"
                    );
                }
            }
        }
        let h_map = ins.h_map(0, 0).unwrap();
        let c_map = ins.c_map(0, 0).unwrap();
        for (t, (_, c, h)) in expected.iter().enumerate() {
            for j in 0..H {
                assert!((h_map.values[j * 3 + t] - h[j]).abs() < 1e-6);
                assert!((c_map.values[j * 3 + t] - c[j]).abs() < 1e-6);
            }
        }
        // The input gate at t = 0 by hand: h0 = 0, so i = σ(W_ii[:, x0] + b_ii + b_hi).
        let view = |name: &str| w.model.layout.view(&w.params, name).unwrap();
        let i0 = sigmoid(
            view("rnn.weight_ih_l0")[tokens[0] as usize]
                + view("rnn.bias_ih_l0")[0]
                + view("rnn.bias_hh_l0")[0],
        );
        let got = ins.gate_map(0, 0, 0).unwrap().values[0];
        assert!((got - i0).abs() < 1e-6, "{got} vs {i0}");
        // No gate past the cell's four.
        assert!(ins.gate_map(0, 0, 4).is_none());
    }

    #[test]
    fn top_list_is_the_models_prediction_ranked() {
        let w = weights(CellKind::Gru);
        let tokens = encode("Nguyen").unwrap();
        let probs = w.model.predict(&w.params, &tokens).unwrap();
        let ins = inspect_name(&w, "Nguyen", PinControls::default());
        assert_eq!(ins.top.len(), CLASSES.min(TOP_K));
        for pair in ins.top.windows(2) {
            assert!(pair[0].p >= pair[1].p);
        }
        for e in &ins.top {
            let i = classes().iter().position(|c| *c == e.label).unwrap();
            assert_eq!(e.p, probs[i]);
            assert_eq!(e.base, None);
        }
        assert!(ins.applied.is_none() && ins.step_missing.is_none());
    }

    #[test]
    fn a_forget_pin_sets_the_gate_and_keeps_the_unpinned_probability() {
        let w = weights(CellKind::Lstm);
        let pin = PinControls {
            enabled: true,
            gate: 1,
            step: None,
            value: 0.0,
            layer: 0,
            direction: 0,
        };
        let base = inspect_name(&w, "Abe", PinControls::default());
        let ins = inspect_name(&w, "Abe", pin);
        let applied = ins.applied.expect("pin applied");
        assert_eq!((applied.gate, applied.step, applied.value), (1, None, 0.0));
        assert!(ins
            .gate_map(0, 0, 1)
            .unwrap()
            .values
            .iter()
            .all(|&v| v == 0.0));
        // With f = 0, c_t = i ⊙ g at every step: the cell state forgets the previous one.
        let gates = |g: usize| ins.gate_map(0, 0, g).unwrap().values;
        let (i, g) = (gates(0), gates(2));
        let c = ins.c_map(0, 0).unwrap().values;
        for k in 0..c.len() {
            assert!((c[k] - i[k] * g[k]).abs() < 1e-6);
        }
        for e in &ins.top {
            let b = base.top.iter().find(|x| x.label == e.label).unwrap();
            assert_eq!(e.base, Some(b.p));
        }
        assert_ne!(
            ins.top.iter().map(|e| e.p).collect::<Vec<_>>(),
            base.top.iter().map(|e| e.p).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_pin_past_the_name_is_reported_not_applied() {
        let w = weights(CellKind::Gru);
        let pin = PinControls {
            enabled: true,
            gate: 0,
            step: Some(5),
            value: 1.0,
            layer: 0,
            direction: 0,
        };
        let ins = inspect_name(&w, "Abe", pin);
        assert_eq!((ins.applied, ins.step_missing), (None, Some(5)));
        assert!(ins.top.iter().all(|e| e.base.is_none()));
    }

    #[test]
    fn an_rnn_has_no_gates_to_pin() {
        let w = weights(CellKind::Rnn);
        let pin = PinControls {
            enabled: true,
            ..PinControls::default()
        };
        let ins = inspect_name(&w, "Abe", pin);
        assert!(gate_letters(CellKind::Rnn).is_empty());
        assert_eq!(ins.applied, None);
        assert!(ins.gate_map(0, 0, 0).is_none() && ins.c_map(0, 0).is_none());
        assert_eq!(ins.h_map(0, 0).unwrap().rows, H);
    }

    #[test]
    fn padded_head_marks_the_padding_columns() {
        let mut w = weights(CellKind::Lstm);
        w.model = w.model.with_head(unroll_core::math::model::Head::Padded);
        let ins = inspect_name(&w, "Abe", PinControls::default());
        let padded = unroll_core::math::model::pad_tokens(&encode("Abe").unwrap()).len();
        assert_eq!((ins.steps, ins.padded_from), (padded, Some(3)));
        assert_eq!(ins.col_labels[..3], ["A", "b", "e"]);
        assert!(ins.col_labels[3..].iter().all(String::is_empty));
        assert_eq!(ins.h_map(0, 0).unwrap().padded_from, Some(3));
    }
}
