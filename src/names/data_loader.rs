//! Loading the names data set in the browser.
//!
//! The page fetches the manifest and every class file ([`crate::kit::names_data`]) and builds
//! the data set with the same loader the native trainer uses.

use super::bridge::{self, DataLoadError, LoadedData};
pub use crate::kit::names_data::DATA_BASE;
use std::rc::Rc;

/// Where loading stands.
#[derive(Clone)]
pub enum LoadState {
    /// Fetching: `done` of `total` files so far (`total` is 0 until the manifest is read).
    Loading {
        /// Files fetched.
        done: usize,
        /// Files to fetch.
        total: usize,
    },
    /// The data set is ready.
    Ready(Rc<LoadedData>),
    /// Loading failed: why (the page words it in its language).
    Failed(DataLoadError),
}

/// Fetches the manifest and every class file, reporting progress through `progress(done, total)`,
/// and builds the data set.
///
/// Errors: the manifest is missing (the page says how to prepare the data), a class file
/// could not be fetched, or the files give no data set.
pub async fn load(progress: impl Fn(usize, usize) + 'static) -> Result<LoadedData, DataLoadError> {
    let texts = crate::kit::names_data::fetch_files(progress).await?;
    // The data set is built in a task of its own, not the one that received the last file.
    crate::shell::defer::next_task().await;
    let loaded = bridge::build_dataset(texts).map_err(DataLoadError::Load)?;
    // The engine gets the names now, in a task of its own, so that Start sends only a number.
    if let crate::shell::engine_client::DataRef::Page(dataset) = &loaded.data {
        let dataset = dataset.clone();
        leptos::prelude::set_timeout(
            move || crate::shell::engine_client::EngineClient::get().offer_data(&dataset),
            std::time::Duration::ZERO,
        );
    }
    Ok(loaded)
}
