//! Bidirectional leakage, live: the course's claim (§5 item 6: a bidirectional layer cannot be
//! used for generation, it leaks the future), then the sentence computed from the two runs —
//! teacher-forced held-out loss of each direction, and their samples' mean length and bigram
//! loss — and why.
//!
//! Test hooks: `gen-bidir-verdict` (`data-value` = `leak` when the bidirectional run's loss is
//! lower and its samples worse, else `no-leak`; `data-loss-uni`, `data-loss-bidir`,
//! `data-bigram-uni`, `data-bigram-bidir`, `data-length-uni`, `data-length-bidir`).

use super::quality::mean_quality;
use super::question::{answered, GenerateQuestion};
use super::text::GenerateText;
use super::GenerateModel;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::config::delay::DelayConfig;
use unroll_core::lessons::lab_questions::BidirComparison;

/// The verdict panel (see the module docs).
#[component]
pub fn BidirPanel(
    /// The page's configuration (the pair trains it without, then with, a backward direction).
    cfg: RwSignal<DelayConfig>,
    model: GenerateModel,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || GenerateText::of(loc.lang());
    let comparison = Memo::new(move |_| {
        let languages = model.dataset()?.num_classes();
        let loss = [model.dirs[0].loss()?, model.dirs[1].loss()?];
        let q = [model.dirs[0].quality.get(), model.dirs[1].quality.get()];
        if q.iter().any(|q| q.len() < languages) {
            return None;
        }
        let m = [mean_quality(&q[0])?, mean_quality(&q[1])?];
        Some(BidirComparison {
            loss,
            bigram: [m[0].bigram, m[1].bigram],
            length: [m[0].length, m[1].length],
            data: (m[0].data_length, m[0].data_bigram),
        })
    });
    let shown = answered();
    let verdict = move || {
        let Some(c) = comparison.get() else {
            return view! { <p class="panel-note" data-testid="gen-bidir-wait">{t().bidir_wait}</p> }.into_any();
        };
        if !shown.get() {
            return view! { <p class="panel-note" data-testid="gen-bidir-hidden">{t().bidir_hidden}</p> }.into_any();
        }
        let t = t();
        let f3 = |v: f64| format!("{v:.3}");
        let f2 = |v: f64| format!("{v:.2}");
        let text = (t.verdict)([
            &f3(c.loss[1]),
            &f3(c.loss[0]),
            t.lower_higher[usize::from(!c.loss_lower())],
            &f2(c.length[1]),
            &f2(c.length[0]),
            &f2(c.data.0),
            &f3(c.bigram[1]),
            &f3(c.bigram[0]),
            &f3(c.data.1),
            t.worse_better[usize::from(!c.samples_worse())],
        ]);
        let key = if c.leaks() { "leak" } else { "no-leak" };
        view! {
            <p class="lx-text mt-outcome" data-testid="gen-bidir-verdict" data-value=key
                data-loss-uni=c.loss[0].to_string() data-loss-bidir=c.loss[1].to_string()
                data-bigram-uni=c.bigram[0].to_string() data-bigram-bidir=c.bigram[1].to_string()
                data-length-uni=c.length[0].to_string() data-length-bidir=c.length[1].to_string()>
                {text}
            </p>
            <p class="lx-text">{t.bidir_why}</p>
        }
        .into_any()
    };
    let status = model.flow.status;
    let started = Signal::derive(move || model.dirs[1].trained.with(Option::is_some));
    view! {
        <section class="panel" data-testid="gen-bidir">
            <h2>{move || t().bidir_title}</h2>
            <p class="lx-text">{move || t().bidir_claim}</p>
            <GenerateQuestion comparison=comparison started=started />
            <div class="gen-step-row">
                <button type="button" class="btn btn-primary" data-testid="gen-compare" title=move || t().compare_note
                    disabled=move || status.get().busy() || model.dataset().is_none()
                    on:click=move |_| model.compare(&cfg.get_untracked())>
                    {move || t().compare}
                </button>
                <span class="panel-note">{move || t().compare_note}</span>
            </div>
            {verdict}
        </section>
    }
}
