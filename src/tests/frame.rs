//! The first frame's texts: the page's heading in the HTML the server sends, drawn by
//! `www/frame.js` before the app's module has arrived, from the table `www/frame-texts.js`.
//! The table is written here from the pages' own texts (the ones the mounted page shows); the
//! test fails when the committed table differs, and `UNROLL_BLESS=1 cargo test -p unroll
//! first_frame` rewrites it.

use serde_json::{json, Map, Value};

use crate::lessons::common_text::CommonText;
use crate::lessons::index::text::IndexText;
use crate::lessons::text::lesson_info;
use crate::names::text::TrainingText;
use crate::sequence::delay::text::DelayText;
use crate::sequence::memory::text::MemoryText;
use crate::sequence::switcher::task_name;
use crate::shell::text::ShellText;
use unroll_core::config::delay::LabTask;
use unroll_core::config::lessons::LessonId;
use unroll_core::config::Lang;

const FILE: &str = "www/frame-texts.js";

/// `{"en": …, "zh": …}` of one text.
fn both(pick: impl Fn(Lang) -> String) -> Value {
    json!({ "en": pick(Lang::En), "zh": pick(Lang::Zh) })
}

/// The page keys `www/frame.js` looks up: `index`, each lesson's `lesson` value, `names`,
/// `delay` and `delay/<task>` for the sequence lab's long-memory tasks, `generate`; `number` is a lesson's place
/// in the course, shown before its title as the lesson's heading does, and `crumb` the last
/// part of the lesson's breadcrumb line.
fn pages() -> Map<String, Value> {
    let mut pages = Map::new();
    let mut page = |key: &str, number: Option<usize>, title: Value| {
        let mut entry = json!({ "title": title });
        if let Some(n) = number {
            entry["number"] = json!(n);
            entry["crumb"] = both(|l| (CommonText::of(l).lesson_n)(&n.to_string()));
        }
        pages.insert(key.to_owned(), entry);
    };
    page("index", None, both(|l| IndexText::of(l).title.into()));
    for id in LessonId::ALL {
        page(
            id.as_str(),
            Some(id.number()),
            both(|l| lesson_info(id, l).title.into()),
        );
    }
    page("names", None, both(|l| TrainingText::of(l).title.into()));
    page("delay", None, both(|l| DelayText::of(l).title.into()));
    for (task, word) in LabTask::ALL.into_iter().zip(LabTask::KEYS) {
        match task {
            LabTask::Delay => {}
            LabTask::Generate => page(word, None, both(|l| task_name(task, l).into())),
            _ => page(
                &format!("delay/{word}"),
                None,
                both(|l| task_name(task, l).into()),
            ),
        }
    }
    pages
}

/// The sequence lab's switcher: `label`, `keys` (the `task` keys in the switcher's order), then
/// one entry per key (`delay`, `adding`, …, `generate`).
fn tasks() -> Value {
    let mut tasks = Map::new();
    tasks.insert("label".into(), both(|l| MemoryText::of(l).switch.into()));
    tasks.insert("keys".into(), json!(LabTask::KEYS));
    for (task, word) in LabTask::ALL.into_iter().zip(LabTask::KEYS) {
        tasks.insert(word.to_owned(), both(|l| task_name(task, l).into()));
    }
    Value::Object(tasks)
}

/// The file's text.
fn table() -> String {
    let table = json!({
        "html_lang": both(|l| ShellText::of(l).html_lang.into()),
        "title": both(|l| ShellText::of(l).doc_title.into()),
        "brand": both(|l| ShellText::of(l).brand_tag.into()),
        "loading": both(|l| ShellText::of(l).loading.into()),
        // The header's links and the lessons' breadcrumb, so that the frame takes the room the
        // page's own header takes at every width.
        "nav": {
            "lessons": both(|l| CommonText::of(l).lessons.into()),
            "names": both(|l| ShellText::of(l).nav_names.into()),
        },
        "all_lessons": both(|l| CommonText::of(l).all_lessons.into()),
        // The sequence lab's task switcher above its heading: its label, then each task's.
        "tasks": tasks(),
        "pages": pages(),
    });
    format!(
        "// The first frame's texts (www/frame.js draws them before the app's module arrives).\n\
         // Written from the pages' own texts by `UNROLL_BLESS=1 cargo test -p unroll first_frame`:\n\
         // do not edit by hand.\n\
         var UNROLL_FRAME = {};\n",
        serde_json::to_string_pretty(&table).expect("a JSON value")
    )
}

#[test]
fn first_frame_texts_are_the_pages_own() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let want = table();
    if std::env::var_os("UNROLL_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write the first frame's table");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{FILE} differs from the pages' texts: run `UNROLL_BLESS=1 cargo test -p unroll first_frame`"
    );
}

#[test]
fn first_frame_covers_every_page_in_both_languages() {
    let pages = pages();
    assert_eq!(
        pages.len(),
        1 + LessonId::ALL.len() + 1 + LabTask::ALL.len()
    );
    assert!(pages.contains_key("generate") && pages.contains_key("delay/order"));
    assert_eq!(pages["lstm"]["number"], json!(LessonId::Lstm.number()));
    assert_eq!(pages["lstm"]["crumb"]["zh"], json!("第 4 课"));
    assert_eq!(tasks()["copy"]["en"], json!("Copy memory"));
    assert_eq!(
        pages["names"]["title"]["zh"],
        json!("这个姓氏来自哪种语言？")
    );
    for (key, page) in &pages {
        for lang in ["en", "zh"] {
            let title = page["title"][lang].as_str().unwrap_or_default();
            assert!(!title.trim().is_empty(), "{key} has a {lang} heading");
        }
    }
}
