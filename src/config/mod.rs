//! Plain configuration structs and the URL query codec (no Leptos types).
