//! The URL query codec shared by every page: a table of fields per page, decoding that never
//! fails (bad input is clamped or replaced by defaults and reported), and a canonical encoding.
//!
//! A page's state is one plain struct implementing [`UrlConfig`]: its lesson name, a table of
//! [`FieldSpec`]s (key, kind with range and default, one-line meaning) in the documented order,
//! and conversions to and from [`Values`]. [`decode`] and [`encode`] do the rest.
//!
//! **Canonical form**: `v=1&lesson=<name>` first, then only the keys
//! whose value differs from the default, in the table's order, then `lang` when the user chose
//! a language. Booleans are `0`/`1`, enums lowercase, lists comma-separated, numbers in Rust's
//! shortest round-trip form (`0.0003`, never `3e-4`). `encode(decode(q))` is canonical for any
//! `q`, and `decode(encode(c)) == c` for any `c` whose fields lie in their ranges.
//!
//! **Decoding** (parsing by `serde_urlencoded`, so `+` is a space and `%xx` is decoded; invalid
//! percent-encoding such as `%zz` stays literal): a repeated key, the last one wins; numbers out
//! of range are clamped; unparsable values (`NaN`, `Infinity`, `1e309`, text) fall back to the
//! default; unknown keys are ignored; a `v` newer than [`URL_VERSION`] gives defaults. Every such
//! field yields a [`UrlNotice`] (at most [`MAX_NOTICES`], then one summary notice), so the page
//! can list what it changed. Raw values in notices are cut to [`MAX_RAW_CHARS`] characters and
//! must be rendered as text, never as HTML.

use std::fmt;

/// The URL schema version this build reads and writes (`v=1`).
pub const URL_VERSION: u32 = 1;

/// At most this many notices are returned; the rest are counted in one
/// [`NoticeKind::More`] notice (a hostile URL cannot make the page list thousands of lines).
pub const MAX_NOTICES: usize = 32;

/// Raw values (and keys) quoted in a notice are cut to this many characters (then `…`).
pub const MAX_RAW_CHARS: usize = 40;

/// What a field holds, with its range and default. Ranges are inclusive.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldKind {
    /// An integer in `min..=max`. Accepts decimal integers (any length: beyond `i64` they are
    /// saturated, then clamped) and finite floats without a fractional part (`1e3`).
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// Default.
        default: i64,
    },
    /// A finite float in `min..=max` (written in shortest round-trip form).
    Float {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// Default.
        default: f64,
    },
    /// `0` or `1` (other integers are clamped to 0/1).
    Bool {
        /// Default.
        default: bool,
    },
    /// One of a fixed list of lowercase words (matched case-insensitively).
    Choice {
        /// Allowed words, lowercase.
        choices: &'static [&'static str],
        /// Index of the default in `choices`.
        default: usize,
    },
    /// A comma-separated list of `min_len..=max_len` finite floats in `min..=max`; elements are
    /// clamped, extra elements dropped, a list with an unparsable element or too few elements
    /// falls back to the default.
    FloatList {
        /// Smallest element.
        min: f64,
        /// Largest element.
        max: f64,
        /// Fewest elements.
        min_len: usize,
        /// Most elements (the page never allocates more).
        max_len: usize,
        /// Default list.
        default: &'static [f64],
    },
    /// A comma-separated list of `min_len..=max_len` text tokens (e.g. the words of the `bidir`
    /// lesson), each trimmed and at most `max_chars` characters (Unicode scalar values; longer
    /// tokens are cut and reported as clamped). Extra tokens are dropped; an empty token or too
    /// few tokens fall back to the default. Tokens are user text: render them as text only.
    TextList {
        /// Fewest tokens.
        min_len: usize,
        /// Most tokens (the page never allocates more).
        max_len: usize,
        /// Most characters per token.
        max_chars: usize,
        /// Default tokens.
        default: &'static [&'static str],
    },
}

/// One URL key of a page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldSpec {
    /// The query key (PyTorch's argument name where one exists, e.g. `hidden_size`).
    pub key: &'static str,
    /// Kind, range and default.
    pub kind: FieldKind,
    /// What the key means, one line (used in `docs/url.md`).
    pub doc: &'static str,
}

/// A decoded field value (always within its [`FieldKind`]'s range after [`decode`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// For [`FieldKind::Int`].
    Int(i64),
    /// For [`FieldKind::Float`].
    Float(f64),
    /// For [`FieldKind::Bool`].
    Bool(bool),
    /// For [`FieldKind::Choice`]: the chosen word.
    Choice(&'static str),
    /// For [`FieldKind::FloatList`].
    FloatList(Vec<f64>),
    /// For [`FieldKind::TextList`].
    TextList(Vec<String>),
}

impl FieldKind {
    /// The default value.
    pub fn default_value(&self) -> Value {
        match *self {
            FieldKind::Int { default, .. } => Value::Int(default),
            FieldKind::Float { default, .. } => Value::Float(default),
            FieldKind::Bool { default } => Value::Bool(default),
            FieldKind::Choice { choices, default } => {
                Value::Choice(choices.get(default).copied().unwrap_or(""))
            }
            FieldKind::FloatList { default, .. } => Value::FloatList(default.to_vec()),
            FieldKind::TextList { default, .. } => {
                Value::TextList(default.iter().map(|s| (*s).to_owned()).collect())
            }
        }
    }

    /// The values this kind accepts, as data ([`Accepted`]; its `Display` is the English of
    /// `docs/url.md`).
    pub fn accepted(&self) -> Accepted {
        match *self {
            FieldKind::Int { min, max, .. } => Accepted::Range {
                min: min as f64,
                max: max as f64,
            },
            FieldKind::Float { min, max, .. } => Accepted::Range { min, max },
            FieldKind::Bool { .. } => Accepted::Bool,
            FieldKind::Choice { choices, .. } => Accepted::Choices(choices.to_vec()),
            FieldKind::FloatList {
                min,
                max,
                min_len,
                max_len,
                ..
            } => Accepted::Numbers {
                min,
                max,
                min_len,
                max_len,
            },
            FieldKind::TextList {
                min_len,
                max_len,
                max_chars,
                ..
            } => Accepted::Words {
                min_len,
                max_len,
                max_chars,
            },
        }
    }

    /// The accepted values in English words, e.g. `8–256`, `0 or 1`, `rnn, lstm, gru`
    /// ([`FieldKind::accepted`] written out).
    pub fn range_text(&self) -> String {
        self.accepted().to_string()
    }
}

/// The values a URL key accepts, as data: the page writes it in its own language; `Display`
/// writes English (`8–256`, `-3 to 3`, `0 or 1`, `rnn, lstm, gru`, …), as in `docs/url.md`.
/// Numbers are written as the URL writes them ([`format_number`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Accepted {
    /// A number from `min` to `max` (inclusive; integers are exact in `f64` up to 2^53).
    Range {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
    },
    /// `0` or `1`.
    Bool,
    /// One of these lowercase words (URL values).
    Choices(Vec<&'static str>),
    /// `min_len`–`max_len` comma-separated numbers, each from `min` to `max`.
    Numbers {
        /// Smallest element.
        min: f64,
        /// Largest element.
        max: f64,
        /// Fewest elements.
        min_len: usize,
        /// Most elements.
        max_len: usize,
    },
    /// `min_len`–`max_len` comma-separated words of at most `max_chars` characters.
    Words {
        /// Fewest words.
        min_len: usize,
        /// Most words.
        max_len: usize,
        /// Most characters per word.
        max_chars: usize,
    },
    /// A number from `min` to `max` that another setting of the page sets (`rule` says how).
    Tied {
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// What sets the range.
        rule: TiedBy,
    },
}

/// What ties a key's range to the page's other settings ([`Accepted::Tied`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TiedBy {
    /// One step per input of the sequence.
    OnePerInput,
    /// The number of steps of a mode of the page (the mode's URL value).
    StepsOfMode(&'static str),
    /// One per token of the sentence, 0 meaning the last token.
    OnePerTokenZeroLast,
    /// One per logit (class).
    OnePerLogit,
    /// The delay-copy rule `0 < delay < length`, with the page's `length`.
    DelayBelowLength {
        /// The sequence length.
        length: usize,
    },
}

impl fmt::Display for Accepted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Accepted::Range { min, max } => f.write_str(&span(*min, *max)),
            Accepted::Bool => f.write_str("0 or 1"),
            Accepted::Choices(choices) => f.write_str(&choices.join(", ")),
            Accepted::Numbers {
                min,
                max,
                min_len,
                max_len,
            } => write!(
                f,
                "{min_len}–{max_len} values in {}, comma-separated",
                span(*min, *max)
            ),
            Accepted::Words {
                min_len,
                max_len,
                max_chars,
            } => write!(
                f,
                "{min_len}–{max_len} words of at most {max_chars} characters, comma-separated"
            ),
            Accepted::Tied { min, max, rule } => {
                let span = span(*min, *max);
                match rule {
                    TiedBy::OnePerInput => write!(f, "{span} (one per input)"),
                    TiedBy::StepsOfMode(mode) => write!(f, "{span} (steps of the `{mode}` mode)"),
                    TiedBy::OnePerTokenZeroLast => {
                        write!(f, "{span} (one per token; 0 = the last)")
                    }
                    TiedBy::OnePerLogit => write!(f, "{span} (one per logit)"),
                    TiedBy::DelayBelowLength { length } => {
                        write!(f, "{span} (0 < delay < length {length})")
                    }
                }
            }
        }
    }
}

/// `a–b`, or `a to b` when `a` is negative (`-3–3` would read as a double minus).
fn span(min: f64, max: f64) -> String {
    let (min, max) = (format_number(min), format_number(max));
    if min.starts_with('-') {
        format!("{min} to {max}")
    } else {
        format!("{min}–{max}")
    }
}

/// What the page uses instead of a value it could not read ([`NoticeKind::Invalid`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Fallback {
    /// The key's default, as the URL writes it.
    Value(String),
    /// No language was chosen: the page follows the browser's language (`lang`).
    BrowserLanguage,
    /// The lesson index (an unknown `lesson`).
    LessonIndex,
}

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fallback::Value(v) => f.write_str(v),
            Fallback::BrowserLanguage => f.write_str("the browser's language"),
            Fallback::LessonIndex => f.write_str("the index"),
        }
    }
}

/// Formats a value the way [`encode`] writes it.
pub fn format_value(value: &Value) -> String {
    match value {
        Value::Int(v) => v.to_string(),
        Value::Float(v) => fmt_float(*v),
        Value::Bool(b) => if *b { "1" } else { "0" }.into(),
        Value::Choice(c) => (*c).into(),
        Value::FloatList(list) => list
            .iter()
            .map(|&v| fmt_float(v))
            .collect::<Vec<_>>()
            .join(","),
        Value::TextList(list) => list.join(","),
    }
}

/// A number as the URL writes it: Rust's shortest round-trip form without exponent
/// (`0.0003`, `256`, never `3e-4` or `-0`).
pub fn format_number(v: f64) -> String {
    // Rust's Display is the shortest string that parses back to the same f64, without exponent.
    format!("{}", v + 0.0)
}

fn fmt_float(v: f64) -> String {
    format_number(v)
}

/// The values of a page's fields, aligned with its [`FieldSpec`] table.
///
/// Getters look a key up in the table and return its value, or the table's default when the
/// stored value has another kind (never the case for values produced by [`decode`]); a key not
/// in the table reads as 0 / false / "" / empty (a typo in a struct's conversion shows up in its
/// round-trip test).
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    specs: &'static [FieldSpec],
    values: Vec<Value>,
}

impl Values {
    /// Every field at its default.
    pub fn defaults(specs: &'static [FieldSpec]) -> Self {
        Values {
            specs,
            values: specs.iter().map(|s| s.kind.default_value()).collect(),
        }
    }

    fn index(&self, key: &str) -> Option<usize> {
        self.specs.iter().position(|s| s.key == key)
    }

    /// Sets `key` to `value`; returns `false` (and changes nothing) when the key is not in the table.
    pub fn set(&mut self, key: &str, value: Value) -> bool {
        match self.index(key) {
            Some(i) => {
                self.values[i] = value;
                true
            }
            None => false,
        }
    }

    /// Builder form of [`Values::set`].
    pub fn with(mut self, key: &str, value: Value) -> Self {
        self.set(key, value);
        self
    }

    /// The value of `key`, or `None` when the key is not in the table.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.index(key).map(|i| &self.values[i])
    }

    fn get_or_default(&self, key: &str) -> Option<Value> {
        let i = self.index(key)?;
        let value = &self.values[i];
        let default = self.specs[i].kind.default_value();
        Some(
            if std::mem::discriminant(value) == std::mem::discriminant(&default) {
                value.clone()
            } else {
                default
            },
        )
    }

    /// An integer field.
    pub fn int(&self, key: &str) -> i64 {
        match self.get_or_default(key) {
            Some(Value::Int(v)) => v,
            _ => 0,
        }
    }

    /// A float field.
    pub fn float(&self, key: &str) -> f64 {
        match self.get_or_default(key) {
            Some(Value::Float(v)) => v,
            _ => 0.0,
        }
    }

    /// A 0/1 field.
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.get_or_default(key), Some(Value::Bool(true)))
    }

    /// A choice field: the chosen word (one of the table's `choices`).
    pub fn choice(&self, key: &str) -> &'static str {
        match self.get_or_default(key) {
            Some(Value::Choice(c)) => c,
            _ => "",
        }
    }

    /// A list field.
    pub fn list(&self, key: &str) -> Vec<f64> {
        match self.get_or_default(key) {
            Some(Value::FloatList(v)) => v,
            _ => Vec::new(),
        }
    }

    /// A text-list field.
    pub fn texts(&self, key: &str) -> Vec<String> {
        match self.get_or_default(key) {
            Some(Value::TextList(v)) => v,
            _ => Vec::new(),
        }
    }

    /// `(spec, value)` pairs in table order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static FieldSpec, &Value)> {
        self.specs.iter().zip(&self.values)
    }
}

/// A page's state that lives in the URL. Implement it for each lesson's struct.
pub trait UrlConfig: Sized {
    /// The `lesson` value of this page (e.g. `names`).
    const LESSON: &'static str;
    /// The page's keys in canonical order (`v`, `lesson` and `lang` are common and not listed).
    const FIELDS: &'static [FieldSpec];
    /// Builds the struct from decoded values (each within its range).
    fn from_values(values: &Values) -> Self;
    /// The struct's values, to be encoded.
    fn to_values(&self) -> Values;
    /// Cross-field checks after decoding (e.g. an index beyond the end of a list decoded from
    /// another key): adjust `self` to a consistent state and push one notice per adjusted key.
    /// Called by [`decode`] on every result; the default does nothing.
    fn reconcile(&mut self, _notices: &mut Vec<UrlNotice>) {}
}

/// The interface language (`lang=en|zh`), common to every page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// Simplified Chinese (简体中文).
    Zh,
}

impl Lang {
    /// `en` or `zh`.
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// Parses `en` / `zh` (case-insensitive).
    pub fn parse(s: &str) -> Option<Lang> {
        match s.trim().to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }
}

/// What happened to one field of the query.
#[derive(Clone, Debug, PartialEq)]
pub enum NoticeKind {
    /// The number was out of range and was clamped to `to`.
    Clamped {
        /// The accepted values ([`FieldKind::accepted`], or a range another key sets).
        range: Accepted,
        /// The value used.
        to: String,
    },
    /// The value could not be read (not a number, not finite, not one of the choices, …);
    /// the default is used.
    Invalid {
        /// The accepted values.
        expected: Accepted,
        /// What is used instead.
        default: Fallback,
    },
    /// The key is not one of this page's keys; ignored.
    UnknownKey,
    /// The key appears again later; this earlier value is ignored (the last one wins).
    Repeated {
        /// The value that is used (before its own clamping/validation).
        used: String,
    },
    /// `v` is newer than this app ([`URL_VERSION`]): every setting is at its default.
    NewerVersion,
    /// Ignored because the link's `v` is newer than this app.
    IgnoredNewerVersion,
    /// `v` is not a version number this app knows (e.g. `v=abc`, `v=0`); read as `v=1`.
    BadVersion,
    /// `lesson` names another page; this page's settings are read anyway.
    OtherLesson {
        /// This page's lesson.
        expected: &'static str,
    },
    /// The list is valid but shorter than the page's other lists: it was repeated cyclically
    /// to `steps` values (one per step), giving `to`.
    Cycled {
        /// The number of steps (the longest list).
        steps: usize,
        /// The list used.
        to: String,
    },
    /// The list had more than `max_len` elements; the rest were dropped.
    ListTruncated {
        /// Elements kept.
        max_len: usize,
    },
    /// The value is within its key's range but breaks a rule that ties it to other keys (e.g.
    /// the delay-copy page's `0 < delay < length`); the value is kept and the page says what
    /// it needs instead of running.
    Inconsistent {
        /// The values allowed with the other settings (e.g. `1–95 (0 < delay < length 96)`).
        allowed: Accepted,
    },
    /// The key or value is percent-encoded bytes that are not UTF-8 text (e.g. `%FF%FE`); each
    /// undecodable byte was read as U+FFFD (�), and the field's own rules then applied.
    NotUtf8,
    /// `count` more fields were changed or ignored (notices beyond [`MAX_NOTICES`]).
    More {
        /// Number of notices left out.
        count: usize,
    },
}

/// One field of the URL that was clamped, ignored or replaced by its default.
#[derive(Clone, Debug, PartialEq)]
pub struct UrlNotice {
    /// The key as written in the URL (cut to [`MAX_RAW_CHARS`] characters).
    pub field: String,
    /// The raw value as written (percent-decoded, cut to [`MAX_RAW_CHARS`] characters).
    pub raw: String,
    /// What happened.
    pub kind: NoticeKind,
}

impl fmt::Display for UrlNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (field, raw) = (&self.field, &self.raw);
        match &self.kind {
            NoticeKind::Clamped { range, to } => {
                write!(f, "{field}: “{raw}” is outside {range}; using {to}")
            }
            NoticeKind::Invalid { expected, default } => {
                let instead = match default {
                    Fallback::Value(v) => format!("using the default {v}"),
                    Fallback::BrowserLanguage => "using the browser's language".to_owned(),
                    Fallback::LessonIndex => "showing the index".to_owned(),
                };
                write!(f, "{field}: “{raw}” is not valid (expected {expected}); {instead}")
            }
            NoticeKind::UnknownKey => write!(f, "“{field}” is not a setting of this page; ignored"),
            NoticeKind::Repeated { used } => {
                write!(f, "{field} appears more than once; “{raw}” is ignored and the last value “{used}” is used")
            }
            NoticeKind::NewerVersion => write!(
                f,
                "this link was made by a newer version of Unroll (v={raw}, this app reads v={URL_VERSION}); \
                 all settings are at their defaults"
            ),
            NoticeKind::IgnoredNewerVersion => {
                write!(f, "{field}: “{raw}” ignored because the link is from a newer version")
            }
            NoticeKind::BadVersion => write!(f, "v: “{raw}” is not a known version; read as v={URL_VERSION}"),
            NoticeKind::OtherLesson { expected } => {
                write!(f, "lesson: “{raw}” is not this page ({expected}); ignored")
            }
            NoticeKind::Cycled { steps, to } => {
                let n = raw.split(',').count();
                let values = if n == 1 { "value" } else { "values" };
                write!(f, "{field}: “{raw}” has {n} {values} for {steps} steps; repeated to “{to}”")
            }
            NoticeKind::ListTruncated { max_len } => {
                write!(f, "{field}: more than {max_len} values; only the first {max_len} are used")
            }
            NoticeKind::Inconsistent { allowed } => write!(
                f,
                "{field}: “{raw}” does not fit the other settings (allowed: {allowed}); nothing runs until it is changed"
            ),
            NoticeKind::NotUtf8 => write!(
                f,
                "{field}: the link's bytes are not UTF-8 text; each unreadable byte was read as “�” (“{raw}”)"
            ),
            NoticeKind::More { count } => write!(f, "{count} more settings were ignored or adjusted"),
        }
    }
}

/// A decoded query: the page's state, the chosen language and what was changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded<T> {
    /// The page's configuration (every field within its range).
    pub config: T,
    /// `lang` when the URL sets a valid one (otherwise the page follows the browser).
    pub lang: Option<Lang>,
    /// Every clamped, ignored or defaulted field, in the order the keys first appear.
    pub notices: Vec<UrlNotice>,
}

/// The `(key, value)` pairs of a query string (a leading `?` is ignored), percent-decoded by
/// `serde_urlencoded` (`+` is a space; invalid escapes such as `%zz` stay literal; invalid
/// UTF-8 becomes U+FFFD). Never fails: an unreadable query gives no pairs.
pub fn parse_pairs(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    serde_urlencoded::from_str::<Vec<(String, String)>>(query).unwrap_or_default()
}

/// The `(key, value)` pairs of `query` (split as [`parse_pairs`] does) whose key or value is
/// percent-encoded bytes that are not valid UTF-8, each as [`parse_pairs`] reads it (with
/// U+FFFD in place of the bad bytes).
pub fn non_utf8_pairs(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let valid = |raw: &str| {
        let plus = raw.replace('+', " ");
        percent_encoding::percent_decode_str(&plus)
            .decode_utf8()
            .is_ok()
    };
    query
        .split('&')
        .filter(|part| !part.is_empty())
        .filter(|part| {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            !valid(k) || !valid(v)
        })
        .flat_map(parse_pairs)
        .collect()
}

/// The `lesson` of a query (the last one when repeated), for routing to a page's decoder.
pub fn query_lesson(query: &str) -> Option<String> {
    parse_pairs(query)
        .into_iter()
        .rev()
        .find(|(k, _)| k == "lesson")
        .map(|(_, v)| v)
}

fn cut(s: &str) -> String {
    match s.char_indices().nth(MAX_RAW_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// Parses one raw value for `spec`: the value to use and, when it was changed, why.
pub fn parse_field(spec: &FieldSpec, raw: &str) -> (Value, Option<NoticeKind>) {
    let text = raw.trim();
    let invalid = || {
        (
            spec.kind.default_value(),
            Some(NoticeKind::Invalid {
                expected: spec.kind.accepted(),
                default: Fallback::Value(format_value(&spec.kind.default_value())),
            }),
        )
    };
    let clamped = |value: Value| {
        let to = format_value(&value);
        (
            value,
            Some(NoticeKind::Clamped {
                range: spec.kind.accepted(),
                to,
            }),
        )
    };
    match spec.kind {
        FieldKind::Int { min, max, .. } => match parse_int(text) {
            Some(v) if v < min => clamped(Value::Int(min)),
            Some(v) if v > max => clamped(Value::Int(max)),
            Some(v) => (Value::Int(v), None),
            None => invalid(),
        },
        FieldKind::Bool { .. } => match parse_int(text) {
            Some(v) if v < 0 => clamped(Value::Bool(false)),
            Some(v) if v > 1 => clamped(Value::Bool(true)),
            Some(v) => (Value::Bool(v == 1), None),
            None => invalid(),
        },
        FieldKind::Float { min, max, .. } => match parse_float(text) {
            Some(v) if v < min => clamped(Value::Float(min)),
            Some(v) if v > max => clamped(Value::Float(max)),
            Some(v) => (Value::Float(v + 0.0), None),
            None => invalid(),
        },
        FieldKind::Choice { choices, .. } => {
            match choices.iter().find(|c| c.eq_ignore_ascii_case(text)) {
                Some(c) => (Value::Choice(c), None),
                None => invalid(),
            }
        }
        FieldKind::FloatList {
            min,
            max,
            min_len,
            max_len,
            ..
        } => {
            let items: Vec<&str> = if text.is_empty() {
                Vec::new()
            } else {
                text.split(',').collect()
            };
            let mut list = Vec::with_capacity(items.len().min(max_len));
            for item in items.iter().take(max_len) {
                match parse_float(item.trim()) {
                    Some(v) => list.push(v),
                    None => return invalid(),
                }
            }
            if list.len() < min_len {
                return invalid();
            }
            let out_of_range = list.iter().any(|&v| v < min || v > max);
            let list: Vec<f64> = list.into_iter().map(|v| v.clamp(min, max) + 0.0).collect();
            if items.len() > max_len {
                (
                    Value::FloatList(list),
                    Some(NoticeKind::ListTruncated { max_len }),
                )
            } else if out_of_range {
                clamped(Value::FloatList(list))
            } else {
                (Value::FloatList(list), None)
            }
        }
        FieldKind::TextList {
            min_len,
            max_len,
            max_chars,
            ..
        } => {
            // Count without collecting, so a hostile list of a million commas allocates nothing
            // beyond `max_len` tokens.
            let count = if text.is_empty() {
                0
            } else {
                text.split(',').count()
            };
            let mut list = Vec::with_capacity(count.min(max_len));
            let mut cut_any = false;
            for item in text.split(',').take(if count == 0 { 0 } else { max_len }) {
                let token = item.trim();
                if token.is_empty() {
                    return invalid();
                }
                let kept: String = token.chars().take(max_chars).collect();
                cut_any |= kept.len() < token.len();
                list.push(kept);
            }
            if list.len() < min_len {
                return invalid();
            }
            if count > max_len {
                (
                    Value::TextList(list),
                    Some(NoticeKind::ListTruncated { max_len }),
                )
            } else if cut_any {
                clamped(Value::TextList(list))
            } else {
                (Value::TextList(list), None)
            }
        }
    }
}

/// A decimal integer (saturating beyond `i64`) or a finite float with no fractional part.
fn parse_int(text: &str) -> Option<i64> {
    use std::num::IntErrorKind;
    match text.parse::<i64>() {
        Ok(v) => Some(v),
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => Some(i64::MAX),
        Err(e) if *e.kind() == IntErrorKind::NegOverflow => Some(i64::MIN),
        Err(_) => {
            let v = parse_float(text)?;
            // `as` saturates for floats beyond the i64 range.
            (v.fract() == 0.0).then_some(v as i64)
        }
    }
}

/// A finite float; `NaN`, `inf`, `Infinity` and overflowing literals such as `1e309` are `None`.
fn parse_float(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Decodes a query string (with or without the leading `?`) into `T`. Never fails and never
/// panics; see the module docs for the rules and [`NoticeKind`] for the notices.
pub fn decode<T: UrlConfig>(query: &str) -> Decoded<T> {
    let (values, lang, notices) = decode_values(query, T::LESSON, T::FIELDS);
    finish(values, lang, notices)
}

/// The body of [`decode`] for a page of `lesson` with the keys `fields`: the values (each
/// within its range, defaults where a key is missing or bad), the language, and the notices.
/// Not generic, so each page's configuration adds only [`finish`]'s few lines to the module.
fn decode_values(
    query: &str,
    lesson: &'static str,
    fields: &'static [FieldSpec],
) -> (Values, Option<Lang>, Vec<UrlNotice>) {
    let pairs = parse_pairs(query);
    // Distinct keys in order of first appearance, each with all its values.
    let mut keys: Vec<(&str, Vec<&str>)> = Vec::new();
    for (k, v) in &pairs {
        match keys.iter_mut().find(|(key, _)| *key == k.as_str()) {
            Some((_, values)) => values.push(v),
            None => keys.push((k, vec![v])),
        }
    }
    let mut notices = Vec::new();
    let mut note = |field: &str, raw: &str, kind: NoticeKind| {
        notices.push(UrlNotice {
            field: cut(field),
            raw: cut(raw),
            kind,
        });
    };

    let newer = keys.iter().find(|(k, _)| *k == "v").and_then(|(_, vs)| {
        let raw = vs.last().copied().unwrap_or("");
        match raw.trim().parse::<u64>() {
            Ok(v) if v > u64::from(URL_VERSION) => Some(raw),
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Some(raw),
            _ => None,
        }
    });
    if let Some(raw) = newer {
        note("v", raw, NoticeKind::NewerVersion);
        // The page and the language are still the link's (the router and the language switch
        // read them), so only the page's own settings are listed as ignored.
        for (key, values) in keys
            .iter()
            .filter(|(k, _)| !["v", "lesson", "lang", "quiz", "embed"].contains(k))
        {
            note(
                key,
                values.last().copied().unwrap_or(""),
                NoticeKind::IgnoredNewerVersion,
            );
        }
        let lang = keys
            .iter()
            .find(|(k, _)| *k == "lang")
            .and_then(|(_, vs)| vs.last().and_then(|l| Lang::parse(l)));
        return (Values::defaults(fields), lang, notices);
    }

    for (key, raw) in non_utf8_pairs(query) {
        note(&key, &raw, NoticeKind::NotUtf8);
    }
    let mut values = Values::defaults(fields);
    let mut lang = None;
    for (key, all) in &keys {
        let Some((last, earlier)) = all.split_last() else {
            continue;
        };
        for raw in earlier {
            note(key, raw, NoticeKind::Repeated { used: cut(last) });
        }
        match *key {
            "v" => {
                if last.trim().parse::<u32>().ok() != Some(URL_VERSION) {
                    note(key, last, NoticeKind::BadVersion);
                }
            }
            "lesson" => {
                if !last.trim().eq_ignore_ascii_case(lesson) {
                    note(key, last, NoticeKind::OtherLesson { expected: lesson });
                }
            }
            "lang" => match Lang::parse(last) {
                Some(l) => lang = Some(l),
                None => note(
                    key,
                    last,
                    NoticeKind::Invalid {
                        expected: Accepted::Choices(vec!["en", "zh"]),
                        default: Fallback::BrowserLanguage,
                    },
                ),
            },
            "quiz" | "embed" => {
                if parse_bit(last).is_none() {
                    let default = if *key == "quiz" { "1" } else { "0" };
                    note(
                        key,
                        last,
                        NoticeKind::Invalid {
                            expected: Accepted::Choices(vec!["0", "1"]),
                            default: Fallback::Value(default.into()),
                        },
                    );
                }
            }
            _ => match fields.iter().find(|s| s.key == *key) {
                Some(spec) => {
                    let (value, kind) = parse_field(spec, last);
                    values.set(spec.key, value);
                    if let Some(kind) = kind {
                        note(key, last, kind);
                    }
                }
                None => note(key, last, NoticeKind::UnknownKey),
            },
        }
    }
    (values, lang, notices)
}

/// The page's configuration built from decoded values, with its own cross-field notices
/// merged into the fields' ones.
fn finish<T: UrlConfig>(values: Values, lang: Option<Lang>, notices: Vec<UrlNotice>) -> Decoded<T> {
    let mut config = T::from_values(&values);
    let mut tied = Vec::new();
    config.reconcile(&mut tied);
    Decoded {
        config,
        lang,
        notices: merge_notices(notices, tied),
    }
}

/// The field notices with the configuration's own ones merged in ([`merge_notice`]), at most
/// [`MAX_NOTICES`] (the last one then counts the rest).
fn merge_notices(mut notices: Vec<UrlNotice>, tied: Vec<UrlNotice>) -> Vec<UrlNotice> {
    for notice in tied {
        merge_notice(&mut notices, notice);
    }
    if notices.len() > MAX_NOTICES {
        let count = notices.len() - (MAX_NOTICES - 1);
        notices.truncate(MAX_NOTICES - 1);
        notices.push(UrlNotice {
            field: String::new(),
            raw: String::new(),
            kind: NoticeKind::More { count },
        });
    }
    notices
}

/// Adds a notice of [`UrlConfig::reconcile`] to the field notices. A value that its own range
/// clamped (`t=99` → 12) and that another key then clamps again (12 → 2) gives one notice:
/// the value as written, the range that applies and the value used.
fn merge_notice(notices: &mut Vec<UrlNotice>, notice: UrlNotice) {
    let earlier = notices.iter_mut().find(|n| {
        n.field == notice.field
            && matches!(&n.kind, NoticeKind::Clamped { to, .. } if *to == notice.raw)
    });
    match (earlier, &notice.kind) {
        (Some(earlier), NoticeKind::Clamped { .. }) => earlier.kind = notice.kind,
        _ => notices.push(notice),
    }
}

/// `0` / `1` of `quiz` and `embed` (surrounding spaces ignored).
fn parse_bit(raw: &str) -> Option<bool> {
    match raw.trim() {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// Whether the lessons' questions are shown for `query`: `quiz=0` turns them off (a teacher
/// presenting), anything else leaves them on. The last `quiz` wins; an unreadable value is
/// listed by [`decode`] and leaves them on.
pub fn quiz_on(query: &str) -> bool {
    parse_pairs(query)
        .into_iter()
        .rev()
        .find(|(k, _)| k == "quiz")
        .and_then(|(_, v)| parse_bit(&v))
        .unwrap_or(true)
}

/// `query` (canonical, from [`encode`]) with `quiz=0` appended when the questions are off;
/// unchanged when they are on (the default is not written).
pub fn with_quiz(query: String, quiz: bool) -> String {
    if quiz {
        query
    } else if query.is_empty() {
        "quiz=0".into()
    } else {
        format!("{query}&quiz=0")
    }
}

/// Whether `query` asks for the embedded page (`embed=1`): the lesson's figure and controls
/// without the app's header, index and footer, for an `<iframe>` in a course page. The last
/// `embed` wins; an unreadable value is listed by [`decode`] and gives the full page.
pub fn embed_on(query: &str) -> bool {
    parse_pairs(query)
        .into_iter()
        .rev()
        .find(|(k, _)| k == "embed")
        .and_then(|(_, v)| parse_bit(&v))
        .unwrap_or(false)
}

/// `query` (canonical, from [`encode`] and [`with_quiz`]) with `embed=1` appended when the
/// page is embedded; unchanged otherwise (the default is not written).
pub fn with_embed(query: String, embed: bool) -> String {
    if !embed {
        query
    } else if query.is_empty() {
        "embed=1".into()
    } else {
        format!("{query}&embed=1")
    }
}

/// `query` without its `embed` pairs, every other pair as written: the link from an embedded
/// page to the same state in the full page.
pub fn without_embed(query: &str) -> String {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|pair| {
            let key = pair.split('=').next().unwrap_or("");
            !pair.is_empty() && key != "embed"
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// Encodes `config` in canonical form: `v=1&lesson=<T::LESSON>`, then the fields that differ
/// from their defaults in table order, then `lang` when given. No leading `?`.
pub fn encode<T: UrlConfig>(config: &T, lang: Option<Lang>) -> String {
    encode_values(T::LESSON, &config.to_values(), lang)
}

/// The body of [`encode`] (not generic: see [`decode_values`]).
fn encode_values(lesson: &str, values: &Values, lang: Option<Lang>) -> String {
    let mut pairs: Vec<(&str, String)> = vec![
        ("v", URL_VERSION.to_string()),
        ("lesson", lesson.to_owned()),
    ];
    for (spec, value) in values.iter() {
        if *value != spec.kind.default_value() {
            pairs.push((spec.key, format_value(value)));
        }
    }
    if let Some(lang) = lang {
        pairs.push(("lang", lang.as_str().to_owned()));
    }
    // Commas are legal in a query and keep lists readable (`f=0.9,0.3`).
    serde_urlencoded::to_string(&pairs)
        .unwrap_or_default()
        .replace("%2C", ",")
}

/// A Markdown table of a page's keys (`| key | values | default | meaning |`), generated from
/// the field table; `docs/url.md` contains it verbatim (a test checks).
pub fn markdown_table(fields: &[FieldSpec]) -> String {
    let mut out = String::from("| key | values | default | meaning |\n|---|---|---|---|\n");
    for spec in fields {
        out.push_str(&format!(
            "| `{}` | {} | `{}` | {} |\n",
            spec.key,
            spec.kind.range_text(),
            format_value(&spec.kind.default_value()),
            spec.doc
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lesson-like struct with a list, to exercise the parts `TrainConfig` does not use.
    #[derive(Clone, Debug, PartialEq)]
    struct Gates {
        f: Vec<f64>,
        steps: i64,
    }

    const GATE_FIELDS: &[FieldSpec] = &[
        FieldSpec {
            key: "f",
            kind: FieldKind::FloatList {
                min: 0.0,
                max: 1.0,
                min_len: 1,
                max_len: 3,
                default: &[0.9, 0.3],
            },
            doc: "forget gate per step",
        },
        FieldSpec {
            key: "steps",
            kind: FieldKind::Int {
                min: 1,
                max: 100,
                default: 10,
            },
            doc: "steps",
        },
    ];

    impl UrlConfig for Gates {
        const LESSON: &'static str = "lstm";
        const FIELDS: &'static [FieldSpec] = GATE_FIELDS;
        fn from_values(v: &Values) -> Self {
            Gates {
                f: v.list("f"),
                steps: v.int("steps"),
            }
        }
        fn to_values(&self) -> Values {
            Values::defaults(Self::FIELDS)
                .with("f", Value::FloatList(self.f.clone()))
                .with("steps", Value::Int(self.steps))
        }
    }

    #[test]
    fn list_fields_round_trip_with_literal_commas() {
        let g = Gates {
            f: vec![0.25, 1.0, 0.0],
            steps: 10,
        };
        let q = encode(&g, Some(Lang::Zh));
        assert_eq!(q, "v=1&lesson=lstm&f=0.25,1,0&lang=zh");
        let d = decode::<Gates>(&q);
        assert_eq!((d.config, d.lang, d.notices.len()), (g, Some(Lang::Zh), 0));
        assert_eq!(
            encode(
                &Gates {
                    f: vec![0.9, 0.3],
                    steps: 10
                },
                None
            ),
            "v=1&lesson=lstm"
        );
        // Percent-encoded commas decode the same.
        assert_eq!(decode::<Gates>("f=0.5%2C0.5").config.f, vec![0.5, 0.5]);
    }

    #[test]
    fn list_fields_clamp_truncate_and_reject() {
        let d = decode::<Gates>("v=1&lesson=lstm&f=2,-1,0.5");
        assert_eq!(d.config.f, vec![1.0, 0.0, 0.5]);
        assert_eq!(
            d.notices[0].kind,
            NoticeKind::Clamped {
                range: Accepted::Numbers {
                    min: 0.0,
                    max: 1.0,
                    min_len: 1,
                    max_len: 3
                },
                to: "1,0,0.5".into()
            }
        );
        assert_eq!(
            d.notices[0].to_string(),
            "f: “2,-1,0.5” is outside 1–3 values in 0–1, comma-separated; using 1,0,0.5"
        );

        let d = decode::<Gates>("f=0.1,0.2,0.3,0.4,0.5");
        assert_eq!(d.config.f, vec![0.1, 0.2, 0.3]);
        assert_eq!(d.notices[0].kind, NoticeKind::ListTruncated { max_len: 3 });

        for bad in ["0.1,NaN", "", "0.1,,0.2", "a,b"] {
            let d = decode::<Gates>(&format!("f={bad}"));
            assert_eq!(d.config.f, vec![0.9, 0.3], "{bad}");
            assert!(
                matches!(d.notices[0].kind, NoticeKind::Invalid { .. }),
                "{bad}"
            );
        }
    }

    #[test]
    fn notices_are_capped() {
        let q: String = (0..100).map(|i| format!("k{i}=1&")).collect();
        let d = decode::<Gates>(&q);
        assert_eq!(d.notices.len(), MAX_NOTICES);
        assert_eq!(
            d.notices[MAX_NOTICES - 1].kind,
            NoticeKind::More {
                count: 100 - (MAX_NOTICES - 1)
            }
        );
        assert_eq!(
            d.notices[MAX_NOTICES - 1].to_string(),
            "69 more settings were ignored or adjusted"
        );
    }

    #[test]
    fn raw_values_are_cut() {
        let long = "x".repeat(500);
        let d = decode::<Gates>(&format!("{long}={long}"));
        assert_eq!(d.notices[0].field.chars().count(), MAX_RAW_CHARS + 1);
        assert!(d.notices[0].raw.ends_with('…'));
    }

    #[test]
    fn int_parsing() {
        assert_eq!(parse_int("42"), Some(42));
        assert_eq!(parse_int("+42"), Some(42));
        assert_eq!(parse_int("1e3"), Some(1000));
        assert_eq!(parse_int("128.0"), Some(128));
        assert_eq!(parse_int("99999999999999999999999"), Some(i64::MAX));
        assert_eq!(parse_int("-99999999999999999999999"), Some(i64::MIN));
        assert_eq!(parse_int("1e30"), Some(i64::MAX));
        for bad in ["64.5", "NaN", "inf", "1e309", "", "0x10", "10^12"] {
            assert_eq!(parse_int(bad), None, "{bad}");
        }
    }
}
