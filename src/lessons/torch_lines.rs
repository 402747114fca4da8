//! "The same in PyTorch": a lesson's PyTorch lines with the page's current values
//! ([`unroll_core::lessons::torch_lines`]), in a panel that prints with the worksheet.
//!
//! Test hook: `torch-lines` (the code's text).

use super::frame::Panel;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::Lang;

fn title(l: Lang) -> &'static str {
    match l {
        Lang::En => "The same in PyTorch",
        Lang::Zh => "用 PyTorch 算出同样的数",
    }
}

fn hint(l: Lang) -> &'static str {
    match l {
        Lang::En => "Paste into Python with torch installed: it prints the values this page shows, for the settings above.",
        Lang::Zh => "粘贴到装有 torch 的 Python 中运行：它按上面的设置打印出本页显示的数值。",
    }
}

/// The panel with `code` (empty while the lesson has no result).
#[component]
pub fn TorchLines(
    /// The lines for the page's state now.
    #[prop(into)]
    code: Signal<String>,
) -> impl IntoView {
    let lang = use_lang();
    view! {
        <Panel title=title class="lx-torch">
            <p class="lx-text lx-hint">{move || hint(lang.get())}</p>
            <pre class="lx-code" data-testid="torch-lines" data-scroller tabindex="0">{move || code.get()}</pre>
        </Panel>
    }
}
