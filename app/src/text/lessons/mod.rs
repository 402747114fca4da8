//! The lesson pages' texts: one catalogue per lesson, one for what they share and one for the
//! index. No lesson text contains a computed number: numbers come in through the `fn` fields.

pub mod bidir;
pub mod bptt;
pub mod common;
pub mod gru;
pub mod handout;
pub mod index;
pub mod lstm;
pub mod parallel;
pub mod shapes;
pub mod softmax;
pub mod unroll;

pub use bidir::BidirText;
pub use bptt::BpttText;
pub use common::CommonText;
pub use gru::GruText;
pub use handout::HandoutText;
pub use index::IndexText;
pub use lstm::LstmText;
pub use parallel::ParallelText;
pub use shapes::ShapesText;
pub use softmax::SoftmaxText;
pub use unroll::UnrollText;

use unroll_core::config::lessons::LessonId;
use unroll_core::config::Lang;

/// Title, one-line summary (index card) and lede (page intro) of a lesson in one language.
#[derive(Clone, Copy, Debug)]
pub struct LessonInfo {
    /// Title.
    pub title: &'static str,
    /// One line for the index.
    pub summary: &'static str,
    /// The page's introduction.
    pub lede: &'static str,
}

/// The title, summary and lede of `id` in `lang`.
pub fn lesson_info(id: LessonId, lang: Lang) -> LessonInfo {
    macro_rules! info {
        ($t:ident) => {{
            let t = $t::of(lang);
            LessonInfo {
                title: t.title,
                summary: t.summary,
                lede: t.lede,
            }
        }};
    }
    match id {
        LessonId::Unroll => info!(UnrollText),
        LessonId::Shapes => info!(ShapesText),
        LessonId::Bptt => info!(BpttText),
        LessonId::Lstm => info!(LstmText),
        LessonId::Gru => info!(GruText),
        LessonId::Bidir => info!(BidirText),
        LessonId::Softmax => info!(SoftmaxText),
        LessonId::Parallel => info!(ParallelText),
    }
}
