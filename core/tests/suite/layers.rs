//! The core's folders, checked from its source: no two top-level folders or files of
//! `core/src` import each other in a loop (the import graph of [`crate::import_graph`], the one
//! the app's layer test reads), so the tasks (`task/`), the trainer (`train/`) and the lessons'
//! verdicts over their runs (`delay/`, `memory/`) import one way; nor do two files or
//! sub-folders of one folder (`config/`, `math/`, `train/`, …), a folder's own `mod.rs` apart
//! (what a file takes from its parent ties no loop). The binaries in `core/src/bin/` are crates
//! of their own and are left out.

use crate::import_graph::{cycles, read_tree};

#[test]
fn no_folder_or_file_of_the_core_is_in_a_cycle() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tree = read_tree(&src);
    assert!(tree.files.len() > 50, "{} files read", tree.files.len());
    let imports = tree.imports(|f| f.starts_with("bin/"));
    assert!(imports.len() > 100, "{} imports", imports.len());
    let found = cycles(&imports, "core/src/", |e| Some(e.to_owned()));
    assert!(
        found.is_empty(),
        "{} cycles:\n{}",
        found.len(),
        found.join("\n")
    );
}
