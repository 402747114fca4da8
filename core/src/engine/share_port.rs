//! A split run's messages between the engine's worker and its helper workers (wasm only).
//!
//! The page connects them with one `MessageChannel` each ([`crate::engine::worker`] takes the
//! ports), so no share passes through the page's main thread. On each step the engine's
//! worker posts every helper one [`ShareJob`] with the current weights ([`PortHelpers`]) and
//! computes the first share itself; each helper answers with its share's gradient
//! ([`serve`]). A message is a JS array of buffers, all transferred, not copied: the
//! postcard bytes of `(job number, model, divisor)`, the share's rows as a `Uint32Array`
//! ([`rows_to_words`]) and the weights `[P]` as a `Float32Array` one way;
//! the postcard bytes of `(job number, sums)` and the gradient `[P]` the other, in the buffer
//! the weights came in (the engine's worker sends the next weights in it again, so a step
//! allocates no buffer). The only copies are those into and out of each worker's wasm memory.
//!
//! A helper that does not answer within [`HELPER_TIMEOUT_MS`] is given up on for the rest of
//! the run: the engine's worker computes its shares itself, with the same numbers.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures_channel::oneshot;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, MessagePort};

use crate::math::loss::ReadoutSums;
use crate::math::model::SeqModel;
use crate::train::split::{
    rows_from_words, rows_to_words, run_job, Helpers, Pending, ShareGradient, ShareJob, ShareModel,
};

/// Milliseconds the engine's worker waits for a helper's share before it computes the share
/// itself and stops using that helper (a helper that stopped, or a machine so loaded that a
/// share takes this long).
pub const HELPER_TIMEOUT_MS: i32 = 10_000;

/// Models a helper keeps between jobs (compare mode's runs take turns).
const KEPT_MODELS: usize = 4;

type Reply = Rc<RefCell<Option<(u64, oneshot::Sender<Option<ShareGradient>>)>>>;

/// One helper as the engine's worker sees it.
struct Port {
    port: MessagePort,
    /// The job waiting for its answer and where the answer goes.
    reply: Reply,
    /// The buffer of the helper's last answer, `[P]`: the next job's weights go out in it
    /// (one buffer travels back and forth, so a step allocates no new one).
    spare: Rc<RefCell<Option<js_sys::Float32Array>>>,
    alive: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
}

/// The helpers of the engine's worker, one per port (see the module docs).
pub struct PortHelpers {
    ports: Vec<Port>,
    next_job: Cell<u64>,
}

impl PortHelpers {
    /// Helpers on the ports the page connected.
    pub fn new(ports: Vec<MessagePort>) -> PortHelpers {
        let ports = ports
            .into_iter()
            .map(|port| {
                let reply: Reply = Rc::new(RefCell::new(None));
                let spare = Rc::new(RefCell::new(None));
                let (slot, buffer) = (reply.clone(), spare.clone());
                let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                    let answer = read_gradient(&e.data(), &buffer);
                    let mut slot = slot.borrow_mut();
                    if let (Some((id, g)), Some((want, _))) = (answer, slot.as_ref()) {
                        if id == *want {
                            if let Some((_, tx)) = slot.take() {
                                let _ = tx.send(Some(g));
                            }
                        }
                    }
                });
                port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                Port {
                    port,
                    reply,
                    spare,
                    alive: Rc::new(Cell::new(true)),
                    _on_message: on_message,
                }
            })
            .collect();
        PortHelpers {
            ports,
            next_job: Cell::new(1),
        }
    }
}

impl Drop for PortHelpers {
    fn drop(&mut self) {
        for p in &self.ports {
            p.port.set_onmessage(None);
            p.port.close();
        }
    }
}

impl Helpers for PortHelpers {
    fn count(&self) -> usize {
        self.ports.len()
    }

    fn post(&self, k: usize, job: ShareJob, params: &[f32]) -> Pending {
        let Some(p) = self.ports.get(k).filter(|p| p.alive.get()) else {
            return Box::pin(async { None });
        };
        let id = self.next_job.get();
        self.next_job.set(id + 1);
        let (tx, rx) = oneshot::channel();
        *p.reply.borrow_mut() = Some((id, tx));
        let head = js_sys::Uint8Array::from(
            postcard::to_allocvec(&(id, &job.model, job.divisor))
                .expect("postcard encodes every job")
                .as_slice(),
        );
        let rows = js_sys::Uint32Array::from(rows_to_words(&job.rows).as_slice());
        let weights = match p.spare.borrow_mut().take() {
            Some(w) if w.length() as usize == params.len() => {
                w.copy_from(params);
                w
            }
            _ => js_sys::Float32Array::from(params),
        };
        let message = js_sys::Array::of3(&head, &rows, &weights);
        let transfer = js_sys::Array::of3(&head.buffer(), &rows.buffer(), &weights.buffer());
        if p.port
            .post_message_with_transferable(&message, &transfer)
            .is_err()
        {
            p.alive.set(false);
            p.reply.borrow_mut().take();
            return Box::pin(async { None });
        }
        let (reply, alive) = (p.reply.clone(), p.alive.clone());
        let timeout = Closure::once_into_js(move || {
            let mut slot = reply.borrow_mut();
            if slot.as_ref().is_some_and(|(want, _)| *want == id) {
                alive.set(false);
                if let Some((_, tx)) = slot.take() {
                    let _ = tx.send(None);
                }
            }
        });
        let _ = js_sys::global()
            .unchecked_into::<web_sys::DedicatedWorkerGlobalScope>()
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                timeout.unchecked_ref(),
                HELPER_TIMEOUT_MS,
            );
        Box::pin(async move { rx.await.ok().flatten() })
    }
}

/// `(job number, gradient)` of a helper's answer, its buffer kept in `spare` for the next
/// job; `None` for a message that is not one.
fn read_gradient(
    data: &JsValue,
    spare: &RefCell<Option<js_sys::Float32Array>>,
) -> Option<(u64, ShareGradient)> {
    let parts: js_sys::Array = data.clone().dyn_into().ok()?;
    let head: js_sys::Uint8Array = parts.get(0).dyn_into().ok()?;
    let grads: js_sys::Float32Array = parts.get(1).dyn_into().ok()?;
    let (id, sums): (u64, ReadoutSums) = postcard::from_bytes(&head.to_vec()).ok()?;
    let g = ShareGradient {
        grads: grads.to_vec(),
        sums,
    };
    *spare.borrow_mut() = Some(grads);
    Some((id, g))
}

/// A port a helper serves, with its handler.
type Served = (MessagePort, Closure<dyn FnMut(MessageEvent)>);

thread_local! {
    /// The port this worker serves as a helper, with its handler.
    static SERVED: RefCell<Option<Served>> = const { RefCell::new(None) };
    /// The models of the last jobs, newest last.
    static MODELS: RefCell<Vec<(ShareModel, Rc<SeqModel>)>> = const { RefCell::new(Vec::new()) };
}

/// The model of `m`, kept between jobs.
fn model_of(m: &ShareModel) -> Rc<SeqModel> {
    MODELS.with(|kept| {
        let mut kept = kept.borrow_mut();
        if let Some(i) = kept.iter().position(|(k, _)| k == m) {
            let entry = kept.remove(i);
            let model = entry.1.clone();
            kept.push(entry);
            return model;
        }
        let model = Rc::new(m.model());
        if kept.len() >= KEPT_MODELS {
            kept.remove(0);
        }
        kept.push((m.clone(), model.clone()));
        model
    })
}

/// Serves `port` as a helper: answers each job with its share's gradient (see the module
/// docs). A helper serves one engine's worker at a time: a new port replaces the last.
pub fn serve(port: MessagePort) {
    let reply_port = port.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let Some((id, job, buffer)) = read_job(&e.data()) else {
            return;
        };
        let params = buffer.to_vec();
        let model = model_of(&job.model);
        if params.len() != model.param_count() {
            return;
        }
        let g = run_job(&job, &model, &params);
        let head = js_sys::Uint8Array::from(
            postcard::to_allocvec(&(id, g.sums))
                .expect("postcard encodes every sum")
                .as_slice(),
        );
        // The gradient goes back in the weights' buffer (`[P]` both).
        buffer.copy_from(&g.grads);
        let message = js_sys::Array::of2(&head, &buffer);
        let transfer = js_sys::Array::of2(&head.buffer(), &buffer.buffer());
        if reply_port
            .post_message_with_transferable(&message, &transfer)
            .is_ok()
        {
            count_served();
        }
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    let old = SERVED.with(|s| s.borrow_mut().replace((port, on_message)));
    if let Some((old, _)) = old {
        old.set_onmessage(None);
        old.close();
    }
}

/// Adds one to `self.unrollSharesServed`, the shares this worker answered as a helper (the
/// end-to-end tests read it).
fn count_served() {
    let global = js_sys::global();
    let key = JsValue::from_str("unrollSharesServed");
    let n = js_sys::Reflect::get(&global, &key)
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let _ = js_sys::Reflect::set(&global, &key, &JsValue::from_f64(n + 1.0));
}

/// `(job number, job, weights)` of a job message, the weights in their buffer.
fn read_job(data: &JsValue) -> Option<(u64, ShareJob, js_sys::Float32Array)> {
    let parts: js_sys::Array = data.clone().dyn_into().ok()?;
    let head: js_sys::Uint8Array = parts.get(0).dyn_into().ok()?;
    let rows: js_sys::Uint32Array = parts.get(1).dyn_into().ok()?;
    let params: js_sys::Float32Array = parts.get(2).dyn_into().ok()?;
    let (id, model, divisor): (u64, ShareModel, usize) =
        postcard::from_bytes(&head.to_vec()).ok()?;
    let rows = rows_from_words(&rows.to_vec())?;
    Some((
        id,
        ShareJob {
            model,
            rows,
            divisor,
        },
        params,
    ))
}
