//! The training loop over either backend (no Leptos).
