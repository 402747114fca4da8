//! The registry of WGSL kernels: the only place that `include_str!`s the shipped `shaders/`.
//!
//! Every kernel is composed as `shaders/common.wgsl` (the prelude: activations,
//! `SequenceDims`, the packed `W_hh` layout, 1-D indexing) followed by its files:
//! - a plain kernel, `shaders/<name>.wgsl`, has one compute entry point named after the file;
//! - a cell's whole-sequence kernel, `<cell>_forward` or `<cell>_backward`, is the cell's part
//!   `shaders/<cell>.wgsl` (its arithmetic: gate count, cell step, its derivative) followed by
//!   the skeleton every cell shares, `shaders/sequence_forward.wgsl` or
//!   `shaders/sequence_backward.wgsl`, whose entry point is named after the skeleton.
//!
//! Each file is included as the app ships it ([`super::wgsl_text::shipped`]: comments and blank
//! lines removed, written by the build script into the build's output folder); the parts are
//! concatenated as they are, so the app and the naga validation test see byte-identical text.

/// One composed kernel.
#[derive(Clone, Copy, Debug)]
pub struct KernelSource {
    /// Kernel name = pipeline label, e.g. `"lstm_forward"`.
    pub name: &'static str,
    /// The files after the prelude, in order, inside `shaders/`, e.g.
    /// `["lstm.wgsl", "sequence_forward.wgsl"]`.
    pub files: &'static [&'static str],
    /// The compute entry point: the last file's stem, e.g. `"sequence_forward"`.
    pub entry: &'static str,
    /// The prelude followed by the files, each after a newline: valid WGSL on its own.
    pub source: &'static str,
}

/// File name of the prelude prepended to every kernel.
pub const PRELUDE_FILE: &str = "common.wgsl";

/// The prelude's shipped text (`shaders/common.wgsl`).
pub const PRELUDE: &str = include_str!(concat!(env!("OUT_DIR"), "/shaders/common.wgsl"));

/// The skeletons of the cells' whole-sequence kernels, forward then backward.
pub const SEQUENCE_SKELETONS: [&str; 2] = ["sequence_forward", "sequence_backward"];

/// A plain kernel: the prelude and `shaders/<name>.wgsl`.
macro_rules! kernel {
    ($name:literal) => {
        KernelSource {
            name: $name,
            files: &[concat!($name, ".wgsl")],
            entry: $name,
            source: concat!(
                include_str!(concat!(env!("OUT_DIR"), "/shaders/common.wgsl")),
                "\n",
                include_str!(concat!(env!("OUT_DIR"), "/shaders/", $name, ".wgsl"))
            ),
        }
    };
}

/// A cell's kernel of one pass: the prelude, `shaders/<cell>.wgsl` and the pass's skeleton.
macro_rules! cell_kernel {
    ($cell:literal, $pass:literal) => {
        KernelSource {
            name: concat!($cell, "_", $pass),
            files: &[
                concat!($cell, ".wgsl"),
                concat!("sequence_", $pass, ".wgsl"),
            ],
            entry: concat!("sequence_", $pass),
            source: concat!(
                include_str!(concat!(env!("OUT_DIR"), "/shaders/common.wgsl")),
                "\n",
                include_str!(concat!(env!("OUT_DIR"), "/shaders/", $cell, ".wgsl")),
                "\n",
                include_str!(concat!(
                    env!("OUT_DIR"),
                    "/shaders/sequence_",
                    $pass,
                    ".wgsl"
                ))
            ),
        }
    };
}

/// Both whole-sequence kernels of a cell, forward then backward.
macro_rules! cell_kernels {
    ($cell:literal) => {
        [
            cell_kernel!($cell, "forward"),
            cell_kernel!($cell, "backward"),
        ]
    };
}

const RNN: [KernelSource; 2] = cell_kernels!("rnn");
const LSTM: [KernelSource; 2] = cell_kernels!("lstm");
const GRU: [KernelSource; 2] = cell_kernels!("gru");

/// Every kernel (the cells' in the order of `CellKind::ALL`, forward before backward).
pub const KERNELS: &[KernelSource] = &[
    kernel!("activation"),
    kernel!("matmul"),
    kernel!("input_projection"),
    kernel!("pack_w_hh"),
    RNN[0],
    RNN[1],
    LSTM[0],
    LSTM[1],
    GRU[0],
    GRU[1],
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
