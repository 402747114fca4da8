//! One declaration per URL-backed page state: [`url_config!`] writes the struct, its
//! [`FieldSpec`] table and both conversions of [`UrlConfig`] from a single list of fields, and
//! [`choice_enum!`] writes an enum of URL words with its word list. The field's type says how it
//! reads and writes a [`Value`] ([`FieldValue`]), so a key, its range and its default are typed
//! once, and widgets read the range from the same [`FieldSpec`] ([`spec`]).

use super::query::{format_value, FieldKind, FieldSpec, Value, Values};
use crate::math::model::Head;
use crate::math::params::CellKind;

/// A struct field stored in one URL key.
pub trait FieldValue: Sized {
    /// The field's value from decoded `values` (always within the key's range after decoding).
    fn read(values: &Values, key: &str) -> Self;
    /// The value to encode.
    fn write(&self) -> Value;
    /// The field as a slider's number; `None` for fields that are not one number.
    fn number(&self) -> Option<f64> {
        None
    }
    /// Sets the field from a slider's number (integers round to the nearest); fields that are
    /// not one number ignore it.
    fn set_number(&mut self, _value: f64) {}
}

/// A page state whose number fields can be read and set by URL key (the lessons' sliders);
/// [`url_config!`] implements it.
pub trait NumberFields {
    /// The number in `key`; `None` for an unknown key or a field that is not one number.
    fn number(&self, key: &str) -> Option<f64>;
    /// Sets the number in `key` (integers round to the nearest); does nothing for an unknown
    /// key or a field that is not one number.
    fn set_number(&mut self, key: &str, value: f64);
}

impl FieldValue for f64 {
    fn read(values: &Values, key: &str) -> Self {
        values.float(key)
    }
    fn write(&self) -> Value {
        Value::Float(*self)
    }
    fn number(&self) -> Option<f64> {
        Some(*self)
    }
    fn set_number(&mut self, value: f64) {
        *self = value;
    }
}

impl FieldValue for bool {
    fn read(values: &Values, key: &str) -> Self {
        values.flag(key)
    }
    fn write(&self) -> Value {
        Value::Bool(*self)
    }
}

impl FieldValue for Vec<f64> {
    fn read(values: &Values, key: &str) -> Self {
        values.list(key)
    }
    fn write(&self) -> Value {
        Value::FloatList(self.clone())
    }
}

impl FieldValue for Vec<String> {
    fn read(values: &Values, key: &str) -> Self {
        values.texts(key)
    }
    fn write(&self) -> Value {
        Value::TextList(self.clone())
    }
}

/// Integer fields: the key's range is non-negative and fits the type (the tables say so; the
/// round-trip tests check it), so the casts never wrap.
macro_rules! int_field {
    ($($t:ty),*) => {$(
        impl FieldValue for $t {
            fn read(values: &Values, key: &str) -> Self {
                <$t>::try_from(values.int(key).max(0)).unwrap_or(<$t>::MAX)
            }
            fn write(&self) -> Value {
                Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
            }
            fn number(&self) -> Option<f64> {
                Some(*self as f64)
            }
            fn set_number(&mut self, value: f64) {
                // `as` saturates: negative and NaN give 0, huge values the type's maximum.
                *self = value.round() as $t;
            }
        }
    )*};
}
int_field!(usize, u32, u64);

/// An enum stored as one of a fixed list of URL words ([`FieldKind::Choice`]).
pub trait ChoiceField: Copy + PartialEq + 'static {
    /// Every value, in the order of [`ChoiceField::WORDS`].
    const ALL: &'static [Self];
    /// The URL words, lowercase, one per value of [`ChoiceField::ALL`].
    const WORDS: &'static [&'static str];

    /// The URL word of `self`.
    fn word(self) -> &'static str {
        let i = Self::ALL.iter().position(|&c| c == self).unwrap_or(0);
        Self::WORDS[i]
    }

    /// The value of a URL word (case-insensitive, surrounding spaces ignored).
    fn from_word(word: &str) -> Option<Self> {
        let word = word.trim();
        Self::WORDS
            .iter()
            .position(|w| w.eq_ignore_ascii_case(word))
            .map(|i| Self::ALL[i])
    }
}

impl<T: ChoiceField> FieldValue for T {
    fn read(values: &Values, key: &str) -> Self {
        T::from_word(values.choice(key)).unwrap_or(T::ALL[0])
    }
    fn write(&self) -> Value {
        Value::Choice(self.word())
    }
}

impl ChoiceField for CellKind {
    const ALL: &'static [Self] = &CellKind::ALL;
    const WORDS: &'static [&'static str] = &CellKind::KEYS;
}

impl ChoiceField for Head {
    const ALL: &'static [Self] = &[Head::Last, Head::Padded];
    const WORDS: &'static [&'static str] = &["last", "padded"];
}

/// The spec of `key` in `table`.
///
/// # Panics
/// When `key` is not in the table: a typo in the page's code, caught by its first render (the
/// tables are constants).
pub fn spec(table: &'static [FieldSpec], key: &str) -> &'static FieldSpec {
    table
        .iter()
        .find(|s| s.key == key)
        .unwrap_or_else(|| panic!("no URL key `{key}` in this table"))
}

/// `(min, max)` of a numeric field (an `Int`, `Float` or `FloatList` key), as `f64`.
pub fn bounds(spec: &FieldSpec) -> (f64, f64) {
    match spec.kind {
        FieldKind::Int { min, max, .. } => (min as f64, max as f64),
        FieldKind::Float { min, max, .. } => (min, max),
        FieldKind::FloatList { min, max, .. } => (min, max),
        FieldKind::Bool { .. } => (0.0, 1.0),
        FieldKind::Choice { choices, .. } => (0.0, choices.len().saturating_sub(1) as f64),
        FieldKind::TextList { max_len, .. } => (0.0, max_len as f64),
    }
}

/// The `min`, `max` and `step` attributes of an `<input type="number">` for a numeric key:
/// bounds written as the URL writes them (`0.00001`, `4294967295`), step `1` for integers and
/// `any` for floats.
pub fn number_attrs(spec: &FieldSpec) -> (String, String, &'static str) {
    match spec.kind {
        FieldKind::Int { min, max, .. } => (min.to_string(), max.to_string(), "1"),
        _ => {
            let (min, max) = bounds(spec);
            (
                format_value(&Value::Float(min)),
                format_value(&Value::Float(max)),
                "any",
            )
        }
    }
}

/// `(min_len, max_len)` of a list field (`FloatList` or `TextList`), `(1, 1)` otherwise.
pub fn list_len(spec: &FieldSpec) -> (usize, usize) {
    match spec.kind {
        FieldKind::FloatList {
            min_len, max_len, ..
        }
        | FieldKind::TextList {
            min_len, max_len, ..
        } => (min_len, max_len),
        _ => (1, 1),
    }
}

/// Declares an enum whose values are URL words: the enum, [`ChoiceField`] and `as_str`.
///
/// ```ignore
/// choice_enum! {
///     /// Which output the classifier reads (`head`).
///     pub enum Head {
///         /// The output at each name's last real character.
///         Last = "last",
///         /// The course's padded recipe.
///         Padded = "padded",
///     }
/// }
/// ```
macro_rules! choice_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $crate::config::fields::ChoiceField for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            const WORDS: &'static [&'static str] = &[$($word),+];
        }

        impl $name {
            #[doc = concat!("The URL word: ", $("`", $word, "` "),+)]
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $word, )+
                }
            }
        }
    };
}

/// Declares a page's URL state once: the struct (one field per key, in canonical order, the
/// key being the field's name), its `FieldSpec` table and its [`UrlConfig`] implementation.
/// Each field gives its type, its [`FieldKind`] (range and default) and the one-line meaning
/// that `docs/url.md` shows. An optional `reconcile: path` names the cross-field check
/// (`fn(&mut Self, &mut Vec<UrlNotice>)`).
///
/// ```ignore
/// url_config! {
///     /// Lesson 7: softmax.
///     #[derive(Clone, Debug, PartialEq)]
///     pub struct SoftmaxConfig {
///         lesson: "softmax",
///         fields: SOFTMAX_FIELDS,
///         reconcile: fix_target,
///     } {
///         /// The logits.
///         logits: Vec<f64> = FieldKind::FloatList { .. } => "the logits z",
///         /// The target class.
///         target: usize = FieldKind::Int { min: 0, max: 9, default: 0 } => "the target class",
///     }
/// }
/// ```
///
/// [`UrlConfig`]: super::query::UrlConfig
macro_rules! url_config {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            lesson: $lesson:literal,
            fields: $table:ident,
            $( reconcile: $reconcile:path, )?
        } {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty = $kind:expr => $doc:literal
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )+
        }

        #[doc = concat!("The `", $lesson, "` page's URL keys in canonical order, with ranges and defaults.")]
        pub const $table: &[$crate::config::query::FieldSpec] = &[
            $( $crate::config::query::FieldSpec {
                key: stringify!($field),
                kind: $kind,
                doc: $doc,
            }, )+
        ];

        impl $crate::config::query::UrlConfig for $name {
            const LESSON: &'static str = $lesson;
            const FIELDS: &'static [$crate::config::query::FieldSpec] = $table;

            fn from_values(values: &$crate::config::query::Values) -> Self {
                $name {
                    $( $field: <$ty as $crate::config::fields::FieldValue>::read(values, stringify!($field)), )+
                }
            }

            fn to_values(&self) -> $crate::config::query::Values {
                let mut values = $crate::config::query::Values::defaults($table);
                $( values.set(stringify!($field), $crate::config::fields::FieldValue::write(&self.$field)); )+
                values
            }

            $(
                fn reconcile(&mut self, notices: &mut Vec<$crate::config::query::UrlNotice>) {
                    $reconcile(self, notices)
                }
            )?
        }

        impl $crate::config::fields::NumberFields for $name {
            fn number(&self, key: &str) -> Option<f64> {
                match key {
                    $( stringify!($field) => $crate::config::fields::FieldValue::number(&self.$field), )+
                    _ => None,
                }
            }

            fn set_number(&mut self, key: &str, value: f64) {
                match key {
                    $( stringify!($field) => $crate::config::fields::FieldValue::set_number(&mut self.$field, value), )+
                    _ => {}
                }
            }
        }

        impl Default for $name {
            /// Every key at its default.
            fn default() -> Self {
                <$name as $crate::config::query::UrlConfig>::from_values(
                    &$crate::config::query::Values::defaults($table),
                )
            }
        }
    };
}

pub(crate) use choice_enum;
pub(crate) use url_config;
