//! The training page's URL codec: canonical encoding, round trips, clamping and hostile input.
//! Rules and keys: `docs/url.md`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use unroll_core::config::query::{markdown_table, MAX_NOTICES};
use unroll_core::config::{
    Accepted, BackendChoice, CellKind, Fallback, Head, Lang, NoticeKind, TrainConfig, UrlNotice,
    TRAIN_FIELDS,
};

fn decode(q: &str) -> (TrainConfig, Vec<UrlNotice>) {
    let d = TrainConfig::from_query(q);
    (d.config, d.notices)
}

fn notice(field: &str, raw: &str, kind: NoticeKind) -> UrlNotice {
    UrlNotice {
        field: field.into(),
        raw: raw.into(),
        kind,
    }
}

/// The typed accepted values that `text` writes (`8–256`, `0 or 1`, `rnn, lstm, gru`); checks
/// that they write `text` back, so the tables below also pin the English of `docs/url.md`.
fn accepted(text: &str) -> Accepted {
    let a = if text == "0 or 1" {
        Accepted::Bool
    } else if let Some((min, max)) = text.split_once('–') {
        Accepted::Range {
            min: min.parse().unwrap(),
            max: max.parse().unwrap(),
        }
    } else {
        let words: Vec<&'static str> = text
            .split(", ")
            .map(|w| &*Box::leak(w.to_owned().into_boxed_str()))
            .collect();
        Accepted::Choices(words)
    };
    assert_eq!(a.to_string(), text);
    a
}

fn clamped(range: &str, to: &str) -> NoticeKind {
    NoticeKind::Clamped {
        range: accepted(range),
        to: to.into(),
    }
}

fn invalid(expected: &str, default: &str) -> NoticeKind {
    NoticeKind::Invalid {
        expected: accepted(expected),
        default: match default {
            "the browser's language" => Fallback::BrowserLanguage,
            v => Fallback::Value(v.into()),
        },
    }
}

fn every_field_changed() -> TrainConfig {
    TrainConfig {
        cell: CellKind::Gru,
        hidden_size: 32,
        num_layers: 2,
        bidirectional: true,
        lr: 0.0003,
        batch_size: 17,
        epochs: 10,
        max_norm: 5.0,
        forget_bias: 1.5,
        seed: 4_294_967_295,
        head: Head::Padded,
        backend: BackendChoice::Cpu,
        workers: 3,
        autostart: true,
    }
}

#[test]
fn empty_and_default_queries_give_defaults_without_notices() {
    for q in [
        "",
        "?",
        "v=1",
        "?v=1&lesson=names",
        "v=1&lesson=names&cell=lstm&hidden_size=128&lr=0.001&autostart=0",
    ] {
        let (c, notices) = decode(q);
        assert_eq!(c, TrainConfig::default(), "{q}");
        assert!(notices.is_empty(), "{q}: {notices:?}");
        assert_eq!(
            c.to_query(),
            "v=1&lesson=names",
            "{q}: defaults are omitted"
        );
    }
}

#[test]
fn every_field_round_trips_in_documented_order() {
    let c = every_field_changed();
    let q = c.to_query();
    assert_eq!(
        q,
        "v=1&lesson=names&cell=gru&hidden_size=32&num_layers=2&bidirectional=1&lr=0.0003&batch_size=17\
         &epochs=10&max_norm=5&forget_bias=1.5&seed=4294967295&head=padded&backend=cpu&workers=3&autostart=1"
    );
    let (back, notices) = decode(&q);
    assert_eq!(back, c);
    assert!(notices.is_empty(), "{notices:?}");

    let with_lang = c.to_query_with_lang(Some(Lang::Zh));
    assert!(with_lang.ends_with("&autostart=1&lang=zh"), "{with_lang}");
    let d = TrainConfig::from_query(&with_lang);
    assert_eq!((d.config, d.lang), (c, Some(Lang::Zh)));
}

#[test]
fn float_values_round_trip_exactly() {
    for lr in [1e-5, 3e-5, 0.0001, 0.000123456789, 0.001, 0.1, 0.7, 1.0] {
        let c = TrainConfig {
            lr,
            max_norm: lr * 50.0,
            ..TrainConfig::default()
        };
        let (back, notices) = decode(&c.to_query());
        assert_eq!(
            (back.lr, back.max_norm),
            (lr, lr * 50.0),
            "{}",
            c.to_query()
        );
        assert!(notices.is_empty());
        assert!(
            !c.to_query().replace("lesson=names", "").contains('e'),
            "no exponent: {}",
            c.to_query()
        );
    }
}

#[test]
fn messy_query_re_encodes_canonically() {
    let (c, notices) = decode("?seed=7&autostart=0&lesson=names&CELL=lstm&v=1&cell=GRU&hidden_size=0128&lr=1e-3&epochs=+7");
    assert_eq!(c.to_query(), "v=1&lesson=names&cell=gru&epochs=7&seed=7");
    assert_eq!(
        notices,
        vec![notice("CELL", "lstm", NoticeKind::UnknownKey)]
    );
    // encode(decode(x)) is a fixed point.
    assert_eq!(decode(&c.to_query()).0.to_query(), c.to_query());
}

#[test]
fn out_of_range_numbers_are_clamped_with_a_notice() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("hidden_size", "1000", "8–256", "256"),
        ("hidden_size", "1", "8–256", "8"),
        ("hidden_size", "-64", "8–256", "8"),
        ("hidden_size", "1000000000000", "8–256", "256"),
        ("hidden_size", "1e12", "8–256", "256"),
        ("hidden_size", "99999999999999999999999999", "8–256", "256"),
        ("batch_size", "0", "1–512", "1"),
        ("batch_size", "-5", "1–512", "1"),
        ("batch_size", "513", "1–512", "512"),
        ("lr", "5", "0.00001–1", "1"),
        ("lr", "0", "0.00001–1", "0.00001"),
        ("lr", "-0.1", "0.00001–1", "0.00001"),
        ("epochs", "1000", "1–100", "100"),
        ("epochs", "0", "1–100", "1"),
        ("seed", "-1", "0–4294967295", "0"),
        ("seed", "4294967296", "0–4294967295", "4294967295"),
        ("num_layers", "9", "1–4", "4"),
        ("max_norm", "-3", "0–100", "0"),
        ("max_norm", "1e300", "0–100", "100"),
        ("autostart", "2", "0 or 1", "1"),
        ("bidirectional", "-1", "0 or 1", "0"),
    ];
    for &(key, raw, range, to) in cases {
        let q = format!("v=1&lesson=names&{key}={raw}");
        let (c, notices) = decode(&q);
        assert_eq!(notices, vec![notice(key, raw, clamped(range, to))], "{q}");
        // The clamped value is what the canonical URL carries (omitted when it is the default).
        let canonical = c.to_query();
        if c == TrainConfig::default() {
            assert_eq!(canonical, "v=1&lesson=names", "{q}");
        } else {
            assert_eq!(canonical, format!("v=1&lesson=names&{key}={to}"), "{q}");
        }
    }
    let (c, _) = decode("hidden_size=1000&batch_size=0&lr=5&epochs=1000&seed=-1");
    assert_eq!(
        (c.hidden_size, c.batch_size, c.lr, c.epochs, c.seed),
        (256, 1, 1.0, 100, 0)
    );
}

#[test]
fn bad_values_fall_back_to_defaults_with_a_notice() {
    let cases: &[(&str, &str, &str, &str)] = &[
        ("lr", "NaN", "0.00001–1", "0.001"),
        ("lr", "nan", "0.00001–1", "0.001"),
        ("lr", "Infinity", "0.00001–1", "0.001"),
        ("lr", "-Infinity", "0.00001–1", "0.001"),
        ("lr", "inf", "0.00001–1", "0.001"),
        ("lr", "1e309", "0.00001–1", "0.001"),
        ("lr", "", "0.00001–1", "0.001"),
        ("lr", "0.001abc", "0.00001–1", "0.001"),
        ("hidden_size", "NaN", "8–256", "128"),
        ("hidden_size", "Infinity", "8–256", "128"),
        ("hidden_size", "1e309", "8–256", "128"),
        ("hidden_size", "10^12", "8–256", "128"),
        ("hidden_size", "64.5", "8–256", "128"),
        ("hidden_size", "%zz", "8–256", "128"),
        ("hidden_size", "0x40", "8–256", "128"),
        ("epochs", "five", "1–100", "5"),
        ("seed", "1.5", "0–4294967295", "0"),
        ("max_norm", "NaN", "0–100", "0"),
        ("autostart", "yes", "0 or 1", "0"),
        ("cell", "transformer", "rnn, lstm, gru", "lstm"),
        (
            "cell",
            "<img src=x onerror=alert(1)>",
            "rnn, lstm, gru",
            "lstm",
        ),
        ("head", "first", "last, padded", "last"),
        ("backend", "webgl", "auto, gpu, cpu", "auto"),
    ];
    for &(key, raw, expected, default) in cases {
        let q = format!("v=1&lesson=names&{key}={}", raw.replace('^', "%5E"));
        let (c, notices) = decode(&q);
        assert_eq!(c, TrainConfig::default(), "{q}");
        assert_eq!(
            notices,
            vec![notice(key, raw, invalid(expected, default))],
            "{q}"
        );
    }
}

#[test]
fn script_tags_are_kept_as_plain_text_in_notices() {
    let raw = "<img src=x onerror=alert(1)>";
    for q in [
        format!("cell={raw}"),
        "cell=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E".to_owned(),
    ] {
        let (c, notices) = decode(&q);
        assert_eq!(c.cell, CellKind::Lstm);
        assert_eq!(notices[0].raw, raw, "{q}");
        assert_eq!(
            notices[0].to_string(),
            "cell: “<img src=x onerror=alert(1)>” is not valid (expected rnn, lstm, gru); using the default lstm"
        );
    }
    // As a key.
    let (_, notices) = decode(&format!("{raw}=1"));
    assert_eq!(
        notices,
        vec![notice(
            "<img src",
            "x onerror=alert(1)>=1",
            NoticeKind::UnknownKey
        )]
    );
}

#[test]
fn unknown_keys_are_ignored_with_a_notice() {
    let (c, notices) = decode("v=1&lesson=names&foo=bar&hidden_size=64&%zz=1&Hidden_Size=9&=5");
    assert_eq!(c.hidden_size, 64);
    assert_eq!(
        notices,
        vec![
            notice("foo", "bar", NoticeKind::UnknownKey),
            notice("%zz", "1", NoticeKind::UnknownKey),
            notice("Hidden_Size", "9", NoticeKind::UnknownKey),
            notice("", "5", NoticeKind::UnknownKey),
        ]
    );
    assert_eq!(
        notices[0].to_string(),
        "“foo” is not a setting of this page; ignored"
    );
    assert_eq!(c.to_query(), "v=1&lesson=names&hidden_size=64");
}

#[test]
fn repeated_keys_last_one_wins() {
    let (c, notices) = decode("seed=1&hidden_size=32&seed=2&seed=3");
    assert_eq!((c.seed, c.hidden_size), (3, 32));
    assert_eq!(
        notices,
        vec![
            notice("seed", "1", NoticeKind::Repeated { used: "3".into() }),
            notice("seed", "2", NoticeKind::Repeated { used: "3".into() }),
        ]
    );
    assert_eq!(
        notices[0].to_string(),
        "seed appears more than once; “1” is ignored and the last value “3” is used"
    );
    // The last value is still validated.
    let (c, notices) = decode("hidden_size=64&hidden_size=NaN");
    assert_eq!(c.hidden_size, 128);
    assert_eq!(notices.len(), 2);
    assert_eq!(
        notices[1],
        notice("hidden_size", "NaN", invalid("8–256", "128"))
    );
}

#[test]
fn newer_version_gives_defaults_and_lists_every_field() {
    let (c, notices) = decode("v=99&lesson=names&hidden_size=32&cell=gru&lang=zh");
    assert_eq!(c, TrainConfig::default());
    assert_eq!(
        notices,
        vec![
            notice("v", "99", NoticeKind::NewerVersion),
            notice("hidden_size", "32", NoticeKind::IgnoredNewerVersion),
            notice("cell", "gru", NoticeKind::IgnoredNewerVersion),
        ]
    );
    assert!(notices[0]
        .to_string()
        .contains("newer version of Unroll (v=99, this app reads v=1)"));
    // The page and the language are still the link's: not listed as ignored.
    assert_eq!(TrainConfig::from_query("v=2&lang=zh").lang, Some(Lang::Zh));
    // A huge version number is still "newer", not garbage.
    for v in ["99999999999999999999", "18446744073709551615"] {
        let (c, notices) = decode(&format!("v={v}&seed=4"));
        assert_eq!(c.seed, 0);
        assert_eq!(notices[0], notice("v", v, NoticeKind::NewerVersion));
    }
}

#[test]
fn bad_version_and_other_lesson_are_reported_but_settings_kept() {
    for raw in ["abc", "0", "-1", "1.5", ""] {
        let (c, notices) = decode(&format!("v={raw}&seed=4"));
        assert_eq!(c.seed, 4, "v={raw}");
        assert_eq!(
            notices,
            vec![notice("v", raw, NoticeKind::BadVersion)],
            "v={raw}"
        );
    }
    let (c, notices) = decode("v=1&lesson=foo&seed=4");
    assert_eq!(c.seed, 4);
    assert_eq!(
        notices,
        vec![notice(
            "lesson",
            "foo",
            NoticeKind::OtherLesson { expected: "names" }
        )]
    );
    assert!(decode("lesson=NAMES").1.is_empty());
}

#[test]
fn lang_is_kept_or_reported() {
    let d = TrainConfig::from_query("v=1&lesson=names&lang=en");
    assert_eq!((d.lang, d.notices.len()), (Some(Lang::En), 0));
    let d = TrainConfig::from_query("lang=fr");
    assert_eq!(d.lang, None);
    assert_eq!(
        d.notices,
        vec![notice(
            "lang",
            "fr",
            invalid("en, zh", "the browser's language")
        )]
    );
}

#[test]
fn invalid_utf8_and_percent_encoding_do_not_break_decoding() {
    let (c, notices) = decode("cell=%FF%FE&seed=%zz&hidden_size=%&epochs=%2&lr=0.01");
    assert_eq!(
        c,
        TrainConfig {
            lr: 0.01,
            ..TrainConfig::default()
        }
    );
    let raws: Vec<&str> = notices.iter().map(|n| n.raw.as_str()).collect();
    assert_eq!(
        raws,
        ["\u{FFFD}\u{FFFD}", "\u{FFFD}\u{FFFD}", "%zz", "%", "%2"]
    );
    // The bytes that are not UTF-8 are named first, then every unreadable value.
    assert_eq!(
        (notices[0].field.as_str(), &notices[0].kind),
        ("cell", &NoticeKind::NotUtf8)
    );
    assert!(notices[1..]
        .iter()
        .all(|n| matches!(n.kind, NoticeKind::Invalid { .. })));
}

#[test]
fn random_queries_never_escape_the_ranges_and_re_encode_canonically() {
    let alphabet: Vec<char> = "=&%?+-.,;eE0123456789abcfgilnrstuvxzAFNI_ <>\u{e9}\u{1F600}"
        .chars()
        .collect();
    let keys = [
        "v",
        "lesson",
        "cell",
        "hidden_size",
        "batch_size",
        "lr",
        "epochs",
        "seed",
        "max_norm",
        "autostart",
        "lang",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    for _ in 0..3000 {
        let mut q = String::new();
        for _ in 0..rng.random_range(0..6) {
            if rng.random_bool(0.7) {
                q.push_str(keys[rng.random_range(0..keys.len())]);
                q.push('=');
            }
            for _ in 0..rng.random_range(0..8) {
                q.push(alphabet[rng.random_range(0..alphabet.len())]);
            }
            q.push('&');
        }
        let d = TrainConfig::from_query(&q);
        let c = &d.config;
        assert!((8..=256).contains(&c.hidden_size), "{q}");
        assert!((1..=512).contains(&c.batch_size), "{q}");
        assert!((1e-5..=1.0).contains(&c.lr), "{q}");
        assert!((1..=100).contains(&c.epochs), "{q}");
        assert!((1..=4).contains(&c.num_layers), "{q}");
        assert!((0.0..=100.0).contains(&c.max_norm), "{q}");
        assert!(d.notices.len() <= MAX_NOTICES);
        let canonical = c.to_query_with_lang(d.lang);
        let again = TrainConfig::from_query(&canonical);
        assert_eq!(
            (&again.config, again.lang),
            (c, d.lang),
            "{q} -> {canonical}"
        );
        assert!(again.notices.is_empty(), "{canonical}: {:?}", again.notices);
        assert_eq!(again.config.to_query_with_lang(again.lang), canonical);
    }
}

#[test]
fn docs_url_md_lists_every_training_key() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/url.md"))
        .expect("docs/url.md");
    let table = markdown_table(TRAIN_FIELDS);
    assert!(
        doc.contains(&table),
        "docs/url.md is out of date; the training page's table is:\n{table}"
    );
    for spec in TRAIN_FIELDS {
        assert!(doc.contains(&format!("| `{}` |", spec.key)), "{}", spec.key);
    }
}

/// The field tables' own rules (`config::fields`): choice words, bounds, number inputs, keys.
mod fields {
    use unroll_core::config::delay::CellSet;
    use unroll_core::config::fields::*;
    use unroll_core::config::lessons::{BpttAct, GruConvention, LstmMode};
    use unroll_core::config::query::{Value, Values};
    use unroll_core::config::train::{BackendChoice, Head};
    use unroll_core::math::params::CellKind;

    /// The tables name a choice's default as `Enum::Variant as usize`: that is its index in
    /// `WORDS` only while the variants are declared in the words' order.
    #[test]
    fn choice_defaults_index_their_words() {
        macro_rules! check {
            ($($t:ty),*) => {$(
                for (i, &c) in <$t as ChoiceField>::ALL.iter().enumerate() {
                    assert_eq!(c as usize, i, "{}", stringify!($t));
                    assert_eq!(<$t>::from_word(<$t>::WORDS[i]), Some(c));
                    assert_eq!(c.word(), <$t>::WORDS[i]);
                }
                assert_eq!(<$t as ChoiceField>::ALL.len(), <$t>::WORDS.len());
            )*};
        }
        check!(
            CellKind,
            BpttAct,
            GruConvention,
            LstmMode,
            BackendChoice,
            Head
        );
        // `CellSet` carries a cell, so its choices are not numbered by `as usize`.
        for (i, &c) in <CellSet as ChoiceField>::ALL.iter().enumerate() {
            assert_eq!(CellSet::from_word(CellSet::WORDS[i]), Some(c));
            assert_eq!(c.word(), CellSet::WORDS[i]);
            assert_eq!(c.word(), c.as_str());
        }
        for &h in <Head as ChoiceField>::ALL {
            assert_eq!(h.word(), h.as_str());
        }
        assert_eq!(Head::from_word(" PADDED "), Some(Head::Padded));
        assert_eq!(Head::from_word("pad"), None);
    }

    #[test]
    fn spec_bounds_and_list_lengths_come_from_the_table() {
        let x = spec(unroll_core::config::lessons::BPTT_FIELDS, "x");
        assert_eq!(bounds(x), (-5.0, 5.0));
        assert_eq!(list_len(x), (1, 100));
        let steps = spec(unroll_core::config::lessons::BPTT_FIELDS, "steps");
        assert_eq!(bounds(steps), (1.0, 100.0));
        assert_eq!(list_len(steps), (1, 1));
    }

    #[test]
    fn number_inputs_take_the_key_range_as_the_url_writes_it() {
        let t = unroll_core::config::train::TRAIN_FIELDS;
        assert_eq!(
            number_attrs(spec(t, "lr")),
            ("0.00001".into(), "1".into(), "any")
        );
        assert_eq!(
            number_attrs(spec(t, "seed")),
            ("0".into(), "4294967295".into(), "1")
        );
        let d = unroll_core::config::delay::DELAY_FIELDS;
        assert_eq!(
            number_attrs(spec(d, "forget_bias")),
            ("-5".into(), "5".into(), "any")
        );
        assert_eq!(
            number_attrs(spec(d, "steps")),
            ("1".into(), "20000".into(), "1")
        );
    }

    #[test]
    #[should_panic(expected = "no URL key `nope`")]
    fn a_missing_key_panics() {
        spec(unroll_core::config::lessons::BPTT_FIELDS, "nope");
    }

    #[test]
    fn number_fields_are_read_and_set_by_key() {
        use unroll_core::config::lessons::BpttConfig;
        let mut c = BpttConfig::default();
        assert_eq!(c.number("w_hh"), Some(c.w_hh));
        c.set_number("w_hh", 0.25);
        assert_eq!(c.w_hh, 0.25);
        c.set_number("steps", 6.6);
        assert_eq!((c.steps, c.number("steps")), (7, Some(7.0)));
        // A list is not one number; an unknown key is nothing.
        assert_eq!(c.number("x"), None);
        let before = c.clone();
        c.set_number("x", 1.0);
        c.set_number("nope", 1.0);
        assert_eq!(c, before);
    }

    #[test]
    fn integer_fields_read_within_their_type() {
        let values = Values::defaults(unroll_core::config::train::TRAIN_FIELDS)
            .with("seed", Value::Int(u32::MAX as i64));
        assert_eq!(<u32 as FieldValue>::read(&values, "seed"), u32::MAX);
        assert_eq!(<u64 as FieldValue>::read(&values, "seed"), u32::MAX as u64);
        assert_eq!(FieldValue::write(&7usize), Value::Int(7));
    }
}
