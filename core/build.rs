//! Writes each WGSL file of `shaders/` as the app ships it (comments and blank lines removed:
//! `src/gpu/wgsl_text.rs`) into `$OUT_DIR/shaders/`, where the kernel registry
//! (`src/gpu/shader_source.rs`) includes them from.

#[path = "src/gpu/wgsl_text.rs"]
mod wgsl_text;

use std::path::PathBuf;

fn main() {
    let shaders = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../shaders");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("shaders");
    std::fs::create_dir_all(&out).expect("create $OUT_DIR/shaders");
    println!("cargo:rerun-if-changed=src/gpu/wgsl_text.rs");
    println!("cargo:rerun-if-changed={}", shaders.display());
    for entry in std::fs::read_dir(&shaders).expect("read shaders/") {
        let path = entry.expect("a shaders/ entry").path();
        if path.extension().is_some_and(|e| e == "wgsl") {
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path).expect("read a .wgsl file");
            std::fs::write(
                out.join(path.file_name().unwrap()),
                wgsl_text::shipped(&text),
            )
            .expect("write a shipped .wgsl file");
        }
    }
}
