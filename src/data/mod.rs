//! The names data set: parsing, normalisation, de-duplication, split and batching.
