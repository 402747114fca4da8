//! Browser entry point: installs the panic hook and mounts the app (on the page; inside the
//! engine's Web Worker it does nothing). Nothing else lives here.

#[cfg(target_arch = "wasm32")]
fn main() {
    // Inside the engine's Web Worker the module only serves the engine
    // (`unroll_core::engine::worker::engine_worker_start`).
    if unroll_core::engine::worker::in_worker() {
        return;
    }
    unroll::shell::panic_panel::install();
    // The CPU kernels the boot chose (relaxed SIMD where the browser has it), recorded on
    // <html data-cpu-kernel> for the end-to-end tests.
    let kernel = unroll_core::engine::worker::adopt_wasm_simd();
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-cpu-kernel", kernel);
    }
    unroll::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("`unroll` is the browser app: build it with `trunk build` (see README.md).");
    eprintln!("For native training use `cargo run --release --bin train-names`.");
    std::process::exit(2);
}
