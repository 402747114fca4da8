//! The lessons' URL codec: canonical round trips for every lesson,
//! hostile input (NaN, Infinity, 1e309, 10^12, negative sizes, unknown and repeated keys,
//! `v=99`, HTML as a token, invalid percent-encoding) and the allocation limits.
//! Keys and ranges: `docs/url.md` (checked against the field tables here).

use unroll_core::config::lessons::{
    index_notices, route, same_page, unknown_lesson_notice, BidirConfig, BpttAct, BpttConfig,
    GruConfig, GruConvention, LessonId, LessonState, LstmConfig, LstmMode, ParallelConfig, Route,
    ShapesConfig, SoftmaxConfig, UnrollConfig,
};
use unroll_core::config::query::{self, markdown_table, FieldKind, MAX_NOTICES};
use unroll_core::config::{Accepted, CellKind, Fallback, Lang, NoticeKind, TiedBy, UrlNotice};

fn decode(id: LessonId, q: &str) -> (LessonState, Vec<UrlNotice>) {
    let d = LessonState::decode(id, q);
    (d.config, d.notices)
}

/// A state of every lesson with every key away from its default.
fn every_field_changed() -> Vec<(LessonState, &'static str)> {
    vec![
        (
            LessonState::Unroll(UnrollConfig {
                w_xh: -1.25,
                w_hh: 0.3,
                b: 0.1,
                h0: -3.0,
                x: vec![0.5, -5.0, 5.0, 0.0],
                t: 4,
                hidden_size: 3,
                seed: 42,
            }),
            "v=1&lesson=unroll&w_xh=-1.25&w_hh=0.3&b=0.1&h0=-3&x=0.5,-5,5,0&t=4&hidden_size=3&seed=42",
        ),
        (
            LessonState::Shapes(ShapesConfig {
                cell: CellKind::Lstm,
                input_size: 16,
                hidden_size: 32,
                num_layers: 2,
                bidirectional: true,
                batch_first: false,
                batch: 4,
                seq_len: 4096,
            }),
            "v=1&lesson=shapes&cell=lstm&input_size=16&hidden_size=32&num_layers=2&bidirectional=1&batch_first=0&batch=4&seq_len=4096",
        ),
        (
            LessonState::Bptt(BpttConfig { w_hh: 2.0, w_xh: -0.5, x: vec![0.3], steps: 20, act: BpttAct::Relu, max_norm: 0.25 }),
            "v=1&lesson=bptt&w_hh=2&w_xh=-0.5&x=0.3&steps=20&act=relu&max_norm=0.25",
        ),
        (
            LessonState::Lstm(LstmConfig {
                f: vec![1.0, 0.0, 0.5],
                i: vec![0.25, 0.5, 0.75],
                g: vec![-1.0, 1.0, 0.0],
                o: vec![0.1, 0.2, 0.3],
                c0: 2.5,
                mode: LstmMode::Run,
                n: 30,
                x: vec![1.0],
                seed: 9,
                t: 27,
            }),
            "v=1&lesson=lstm&f=1,0,0.5&i=0.25,0.5,0.75&g=-1,1,0&o=0.1,0.2,0.3&c0=2.5&mode=run&n=30&x=1&seed=9&t=27",
        ),
        (
            LessonState::Gru(GruConfig {
                h_prev: -1.0,
                z: 0.95,
                n: 0.0,
                convention: GruConvention::Pytorch,
                r: 0.0,
                x: 1.0,
                w_in: -0.8,
                w_hn: 0.0,
                b_hn: -1.0,
            }),
            "v=1&lesson=gru&h_prev=-1&z=0.95&n=0&convention=pytorch&r=0&x=1&w_in=-0.8&w_hn=0&b_hn=-1",
        ),
        (
            LessonState::Bidir(BidirConfig { tokens: vec!["I".into(), "love".into(), "New York".into(), "a&b=c".into()], seed: 1, t: 2 }),
            "v=1&lesson=bidir&tokens=I,love,New+York,a%26b%3Dc&seed=1&t=2",
        ),
        (
            LessonState::Softmax(SoftmaxConfig { logits: vec![1000.0f64.min(50.0), 0.0, -50.0, 0.001], target: 3 }),
            "v=1&lesson=softmax&logits=50,0,-50,0.001&target=3",
        ),
        (
            LessonState::Parallel(ParallelConfig { cell: CellKind::Gru, hidden_size: 256, max_len: 64 }),
            "v=1&lesson=parallel&cell=gru&hidden_size=256&max_len=64",
        ),
    ]
}

#[test]
fn defaults_encode_to_v_and_lesson_only() {
    for id in LessonId::ALL {
        let state = LessonState::default_for(id);
        assert_eq!(state.id(), id);
        let q = state.encode(None);
        assert_eq!(q, format!("v=1&lesson={}", id.as_str()));
        let (back, notices) = decode(id, &q);
        assert_eq!(back, state);
        assert!(notices.is_empty(), "{q}: {notices:?}");
        assert_eq!(route(&q), Route::Lesson(id));
    }
}

#[test]
fn every_lesson_round_trips_in_documented_order() {
    for (state, canonical) in every_field_changed() {
        let id = state.id();
        let q = state.encode(None);
        assert_eq!(q, canonical);
        let (back, notices) = decode(id, &q);
        assert_eq!(back, state, "{q}");
        assert!(notices.is_empty(), "{q}: {notices:?}");
        assert_eq!(
            back.encode(None),
            q,
            "encode(decode(encode(x))) is canonical"
        );
        let with_lang = state.encode(Some(Lang::Zh));
        assert_eq!(with_lang, format!("{q}&lang=zh"));
        let d = LessonState::decode(id, &with_lang);
        assert_eq!((d.config, d.lang), (state, Some(Lang::Zh)));
    }
}

#[test]
fn a_shared_lstm_link_with_the_default_gates() {
    let q = "?v=1&lesson=lstm&f=0.9,0.3&i=0.5,0.9&g=0.8,-0.6&o=0.4,0.7&lang=zh";
    assert_eq!(route(q), Route::Lesson(LessonId::Lstm));
    let d = LessonState::decode(LessonId::Lstm, q);
    assert_eq!(d.config, LessonState::Lstm(LstmConfig::default()));
    assert_eq!(d.lang, Some(Lang::Zh));
    assert!(d.notices.is_empty());
    assert_eq!(d.config.encode(d.lang), "v=1&lesson=lstm&lang=zh");
}

#[test]
fn messy_queries_re_encode_canonically() {
    let cases = [
        (
            LessonId::Bptt,
            "steps=20&lesson=BPTT&x=0.30&v=1&ACT=relu&act=LINEAR&max_norm=0",
            "v=1&lesson=bptt&x=0.3&steps=20&act=linear",
        ),
        (
            LessonId::Softmax,
            "logits=%203.2%20,5.1,-1.70&target=+1",
            "v=1&lesson=softmax",
        ),
        (
            LessonId::Shapes,
            "batch_first=1&cell=Rnn&input_size=1e1&seq_len=3.0",
            "v=1&lesson=shapes",
        ),
        (
            LessonId::Bidir,
            "tokens=%E6%88%91,%E7%88%B1,%E4%B8%AD%E5%9B%BD",
            "v=1&lesson=bidir",
        ),
        (
            LessonId::Bidir,
            "tokens= a , b ",
            "v=1&lesson=bidir&tokens=a,b",
        ),
    ];
    for (id, q, want) in cases {
        let (state, _) = decode(id, q);
        assert_eq!(state.encode(None), want, "{q}");
        let (again, notices) = decode(id, want);
        assert_eq!(again, state);
        assert!(notices.is_empty(), "{want}: {notices:?}");
    }
}

/// Every field of every lesson, fed each hostile value: the page state stays within range
/// (re-encoding and decoding gives no notice), the field is named in a notice, nothing panics.
#[test]
fn hostile_values_in_every_field_are_reported_and_contained() {
    let hostile = [
        "NaN",
        "nan",
        "Infinity",
        "-Infinity",
        "1e309",
        "-1e309",
        "10%5E12",
        "1000000000000",
        "-1000000000000",
        "-5",
        "99999999999999999999999999",
        "%zz",
        "%E4%B8",
        "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
        "<img src=x onerror=alert(1)>",
        "",
        ",,,",
        "1,NaN,2",
    ];
    for id in LessonId::ALL {
        for spec in id.fields() {
            for raw in hostile {
                let q = format!("v=1&lesson={}&{}={raw}", id.as_str(), spec.key);
                let (state, notices) = decode(id, &q);
                let canonical = state.encode(None);
                let (again, renotices) = decode(id, &canonical);
                assert_eq!(again, state, "{q}");
                assert!(renotices.is_empty(), "{q} → {canonical}: {renotices:?}");
                // Values that are legitimately in range for this field: any text for a token
                // list, and −5 where the range reaches it.
                let accepted = match (spec.kind, raw) {
                    (FieldKind::TextList { .. }, _) => !raw.is_empty() && !raw.contains(",,"),
                    (FieldKind::Float { min, .. } | FieldKind::FloatList { min, .. }, "-5") => {
                        min <= -5.0
                    }
                    _ => false,
                };
                if !accepted {
                    assert!(
                        notices.iter().any(|n| n.field == spec.key),
                        "{q}: no notice for {} in {notices:?}",
                        spec.key
                    );
                }
                for n in &notices {
                    assert!(n.raw.chars().count() <= query::MAX_RAW_CHARS + 1);
                }
            }
        }
    }
}

#[test]
fn specific_clamps_and_defaults() {
    let (s, n) = decode(
        LessonId::Shapes,
        "input_size=-5&hidden_size=1000000000000&num_layers=9&seq_len=0&batch=1e309",
    );
    let LessonState::Shapes(c) = s else { panic!() };
    assert_eq!(
        (
            c.input_size,
            c.hidden_size,
            c.num_layers,
            c.seq_len,
            c.batch
        ),
        (1, 4096, 8, 1, 1)
    );
    assert_eq!(n.len(), 5);
    assert!(
        matches!(n[4].kind, NoticeKind::Invalid { .. }),
        "1e309 is not a number: default"
    );

    let (s, n) = decode(
        LessonId::Unroll,
        "w_xh=NaN&w_hh=Infinity&b=1e309&h0=-4&x=1,2,99,-99&t=50",
    );
    let LessonState::Unroll(c) = s else { panic!() };
    assert_eq!((c.w_xh, c.w_hh, c.b, c.h0), (0.5, 1.0, 0.0, -3.0));
    assert_eq!(c.x, vec![1.0, 2.0, 5.0, -5.0]);
    assert_eq!(
        c.t, 4,
        "t is clamped to 1–12 and then to the number of inputs"
    );
    // One notice for t: the value as written, the range that applies, the value used.
    let keys: Vec<&str> = n.iter().map(|n| n.field.as_str()).collect();
    assert_eq!(keys, ["w_xh", "w_hh", "b", "h0", "x", "t"]);
    assert_eq!(n[5].raw, "50");
    assert_eq!(
        n[5].kind,
        NoticeKind::Clamped {
            range: Accepted::Tied {
                min: 1.0,
                max: 4.0,
                rule: TiedBy::OnePerInput
            },
            to: "4".into()
        }
    );
    assert_eq!(
        n[5].to_string(),
        "t: “50” is outside 1–4 (one per input); using 4"
    );

    let (s, n) = decode(LessonId::Softmax, "logits=1,2&target=5");
    let LessonState::Softmax(c) = s else { panic!() };
    assert_eq!(c.target, 1);
    assert_eq!(
        n,
        vec![UrlNotice {
            field: "target".into(),
            raw: "5".into(),
            kind: NoticeKind::Clamped {
                range: Accepted::Tied {
                    min: 0.0,
                    max: 1.0,
                    rule: TiedBy::OnePerLogit
                },
                to: "1".into()
            }
        }]
    );

    let (s, n) = decode(LessonId::Lstm, "f=0.9,0.3,0.5&o=2");
    let LessonState::Lstm(c) = s else { panic!() };
    assert_eq!((c.f.len(), c.i.len(), c.g.len(), c.o.len()), (3, 3, 3, 3));
    assert_eq!(c.i, vec![0.5, 0.9, 0.5], "shorter lists repeat cyclically");
    assert_eq!(c.o, vec![1.0, 1.0, 1.0]);
    let keys: Vec<&str> = n.iter().map(|n| n.field.as_str()).collect();
    assert_eq!(keys, ["o", "i", "g", "o"]);
    // A list shorter than the others is repeated, not out of range: the notice says so.
    assert_eq!(
        n[1],
        UrlNotice {
            field: "i".into(),
            raw: "0.5,0.9".into(),
            kind: NoticeKind::Cycled {
                steps: 3,
                to: "0.5,0.9,0.5".into()
            }
        }
    );
    assert_eq!(
        n[1].to_string(),
        "i: “0.5,0.9” has 2 values for 3 steps; repeated to “0.5,0.9,0.5”"
    );

    let (s, n) = decode(LessonId::Lstm, "f=0.5");
    let LessonState::Lstm(c) = s else { panic!() };
    assert_eq!(c.f, vec![0.5, 0.5]);
    assert_eq!(n.len(), 1, "{n:?}");
    assert_eq!(
        n[0].kind,
        NoticeKind::Cycled {
            steps: 2,
            to: "0.5,0.5".into()
        }
    );
    assert_eq!(
        n[0].to_string(),
        "f: “0.5” has 1 value for 2 steps; repeated to “0.5,0.5”"
    );
    assert!(!n[0].to_string().contains("outside"));

    let (s, _) = decode(LessonId::Gru, "z=-0.5&n=7&convention=PyTorch");
    let LessonState::Gru(c) = s else { panic!() };
    assert_eq!((c.z, c.n, c.convention), (0.0, 1.0, GruConvention::Pytorch));
}

#[test]
fn repeated_keys_last_one_wins() {
    let (s, n) = decode(LessonId::Bptt, "w_hh=0.5&w_hh=2&steps=5&steps=NaN");
    let LessonState::Bptt(c) = s else { panic!() };
    assert_eq!((c.w_hh, c.steps), (2.0, 3));
    assert_eq!(
        n[0],
        UrlNotice {
            field: "w_hh".into(),
            raw: "0.5".into(),
            kind: NoticeKind::Repeated { used: "2".into() }
        }
    );
    assert!(matches!(n[1].kind, NoticeKind::Repeated { .. }));
    assert!(matches!(n[2].kind, NoticeKind::Invalid { .. }));
}

#[test]
fn newer_version_gives_defaults_and_a_notice() {
    for id in LessonId::ALL {
        let q = format!("v=99&lesson={}&x=1,2", id.as_str());
        let (s, n) = decode(id, &q);
        assert_eq!(s, LessonState::default_for(id));
        assert_eq!(n[0].kind, NoticeKind::NewerVersion);
        assert!(n[0].to_string().contains("newer version"));
        assert!(n
            .iter()
            .any(|n| n.field == "x" && n.kind == NoticeKind::IgnoredNewerVersion));
    }
}

#[test]
fn unknown_keys_and_lessons() {
    let (s, n) = decode(LessonId::Gru, "v=1&lesson=gru&foo=1&w_ih=3");
    assert_eq!(s, LessonState::default_for(LessonId::Gru));
    assert_eq!(
        n.iter()
            .filter(|n| n.kind == NoticeKind::UnknownKey)
            .count(),
        2
    );

    assert_eq!(route(""), Route::Index);
    assert_eq!(route("?v=1"), Route::Index);
    assert_eq!(route("lesson=index"), Route::Index);
    assert_eq!(route("lesson=names"), Route::Training);
    assert_eq!(route("lesson=LSTM"), Route::Lesson(LessonId::Lstm));
    assert_eq!(
        route("lesson=unroll&lesson=gru"),
        Route::Lesson(LessonId::Gru),
        "the last one wins"
    );
    let raw = "<img src=x onerror=alert(1)>";
    assert_eq!(route(&format!("lesson={raw}")), Route::Unknown(raw.into()));
    let notice = unknown_lesson_notice(&"z".repeat(1000));
    assert_eq!(notice.raw.chars().count(), query::MAX_RAW_CHARS + 1);
    assert!(
        unknown_lesson_notice(raw).to_string().contains(raw),
        "the raw text is kept verbatim for text rendering"
    );
    // The notice names the index as what is shown instead (each language words it), and the
    // English sentence is unchanged.
    assert!(matches!(
        unknown_lesson_notice("foo").kind,
        NoticeKind::Invalid {
            default: Fallback::LessonIndex,
            ..
        }
    ));
    assert_eq!(
        unknown_lesson_notice("foo").to_string(),
        "lesson: “foo” is not valid (expected unroll, shapes, bptt, lstm, gru, bidir, softmax, \
         parallel, names, delay, generate); showing the index"
    );
}

#[test]
fn the_index_lists_unknown_keys_a_bad_version_and_an_unknown_lesson() {
    assert_eq!(index_notices(""), vec![]);
    assert_eq!(index_notices("v=1&lang=zh"), vec![]);
    assert_eq!(index_notices("?v=1&lesson=index"), vec![]);
    let n = index_notices("v=1&hidden_size=64&foo=bar");
    let fields: Vec<_> = n.iter().map(|n| (n.field.as_str(), &n.kind)).collect();
    assert_eq!(
        fields,
        vec![
            ("hidden_size", &NoticeKind::UnknownKey),
            ("foo", &NoticeKind::UnknownKey)
        ]
    );
    let n = index_notices("v=x&lesson=nope&w=1");
    assert_eq!(n.len(), 3, "{n:?}");
    assert_eq!(
        n[0],
        unknown_lesson_notice("nope"),
        "the unknown lesson first"
    );
    assert_eq!(n[1].kind, NoticeKind::BadVersion);
    assert_eq!(
        (n[2].field.as_str(), &n[2].kind),
        ("w", &NoticeKind::UnknownKey)
    );
}

#[test]
fn bytes_that_are_not_utf8_give_a_notice() {
    let (state, notices) = decode(LessonId::Bidir, "v=1&lesson=bidir&tokens=%FF%FE");
    let utf8: Vec<_> = notices
        .iter()
        .filter(|n| n.kind == NoticeKind::NotUtf8)
        .collect();
    assert_eq!(utf8.len(), 1, "{notices:?}");
    assert_eq!(utf8[0].field, "tokens");
    assert_eq!(utf8[0].raw, "\u{FFFD}\u{FFFD}");
    assert!(utf8[0].to_string().contains("not UTF-8"));
    // The page still opens with a state every field of which is in range.
    let again = LessonState::decode(LessonId::Bidir, &state.encode(None));
    assert!(again.notices.is_empty(), "{:?}", again.notices);
    // Valid UTF-8, percent-encoded or not, and a literal U+FFFD give no such notice.
    for q in [
        "tokens=%E4%BD%A0,b",
        "tokens=a+b,c",
        "tokens=%EF%BF%BD,b",
        "tokens=%zz,b",
    ] {
        let (_, n) = decode(LessonId::Bidir, q);
        assert!(
            !n.iter().any(|n| n.kind == NoticeKind::NotUtf8),
            "{q}: {n:?}"
        );
    }
    // A bad key is named as read.
    let n = index_notices("%FF=1");
    assert_eq!(n[0].kind, NoticeKind::NotUtf8);
    assert_eq!(n[0].field, "\u{FFFD}");
}

#[test]
fn html_tokens_stay_text_and_are_cut_to_16_characters() {
    let raw = "<img src=x onerror=alert(1)>";
    for q in [
        format!("tokens={raw},b"),
        "tokens=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E,b".to_owned(),
    ] {
        let (s, n) = decode(LessonId::Bidir, &q);
        let LessonState::Bidir(c) = s else { panic!() };
        assert_eq!(
            c.tokens,
            vec!["<img src=x onerr".to_owned(), "b".to_owned()],
            "{q}"
        );
        assert_eq!(n.len(), 1);
        assert!(matches!(n[0].kind, NoticeKind::Clamped { .. }));
        // The canonical URL percent-encodes the markup.
        let canonical = LessonState::Bidir(c).encode(None);
        assert!(
            !canonical.contains('<') && !canonical.contains(' '),
            "{canonical}"
        );
    }
}

#[test]
fn nothing_allocates_beyond_the_slider_maxima() {
    let long_list = vec!["1"; 1_000_000].join(",");
    let (s, n) = decode(LessonId::Unroll, &format!("x={long_list}"));
    let LessonState::Unroll(c) = s else { panic!() };
    assert_eq!(c.x.len(), 12);
    assert_eq!(n[0].kind, NoticeKind::ListTruncated { max_len: 12 });

    let (s, _) = decode(LessonId::Bptt, &format!("x={long_list}&steps=1e12"));
    let LessonState::Bptt(c) = s else { panic!() };
    assert_eq!((c.x.len(), c.steps), (100, 100));

    let (s, _) = decode(LessonId::Lstm, &format!("f={long_list}&n=1000000"));
    let LessonState::Lstm(c) = s else { panic!() };
    assert_eq!((c.f.len(), c.i.len(), c.n), (30, 30, 30));

    let (s, _) = decode(LessonId::Softmax, &format!("logits={long_list}"));
    let LessonState::Softmax(c) = s else { panic!() };
    assert_eq!(c.logits.len(), 10);

    let many_tokens = vec!["词"; 100_000].join(",");
    let huge_token = "长".repeat(100_000);
    let (s, _) = decode(LessonId::Bidir, &format!("tokens={many_tokens}"));
    let LessonState::Bidir(c) = s else { panic!() };
    assert_eq!(c.tokens.len(), 12);
    let (s, _) = decode(LessonId::Bidir, &format!("tokens={huge_token}"));
    let LessonState::Bidir(c) = s else { panic!() };
    assert_eq!(c.tokens, vec!["长".repeat(16)]);

    let (s, _) = decode(LessonId::Parallel, "max_len=1e12&hidden_size=-1");
    assert_eq!(
        s,
        LessonState::Parallel(ParallelConfig {
            cell: CellKind::Lstm,
            hidden_size: 8,
            max_len: 512
        })
    );

    // Thousands of bad keys: the notice list is capped.
    let q: String = (0..5000).map(|i| format!("k{i}=NaN&")).collect();
    let (_, n) = decode(LessonId::Gru, &q);
    assert_eq!(n.len(), MAX_NOTICES);
}

#[test]
fn docs_url_md_lists_every_lesson_key() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/url.md"))
        .expect("docs/url.md");
    for id in LessonId::ALL {
        let table = markdown_table(id.fields());
        assert!(
            doc.contains(&format!("`lesson={}`", id.as_str())),
            "docs/url.md has no section for {}",
            id.as_str()
        );
        assert!(
            doc.contains(&table),
            "docs/url.md is out of date; the {} table is:\n{table}",
            id.as_str()
        );
    }
}

/// The LSTM lesson's `t` is read against the step count of its mode: the gate lists' length,
/// `n` of the run mode, or the number of inputs of the weights mode.
#[test]
fn lstm_time_step_is_clamped_per_mode() {
    let cases = [
        (
            "f=0.9,0.3,0.5&i=0.5,0.9,0.1&g=0.8,-0.6,0.2&o=0.4,0.7,0.3&t=3",
            3,
            0,
        ),
        ("t=5", 2, 1),
        ("mode=run&n=25&t=25", 25, 0),
        ("mode=run&n=10&t=25", 10, 1),
        ("mode=weights&x=1,2,3,4&t=4", 4, 0),
        ("mode=weights&x=1,2&t=30", 2, 1),
        // 99 is past t's own range (1–30) and past the mode's 3 steps: one notice, 99 → 3.
        ("mode=weights&t=99", 3, 1),
    ];
    for (q, t, notices) in cases {
        let (s, n) = decode(LessonId::Lstm, q);
        let LessonState::Lstm(c) = s else { panic!() };
        assert_eq!(c.t, t, "{q}");
        assert_eq!(c.step_shown(), t, "{q}");
        assert_eq!(c.t, c.steps().min(c.t), "{q}");
        assert_eq!(n.len(), notices, "{q}: {n:?}");
        if notices > 0 {
            let last = n.last().unwrap();
            assert_eq!(last.field, "t");
            assert_eq!(
                last.raw,
                q.rsplit_once("t=").unwrap().1,
                "{q}: the value as written"
            );
            assert!(
                matches!(&last.kind, NoticeKind::Clamped { to, range } if *to == c.steps().to_string() && range.to_string().contains(c.mode.as_str())),
                "{q}: {last:?}"
            );
        }
        let back = LessonState::Lstm(c.clone()).encode(None);
        assert_eq!(
            decode(LessonId::Lstm, &back).0,
            LessonState::Lstm(c),
            "{back}"
        );
    }
}

/// The bidirectional lesson's `t`: 0 (the default) is the last token, larger values are
/// clamped to the number of tokens with a notice; setting the last position writes 0.
#[test]
fn bidir_time_step_round_trips_and_clamps() {
    let (s, n) = decode(LessonId::Bidir, "tokens=a,b,c,d&t=2");
    let LessonState::Bidir(mut c) = s else {
        panic!()
    };
    assert!(n.is_empty());
    assert_eq!((c.t, c.step_shown()), (2, 2));
    assert_eq!(
        LessonState::Bidir(c.clone()).encode(None),
        "v=1&lesson=bidir&tokens=a,b,c,d&t=2"
    );
    c.set_step(4);
    assert_eq!((c.t, c.step_shown()), (0, 4));
    assert_eq!(
        LessonState::Bidir(c.clone()).encode(None),
        "v=1&lesson=bidir&tokens=a,b,c,d"
    );
    c.set_step(1);
    assert_eq!(c.step_shown(), 1);

    let (s, n) = decode(LessonId::Bidir, "t=7");
    let LessonState::Bidir(c) = s else { panic!() };
    assert_eq!(
        (c.t, c.step_shown()),
        (3, 3),
        "the default sentence has 3 tokens"
    );
    assert_eq!(n.len(), 1);
    assert_eq!(
        n[0].kind,
        NoticeKind::Clamped {
            range: Accepted::Tied {
                min: 0.0,
                max: 3.0,
                rule: TiedBy::OnePerTokenZeroLast
            },
            to: "3".into()
        }
    );
}

/// A page's canonical query may be written only into an entry that shows that page.
#[test]
fn same_page_compares_what_an_entry_shows() {
    // The training page with other settings, or another language: the same page.
    assert!(same_page(
        "v=1&lesson=names&hidden_size=16&lang=zh",
        "v=1&lesson=names&lang=en"
    ));
    assert!(same_page("v=1&lesson=gru&z=0.9", "lesson=GRU"));
    // An unknown lesson shows the index, so the index may make it canonical.
    assert!(same_page("v=1&lesson=foo", "v=1&lang=zh"));
    assert!(same_page("", "lesson=index"));
    // Every pair of different pages differs.
    let mut pages: Vec<String> = vec![
        "v=1&lang=zh".into(),
        "v=1&lesson=names&hidden_size=16".into(),
        "v=1&lesson=delay&delay=64".into(),
    ];
    pages.extend(
        LessonId::ALL
            .into_iter()
            .map(|id| LessonState::default_for(id).encode(Some(Lang::Zh))),
    );
    for (i, a) in pages.iter().enumerate() {
        for (j, b) in pages.iter().enumerate() {
            assert_eq!(same_page(a, b), i == j, "{a} vs {b}");
        }
    }
}

#[test]
fn quiz_off_round_trips_on_every_lesson() {
    for (state, canonical) in every_field_changed() {
        let id = state.id();
        let off = query::with_quiz(state.encode(Some(Lang::Zh)), false);
        assert_eq!(off, format!("{canonical}&lang=zh&quiz=0"));
        assert!(!query::quiz_on(&off));
        let d = LessonState::decode(id, &off);
        assert_eq!((&d.config, d.lang), (&state, Some(Lang::Zh)));
        assert!(d.notices.is_empty(), "{off}: {:?}", d.notices);
        assert_eq!(
            query::with_quiz(d.config.encode(d.lang), query::quiz_on(&off)),
            off
        );
        // On is the default and is not written.
        let on = query::with_quiz(state.encode(None), true);
        assert_eq!(on, canonical);
        assert!(query::quiz_on(&on));
        assert!(query::quiz_on(&format!("{on}&quiz=1")));
    }
    // An unreadable value leaves the questions on, with a notice; the last `quiz` wins.
    let q = "v=1&lesson=gru&quiz=no";
    assert!(query::quiz_on(q));
    let (_, notices) = decode(LessonId::Gru, q);
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].field, "quiz");
    assert!(!query::quiz_on("v=1&lesson=gru&quiz=1&quiz=0"));
    assert!(index_notices("v=1&quiz=0").is_empty());
}

#[test]
fn embed_round_trips_on_every_lesson() {
    for (state, canonical) in every_field_changed() {
        let id = state.id();
        let query = query::with_embed(query::with_quiz(state.encode(Some(Lang::Zh)), false), true);
        assert_eq!(query, format!("{canonical}&lang=zh&quiz=0&embed=1"));
        assert!(query::embed_on(&query));
        let d = LessonState::decode(id, &query);
        assert_eq!((&d.config, d.lang), (&state, Some(Lang::Zh)));
        assert!(d.notices.is_empty(), "{query}: {:?}", d.notices);
        // The full page's link: the same state, without `embed`.
        assert_eq!(
            query::without_embed(&query),
            format!("{canonical}&lang=zh&quiz=0")
        );
        // Off is the default and is not written.
        assert_eq!(query::with_embed(state.encode(None), false), canonical);
        assert!(!query::embed_on(canonical));
    }
    // An unreadable value gives the full page, with a notice; the last `embed` wins.
    let q = "v=1&lesson=lstm&embed=yes";
    assert!(!query::embed_on(q));
    let (_, notices) = decode(LessonId::Lstm, q);
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].field, "embed");
    assert!(query::embed_on("v=1&lesson=lstm&embed=0&embed=1"));
    assert!(!query::embed_on("v=1&lesson=lstm&embed=1&embed=0"));
    assert_eq!(
        query::without_embed("?v=1&embed=1&lesson=gru&embed=0&t=3"),
        "v=1&lesson=gru&t=3"
    );
    assert!(index_notices("v=1&embed=1").is_empty());
}
