//! Every user-facing text of the app, in English and 简体中文: one catalogue per page or
//! panel, all written in one idiom.
//!
//! A catalogue is one [`catalogue!`](crate::shell::catalogue) declaration: a struct whose
//! fields are the texts, each field given with its English and its Chinese value side by side.
//! A field is a `&'static str` for a plain text, a `fn` for a sentence with values in it (each
//! language puts them where its word order wants them, e.g.
//! `|step| format!("Weights from step {step}")` and `|step| format!("权重来自第 {step} 步")`;
//! where a field's doc lists its arguments as `{0}`, `{1}`, … they are in that order). The
//! macro gives each struct two values, `EN` and `ZH`, and one accessor, `X::of(lang)`; a field
//! without both values does not compile. No text contains a computed number: values come in
//! through the `fn` fields, and typed values (URL notices, a run's errors and notices, the delay
//! task's outcome, the errors of an upload and of a weights file) are written in words here.
//! Counts are grouped by one helper, [`count`].
//! One exception: the "compared with the handout" notes ([`crate::kit::handout`]) are templates
//! whose `{n}` the page replaces by elements (each figure a `<span>` with its test hook), not
//! by text, so they are `&'static str` with `{n}` slots.
//!
//! A view that resolves a text later, when the page's language is known (a lesson panel's
//! title, say), takes a [`Text`]: `|l| UnrollText::of(l).controls`.
//!
//! Each page or shared part keeps its catalogue in its own folder (`shell/text.rs`,
//! `kit/text.rs`, `kit/keep_text.rs`, `kit/*/text.rs`, `charts/text.rs`,
//! `charts/grad_flow_text.rs`, `names/text.rs`, `names/lab/text.rs`,
//! `names/lab/inspector_text.rs`, `names/slowmo/text.rs`, `delay/text.rs`, `memory/text.rs`,
//! `lessons/*/text.rs`) and is imported from there; this module holds the idiom's helpers and
//! the texts of the kit's own components ([`KitText`]). The macro itself is in
//! [`crate::shell::catalogue`], below the kit, so that the shell's own catalogues can use it.
//!
//! The catalogues compile natively too (the charts' tests draw with them).

use crate::shell::catalogue::catalogue;
use unroll_core::config::Lang;

/// A count as every page writes it, in both languages: digits grouped by three with commas
/// (`3,395,120`; `999` stays `999`).
pub fn count(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// An English count with its noun: `1 seed`, `3 seeds` (`n` as the text shows it, e.g. from
/// [`count`]; the plural is `noun` + `s`). Chinese has no plural and needs none.
pub fn count_en(n: &str, noun: &str) -> String {
    if n == "1" {
        format!("{n} {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A text picked from a catalogue once the language is known, e.g.
/// `|l| UnrollText::of(l).controls`.
pub type Text = fn(Lang) -> &'static str;

catalogue! {
    /// The texts of the kit's own components: the "Copy link" button.
    #[derive(Debug)]
    pub struct KitText {
        /// Copy link button.
        pub copy_link: &'static str {
            "Copy link", "复制链接"
        }
        /// After copying.
        pub copied: &'static str {
            "Link copied", "链接已复制"
        }
        /// Manual copy field.
        pub copy_manually: &'static str {
            "Link to copy", "要复制的链接"
        }
    }
}
