//! The few PyTorch lines that give a lesson's numbers with the page's current values: the
//! parameters written into the module as the page has them (sliders or seeded weights, as
//! float32 literals that round-trip exactly), the module run on the page's inputs, and one
//! printed line per value the page shows (e.g. `h_2 = [0.9051482677459717]`). A learner can
//! paste them into Python and see the same numbers as the page; a test runs them under torch
//! where it is installed.

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
}
