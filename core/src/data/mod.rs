//! The names data set: parsing, normalisation, de-duplication, split and batching.
//!
//! - [`normalize`](mod@normalize): the 57-symbol vocabulary, [`normalize::normalize`] and [`normalize::encode`]
//!   (also used for the predict box's user input).
//! - [`names`]: the loader ([`names::NamesDataset`]) with its per-class report, and the
//!   `manifest.json` the browser reads.
//! - [`split`]: the seeded 90/10 split grouped by name ([`split::Split`]).
//! - [`upload`]: a data set from the user's own files (`.zip`, `.txt` class files, TSV).
//! - [`batches`]: seeded per-epoch shuffles and padded [`crate::math::model::SeqBatch`]es.
//!
//! Seeds: one `u64` seed (the URL's `seed`) drives everything through `ChaCha8Rng::seed_from_u64`
//! on separate streams: [`split::SPLIT_STREAM`] for the split, [`batches::EPOCH_STREAM_BASE`] +
//! epoch for the shuffles; stream 0 is left to weight initialisation.

pub mod batches;
pub mod names;
pub mod normalize;
pub mod split;
pub mod upload;

pub use batches::{epoch_order, make_batch, Batches};
pub use names::{
    locate_names_dir, ClassReport, DatasetBuilder, LoadError, LoadReport, Manifest, ManifestEntry,
    NamesDataset, Sample,
};
pub use normalize::{encode, normalize, NameError, VOCAB, VOCAB_SIZE};
pub use split::{Split, VAL_FRACTION};
