//! The import graph of a crate's source, for the layer tests of both crates (the app's
//! `src/tests/layers.rs` includes this file by its path; the core's is `layers.rs` beside it):
//! every `src/**/*.rs` is read; its `use` declarations and its `crate::…`, `super::…` and
//! `self::…` paths (comments and string literals left out; `super` inside an inline
//! `mod tests { … }` is the file itself) are resolved to the file they name ([`Tree::imports`]).
//! An import from file A to file B ties, in the deepest folder holding both, A's entry of that
//! folder to B's (a sub-folder, a file, or the folder's own `mod.rs`; a module's file `x.rs`
//! and its folder `x/` are one entry). A loop among the entries of any folder is a cycle
//! ([`cycles`]). A folder's own `mod.rs` (or `lib.rs`) is no entry of such a loop: its
//! sub-modules may use what it defines (`super::…`), as Rust's modules do.

use std::collections::{BTreeMap, BTreeSet};

/// One import: the line it stands on and the path as written (`crate::kit::fmt::count`).
#[derive(Clone, Debug)]
pub struct Import {
    /// The importing file.
    pub from: String,
    /// Its line.
    pub line: usize,
    /// The file the path resolves to.
    pub to: String,
    /// The path as written.
    pub path: String,
}

// long: one scanner over the characters, each kind of comment and literal one arm of one loop
/// `text` with its comments, string literals and character literals blanked (newlines kept,
/// so line numbers stay).
pub fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_char(&b, i) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.extend(b[i..j.min(b.len())].iter().map(|&c| blank(c)));
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            out.extend(b[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{7b}'); otherwise a lifetime.
            let end = if next == Some('\\') {
                (i + 2..b.len()).find(|&j| b[j] == '\'').map(|j| j + 1)
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.extend(b[i..end].iter().map(|&c| blank(c)));
                    i = end;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the character before `i` continues an identifier (so `b[i]` starts no literal).
fn ident_char(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// The paths of a `use` tree (`crate::{a::b, c::{d, e as f}}` → `crate::a::b`, `crate::c::d`,
/// `crate::c::e`), a trailing `self` or `*` left out.
pub fn use_paths(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    expand("", &tree, &mut out);
    out
}

fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let Some(open) = tree.find('{') else {
        let path = tree.split("as").next().unwrap_or(tree);
        let path = format!("{prefix}{path}");
        let path = path
            .trim_end_matches("::*")
            .trim_end_matches("::self")
            .to_owned();
        if !path.is_empty() {
            out.push(path);
        }
        return;
    };
    let head = format!("{prefix}{}", &tree[..open]);
    let inner = &tree[open + 1..tree.len().saturating_sub(1)];
    let (mut depth, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&head, &inner[start..k], out);
                start = k + 1;
            }
            _ => {}
        }
    }
    if start < inner.len() {
        expand(&head, &inner[start..], out);
    }
}

/// A source tree: each file's path under its root (`lessons/bidir/mod.rs`) and its text.
pub struct Tree {
    /// Each file's text by its path.
    pub files: BTreeMap<String, String>,
    /// Every module that exists as a file or a folder (`["lessons", "bidir"]`).
    modules: BTreeSet<Vec<String>>,
}

impl Tree {
    pub fn new(files: BTreeMap<String, String>) -> Tree {
        let mut modules = BTreeSet::new();
        for path in files.keys() {
            let module = module_of(path);
            for k in 1..=module.len() {
                modules.insert(module[..k].to_vec());
            }
            // A folder's files make the folder a module even without its mod.rs.
            let dirs: Vec<String> = path.split('/').map(str::to_owned).collect();
            for k in 1..dirs.len() {
                modules.insert(dirs[..k].to_vec());
            }
        }
        Tree { files, modules }
    }

    /// The file that holds `module` (`["lessons"]` → `lessons/mod.rs`, `[]` → `lib.rs`).
    fn file_of(&self, module: &[String]) -> String {
        if module.is_empty() {
            return "lib.rs".into();
        }
        let base = module.join("/");
        let flat = format!("{base}.rs");
        if self.files.contains_key(&flat) {
            flat
        } else {
            format!("{base}/mod.rs")
        }
    }

    /// The deepest module that `segments` names (the rest are items in it).
    fn resolve(&self, segments: &[String]) -> Vec<String> {
        let mut module = Vec::new();
        for s in segments {
            module.push(s.clone());
            if !self.modules.contains(&module) {
                module.pop();
                break;
            }
        }
        module
    }

    /// Every import of every file but those `skip` leaves out (a binary's crate, which names
    /// the library by its name; a test folder).
    pub fn imports(&self, skip: impl Fn(&str) -> bool) -> Vec<Import> {
        let mut out = Vec::new();
        for (file, text) in &self.files {
            if skip(file) {
                continue;
            }
            self.imports_of(file, text, &mut out);
        }
        out
    }

    // long: one pass over a file's `use` trees and paths, the brace nesting kept in its locals
    fn imports_of(&self, file: &str, text: &str, out: &mut Vec<Import>) {
        let code = code_only(text);
        let chars: Vec<char> = code.chars().collect();
        let own = module_of(file);
        // Inline modules open here (`mod tests {`): their name and the depth they close at.
        let mut inline: Vec<(String, usize)> = Vec::new();
        let (mut depth, mut line, mut i) = (0usize, 1usize, 0usize);
        let mut pending_mod: Option<String> = None;
        let mut seen = BTreeSet::new();
        while i < chars.len() {
            let c = chars[i];
            if c == '\n' {
                line += 1;
                i += 1;
                continue;
            }
            if c == '{' {
                depth += 1;
                if let Some(name) = pending_mod.take() {
                    inline.push((name, depth));
                }
                i += 1;
                continue;
            }
            if c == '}' {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            if c == ';' {
                pending_mod = None;
            }
            if !(c.is_alphabetic() || c == '_') || ident_char(&chars, i) {
                i += 1;
                continue;
            }
            let word_end = (i..chars.len())
                .find(|&j| !(chars[j].is_alphanumeric() || chars[j] == '_'))
                .unwrap_or(chars.len());
            let word: String = chars[i..word_end].iter().collect();
            let here: Vec<String> = own
                .iter()
                .cloned()
                .chain(inline.iter().map(|(n, _)| n.clone()))
                .collect();
            match word.as_str() {
                "mod" => {
                    let rest: String = chars[word_end..].iter().take(80).collect();
                    let name: String = rest
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    pending_mod = (!name.is_empty()).then_some(name);
                    i = word_end;
                }
                "use" if !preceded_by_colons(&chars, i) => {
                    let end = (word_end..chars.len())
                        .find(|&j| chars[j] == ';')
                        .unwrap_or(chars.len());
                    let tree: String = chars[word_end..end].iter().collect();
                    for path in use_paths(&tree) {
                        self.record(file, line, &here, &path, true, &mut seen, out);
                    }
                    line += tree.matches('\n').count();
                    i = end;
                }
                "crate" | "super" | "self" if !preceded_by_colons(&chars, i) => {
                    let mut j = word_end;
                    while chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') {
                        let k = (j + 2..chars.len())
                            .find(|&k| !(chars[k].is_alphanumeric() || chars[k] == '_'))
                            .unwrap_or(chars.len());
                        if k == j + 2 {
                            break;
                        }
                        j = k;
                    }
                    let path: String = chars[i..j].iter().collect();
                    if path.contains("::") {
                        self.record(file, line, &here, &path, false, &mut seen, out);
                    }
                    i = j;
                }
                _ => i = word_end,
            }
        }
    }

    /// Resolves `path`, written in module `here` of `file`, and records the import unless it
    /// names an outside crate or `file` itself.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        file: &str,
        line: usize,
        here: &[String],
        path: &str,
        in_use: bool,
        seen: &mut BTreeSet<(usize, String)>,
        out: &mut Vec<Import>,
    ) {
        let segments: Vec<String> = path.split("::").map(str::to_owned).collect();
        let mut base: Vec<String> = match segments[0].as_str() {
            "crate" => Vec::new(),
            "super" | "self" => here.to_vec(),
            // `use child::…` names a child module of this one (or an outside crate).
            first if in_use => {
                let mut child = here.to_vec();
                child.push(first.to_owned());
                if !self.modules.contains(&self.resolve(&child)) || self.resolve(&child) != child {
                    return;
                }
                here.to_vec()
            }
            _ => return,
        };
        let mut rest = &segments[..];
        if rest[0] == "crate" {
            rest = &rest[1..];
        }
        while let Some(s) = rest.first() {
            match s.as_str() {
                "super" => {
                    base.pop();
                }
                "self" => {}
                _ => break,
            }
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        let to = self.file_of(&self.resolve(&base));
        if to != file && self.files.contains_key(&to) && seen.insert((line, to.clone())) {
            out.push(Import {
                from: file.to_owned(),
                line,
                to,
                path: path.to_owned(),
            });
        }
    }
}

fn preceded_by_colons(chars: &[char], i: usize) -> bool {
    i >= 2 && chars[i - 1] == ':' && chars[i - 2] == ':'
}

/// The module a file is (`lessons/bidir/mod.rs` → `["lessons", "bidir"]`, `lib.rs` → `[]`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The entry of folder `dirs` that `file` stands in (a sub-folder, a file's stem, or `mod.rs`
/// for the folder's own file); `None` when `file` is not inside `dirs`.
pub fn entry(file: &str, dirs: &[&str]) -> Option<String> {
    let parts: Vec<&str> = file.split('/').collect();
    if parts.len() <= dirs.len() || parts[..dirs.len()] != *dirs {
        return None;
    }
    let e = parts[dirs.len()];
    Some(match e {
        "mod.rs" | "lib.rs" => e.to_owned(),
        _ => e.trim_end_matches(".rs").to_owned(),
    })
}

/// Every cycle among the entries of a folder, one line each, naming the imports that tie it
/// (`cycle in src/kit/: fmt → nav (src/kit/fmt.rs:1 `super::nav::href`); …`). `root` is how
/// the tree's root is written (`src/`); `top` names the node of a top-level entry (a page in
/// two folders can be one node), `None` for one left out.
pub fn cycles(imports: &[Import], root: &str, top: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    // Cycles among the entries of each folder.
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeMap<String, &Import>>> =
        BTreeMap::new();
    for imp in imports {
        let a: Vec<&str> = imp.from.split('/').collect();
        let b: Vec<&str> = imp.to.split('/').collect();
        let common = a[..a.len() - 1]
            .iter()
            .zip(&b[..b.len() - 1])
            .take_while(|(x, y)| x == y)
            .count();
        let dirs = &a[..common];
        let (Some(mut x), Some(mut y)) = (entry(&imp.from, dirs), entry(&imp.to, dirs)) else {
            continue;
        };
        if dirs.is_empty() {
            let (Some(a), Some(b)) = (top(&x), top(&y)) else {
                continue;
            };
            (x, y) = (a, b);
        }
        // What a sub-module takes from its parent's own file ties no loop.
        if x != y && y != "mod.rs" && y != "lib.rs" {
            graphs
                .entry(dirs.iter().map(|s| s.to_string()).collect())
                .or_default()
                .entry(x)
                .or_default()
                .entry(y)
                .or_insert(imp);
        }
    }
    for (dirs, graph) in &graphs {
        for cycle in strongly_connected(graph) {
            let ties: Vec<String> = cycle
                .iter()
                .flat_map(|x| {
                    graph[x]
                        .iter()
                        .filter(|(y, _)| cycle.contains(*y))
                        .map(move |(y, imp)| {
                            format!("{x} → {y} ({root}{}:{} `{}`)", imp.from, imp.line, imp.path)
                        })
                })
                .collect();
            let folder = if dirs.is_empty() {
                root.to_owned()
            } else {
                format!("{root}{}/", dirs.join("/"))
            };
            out.push(format!("cycle in {folder}: {}", ties.join("; ")));
        }
    }
    out
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn strongly_connected<V>(graph: &BTreeMap<String, BTreeMap<String, V>>) -> Vec<BTreeSet<String>> {
    struct State<'a, V> {
        graph: &'a BTreeMap<String, BTreeMap<String, V>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a, V>(s: &mut State<'a, V>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(next) = s.graph.get(v) {
            for w in next.keys() {
                if !s.index.contains_key(w.as_str()) {
                    visit(s, w);
                    let lw = s.low[w.as_str()];
                    let lv = s.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if s.on.contains(w.as_str()) {
                    let iw = s.index[w.as_str()];
                    let lv = s.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.insert(w.to_owned());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<&str> = graph
        .iter()
        .flat_map(|(x, ys)| std::iter::once(x.as_str()).chain(ys.keys().map(String::as_str)))
        .collect();
    for v in nodes {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// Every `.rs` file under `root`, by its path relative to it.
pub fn read_tree(root: &std::path::Path) -> Tree {
    fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).expect("under the root");
                let rel = rel.to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&path).expect("a text file"));
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(root, root, &mut files);
    Tree::new(files)
}
