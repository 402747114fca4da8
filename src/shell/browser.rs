//! Browser plumbing for the keep panels: reading chosen files, saving bytes as a download,
//! and the `window.unrollDebug` test hook.

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// A chosen file the browser could not read.
#[derive(Clone, Debug, PartialEq)]
pub struct Unreadable {
    /// The file's name.
    pub file: String,
    /// The browser's own words (for a tooltip).
    pub detail: String,
}

/// The files chosen in `input`, as `(name, bytes)` in the order given.
///
/// Errors: the file that could not be read and why.
pub async fn read_files(
    input: &web_sys::HtmlInputElement,
) -> Result<Vec<(String, Vec<u8>)>, Unreadable> {
    let Some(list) = input.files() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(list.length() as usize);
    for i in 0..list.length() {
        let Some(file) = list.get(i) else { continue };
        let name = file.name();
        let buffer = JsFuture::from(file.array_buffer())
            .await
            .map_err(|e| Unreadable {
                file: name.clone(),
                detail: js_message(&e),
            })?;
        out.push((name, Uint8Array::new(&buffer).to_vec()));
    }
    Ok(out)
}

/// Offers `bytes` as a download named `file_name`.
///
/// Errors: the browser's message when a Blob or object URL cannot be made.
pub fn download(bytes: &[u8], file_name: &str, mime: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let parts = Array::new();
    parts.push(&Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(|e| js_message(&e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| js_message(&e))?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|e| js_message(&e))?
        .dyn_into()
        .map_err(|_| "not an anchor".to_owned())?;
    anchor.set_href(&url);
    anchor.set_download(file_name);
    anchor.set_attribute("style", "display:none").ok();
    if let Some(body) = document.body() {
        body.append_child(&anchor).ok();
        anchor.click();
        body.remove_child(&anchor).ok();
    } else {
        anchor.click();
    }
    // Chromium has started the download by now; the URL is released a little later.
    let revoke = Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    let _ = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 10_000);
    Ok(())
}

/// Sets `window.unrollDebug[name]` to `hook` (called with the hook's first argument,
/// `undefined` when none; it returns whether a session got the request). Other keys of an
/// existing `window.unrollDebug` are kept.
pub fn install_debug_hook(name: &str, hook: impl Fn(JsValue) -> bool + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let key = JsValue::from_str("unrollDebug");
    let debug = Reflect::get(&window, &key)
        .ok()
        .filter(|v| v.is_object())
        .unwrap_or_else(|| Object::new().into());
    let closure = Closure::<dyn Fn(JsValue) -> bool>::new(hook);
    let _ = Reflect::set(&debug, &JsValue::from_str(name), closure.as_ref());
    let _ = Reflect::set(&window, &key, &debug);
    // One closure per page mount; it lives as long as the page.
    closure.forget();
}

/// Writes `text` to the clipboard; `false` where the browser refuses.
pub async fn write_clipboard(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator = window.navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &"clipboard".into()) else {
        return false;
    };
    if clipboard.is_undefined() || clipboard.is_null() {
        return false;
    }
    let Ok(write) = js_sys::Reflect::get(&clipboard, &"writeText".into()) else {
        return false;
    };
    let Some(write) = write.dyn_ref::<js_sys::Function>() else {
        return false;
    };
    let Ok(promise) = write.call1(&clipboard, &text.into()) else {
        return false;
    };
    let Ok(promise) = promise.dyn_into::<js_sys::Promise>() else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}
