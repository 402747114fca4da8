//! The kit: what more than one page uses, below the pages and above [`crate::shell`].
//!
//! - [`nav`]: client-side navigation, page-switching links, "Copy link", a link as a QR code.
//! - [`fmt`]: the number formats every page writes (fixed decimals, significant digits,
//!   grouped counts, subscripts).
//! - [`question`]: the predict-then-see question (its component, the page veil that hides
//!   what answers it, and its store in IndexedDB).
//! - [`tour`]: the guided tour of a page; [`stages`]: a step's stages, played in turn.
//! - [`embed`]: the embedded page's "open in Unroll" link and the "Copy embed code" button.
//! - [`handout`]: the "compared with the handout" notes.
//! - [`names_data`]: the built-in names data set fetched by the pages that train on it.
//! - [`persist`]: the app's one IndexedDB database (records, blobs, typed errors).
//! - [`text`]: the text catalogues' idiom and helpers, and the kit's own texts;
//!   [`keep_text`]: the words for storage, weights files, uploads and downloads.
//!
//! The kit imports [`crate::shell`], never a page; the router ([`crate::app`]) and the pages
//! sit above it.

pub mod embed;
pub mod fmt;
pub mod handout;
pub mod keep_text;
pub mod names_data;
pub mod nav;
pub mod persist;
pub mod question;
pub mod stages;
pub mod text;
pub mod tour;
