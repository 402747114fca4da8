//! The few PyTorch lines that give a lesson's numbers with the page's current values: the
//! parameters written into the module as the page has them (sliders or seeded weights, as
//! float32 literals that round-trip exactly), the module run on the page's inputs, and one
//! printed line per value the page shows (e.g. `h_2 = [0.9051482677459717]`). A learner can
//! paste them into Python and see the same numbers as the page; a test runs them under torch
//! where it is installed.

use super::bidir::Bidir;
use super::lstm::Lstm;
use super::softmax::Softmax;
use super::unroll::Unroll;

/// `[a, b, …]` of float32 values in their shortest round-trip form (`0.5`, `-0.12345679`).
fn list(values: &[f32]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
    format!("[{}]", items.join(", "))
}

/// `[[…], […]]`: `values` `[rows, cols]` row-major.
fn matrix(values: &[f32], cols: usize) -> String {
    let rows: Vec<String> = values.chunks(cols.max(1)).map(list).collect();
    format!("[{}]", rows.join(", "))
}

/// Lesson 1: `nn.RNN(1, H)` with the page's `weight_ih_l0 [H, 1]`, `weight_hh_l0 [H, H]`,
/// biases `[H]`, the inputs `x` `[T]` and `h_0` (every entry `h0`), printing `h_t` for t = 1..T
/// (`output[t − 1, 0, :]`, PyTorch's layout `[seq_len, batch, hidden]`).
pub fn unroll(u: &Unroll, x: &[f64], h0: f64) -> String {
    let h = u.hidden_size;
    let x: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    format!(
        "import torch
from torch import nn

# h_t = tanh(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh)
rnn = nn.RNN(input_size=1, hidden_size={h})
with torch.no_grad():
    rnn.weight_ih_l0.copy_(torch.tensor({w_ih}))  # W_xh [{h}, 1]
    rnn.weight_hh_l0.copy_(torch.tensor({w_hh}))  # W_hh [{h}, {h}]
    rnn.bias_ih_l0.copy_(torch.tensor({b_ih}))
    rnn.bias_hh_l0.copy_(torch.tensor({b_hh}))
x = torch.tensor({xs}).view(-1, 1, 1)  # [seq_len, batch, input_size]
h0 = torch.full((1, 1, {h}), {h0:?})  # [num_layers, batch, hidden_size]
output, h_n = rnn(x, h0)
for t, h_t in enumerate(output[:, 0, :].tolist(), start=1):
    print(f\"h_{{t}} =\", h_t)
",
        w_ih = matrix(&u.weight_ih, 1),
        w_hh = matrix(&u.weight_hh, h),
        b_ih = list(&u.bias_ih),
        b_hh = list(&u.bias_hh),
        xs = list(&x),
        h0 = h0 as f32,
    )
}

/// Lesson 4: the belt `C_t = f_t·C_(t−1) + i_t·g_t`, `h_t = o_t·tanh(C_t)` with the page's
/// gates (slider and run modes: PyTorch's `nn.LSTM` computes its gates from x and h, so the
/// update is written out in torch's arithmetic), or the seeded `nn.LSTM(1, 1)` with its weights
/// run one step at a time from `C_0` (weights mode); prints `C_t` and `h_t` per step.
pub fn lstm(l: &Lstm, c0: f64) -> String {
    let mut out = String::from("import torch\nfrom torch import nn\n\n");
    match &l.weights {
        None => {
            let gate = |f: fn(&super::lstm::LstmStep) -> f32| {
                list(&l.steps.iter().map(f).collect::<Vec<_>>())
            };
            out.push_str(&format!(
                "# C_t = f_t * C_(t-1) + i_t * g_t,  h_t = o_t * tanh(C_t): the page's gates per step
f = torch.tensor({f})
i = torch.tensor({i})
g = torch.tensor({g})
o = torch.tensor({o})
c = torch.tensor({c0:?})  # C_0
for t in range(len(f)):
    c = f[t] * c + i[t] * g[t]
    h = o[t] * torch.tanh(c)
    print(f\"C_{{t + 1}} = {{c.item():.6f}}   h_{{t + 1}} = {{h.item():.6f}}\")
",
                f = gate(|s| s.f),
                i = gate(|s| s.i),
                g = gate(|s| s.g),
                o = gate(|s| s.o),
                c0 = c0 as f32,
            ));
        }
        Some(w) => {
            let xs: Vec<f32> = l.steps.iter().map(|s| s.x.unwrap_or(0.0)).collect();
            out.push_str(&format!(
                "# nn.LSTM(1, 1): gates i, f, g, o from x_t and h_(t-1), with the page's seeded weights
lstm = nn.LSTM(input_size=1, hidden_size=1)
with torch.no_grad():
    lstm.weight_ih_l0.copy_(torch.tensor({w_ih}))  # [4, 1]: i, f, g, o
    lstm.weight_hh_l0.copy_(torch.tensor({w_hh}))  # [4, 1]
    lstm.bias_ih_l0.copy_(torch.tensor({b_ih}))
    lstm.bias_hh_l0.copy_(torch.tensor({b_hh}))
h = torch.zeros(1, 1, 1)
c = torch.full((1, 1, 1), {c0:?})  # C_0
for t, x_t in enumerate({xs}, start=1):
    _, (h, c) = lstm(torch.tensor([[[x_t]]]), (h, c))
    print(f\"C_{{t}} = {{c.item():.6f}}   h_{{t}} = {{h.item():.6f}}\")
",
                w_ih = matrix(&w.weight_ih, 1),
                w_hh = matrix(&w.weight_hh, 1),
                b_ih = list(&w.bias_ih),
                b_hh = list(&w.bias_hh),
                c0 = c0 as f32,
                xs = list(&xs),
            ));
        }
    }
    out
}

/// Lesson 6: the seeded bidirectional `nn.RNN(2, 2)` on the tokens' embeddings; prints
/// `output[t]` (`[forward h_t, backward h_t]`) per token and `h_n` `[2, 2]` (layer-direction
/// major: forward, then backward).
pub fn bidir(b: &Bidir) -> String {
    let mut set = String::new();
    for p in &b.params {
        let value = if p.shape.len() == 2 {
            matrix(&p.values, p.shape[1])
        } else {
            list(&p.values)
        };
        set.push_str(&format!(
            "    rnn.{}.copy_(torch.tensor({value}))\n",
            p.name
        ));
    }
    let inputs: Vec<f32> = b.inputs.iter().flatten().copied().collect();
    let tokens: Vec<String> = b.tokens.iter().map(|t| format!("{t:?}")).collect();
    format!(
        "import torch
from torch import nn

rnn = nn.RNN(input_size=2, hidden_size=2, bidirectional=True)
with torch.no_grad():
{set}# the embeddings of {tokens}, [seq_len, batch, input_size]
x = torch.tensor({x}).view({t}, 1, 2)
output, h_n = rnn(x)
for t, row in enumerate(output[:, 0, :].tolist()):
    print(f\"output[{{t}}] =\", row)  # [forward h_t, backward h_t]
print(\"h_n =\", h_n[:, 0, :].tolist())  # [forward, backward]
",
        tokens = tokens.join(", "),
        x = matrix(&inputs, 2),
        t = b.inputs.len(),
    )
}

/// Lesson 7: `F.log_softmax`, `F.softmax` and `F.cross_entropy` of the page's logits `[C]`
/// and target class.
pub fn softmax(s: &Softmax) -> String {
    format!(
        "import torch
import torch.nn.functional as F

logits = torch.tensor({logits})
target = torch.tensor([{target}])
print(\"log_softmax =\", F.log_softmax(logits, dim=0).tolist())
print(\"softmax =\", F.softmax(logits, dim=0).tolist())
print(\"cross_entropy =\", F.cross_entropy(logits.unsqueeze(0), target).item())
",
        logits = list(&s.logits),
        target = s.target,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::lessons::UnrollConfig;
    use crate::lessons::unroll::unroll as run;

    #[test]
    fn the_scalar_lesson_writes_its_sliders_and_inputs() {
        let c = UnrollConfig::default();
        let u = run(&c).unwrap();
        let code = unroll(&u, &c.x, c.h0);
        for line in [
            "rnn = nn.RNN(input_size=1, hidden_size=1)",
            "    rnn.weight_ih_l0.copy_(torch.tensor([[0.5]]))  # W_xh [1, 1]",
            "    rnn.weight_hh_l0.copy_(torch.tensor([[1.0]]))  # W_hh [1, 1]",
            "    rnn.bias_ih_l0.copy_(torch.tensor([0.0]))",
            "    rnn.bias_hh_l0.copy_(torch.tensor([0.0]))",
            "x = torch.tensor([1.0, 2.0, -1.0]).view(-1, 1, 1)  # [seq_len, batch, input_size]",
            "h0 = torch.full((1, 1, 1), 0.0)  # [num_layers, batch, hidden_size]",
            "    print(f\"h_{t} =\", h_t)",
        ] {
            assert!(
                code.lines().any(|l| l == line),
                "missing {line:?} in\n{code}"
            );
        }
    }

    #[test]
    fn seeded_weights_are_written_exactly() {
        let c = UnrollConfig {
            hidden_size: 3,
            seed: 7,
            ..UnrollConfig::default()
        };
        let u = run(&c).unwrap();
        let code = unroll(&u, &c.x, c.h0);
        let line = code
            .lines()
            .find(|l| l.contains("weight_hh_l0"))
            .expect("W_hh line");
        // The 9 values parse back to the page's float32 weights bit for bit.
        let inside = &line[line.find("tensor(").unwrap() + 7..line.find("))").unwrap()];
        let parsed: Vec<f32> = inside
            .split(['[', ']', ','])
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        assert_eq!(parsed, u.weight_hh);
        assert!(code.contains("nn.RNN(input_size=1, hidden_size=3)"));
        assert!(code.contains("torch.full((1, 1, 3), 0.0)"));
    }

    #[test]
    fn the_belt_writes_each_steps_gates() {
        let c = crate::config::lessons::LstmConfig::default();
        let l = crate::lessons::lstm::lstm(&c).unwrap();
        let code = lstm(&l, c.c0);
        for line in [
            "f = torch.tensor([0.9, 0.3])",
            "i = torch.tensor([0.5, 0.9])",
            "g = torch.tensor([0.8, -0.6])",
            "o = torch.tensor([0.4, 0.7])",
            "c = torch.tensor(0.0)  # C_0",
        ] {
            assert!(
                code.lines().any(|l| l == line),
                "missing {line:?} in\n{code}"
            );
        }
    }

    #[test]
    fn the_lstm_weights_mode_writes_its_four_gate_rows() {
        let c = crate::config::lessons::LstmConfig {
            mode: crate::config::lessons::LstmMode::Weights,
            ..Default::default()
        };
        let l = crate::lessons::lstm::lstm(&c).unwrap();
        let code = lstm(&l, c.c0);
        let w = l.weights.as_ref().unwrap();
        assert!(code.contains(&format!(
            "lstm.weight_ih_l0.copy_(torch.tensor({}))",
            matrix(&w.weight_ih, 1)
        )));
        assert_eq!(w.weight_ih.len(), 4);
        assert!(code.contains("enumerate([1.0, 2.0, -1.0], start=1)"));
    }

    #[test]
    fn bidir_sets_every_parameter_and_the_embeddings() {
        let c = crate::config::lessons::BidirConfig::default();
        let b = crate::lessons::bidir::bidir(&c).unwrap();
        let code = bidir(&b);
        for name in [
            "weight_ih_l0",
            "weight_hh_l0",
            "bias_ih_l0",
            "bias_hh_l0",
            "weight_ih_l0_reverse",
            "weight_hh_l0_reverse",
            "bias_ih_l0_reverse",
            "bias_hh_l0_reverse",
        ] {
            assert!(code.contains(&format!("    rnn.{name}.copy_(")), "{name}");
        }
        assert!(code.contains(&format!(").view({}, 1, 2)", b.tokens.len())));
        assert!(code.contains("\"我\", \"爱\", \"中国\""));
    }

    #[test]
    fn softmax_writes_the_logits_and_target() {
        let c = crate::config::lessons::SoftmaxConfig::default();
        let s = crate::lessons::softmax::softmax(&c);
        let code = softmax(&s);
        assert!(code.contains("logits = torch.tensor([3.2, 5.1, -1.7])"));
        assert!(code.contains("target = torch.tensor([1])"));
    }
}
