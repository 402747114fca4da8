//! The built-in names data set as the pages fetch it: the manifest
//! (`data/names/manifest.json`, written by `scripts/fetch-data.mjs` and shipped by Trunk's
//! `copy-dir`, since HTTP cannot list a folder), then every class file it lists, in parallel,
//! with typed errors the pages word in their language ([`DataLoadError`]; English by
//! [`std::fmt::Display`], Chinese by [`data_failure_zh`]).

use futures_util::future::join_all;
use std::cell::Cell;
use std::fmt;
use std::rc::Rc;
use unroll_core::config::Lang;
use unroll_core::data::names::LoadError;
use unroll_core::data::Manifest;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Folder of the data, relative to the page (so the app also works under a sub-path).
pub const DATA_BASE: &str = "data/names/";

/// The class files a `manifest.json` lists, in order. Errors: what is wrong with it
/// ([`LoadError::BadManifest`]).
pub fn manifest_files(json: &str) -> Result<Vec<String>, LoadError> {
    Manifest::parse(json).map(|m| m.files.into_iter().map(|e| e.file).collect())
}

/// The command that fetches the built-in names data set into `www/data` (`trunk build` runs
/// it too); the missing-data message names it, in both languages, as code.
pub const FETCH_DATA_COMMAND: &str = "node scripts/fetch-data.mjs";

/// Why fetching one of the data set's files failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchProblem {
    /// The server answered with this HTTP status (`404`).
    Status(u16),
    /// The request did not complete (offline, refused); the browser's words.
    Network(String),
    /// The answer's body could not be read as text; the browser's words.
    Body(String),
}

impl fmt::Display for FetchProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchProblem::Status(code) => write!(f, "HTTP {code}"),
            FetchProblem::Network(detail) => write!(f, "the request failed: {detail}"),
            FetchProblem::Body(detail) => write!(f, "its body could not be read: {detail}"),
        }
    }
}

/// Why the built-in names data set did not load in the page. Typed, so that the page says it
/// in its own language; [`fmt::Display`] is the English wording; the browser's and the
/// readers' own words are [`DataLoadError::detail`] (for a tooltip).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataLoadError {
    /// The manifest could not be fetched: the data set is not on the site.
    Missing {
        /// The manifest's URL, relative to the page.
        url: String,
        /// What went wrong.
        problem: FetchProblem,
    },
    /// A class file the manifest lists could not be fetched.
    File {
        /// The file's URL, relative to the page.
        url: String,
        /// What went wrong.
        problem: FetchProblem,
    },
    /// The files give no data set (the loader's error; a malformed manifest too).
    Load(LoadError),
}

impl DataLoadError {
    /// The browser's or the reader's own words, for a tooltip.
    pub fn detail(&self) -> Option<String> {
        match self {
            DataLoadError::Missing { problem, .. } | DataLoadError::File { problem, .. } => {
                match problem {
                    FetchProblem::Status(_) => None,
                    FetchProblem::Network(d) | FetchProblem::Body(d) => Some(d.clone()),
                }
            }
            DataLoadError::Load(LoadError::BadManifest { message }) => Some(message.clone()),
            DataLoadError::Load(LoadError::Io { message, .. }) => Some(message.clone()),
            DataLoadError::Load(_) => None,
        }
    }
}

impl fmt::Display for DataLoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataLoadError::Missing { url, problem } => write!(
                f,
                "The names data set is missing ({url}: {problem}). Run `{FETCH_DATA_COMMAND}` \
                 (a plain `trunk build` does it too) and reload."
            ),
            DataLoadError::File { url, problem } => {
                write!(f, "{url} could not be fetched ({problem}).")
            }
            DataLoadError::Load(e) => write!(f, "{e}."),
        }
    }
}

/// Fetches `url` as text. Errors: the HTTP status, or the browser's words.
pub async fn fetch_text(url: &str) -> Result<String, FetchProblem> {
    let window = web_sys::window().ok_or_else(|| FetchProblem::Network("no window".into()))?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| FetchProblem::Network(js_message(&e)))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| FetchProblem::Network("not a response".into()))?;
    if !response.ok() {
        return Err(FetchProblem::Status(response.status()));
    }
    let text = JsFuture::from(
        response
            .text()
            .map_err(|e| FetchProblem::Body(js_message(&e)))?,
    )
    .await
    .map_err(|e| FetchProblem::Body(js_message(&e)))?;
    text.as_string()
        .ok_or_else(|| FetchProblem::Body("not text".into()))
}

fn js_message(e: &wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Fetches the manifest and every class file it lists, reporting progress through
/// `progress(done, total)` (`total` is 0 until the manifest is read): `(file name, text)` in
/// the manifest's order.
///
/// # Errors
/// The manifest is missing, malformed, or a class file could not be fetched.
pub async fn fetch_files(
    progress: impl Fn(usize, usize) + 'static,
) -> Result<Vec<(String, String)>, DataLoadError> {
    let manifest_url = format!("{DATA_BASE}manifest.json");
    let manifest = fetch_text(&manifest_url)
        .await
        .map_err(|problem| DataLoadError::Missing {
            url: manifest_url.clone(),
            problem,
        })?;
    let files = manifest_files(&manifest).map_err(DataLoadError::Load)?;
    let total = files.len();
    progress(0, total);
    let done = Rc::new(Cell::new(0usize));
    let progress = Rc::new(progress);
    let fetches = files.iter().map(|file| {
        let done = done.clone();
        let progress = progress.clone();
        async move {
            let url = format!("{DATA_BASE}{file}");
            let text = fetch_text(&url).await;
            done.set(done.get() + 1);
            progress(done.get(), total);
            text.map(|t| (file.clone(), t))
                .map_err(|problem| DataLoadError::File { url, problem })
        }
    });
    let texts = join_all(fetches)
        .await
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    Ok(texts)
}

/// [`FetchProblem`] in Chinese.
pub fn fetch_problem_zh(p: &FetchProblem) -> String {
    match p {
        FetchProblem::Status(code) => format!("服务器返回状态 {code}"),
        FetchProblem::Network(_) => "请求没有完成".into(),
        FetchProblem::Body(_) => "无法读取返回的内容".into(),
    }
}

/// [`DataLoadError`] in Chinese.
pub fn data_failure_zh(e: &DataLoadError) -> String {
    match e {
        DataLoadError::Missing { url, problem } => format!(
            "姓名数据集缺失（{url}：{}）。请运行 `{FETCH_DATA_COMMAND}`（直接运行 `trunk build` 也会获取数据），然后重新加载页面。",
            fetch_problem_zh(problem)
        ),
        DataLoadError::File { url, problem } => {
            format!("无法获取 {url}（{}）。", fetch_problem_zh(problem))
        }
        DataLoadError::Load(e) => format!("{}。", crate::kit::keep_text::load_error_zh(e)),
    }
}

/// The display name of a language class (the class files' English stems) in `lang`; unknown
/// classes (own data later) are shown as they are.
pub fn language_name(lang: Lang, class: &str) -> String {
    if lang == Lang::En {
        return class.to_owned();
    }
    let zh = match class {
        "Arabic" => "阿拉伯语",
        "Chinese" => "汉语",
        "Czech" => "捷克语",
        "Dutch" => "荷兰语",
        "English" => "英语",
        "French" => "法语",
        "German" => "德语",
        "Greek" => "希腊语",
        "Irish" => "爱尔兰语",
        "Italian" => "意大利语",
        "Japanese" => "日语",
        "Korean" => "韩语",
        "Polish" => "波兰语",
        "Portuguese" => "葡萄牙语",
        "Russian" => "俄语",
        "Scottish" => "苏格兰语",
        "Spanish" => "西班牙语",
        "Vietnamese" => "越南语",
        other => other,
    };
    zh.to_owned()
}
