//! Work that follows a change one task later, so one update of the page does not become one
//! long task. The engine's events are applied once per animation frame; a panel that builds
//! much from them (the inspector's traces and maps, the metrics' table and confusion matrix)
//! reads a [`deferred`] copy and does its part in a task of its own.
//!
//! Work that a change makes necessary but that the user does not look at in that instant (the
//! URL, `<html lang>`, the confusion matrix's labels) waits [`after_paint`]: the frame that
//! answers the click or key is drawn first.

use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

/// A copy of what `source` returns that follows it in a later task: after a change, the copy
/// is set from a zero-delay timer, once for any number of changes before that timer runs.
/// Starts with `source`'s value now (and is set again one task after it is made).
pub fn deferred<T, S>(source: S) -> ReadSignal<T, LocalStorage>
where
    T: Clone + 'static,
    S: Fn() -> T + Clone + 'static,
{
    copy_later(source, |f| set_timeout(f, Duration::ZERO), |_, _| false)
}

/// A copy of `source` set by the callback that `schedule` runs later, once for any number of
/// changes before it runs; not set when `same` says the new value equals the copy.
fn copy_later<T, S>(
    source: S,
    schedule: fn(Box<dyn FnOnce()>),
    same: fn(&T, &T) -> bool,
) -> ReadSignal<T, LocalStorage>
where
    T: Clone + 'static,
    S: Fn() -> T + Clone + 'static,
{
    let copy = RwSignal::new_local(source());
    let waiting = Rc::new(Cell::new(false));
    let read = source.clone();
    Effect::new(move |_| {
        // Tracks the source. The first run also schedules a copy: the source may have changed
        // between the copy's creation and the effect's first run.
        let _ = read();
        if waiting.replace(true) {
            return;
        }
        let (waiting, source) = (waiting.clone(), source.clone());
        schedule(Box::new(move || {
            waiting.set(false);
            // The panel (and the copy with it) may have left the page since.
            if copy.is_disposed() {
                return;
            }
            let value = untrack(&source);
            if !copy.with_untracked(|c| same(c, &value)) {
                copy.set(value);
            }
        }));
    });
    copy.read_only()
}

/// How many of the `parts` of a view to show: 0 while `ready` gives `false`; once it gives
/// `true`, one more in each following task until all `parts` are shown. A panel that builds
/// much when it first fills shows its parts as they come, each built in a task of its own.
pub fn staged<R>(ready: R, parts: usize) -> ReadSignal<usize, LocalStorage>
where
    R: Fn() -> bool + 'static,
{
    let shown = RwSignal::new_local(0usize);
    // Whether a timer for the next part is waiting.
    let waiting = Rc::new(Cell::new(false));
    fn next(shown: RwSignal<usize, LocalStorage>, parts: usize, waiting: Rc<Cell<bool>>) {
        if waiting.replace(true) {
            return;
        }
        set_timeout(
            move || {
                waiting.set(false);
                // The panel may have left the page, or emptied, since.
                let Some(now) = shown.try_get_untracked() else {
                    return;
                };
                if now == 0 || now >= parts {
                    return;
                }
                shown.set(now + 1);
                if now + 1 < parts {
                    next(shown, parts, waiting);
                }
            },
            Duration::ZERO,
        );
    }
    Effect::new(move |_| {
        if !ready() {
            if shown.get_untracked() != 0 {
                shown.set(0);
            }
            return;
        }
        if shown.get_untracked() == 0 {
            shown.set(1);
            if parts > 1 {
                next(shown, parts, waiting.clone());
            }
        }
    });
    shown.read_only()
}

/// Runs `f` after the next frame is drawn: from a zero-delay timer set in the next animation
/// frame's callback, so the frame's style, layout and paint come first. A hidden tab draws no
/// frames: `f` then waits until the tab shows again.
pub fn after_paint(f: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(f, Duration::ZERO));
}

/// A copy of what `source` returns that follows it [`after_paint`]: once for any number of
/// changes before that frame. Starts with `source`'s value now. A part of the page that reads
/// the copy changes a frame after the parts that read `source`.
pub fn after_paint_copy<T, S>(source: S) -> ReadSignal<T, LocalStorage>
where
    T: Clone + PartialEq + 'static,
    S: Fn() -> T + Clone + 'static,
{
    copy_later(source, after_paint, T::eq)
}

/// Resolves in a task of its own (a zero-delay timer): an async job that awaits it ends the
/// task it ran in, so what it did before and what it does after are two tasks, with the page
/// free to draw between them.
pub async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Mounts its children in a task of its own, after the one that made it: each `Later` sets
/// its own zero-delay timer, so the parts of a page wrapped in it are built one per task, in
/// the order they were made, and the page's first render stays short.
#[component]
pub fn Later(children: Children) -> impl IntoView {
    let ready = RwSignal::new_local(false);
    set_timeout(
        move || {
            // The part may have left the page before its turn.
            let _ = ready.try_set(true);
        },
        Duration::ZERO,
    );
    let children = StoredValue::new_local(Some(children));
    move || {
        ready
            .get()
            .then(|| {
                children
                    .try_update_value(Option::take)
                    .flatten()
                    .map(|c| c())
            })
            .flatten()
    }
}
