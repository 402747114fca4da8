//! The text of a WGSL file as the app ships it: comments and blank lines removed, each line's
//! surrounding spaces trimmed. WGSL has no string literals, so `//` always starts a comment.
//! The build script (`core/build.rs`) writes every `shaders/*.wgsl` through [`shipped`] into
//! the build's output folder, and the kernel registry includes those copies: the module carries
//! the code without the files' explanations (about 150 KB raw, 8 KB brotli-11 less), and a test
//! checks the registry against `shipped` of the files on disk. The files in `shaders/` stay the
//! documented source; naga's and the drivers' line numbers refer to the shipped text.

/// `source` without `//` comments, without blank lines, each line trimmed; ends with a newline.
pub fn shipped(source: &str) -> String {
    let mut out = String::with_capacity(source.len() / 2);
    for line in source.lines() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let code = code.trim();
        if !code.is_empty() {
            out.push_str(code);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shipped;

    #[test]
    fn comments_blank_lines_and_spaces_go_code_stays() {
        let src = "// A kernel.\n\nconst N: u32 = 4u; // four\n    let x = a/b; \n//\n  }\n";
        assert_eq!(shipped(src), "const N: u32 = 4u;\nlet x = a/b;\n}\n");
        assert_eq!(shipped(""), "");
    }
}
