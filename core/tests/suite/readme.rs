//! The README as a newcomer reads it, kept honest:
//! - every code fence is closed, and every opening fence names its language (a bare fence where
//!   an opening one is expected is a closing fence whose opening one went missing);
//! - every command stands inside a code block, not in the prose;
//! - every `cargo run [-p P] --bin X` names a binary of the workspace, every `./scripts/…`,
//!   `node scripts/…` and every repository path (`core/…`, `src/…`, `docs/…`, `shaders/…`,
//!   `www/…`) in code exists, and a script run as `./scripts/Y` is executable;
//! - each binary of this crate answers `--help` with exit status 0 and a usage line, and knows
//!   every flag the README passes to it;
//! - every relative link and image resolves, anchors included (GitHub's heading slugs), in
//!   the README and in the Markdown documents it links to.
//!
//! Each problem is reported as `README.md:LINE: what is wrong`, all of them at once. The
//! checks are plain functions over the Markdown text, so the tests below also feed them known
//! faults and assert the messages.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (the README's folder).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core/ has a parent")
        .to_path_buf()
}

/// This crate's binaries, as cargo built them for this test. `binaries_are_all_listed` keeps
/// the list equal to the `[[bin]]` targets of core/Cargo.toml.
const BINARIES: [(&str, &str); 5] = [
    ("train-names", env!("CARGO_BIN_EXE_train-names")),
    ("generate-names", env!("CARGO_BIN_EXE_generate-names")),
    ("delay-copy", env!("CARGO_BIN_EXE_delay-copy")),
    ("long-memory", env!("CARGO_BIN_EXE_long-memory")),
    ("bench", env!("CARGO_BIN_EXE_bench")),
];

/// Top-level folders of the repository whose paths, written in code, must exist.
const REPO_DIRS: [&str; 6] = ["core/", "src/", "docs/", "shaders/", "scripts/", "www/"];

// ---------------------------------------------------------------------------------------------
// Markdown structure: fences, prose, inline code, links
// ---------------------------------------------------------------------------------------------

/// One line of the document (1-based `no`) and whether it is code (inside a fenced block or a
/// fence itself).
#[derive(Debug)]
struct Line<'a> {
    no: usize,
    text: &'a str,
    code: bool,
    fence: bool,
}

/// A fence line (at most three spaces of indent, then ``` or ~~~): its marker and info string.
fn fence_of(line: &str) -> Option<(&str, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    for ch in ['`', '~'] {
        let n = rest.len() - rest.trim_start_matches(ch).len();
        if n >= 3 {
            return Some((&rest[..n], rest[n..].trim()));
        }
    }
    None
}

/// Splits the document into lines marked code or prose, with the fence problems: a fence that
/// opens without a language, an opening fence inside an open block, a block never closed.
fn fences(md: &str) -> (Vec<Line<'_>>, Vec<String>) {
    let mut lines = Vec::new();
    let mut problems = Vec::new();
    // The open block: its marker and the line it opened at.
    let mut open: Option<(String, usize)> = None;
    for (i, text) in md.lines().enumerate() {
        let no = i + 1;
        let fence = fence_of(text);
        // (code, fence) of this line.
        let (code, fence) = match (&open, fence) {
            (None, Some((marker, info))) => {
                if info.is_empty() {
                    problems.push(format!(
                        "README.md:{no}: a code fence without a language opens a block here \
                         (a closing fence whose opening one is missing?); open blocks with \
                         ```sh or ```text"
                    ));
                }
                open = Some((marker.to_owned(), no));
                (true, true)
            }
            (Some((marker, opened)), Some((m, info)))
                if m.starts_with(&marker[..1]) && m.len() >= marker.len() =>
            {
                if info.is_empty() {
                    open = None;
                } else {
                    problems.push(format!(
                        "README.md:{no}: the fence {} opens a code block inside the one opened \
                         at line {opened}: that block's closing fence is missing",
                        text.trim()
                    ));
                }
                (true, true)
            }
            (Some(_), _) => (true, false),
            (None, None) => (false, false),
        };
        lines.push(Line {
            no,
            text,
            code,
            fence,
        });
    }
    if let Some((_, opened)) = open {
        problems.push(format!(
            "README.md:{opened}: the code block opened here is never closed"
        ));
    }
    (lines, problems)
}

/// Programs that start a command.
const PROGRAMS: [&str; 7] = ["cargo", "node", "trunk", "npm", "npx", "python3", "bash"];

/// Whether a text is a command to run: a program with its arguments, or a `./path` with
/// arguments or `VAR=value` settings before it (a script's bare name is a mention).
fn looks_like_command(text: &str) -> bool {
    let mut t = text.trim_start();
    let mut settings = false;
    while let Some((first, rest)) = t.split_once(' ') {
        if first.contains('=') && !first.starts_with(['-', '?']) {
            t = rest.trim_start();
            settings = true;
        } else {
            break;
        }
    }
    let program = PROGRAMS
        .iter()
        .any(|p| t.strip_prefix(p).is_some_and(|r| r.starts_with(' ')));
    program || (t.starts_with("./") && (settings || t.contains(' ')))
}

/// Commands outside code blocks: prose lines that are a command or a script's path (the
/// renderer shows them as plain text), and inline code spans that are a command.
fn commands_outside_blocks(lines: &[Line], spans: &[Piece]) -> Vec<String> {
    let mut out: Vec<(usize, String)> = lines
        .iter()
        .filter(|l| {
            let t = l.text.trim_start();
            !l.code && (looks_like_command(t) || t.starts_with("scripts/") || t.starts_with("./"))
        })
        .map(|l| {
            (
                l.no,
                format!("a command outside a code block: `{}`", l.text.trim()),
            )
        })
        .collect();
    out.extend(
        spans
            .iter()
            .filter(|s| looks_like_command(&s.text))
            .map(|s| {
                (
                    s.no,
                    format!("the command `{}` is inline: put it in a code block", s.text),
                )
            }),
    );
    out.sort_by_key(|(no, _)| *no);
    out.into_iter()
        .map(|(no, m)| format!("README.md:{no}: {m}"))
        .collect()
}

/// A piece of prose or code with the line it starts at; `block`: a line of a fenced block.
#[derive(Debug, Clone, PartialEq)]
struct Piece {
    no: usize,
    text: String,
    block: bool,
}

/// The prose split into inline code spans and the text around them, paragraph by paragraph (a
/// span may run over a line break, not over a blank line). Returns (code spans, other text).
fn inline_code(lines: &[Line]) -> (Vec<Piece>, Vec<Piece>) {
    let mut spans = Vec::new();
    let mut rest = Vec::new();
    let mut para: Vec<&Line> = Vec::new();
    let flush = |para: &mut Vec<&Line>, spans: &mut Vec<Piece>, rest: &mut Vec<Piece>| {
        // Walk the paragraph character by character, keeping the line number.
        let mut in_span: Option<(usize, usize, String)> = None; // (ticks, line, text)
        let mut text = String::new();
        let mut text_no = para.first().map_or(0, |l| l.no);
        for line in para.iter() {
            let chars: Vec<char> = line.text.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                if chars[i] == '`' {
                    let n = chars[i..].iter().take_while(|&&c| c == '`').count();
                    match &mut in_span {
                        Some((ticks, no, code)) if *ticks == n => {
                            spans.push(Piece {
                                no: *no,
                                text: code.trim().to_owned(),
                                block: false,
                            });
                            in_span = None;
                            text_no = line.no;
                        }
                        Some((_, _, code)) => code.extend(std::iter::repeat_n('`', n)),
                        None => {
                            rest.push(Piece {
                                no: text_no,
                                text: std::mem::take(&mut text),
                                block: false,
                            });
                            in_span = Some((n, line.no, String::new()));
                        }
                    }
                    i += n;
                    continue;
                }
                match &mut in_span {
                    Some((_, _, code)) => code.push(chars[i]),
                    None => text.push(chars[i]),
                }
                i += 1;
            }
            match &mut in_span {
                Some((_, _, code)) => code.push(' '),
                None => text.push('\n'),
            }
        }
        // An unclosed span is text (as CommonMark renders it).
        if let Some((ticks, _, code)) = in_span {
            text.extend(std::iter::repeat_n('`', ticks));
            text.push_str(&code);
        }
        rest.push(Piece {
            no: text_no,
            text,
            block: false,
        });
        para.clear();
    };
    for line in lines {
        if line.code || line.text.trim().is_empty() {
            if !para.is_empty() {
                flush(&mut para, &mut spans, &mut rest);
            }
        } else {
            para.push(line);
        }
    }
    if !para.is_empty() {
        flush(&mut para, &mut spans, &mut rest);
    }
    rest.retain(|p| !p.text.trim().is_empty());
    (spans, rest)
}

/// Every code text: the lines of fenced blocks (not the fences) and the inline code spans.
fn code_texts(lines: &[Line], spans: &[Piece]) -> Vec<Piece> {
    let mut out: Vec<Piece> = lines
        .iter()
        .filter(|l| l.code && !l.fence)
        .map(|l| Piece {
            no: l.no,
            text: l.text.to_owned(),
            block: true,
        })
        .collect();
    out.extend(spans.iter().cloned());
    out.sort_by_key(|p| p.no);
    out
}

/// Markdown links and images `[text](target)` / `![alt](target)` in prose text (inline code
/// already taken out): (line, target without a title).
fn links(prose: &[Piece]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for p in prose {
        let mut from = 0;
        while let Some(at) = p.text[from..].find("](") {
            let start = from + at + 2;
            let Some(len) = p.text[start..].find(')') else {
                break;
            };
            let target = p.text[start..start + len]
                .split_whitespace()
                .next()
                .unwrap_or("");
            let no = p.no + p.text[..start].matches('\n').count();
            out.push((no, target.trim_matches(['<', '>']).to_owned()));
            from = start + len;
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, `-` and
/// `_` kept), spaces as `-`; inline code, emphasis and link targets reduced to their text.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // [text](target) → text
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else {
            break;
        };
        let Some(close) = rest[open + mid..].find(')') else {
            break;
        };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + close + 1..];
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown document's headings, duplicates numbered as GitHub does.
fn anchors(md: &str) -> BTreeSet<String> {
    let (lines, _) = fences(md);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for l in lines.iter().filter(|l| !l.code) {
        let t = l.text.trim_start();
        let hashes = t.len() - t.trim_start_matches('#').len();
        if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
            let s = slug(t[hashes..].trim().trim_end_matches('#').trim());
            let n = seen.entry(s.clone()).or_insert(0);
            out.insert(if *n == 0 {
                s.clone()
            } else {
                format!("{s}-{n}")
            });
            *n += 1;
        }
    }
    out
}

/// Problems with the relative links of the Markdown file `name` (its text `md`, its prose
/// `prose`, its folder `dir`): a missing file, or an anchor no heading of the target has.
fn check_links(name: &str, md: &str, prose: &[Piece], dir: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    for (no, target) in links(prose) {
        if target.is_empty()
            || target.contains("://")
            || target.starts_with("mailto:")
            || target.starts_with('/')
        {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let file = dir.join(path);
        if !path.is_empty() && !file.exists() {
            problems.push(format!("{name}:{no}: the link `{target}`: no file {path}"));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        let doc = if path.is_empty() {
            md.to_owned()
        } else if path.ends_with(".md") {
            std::fs::read_to_string(&file).unwrap_or_default()
        } else {
            continue;
        };
        if !anchors(&doc).contains(anchor) {
            problems.push(format!(
                "{name}:{no}: the link `{target}`: no heading of {} has the anchor #{anchor}",
                if path.is_empty() { name } else { path }
            ));
        }
    }
    problems
}

/// The links of the Markdown documents the README links to (relative to each document).
fn linked_docs_problems(md: &str, root: &Path) -> Vec<String> {
    let (lines, _) = fences(md);
    let (_, prose) = inline_code(&lines);
    let docs: BTreeSet<String> = links(&prose)
        .into_iter()
        .map(|(_, t)| t.split('#').next().unwrap_or("").to_owned())
        .filter(|t| t.ends_with(".md") && !t.contains("://") && root.join(t).is_file())
        .collect();
    let mut problems = Vec::new();
    for doc in docs {
        let text = std::fs::read_to_string(root.join(&doc)).unwrap_or_default();
        let (lines, _) = fences(&text);
        let (_, prose) = inline_code(&lines);
        let dir = root
            .join(&doc)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        problems.extend(check_links(&doc, &text, &prose, &dir));
    }
    problems
}

// ---------------------------------------------------------------------------------------------
// The workspace: packages and their binaries
// ---------------------------------------------------------------------------------------------

/// A package's name and its `[[bin]]` names, read from a Cargo.toml.
fn manifest(text: &str) -> (String, Vec<String>) {
    let mut table = "";
    let mut name = String::new();
    let mut bins = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            table = line;
            continue;
        }
        let Some(value) = line.strip_prefix("name").map(str::trim_start) else {
            continue;
        };
        let Some(value) = value.strip_prefix('=') else {
            continue;
        };
        let value = value.trim().trim_matches('"').to_owned();
        match table {
            "[package]" => name = value,
            "[[bin]]" => bins.push(value),
            _ => {}
        }
    }
    (name, bins)
}

/// Every workspace package with its binaries (the root manifest and `core/`).
fn workspace(root: &Path) -> BTreeMap<String, Vec<String>> {
    ["Cargo.toml", "core/Cargo.toml"]
        .iter()
        .map(|m| {
            let text = std::fs::read_to_string(root.join(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
            manifest(&text)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Commands in code
// ---------------------------------------------------------------------------------------------

/// A binary the README runs, with the flags it passes to it (after `--`, or all of them when
/// the binary is called by name).
#[derive(Debug, PartialEq)]
struct BinUse {
    no: usize,
    name: String,
    flags: Vec<String>,
}

/// The words of a command, without a trailing `# comment`, brackets of optional parts and
/// the punctuation of prose around a span.
fn words(command: &str) -> Vec<String> {
    let command = command.split(" #").next().unwrap_or("");
    command
        .split_whitespace()
        .map(|w| {
            w.trim_matches(['[', ']', '(', ')', ',', ';', ':', '`', '*'])
                .to_owned()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Checks the commands and paths of the code texts; returns the problems and the binaries used.
fn check_commands(
    code: &[Piece],
    packages: &BTreeMap<String, Vec<String>>,
    root: &Path,
) -> (Vec<String>, Vec<BinUse>) {
    let mut problems = Vec::new();
    let mut uses = Vec::new();
    let all_bins: BTreeSet<&str> = packages.values().flatten().map(String::as_str).collect();
    for piece in code {
        let no = piece.no;
        // Commands joined by && or | are checked one by one.
        for command in piece.text.split("&&").flat_map(|c| c.split(" | ")) {
            let w = words(command);
            // Skip leading VAR=value assignments.
            let start = w
                .iter()
                .take_while(|x| x.contains('=') && !x.starts_with('-'))
                .count();
            let w = &w[start..];
            let Some(first) = w.first() else { continue };
            if first == "cargo" && w.iter().any(|x| x == "--bin") {
                let arg = |flag: &[&str]| {
                    w.iter()
                        .position(|x| flag.contains(&x.as_str()))
                        .and_then(|i| w.get(i + 1))
                        .cloned()
                };
                let bin = arg(&["--bin"]).unwrap_or_default();
                let package = arg(&["-p", "--package"]);
                let flags = match w.iter().position(|x| x == "--") {
                    Some(i) => w[i + 1..]
                        .iter()
                        .filter(|x| x.starts_with("--"))
                        .cloned()
                        .collect(),
                    None => Vec::new(),
                };
                match &package {
                    Some(p) if !packages.contains_key(p) => problems.push(format!(
                        "README.md:{no}: `{}`: no package {p} in the workspace (packages: {})",
                        piece.text.trim(),
                        packages.keys().cloned().collect::<Vec<_>>().join(", ")
                    )),
                    Some(p) if !packages[p].contains(&bin) => problems.push(format!(
                        "README.md:{no}: `{}`: package {p} has no binary {bin} (binaries: {})",
                        piece.text.trim(),
                        packages[p].join(", ")
                    )),
                    None if !all_bins.contains(bin.as_str()) => problems.push(format!(
                        "README.md:{no}: `{}`: no binary {bin} in the workspace (binaries: {})",
                        piece.text.trim(),
                        all_bins.iter().copied().collect::<Vec<_>>().join(", ")
                    )),
                    _ => uses.push(BinUse {
                        no,
                        name: bin,
                        flags,
                    }),
                }
            } else if BINARIES.iter().any(|(b, _)| b == first) {
                let flags = w[1..]
                    .iter()
                    .filter(|x| x.starts_with("--"))
                    .cloned()
                    .collect();
                uses.push(BinUse {
                    no,
                    name: first.clone(),
                    flags,
                });
            }
            // A script run directly (`./scripts/…`, or first on a line of a block) must be
            // executable.
            let script = match first.strip_prefix("./") {
                Some(s) => Some(s),
                None if piece.block => Some(first.as_str()),
                None => None,
            }
            .filter(|s| s.starts_with("scripts/"));
            if let Some(s) = script {
                if let Ok(meta) = std::fs::metadata(root.join(s)) {
                    use std::os::unix::fs::PermissionsExt;
                    if meta.permissions().mode() & 0o111 == 0 {
                        problems.push(format!("README.md:{no}: `{first}` is not executable"));
                    }
                }
            }
            // Every repository path must exist.
            for word in w {
                let path = word.strip_prefix("./").unwrap_or(word);
                // (A Markdown link written inside a code block is text, not a path.)
                if !REPO_DIRS.iter().any(|d| path.starts_with(d))
                    || path.contains(['*', '<', '…', '{', '$'])
                    || path.contains("](")
                {
                    continue;
                }
                let path = path.split('#').next().unwrap_or(path);
                let path = path.trim_end_matches(['.', '\'', '"']);
                if !root.join(path).exists() {
                    problems.push(format!(
                        "README.md:{no}: `{}`: no file {path}",
                        piece.text.trim()
                    ));
                }
            }
        }
    }
    (problems, uses)
}

/// Runs each binary with `--help`: exit 0 and a first line `usage: NAME …`. Returns the
/// problems and each binary's help text.
fn check_helps() -> (Vec<String>, BTreeMap<String, String>) {
    let mut problems = Vec::new();
    let mut helps = BTreeMap::new();
    for (name, exe) in BINARIES {
        match Command::new(exe).arg("--help").output() {
            Err(e) => problems.push(format!("{name} --help: could not run {exe}: {e}")),
            Ok(out) => {
                let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
                if !out.status.success() {
                    problems.push(format!(
                        "{name} --help: exit status {}, stderr: {}",
                        out.status,
                        String::from_utf8_lossy(&out.stderr).trim()
                    ));
                } else if !stdout.starts_with(&format!("usage: {name}")) {
                    problems.push(format!(
                        "{name} --help: its first line should be `usage: {name} …`, it is `{}`",
                        stdout.lines().next().unwrap_or("")
                    ));
                }
                helps.insert(name.to_owned(), stdout);
            }
        }
    }
    (problems, helps)
}

/// Flags the README passes to a binary that its `--help` does not name.
fn check_flags(uses: &[BinUse], helps: &BTreeMap<String, String>) -> Vec<String> {
    let mut problems = Vec::new();
    for u in uses {
        let Some(help) = helps.get(&u.name) else {
            problems.push(format!(
                "README.md:{}: {}: no --help text to check its flags against",
                u.no, u.name
            ));
            continue;
        };
        for flag in &u.flags {
            let flag = flag.split('=').next().unwrap_or(flag);
            let named = help
                .split(|c: char| !(c.is_alphanumeric() || c == '-'))
                .any(|w| w == flag);
            if !named {
                problems.push(format!(
                    "README.md:{}: {} {flag}: `{} --help` does not name {flag}",
                    u.no, u.name, u.name
                ));
            }
        }
    }
    problems
}

/// Every problem of a README text whose binaries answer with `helps`.
fn problems(md: &str, root: &Path, helps: &BTreeMap<String, String>) -> Vec<String> {
    let (lines, mut out) = fences(md);
    let (spans, prose) = inline_code(&lines);
    out.extend(commands_outside_blocks(&lines, &spans));
    let (cmd_problems, uses) = check_commands(&code_texts(&lines, &spans), &workspace(root), root);
    out.extend(cmd_problems);
    out.extend(check_flags(&uses, helps));
    out.extend(check_links("README.md", md, &prose, root));
    out
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[test]
fn readme_is_honest() {
    let root = root();
    let md = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let (mut found, helps) = check_helps();
    found.extend(problems(&md, &root, &helps));
    found.extend(linked_docs_problems(&md, &root));
    assert!(
        found.is_empty(),
        "{} problem(s) in the README:\n{}",
        found.len(),
        found.join("\n")
    );
    // The README shows every native command and both long-memory reports.
    for named in [
        "--bin train-names",
        "--bin delay-copy",
        "--bin long-memory",
        "scripts/delay-report.sh",
        "scripts/memory-report.sh",
    ] {
        assert!(md.contains(named), "the README does not show `{named}`");
    }
}

#[test]
fn binaries_are_all_listed() {
    let (name, bins) = manifest(&std::fs::read_to_string(root().join("core/Cargo.toml")).unwrap());
    assert_eq!(name, "unroll-core");
    let listed: Vec<&str> = BINARIES.iter().map(|(b, _)| *b).collect();
    assert_eq!(
        bins, listed,
        "core/tests/suite/readme.rs: BINARIES must list every [[bin]] of core/Cargo.toml"
    );
}

/// Help texts for the checks below: the flags each binary names.
fn fake_helps() -> BTreeMap<String, String> {
    [
        (
            "train-names",
            "usage: train-names [options]\n  --epochs N\n  --cell C",
        ),
        (
            "delay-copy",
            "usage: delay-copy [options]\n  --delay N\n  --cell C",
        ),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_owned(), b.to_owned()))
    .collect()
}

#[test]
fn a_lost_opening_fence_and_a_command_in_prose_are_found() {
    // The native section as it once was: the block of delay-copy lines lost its opening fence.
    let md = "## Native trainer\n\
        \n\
        ```sh\n\
        cargo run --release --bin train-names -- --epochs 5\n\
        ```\n\
        \n\
        The delay-copy task runs natively too:\n\
        \n\
        scripts/delay-report.sh            # the runs of recipe R\n\
        ```\n\
        \n\
        It prints one JSON object per step.\n\
        \n\
        ```sh\n\
        cargo run --release --bin train-names -- --cell gru\n\
        ```\n\
        \n\
        Run `PORT=9000 ./scripts/serve.sh` or `UNROLL_E2E_SKIP_BUILD=1 node --test scripts/e2e/`;\n\
        `./scripts/serve.sh` and the other scripts are in `scripts/`.\n";
    let found = problems(md, &root(), &fake_helps());
    assert_eq!(
        found,
        [
            "README.md:10: a code fence without a language opens a block here (a closing fence \
             whose opening one is missing?); open blocks with ```sh or ```text",
            "README.md:14: the fence ```sh opens a code block inside the one opened at line \
             10: that block's closing fence is missing",
            "README.md:9: a command outside a code block: `scripts/delay-report.sh            \
             # the runs of recipe R`",
            "README.md:18: the command `PORT=9000 ./scripts/serve.sh` is inline: put it in a code \
             block",
            "README.md:18: the command `UNROLL_E2E_SKIP_BUILD=1 node --test scripts/e2e/` is \
             inline: put it in a code block",
        ]
    );
    let unclosed = problems(
        "```sh\ncargo run --bin train-names\n",
        &root(),
        &fake_helps(),
    );
    assert_eq!(
        unclosed,
        ["README.md:1: the code block opened here is never closed"]
    );
}

#[test]
fn a_missing_binary_script_path_or_flag_is_found() {
    let md = "```sh\n\
        cargo run --release --bin train-name -- --epochs 1\n\
        cargo run -p unroll-core --bin long-memory -- --task adding\n\
        cargo run -p unroll-cor --bin delay-copy\n\
        cargo run --release --bin delay-copy -- --dleay 8 --cell lstm\n\
        ./scripts/no-such-report.sh\n\
        node scripts/bench/tab.mjs --help\n\
        ```\n\
        \n\
        Its kernels are in `shaders/` and its tests in\n\
        `core/tests/no_such_test.rs`.\n";
    let found = problems(md, &root(), &fake_helps());
    assert_eq!(
        found,
        [
            "README.md:2: `cargo run --release --bin train-name -- --epochs 1`: no binary \
             train-name in the workspace (binaries: bench, delay-copy, generate-names, \
             long-memory, train-names, unroll)",
            "README.md:4: `cargo run -p unroll-cor --bin delay-copy`: no package unroll-cor in \
             the workspace (packages: unroll, unroll-core)",
            "README.md:6: `./scripts/no-such-report.sh`: no file scripts/no-such-report.sh",
            "README.md:11: `core/tests/no_such_test.rs`: no file core/tests/no_such_test.rs",
            "README.md:3: long-memory: no --help text to check its flags against",
            "README.md:5: delay-copy --dleay: `delay-copy --help` does not name --dleay",
        ]
    );
}

#[test]
fn broken_links_and_anchors_are_found() {
    let md = "# Unroll\n\
        \n\
        ## Set-up (fresh machine)\n\
        \n\
        See [the design](docs/design.md), [nothing](docs/nothing.md),\n\
        ![a picture](docs/no-such.png) and [set-up](#set-up-fresh-machine), [gone](#gone),\n\
        [bench](docs/bench.md#no-such-heading) and `[not a link](docs/in-code.md)`.\n\
        [The site](https://example.org/x.md).\n";
    let found = problems(md, &root(), &fake_helps());
    assert_eq!(
        found,
        [
            "README.md:5: the link `docs/nothing.md`: no file docs/nothing.md",
            "README.md:6: the link `docs/no-such.png`: no file docs/no-such.png",
            "README.md:6: the link `#gone`: no heading of README.md has the anchor #gone",
            "README.md:7: the link `docs/bench.md#no-such-heading`: no heading of docs/bench.md \
             has the anchor #no-such-heading",
        ]
    );
}

#[test]
fn anchors_are_github_slugs() {
    let md = "# Unroll\n## Per-step against whole-sequence kernels, one run (latest)\n\
              ## Set-up (fresh Debian/Ubuntu machine with rustup/cargo and Node.js 20+)\n\
              ## The `bench` binary\n## Notes\n## Notes\n```sh\n# not a heading\n```\n";
    let got: Vec<String> = anchors(md).into_iter().collect();
    assert_eq!(
        got,
        [
            "notes",
            "notes-1",
            "per-step-against-whole-sequence-kernels-one-run-latest",
            "set-up-fresh-debianubuntu-machine-with-rustupcargo-and-nodejs-20",
            "the-bench-binary",
            "unroll",
        ]
    );
}
