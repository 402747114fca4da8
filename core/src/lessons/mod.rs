//! The computations behind the lesson pages, natively testable, no UI.
//!
//! Every number a lesson shows comes out of these functions, and they are built on the same
//! CPU reference that trains ([`crate::math`]):
//!
//! - [`unroll`]: a 1×1 (or H×H) `nn.RNN` run by [`crate::math::recurrent::RnnModule`] with the
//!   slider values as its parameters; z_t and its terms are read next to the module's h_t.
//! - [`shapes`]: [`crate::math::shapes::rnn_shapes`] plus the one-bias textbook count.
//! - [`bptt`]: the running product of `act'(z_t)·W_hh` with [`crate::math::activation`]'s
//!   derivatives, the BPTT gradient of h_T and [`crate::math::optim::clip_grad_norm`].
//! - [`lstm`]: the cell update of [`crate::math::lstm`] on slider gates ([`lstm::lstm_update`]
//!   is the update half of `math::lstm::forward_step`, which has no update-only entry point),
//!   or a seeded `nn.LSTM(1, 1)` through `RnnModule`.
//! - [`gru`]: PyTorch's blend `(1 − z)·n + z·h` and reset-after candidate as in
//!   [`crate::math::gru`], in the course's and PyTorch's conventions.
//! - [`bidir`]: a seeded bidirectional `nn.RNN(2, 2)` through `RnnModule`.
//! - [`softmax`]: [`crate::math::loss::log_softmax`] and the NLL.
//! - [`handout`]: the four places where the course's printed handout differs, computed.
//! - [`parallel`]: timing of a sequential recurrent forward against one all-pairs product.
//! - [`questions`]: each lesson's "predict, then see" questions, answered by the modules above
//!   from the page's state.
//! - [`lab_questions`]: the two labs' questions, answered from the run the learner trains.
//! - [`torch_lines`]: the PyTorch lines that give a lesson's numbers with the page's values.
//!
//! Inputs are the lesson configs of [`crate::config::lessons`] (already clamped to the slider
//! ranges); all arithmetic is f32 like the trainer.

pub mod bidir;
pub mod bptt;
pub mod gru;
pub mod handout;
pub mod lab_questions;
pub mod lstm;
pub mod parallel;
pub mod questions;
pub mod shapes;
pub mod softmax;
pub mod torch_lines;
pub mod unroll;

/// `list[(t) mod len]`: the t-th element (from 0) of a list repeated cyclically; 0 for an
/// empty list.
pub fn cyclic(list: &[f64], t: usize) -> f32 {
    if list.is_empty() {
        0.0
    } else {
        list[t % list.len()] as f32
    }
}
