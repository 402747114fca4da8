//! "As PyTorch" on the long-memory lab: the delay-copy settings shown (as the sweep runs them
//! when one exists, else the form's) as a runnable PyTorch script
//! ([`unroll_core::as_pytorch::delay_script`]), shown and offered as a `.py` download.
//!
//! Test hooks: `delay-as-pytorch` and its parts ([`ScriptPanel`]).

use super::text::DelayText;
use crate::shell::i18n::use_locale;
use crate::shell::url::page_link;
use crate::widgets::script::{ScriptPanel, ScriptTemplates};
use leptos::prelude::*;
use unroll_core::as_pytorch::{self, Template};
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;

/// The "As PyTorch" panel of the delay-copy page.
#[component]
pub fn DelayAsPytorch(
    /// The settings shown: the sweep's while one exists, else the form's.
    shown_cfg: Signal<DelayConfig>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || DelayText::of(loc.lang());
    let templates = ScriptTemplates::fetch(&[Template::Delay]);
    let text = Memo::new(move |_| {
        let template = templates.text(Template::Delay)?;
        shown_cfg.with(|c| {
            Some(as_pytorch::delay_script(
                &template,
                c,
                &page_link(&encode(c, None)),
            ))
        })
    });
    let file = Memo::new(move |_| shown_cfg.with(as_pytorch::delay_file_name));
    view! {
        <ScriptPanel
            testid="delay-as-pytorch"
            heading=Signal::derive(move || t().pytorch_heading.to_owned())
            help=Signal::derive(move || t().pytorch_help.to_owned())
            templates=templates
            script=text
            file=file
        />
    }
}
