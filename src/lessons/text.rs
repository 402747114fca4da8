//! The lesson pages' texts: one catalogue per lesson, one for what they share and one for the
//! index. No lesson text contains a computed number: numbers come in through the `fn` fields.

pub use crate::lessons::bidir::text::BidirText;
pub use crate::lessons::bptt::text::BpttText;
pub use crate::lessons::common_text::CommonText;
pub use crate::lessons::gru::text::GruText;
pub use crate::lessons::index::text::IndexText;
pub use crate::lessons::lstm::text::LstmText;
pub use crate::lessons::parallel::text::ParallelText;
pub use crate::lessons::shapes::text::ShapesText;
pub use crate::lessons::softmax::text::SoftmaxText;
pub use crate::lessons::unroll::text::UnrollText;

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
