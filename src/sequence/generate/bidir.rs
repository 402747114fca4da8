//! Bidirectional leakage, live: the course's claim (§5 item 6: a bidirectional layer cannot be
//! used for generation, it leaks the future), then the sentence computed from the two runs —
//! teacher-forced held-out loss of each direction, and their samples' mean length and bigram
//! loss — and why.
//!
//! Test hooks: `gen-bidir-verdict` (`data-value` = `leak` when the bidirectional run's loss is
//! lower and its samples worse, else `no-leak`; `data-loss-uni`, `data-loss-bidir`,
//! `data-bigram-uni`, `data-bigram-bidir`, `data-length-uni`, `data-length-bidir`).

use super::quality::mean_quality;
use super::text::GenerateText;
use super::GenerateModel;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;

/// The two runs compared: `(loss, mean bigram loss of samples, mean length)` per direction,
/// with the data's mean length and bigram loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Comparison {
    /// Unidirectional, bidirectional: held-out loss per character.
    pub loss: [f64; 2],
    /// Unidirectional, bidirectional: mean bigram loss of the samples.
    pub bigram: [f64; 2],
    /// Unidirectional, bidirectional: mean length of the samples.
    pub length: [f64; 2],
    /// The data's mean length and bigram loss.
    pub data: (f64, f64),
}

impl Comparison {
    /// The bidirectional run's teacher-forced loss is lower.
    pub fn loss_lower(&self) -> bool {
        self.loss[1] < self.loss[0]
    }

    /// Its samples are worse: their letter pairs are less like the data's.
    pub fn samples_worse(&self) -> bool {
        self.bigram[1] > self.bigram[0]
    }
}

/// The verdict panel (see the module docs).
#[component]
pub fn BidirPanel(model: GenerateModel) -> impl IntoView {
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
        Some(Comparison {
            loss,
            bigram: [m[0].bigram, m[1].bigram],
            length: [m[0].length, m[1].length],
            data: (m[0].data_length, m[0].data_bigram),
        })
    });
    let verdict = move || {
        let Some(c) = comparison.get() else {
            return view! { <p class="panel-note" data-testid="gen-bidir-wait">{t().bidir_wait}</p> }.into_any();
        };
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
        let key = if c.loss_lower() && c.samples_worse() {
            "leak"
        } else {
            "no-leak"
        };
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
    view! {
        <section class="panel" data-testid="gen-bidir">
            <h2>{move || t().bidir_title}</h2>
            <p class="lx-text">{move || t().bidir_claim}</p>
            {verdict}
        </section>
    }
}
