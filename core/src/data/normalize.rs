//! The 57-symbol vocabulary, name normalisation and encoding to symbol indices.
//!
//! Source of the recipe: the PyTorch tutorial "Classifying Names with a Character-Level RNN"
//! (`unicodeToAscii`: Unicode NFD, then keep only `string.ascii_letters + " .,;'"`). Combining
//! marks are never in the vocabulary, so NFD followed by the vocabulary filter is the whole
//! function: "Ślusàrski" → "Slusarski", "Groß" → "Gro" (ß has no decomposition), "O’Brien"
//! (curly apostrophe) → "OBrien", fullwidth "ＭＡＲＩＡ" → "" (NFD, not NFKD, keeps fullwidth
//! letters as they are, and they are not in the vocabulary).
//!
//! **Trimming.** Surrounding whitespace (Unicode `White_Space`, including NBSP) is removed before
//! NFD, and spaces left at either end after the filter are removed too, so a normalised name
//! never starts or ends with a space. The data files have 8 Korean and 2 Chinese lines that end
//! in a space ("Park " next to English "Park"); the reference keeps them, which turns a trailing
//! space into a Korean giveaway. We trim, for the files *and* for user input (the predict box
//! calls the same [`normalize`]), so both sides see the same symbols. On the real files the
//! second trim changes nothing: 17,994 distinct (name, language) pairs either way.

use std::fmt;
use unicode_normalization::UnicodeNormalization;

/// The vocabulary in index order: `a`–`z` (0–25), `A`–`Z` (26–51), then space, `.`, `,`, `;`,
/// `'` (52–56). The same order as the PyTorch tutorial's `string.ascii_letters + " .,;'"`.
pub const VOCAB: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,;'";

/// Number of symbols V = 57 (the `input_size` of the name classifier's one-hot input).
pub const VOCAB_SIZE: usize = 57;

/// Index of `c` in [`VOCAB`], or `None` when `c` is not one of the 57 symbols.
pub fn symbol_index(c: char) -> Option<u32> {
    match c {
        'a'..='z' => Some(c as u32 - 'a' as u32),
        'A'..='Z' => Some(c as u32 - 'A' as u32 + 26),
        ' ' => Some(52),
        '.' => Some(53),
        ',' => Some(54),
        ';' => Some(55),
        '\'' => Some(56),
        _ => None,
    }
}

/// The symbol with index `index` (inverse of [`symbol_index`]), or `None` when `index >= 57`.
pub fn symbol(index: u32) -> Option<char> {
    VOCAB.as_bytes().get(index as usize).map(|&b| b as char)
}

/// Normalises a name: trim surrounding whitespace, Unicode NFD, keep only the 57 vocabulary
/// symbols, then trim spaces left at either end (see the module docs for why).
///
/// Returns an empty string when nothing usable is left ("😀", "ŁŁ", "ＭＡＲＩＡ").
pub fn normalize(name: &str) -> String {
    let kept: String = name
        .trim()
        .nfd()
        .filter(|&c| symbol_index(c).is_some())
        .collect();
    let trimmed = kept.trim_matches(' ');
    if trimmed.len() == kept.len() {
        kept
    } else {
        trimmed.to_owned()
    }
}

/// A name that cannot be turned into a sequence for the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// The name normalises to the empty string (for example "😀" or "ŁŁ"): it has none of the
    /// letters `a-z A-Z` or the symbols space `.` `,` `;` `'`, even after accents are removed.
    NoUsableLetters {
        /// The name as given.
        input: String,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::NoUsableLetters { input } if input.trim().is_empty() => {
                write!(
                    f,
                    "no usable letters: type a name written with the letters a–z"
                )
            }
            NameError::NoUsableLetters { input } => write!(
                f,
                "no usable letters in “{input}”: the model only reads the letters a–z and A–Z \
                 (accents are removed) and the symbols space . , ; '"
            ),
        }
    }
}

impl std::error::Error for NameError {}

/// Normalises `name` ([`normalize`]) and maps it to symbol indices in `0..57`: a sequence of
/// `seq_len` = number of symbols of the normalised name (≥ 1).
///
/// Errors: [`NameError::NoUsableLetters`] when the name normalises to "" (an empty sequence is
/// never sent to the RNN).
pub fn encode(name: &str) -> Result<Vec<u32>, NameError> {
    let normalized = normalize(name);
    if normalized.is_empty() {
        return Err(NameError::NoUsableLetters {
            input: name.to_owned(),
        });
    }
    Ok(encode_normalized(&normalized))
}

/// Maps an already normalised name to symbol indices, skipping any character outside the
/// vocabulary (there is none in the output of [`normalize`]).
pub fn encode_normalized(normalized: &str) -> Vec<u32> {
    normalized.chars().filter_map(symbol_index).collect()
}

/// Turns symbol indices back into the normalised name; indices `>= 57` are skipped.
pub fn decode(tokens: &[u32]) -> String {
    tokens.iter().filter_map(|&t| symbol(t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocab_order_is_ascii_letters_then_punctuation() {
        assert_eq!(VOCAB.chars().count(), VOCAB_SIZE);
        for (i, c) in VOCAB.chars().enumerate() {
            assert_eq!(symbol_index(c), Some(i as u32), "{c:?}");
            assert_eq!(symbol(i as u32), Some(c));
        }
        assert_eq!(symbol_index('a'), Some(0));
        assert_eq!(symbol_index('Z'), Some(51));
        assert_eq!(symbol_index('\''), Some(56));
        assert_eq!(symbol_index('-'), None);
        assert_eq!(symbol_index('é'), None);
        assert_eq!(symbol(57), None);
    }

    #[test]
    fn encode_maps_to_indices_and_rejects_empty() {
        assert_eq!(encode("abZ").unwrap(), vec![0, 1, 51]);
        assert_eq!(encode("a '").unwrap(), vec![0, 52, 56]);
        assert_eq!(encode("Ab c").unwrap(), vec![26, 1, 52, 2]);
        assert_eq!(decode(&encode("Ślusàrski").unwrap()), "Slusarski");
        for bad in ["😀", "ŁŁ", "", "   ", "ＭＡＲＩＡ", "123"] {
            let err = encode(bad).unwrap_err();
            assert_eq!(
                err,
                NameError::NoUsableLetters {
                    input: bad.to_owned()
                }
            );
            assert!(err.to_string().starts_with("no usable letters"), "{err}");
        }
        assert!(encode("😀").unwrap_err().to_string().contains("“😀”"));
    }
}
