//! The app's layers, checked from its source: no page folder imports another, nothing imports
//! a layer above its own, and no two folders or files import each other in a loop.
//!
//! Layers, top to bottom: the root (`lib.rs`, `main.rs`, the router `app.rs`), the pages
//! ([`PAGES`]), the shared layer ([`SHARED`]). `src/tests/` may import anything. The imports
//! are read and the cycles found by the import graph the core's layer test uses too
//! ([`imports`]); at the top, a page in two folders counts as one entry of a cycle.

#[path = "../../core/tests/suite/import_graph.rs"]
mod imports;

use imports::{cycles, entry, read_tree, Tree};
use std::collections::BTreeSet;

/// The pages, each in one folder or more (today one each: the sequence lab holds delay-copy and
/// the long-memory tasks in one folder).
const PAGES: &[&[&str]] = &[&["lessons"], &["names"], &["sequence"]];

/// The shared layer below the pages.
const SHARED: &[&str] = &["kit", "charts", "widgets", "shell"];

/// The test folder, which may import anything and which nothing imports.
const TESTS: &str = "tests";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    Shared,
    Page,
    Root,
}

/// The layer of a top-level entry of `src/` (a folder, or a file's stem), and the name of its
/// page for a page (the folders' names joined by `+` for a page in several); `None` for one in no layer.
fn layer_of(top: &str, is_file: bool) -> Option<(Layer, String)> {
    if let Some(page) = PAGES.iter().find(|p| p.contains(&top)) {
        return Some((Layer::Page, page.join("+")));
    }
    if SHARED.contains(&top) {
        return Some((Layer::Shared, top.to_owned()));
    }
    is_file.then(|| (Layer::Root, top.to_owned()))
}

// long: every rule of the layers in one list, in the order the module docs give them
/// Every rule the imports break, one line each, naming the file and line.
fn findings(tree: &Tree) -> Vec<String> {
    let imports = tree.imports(|f| f == "main.rs" || f.starts_with(&format!("{TESTS}/")));
    let mut out = Vec::new();
    // Every top-level entry has a layer.
    let mut tops = BTreeSet::new();
    for file in tree.files.keys() {
        let top = entry(file, &[]).unwrap_or_default();
        let is_file = !file.contains('/');
        if top != TESTS && layer_of(&top, is_file).is_none() && tops.insert(top.clone()) {
            out.push(format!(
                "src/{top}/ is in no layer: place it among the pages or the shared layer"
            ));
        }
    }
    // Page to page, and upward.
    for imp in &imports {
        let (a, b) = (entry(&imp.from, &[]), entry(&imp.to, &[]));
        let (Some(a), Some(b)) = (a, b) else { continue };
        let la = layer_of(&a, !imp.from.contains('/'));
        let lb = layer_of(&b, !imp.to.contains('/'));
        let (Some((la, pa)), Some((lb, pb))) = (la, lb) else {
            continue;
        };
        let at = format!("src/{}:{} (`{}`)", imp.from, imp.line, imp.path);
        if la == Layer::Page && lb == Layer::Page && pa != pb {
            out.push(format!("{at}: the page `{pa}` imports the page `{pb}`"));
        } else if lb > la {
            let what = |l: Layer| match l {
                Layer::Shared => "the shared layer",
                Layer::Page => "the pages",
                Layer::Root => "the root",
            };
            out.push(format!(
                "{at}: `{a}` ({}) imports `{b}` ({}), a layer above",
                what(la),
                what(lb)
            ));
        }
    }
    out.extend(cycles(&imports, "src/", |e| {
        // A page in two folders is one entry.
        (e != TESTS).then(|| {
            PAGES
                .iter()
                .find(|p| p.contains(&e))
                .map_or_else(|| e.to_owned(), |page| page.join("+"))
        })
    }));
    out
}

#[test]
fn no_page_imports_another_no_layer_imports_upward_and_no_folder_is_in_a_cycle() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tree = read_tree(&src);
    assert!(tree.files.len() > 100, "{} files read", tree.files.len());
    let found = findings(&tree);
    assert!(
        found.is_empty(),
        "{} findings:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_check_names_a_page_to_page_import_an_upward_import_a_cycle_and_a_stray_folder() {
    let files = [
        ("lib.rs", "pub mod app;\npub mod kit;\npub mod lessons;\npub mod names;\nmod tests;\n"),
        ("main.rs", "fn main() { unroll::app::mount(); }\n"),
        ("app.rs", "use crate::lessons::Page;\npub fn mount() {}\n"),
        (
            "lessons/mod.rs",
            "// crate::names::keep in a comment\nuse crate::names::keep::{self, save as keep_it};\n",
        ),
        ("names/mod.rs", "pub mod keep;\nuse crate::kit::fmt;\n"),
        ("names/keep.rs", "const S: &str = \"crate::lessons::Page\";\nconst C: char = '{';\n"),
        ("kit/mod.rs", "pub mod fmt;\npub mod nav;\n"),
        (
            "kit/fmt.rs",
            "use super::nav::href;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
        (
            "kit/nav.rs",
            "use crate::{\n    kit::fmt::count,\n    app::mount,\n};\nfn f<'a>(x: &'a str) { crate::kit::fmt::count(); }\n",
        ),
        ("extra/mod.rs", "use crate::kit::fmt;\n"),
        ("tests/mod.rs", "use crate::lessons::Page;\nuse crate::names::keep;\n"),
    ];
    let tree = Tree::new(
        files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect(),
    );
    let found = findings(&tree);
    assert_eq!(
        found,
        [
            "src/extra/ is in no layer: place it among the pages or the shared layer",
            "src/kit/nav.rs:1 (`crate::app::mount`): `kit` (the shared layer) imports `app` (the root), a layer above",
            "src/lessons/mod.rs:2 (`crate::names::keep`): the page `lessons` imports the page `names`",
            "cycle in src/: app → lessons (src/app.rs:1 `crate::lessons::Page`); kit → app (src/kit/nav.rs:1 `crate::app::mount`); lessons → names (src/lessons/mod.rs:2 `crate::names::keep`); names → kit (src/names/mod.rs:2 `crate::kit::fmt`)",
            "cycle in src/kit/: fmt → nav (src/kit/fmt.rs:1 `super::nav::href`); nav → fmt (src/kit/nav.rs:1 `crate::kit::fmt::count`)",
        ],
        "{found:#?}"
    );
}
