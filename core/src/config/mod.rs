//! Plain configuration structs and the URL query codec (no Leptos types).
//!
//! - [`fields`]: [`fields::url_config!`]-style declarations: one list of fields makes a page's
//!   struct, its URL table and both conversions; widgets read ranges from the same table.
//! - [`query`]: the table-driven codec every page uses ([`query::UrlConfig`], [`query::decode`],
//!   [`query::encode`], [`query::UrlNotice`]).
//! - [`train`]: the training page's [`TrainConfig`] (`?lesson=names`).
//! - [`delay`]: the delay-copy page's [`delay::DelayConfig`] (`?lesson=delay`).
//! - [`lessons`]: one struct per lesson page (`?lesson=unroll`, …) and the router [`lessons::route`].
//!
//! The keys, ranges and defaults are documented in `docs/url.md`, generated from the field
//! tables ([`query::markdown_table`]).

pub mod delay;
pub mod fields;
pub mod lessons;
pub mod query;
pub mod train;

pub use crate::math::params::CellKind;
pub use lessons::{
    BidirConfig, BpttAct, BpttConfig, GruConfig, GruConvention, LessonId, LessonState, LstmConfig,
    LstmMode, ParallelConfig, Route, ShapesConfig, SoftmaxConfig, UnrollConfig,
};
pub use query::{
    decode, encode, Accepted, Decoded, Fallback, Lang, NoticeKind, TiedBy, UrlConfig, UrlNotice,
    URL_VERSION,
};
pub use train::{BackendChoice, Head, TrainConfig, TRAIN_FIELDS};
