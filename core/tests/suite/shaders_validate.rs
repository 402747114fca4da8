//! Every WGSL kernel, exactly as `gpu::shader_source` composes it, parses and validates with
//! naga under WebGPU's capabilities, and stays inside WebGPU's default limits
//! (≤ 8 storage buffers per stage, ≤ 256 invocations and ≤ 16 KiB workgroup memory per
//! workgroup); its uniform struct and storage bindings match the Rust side
//! (`gpu::kernels::kernel_infos`). Runs without a GPU.

use std::collections::BTreeSet;
use std::path::Path;

use naga::valid::{Capabilities, ValidationFlags, Validator};
use unroll_core::gpu::kernels::{kernel_infos, Access};
use unroll_core::gpu::shader_source::{
    kernel, KernelSource, KERNELS, PRELUDE, PRELUDE_FILE, SEQUENCE_SKELETONS,
};
use unroll_core::gpu::wgsl_text::shipped;
use unroll_core::math::cell::CellKind;

/// `maxStorageBuffersPerShaderStage` (WebGPU default).
const MAX_STORAGE_BUFFERS: usize = 8;
/// `maxComputeInvocationsPerWorkgroup` (WebGPU default).
const MAX_INVOCATIONS: u32 = 256;
/// `maxComputeWorkgroupStorageSize` (WebGPU default), bytes.
const MAX_WORKGROUP_BYTES: u32 = 16384;

fn shaders_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shaders")
}

fn parse(k: &KernelSource) -> (naga::Module, naga::valid::ModuleInfo) {
    let module = naga::front::wgsl::parse_str(k.source)
        .unwrap_or_else(|e| panic!("{}: {}", k.name, e.emit_to_string(k.source)));
    let info = Validator::new(ValidationFlags::all(), Capabilities::default())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}: {}", k.name, e.emit_to_string(k.source)));
    (module, info)
}

#[test]
fn registry_covers_every_shader_file() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(shaders_dir())
        .expect("shaders/ exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".wgsl"))
        .collect();
    let names: BTreeSet<&str> = KERNELS.iter().map(|k| k.name).collect();
    assert_eq!(names.len(), KERNELS.len(), "a kernel is registered twice");
    let mut used: BTreeSet<String> = KERNELS
        .iter()
        .flat_map(|k| k.files.iter().map(|f| f.to_string()))
        .collect();
    used.insert(PRELUDE_FILE.to_string());
    assert_eq!(
        on_disk, used,
        "shaders/*.wgsl and the files gpu::shader_source::KERNELS compose differ"
    );
}

/// Each kernel is the prelude and its files as shipped, each after a newline. A plain kernel is one file
/// named after it with an entry point of that name; a cell's kernel `<cell>_<pass>` is the
/// cell's part `<cell>.wgsl` and the skeleton `sequence_<pass>.wgsl`, whose entry point it uses.
#[test]
fn composed_sources_are_prelude_plus_files() {
    let file = |name: &str| shipped(&std::fs::read_to_string(shaders_dir().join(name)).unwrap());
    let prelude = file(PRELUDE_FILE);
    assert_eq!(prelude, PRELUDE);
    for k in KERNELS {
        let mut composed = prelude.clone();
        for f in k.files {
            composed.push('\n');
            composed.push_str(&file(f));
        }
        assert_eq!(k.source, composed, "{}", k.name);
        let last = k.files.last().expect("a kernel has a file");
        assert_eq!(format!("{}.wgsl", k.entry), *last, "{}", k.name);
        match k.files {
            [only] => assert_eq!(*only, format!("{}.wgsl", k.name)),
            [part, skeleton] => {
                let (cell, pass) = k.name.rsplit_once('_').expect("<cell>_<pass>");
                assert_eq!(*part, format!("{cell}.wgsl"));
                assert_eq!(*skeleton, format!("sequence_{pass}.wgsl"));
                assert!(SEQUENCE_SKELETONS.contains(&k.entry), "{}", k.name);
            }
            other => panic!("{}: unexpected files {other:?}", k.name),
        }
    }
}

/// Every cell's kernels are registered under the descriptor's names, composed of the cell's
/// part and the two skeletons, and the part's constants are the descriptor's (gate blocks,
/// cell state, gate cache), which the host uses to bind and size the kernels' buffers.
#[test]
fn cell_parts_match_their_descriptors() {
    for cell in CellKind::ALL {
        let spec = cell.spec();
        let part_file = format!("{}.wgsl", spec.key);
        for (name, skeleton) in spec.kernels.iter().zip(SEQUENCE_SKELETONS) {
            let k = kernel(name).unwrap_or_else(|| panic!("{name} is not registered"));
            let skeleton_file = format!("{skeleton}.wgsl");
            assert_eq!(k.files, [part_file.as_str(), skeleton_file.as_str()]);
        }
        let part = std::fs::read_to_string(shaders_dir().join(&part_file)).unwrap();
        for line in [
            format!("const GATES: u32 = {}u;", spec.blocks),
            format!("const HAS_CELL_STATE: bool = {};", spec.has_cell_state),
            format!(
                "const HAS_GATE_CACHE: bool = {};",
                spec.gate_cache_blocks > 0
            ),
        ] {
            assert!(part.contains(&line), "{part_file} lacks {line:?}");
        }
        assert!(
            spec.gate_cache_blocks <= 4,
            "{part_file}: one vec4 per unit"
        );
    }
}

#[test]
fn every_kernel_validates_within_webgpu_default_limits() {
    let infos = kernel_infos();
    assert_eq!(
        infos.len(),
        KERNELS.len(),
        "kernel_infos() must list every kernel"
    );
    for (k, rust) in KERNELS.iter().zip(&infos) {
        assert_eq!(k.name, rust.name, "kernel_infos() order");
        let (module, info) = parse(k);
        assert_eq!(
            module.entry_points.len(),
            1,
            "{}: one entry point per file",
            k.name
        );
        for (i, ep) in module.entry_points.iter().enumerate() {
            assert_eq!(ep.name, k.entry, "{}: entry point", k.name);
            assert_eq!(ep.stage, naga::ShaderStage::Compute);
            let invocations: u32 = ep.workgroup_size.iter().product();
            assert!(
                invocations <= MAX_INVOCATIONS,
                "{}: {invocations} invocations per workgroup",
                k.name
            );
            assert!(ep.workgroup_size[2] <= 64, "{}: workgroup z > 64", k.name);
            let uses = info.get_entry_point(i);
            let mut storage: Vec<(u32, Access)> = Vec::new();
            let mut uniform: Vec<(u32, u32)> = Vec::new();
            let mut workgroup_bytes = 0u32;
            for (handle, var) in module.global_variables.iter() {
                if uses[handle].is_empty() {
                    continue;
                }
                let size = workgroup_or_fixed_size(&module, var.ty);
                match var.space {
                    naga::AddressSpace::Storage { access } => {
                        let b = var.binding.as_ref().expect("storage binding");
                        assert_eq!(b.group, 0, "{}: everything in group 0", k.name);
                        let a = if access.contains(naga::StorageAccess::STORE) {
                            Access::ReadWrite
                        } else {
                            Access::Read
                        };
                        storage.push((b.binding, a));
                    }
                    naga::AddressSpace::Uniform => {
                        let b = var.binding.as_ref().expect("uniform binding");
                        uniform.push((b.binding, size));
                    }
                    naga::AddressSpace::WorkGroup => workgroup_bytes += size,
                    _ => {}
                }
            }
            assert!(
                storage.len() <= MAX_STORAGE_BUFFERS,
                "{}: {} storage buffers",
                k.name,
                storage.len()
            );
            assert!(
                workgroup_bytes <= MAX_WORKGROUP_BYTES,
                "{}: {workgroup_bytes} bytes of workgroup memory",
                k.name
            );
            // Binding 0 is the uniform, matching the Rust twin's size.
            assert_eq!(
                uniform,
                vec![(0, rust.uniform_size as u32)],
                "{}: uniform at binding 0 with the Rust struct's size",
                k.name
            );
            storage.sort_by_key(|(b, _)| *b);
            let expected: Vec<(u32, Access)> = rust
                .storage
                .iter()
                .enumerate()
                .map(|(i, a)| (i as u32 + 1, *a))
                .collect();
            assert_eq!(
                storage, expected,
                "{}: storage bindings (number, access) differ from the Rust layout",
                k.name
            );
            println!(
                "{:<26} workgroup {:?} storage {} workgroup memory {} B",
                k.name,
                ep.workgroup_size,
                storage.len(),
                workgroup_bytes
            );
        }
    }
}

/// The prelude's layout constants of the whole-sequence kernels are the host's, which sizes
/// their dispatches and checks their layouts with them.
#[test]
fn sequence_layout_constants_match_the_host() {
    use unroll_core::gpu::kernels::{
        ROWS_PER_LANE_MAX, SEQ_ROWS_UNITS, SEQ_SHARED_FLOATS_MAX, SPLIT_MAX, WG_SEQ,
    };
    for (name, value) in [
        ("WG_SEQ", WG_SEQ),
        ("ROWS_PER_LANE_MAX", ROWS_PER_LANE_MAX),
        ("SPLIT_MAX", SPLIT_MAX),
        ("SEQ_ROWS_UNITS", SEQ_ROWS_UNITS),
        ("SEQ_SHARED_FLOATS_MAX", SEQ_SHARED_FLOATS_MAX),
    ] {
        let line = format!("const {name}: u32 = {value}u;");
        assert!(PRELUDE.contains(&line), "{PRELUDE_FILE} lacks {line:?}");
    }
    // The pipelines size the workgroup array; a kernel built without the value gets the most.
    for line in [
        "override SEQ_SHARED_FLOATS: u32 = SEQ_SHARED_FLOATS_MAX;",
        "var<workgroup> seq_shared: array<f32, SEQ_SHARED_FLOATS>;",
    ] {
        assert!(PRELUDE.contains(line), "{PRELUDE_FILE} lacks {line:?}");
    }
}

/// What each sized workgroup array needs, floats, against the host's rule: the forward's two
/// buffers of h and BPTT's gate gradients for the rows a workgroup owns, never more than the
/// 16 KiB every WebGPU device has; on a CPU adapter a small model's workgroups hold a training
/// batch's rows, not the 128 that memory would allow.
#[test]
fn sequence_workgroup_memory_follows_the_rows() {
    use unroll_core::gpu::kernels::cell_sequence::{
        shared_floats, CellPass, SequenceLayout, CPU_ADAPTER_ROWS,
    };
    use unroll_core::gpu::kernels::SEQ_SHARED_FLOATS_MAX;
    let lstm = CellKind::Lstm.spec();
    let gru = CellKind::Gru.spec();
    let rnn = CellKind::Rnn.spec();
    // The delay lab's small model (hidden 8, batch 32, 256 held out) on SwiftShader: one
    // workgroup of 32 rows, whatever the batch.
    let small = SequenceLayout::for_hidden(8, true);
    assert_eq!((small.rows_per_group, CPU_ADAPTER_ROWS), (32, 32));
    assert_eq!(small.rows_for_batch(256), 32);
    assert_eq!(small.rows_for_batch(5), 5);
    assert_eq!(
        SequenceLayout::for_hidden(8, false).rows_for_batch(256),
        128
    );
    assert_eq!(shared_floats(lstm, CellPass::Forward, 8, 32), 512);
    assert_eq!(shared_floats(lstm, CellPass::Backward, 8, 32), 1024);
    assert_eq!(shared_floats(gru, CellPass::Backward, 8, 32), 768);
    assert_eq!(shared_floats(rnn, CellPass::Backward, 8, 32), 256);
    // Padded rows: hidden 3 takes 4 floats a row, GRU's 9 gate gradients 12.
    assert_eq!(shared_floats(gru, CellPass::Forward, 3, 5), 40);
    assert_eq!(shared_floats(gru, CellPass::Backward, 3, 5), 60);
    // The names recipe (hidden 128): memory caps the rows at 8 on any adapter, as before.
    for cpu in [false, true] {
        assert_eq!(SequenceLayout::for_hidden(128, cpu).rows_for_batch(64), 8);
    }
    assert_eq!(shared_floats(lstm, CellPass::Forward, 128, 8), 2048);
    assert_eq!(
        shared_floats(lstm, CellPass::Backward, 128, 8),
        SEQ_SHARED_FLOATS_MAX
    );
    // Every default layout fits the most.
    for hidden in [1, 3, 8, 100, 128, 256] {
        for cpu in [false, true] {
            let rows = SequenceLayout::for_hidden(hidden, cpu).rows_for_batch(10_000);
            for cell in [lstm, gru, rnn] {
                for pass in CellPass::BOTH {
                    let f = shared_floats(cell, pass, hidden, rows);
                    assert!(f <= SEQ_SHARED_FLOATS_MAX, "{hidden} {cpu}: {f}");
                }
            }
        }
    }
}

/// Bytes of a global's type; an override-sized workgroup array counts at its override's
/// default (the most a pipeline may set).
fn workgroup_or_fixed_size(module: &naga::Module, ty: naga::Handle<naga::Type>) -> u32 {
    if let naga::TypeInner::Array {
        size: naga::ArraySize::Pending(o),
        stride,
        ..
    } = module.types[ty].inner
    {
        let init = module.overrides[o]
            .init
            .expect("the override has a default");
        let count = match module.global_expressions[init] {
            naga::Expression::Literal(naga::Literal::U32(n)) => n,
            naga::Expression::Constant(c) => {
                match module.global_expressions[module.constants[c].init] {
                    naga::Expression::Literal(naga::Literal::U32(n)) => n,
                    ref e => panic!("override default {e:?}"),
                }
            }
            ref e => panic!("override default {e:?}"),
        };
        return stride * count;
    }
    module.types[ty].inner.size(module.to_ctx())
}
