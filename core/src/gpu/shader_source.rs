//! The registry of WGSL kernels: the only place that `include_str!`s `shaders/`.
//!
//! Each kernel file in `shaders/` has one compute entry point named after the file, and is
//! composed as `shaders/common.wgsl` (the prelude: activations, `SequenceDims`, 1-D
//! indexing) followed by the file itself. The app and the naga validation test see byte-identical text.

/// One composed kernel.
#[derive(Clone, Copy, Debug)]
pub struct KernelSource {
    /// Kernel name = file stem = entry point = pipeline label, e.g. `"lstm_forward"`.
    pub name: &'static str,
    /// File name inside `shaders/`, e.g. `"lstm_forward.wgsl"`.
    pub file: &'static str,
    /// The prelude followed by the file: valid WGSL on its own.
    pub source: &'static str,
}

/// File name of the prelude prepended to every kernel.
pub const PRELUDE_FILE: &str = "common.wgsl";

/// The prelude's text (`shaders/common.wgsl`).
pub const PRELUDE: &str = include_str!("../../../shaders/common.wgsl");

macro_rules! kernel {
    ($name:literal) => {
        KernelSource {
            name: $name,
            file: concat!($name, ".wgsl"),
            source: concat!(
                include_str!("../../../shaders/common.wgsl"),
                "\n",
                include_str!(concat!("../../../shaders/", $name, ".wgsl"))
            ),
        }
    };
}

/// Every kernel in `shaders/` (all files except the prelude).
pub const KERNELS: &[KernelSource] = &[
    kernel!("activation"),
    kernel!("matmul"),
    kernel!("input_projection"),
    kernel!("rnn_forward"),
    kernel!("rnn_backward"),
    kernel!("lstm_forward"),
    kernel!("lstm_backward"),
    kernel!("gru_forward"),
    kernel!("gru_backward"),
    kernel!("classifier_head"),
    kernel!("last_step"),
    kernel!("onehot_weight_grad"),
    kernel!("col_sum"),
    kernel!("clip_grad_norm"),
    kernel!("adam_update"),
];

/// The kernel called `name`, if it exists.
pub fn kernel(name: &str) -> Option<&'static KernelSource> {
    KERNELS.iter().find(|k| k.name == name)
}
