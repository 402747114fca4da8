//! The page's side of the training engine's Web Worker ([`unroll_core::engine`]).
//!
//! One worker per document, started by the app shell ([`EngineClient::start`]) and kept for
//! the document's life, so switching pages inside the app never stops a run. Sessions are
//! numbered here; their reports are gathered and handed to the session's listener once per
//! animation frame (or after [`APPLY_LATE_MS`] when the tab draws no frames, e.g. hidden).
//!
//! The worker script (`engine-worker.js`, copied by Trunk) runs the page's own module: its first
//! message holds the hashed glue's URL (read from the preload link Trunk writes into
//! `index.html`) and the page's compiled `WebAssembly.Module`, which the worker instantiates
//! without compiling it again.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use futures_channel::oneshot;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use unroll_core::data::names::NamesDataset;
use unroll_core::data::split::SplitCounts;
use unroll_core::data::upload::{UploadError, UploadSummary};
use unroll_core::engine::generate::{GenerateError, GenerateJob};
use unroll_core::engine::protocol::{
    decode, encode, Command, DataId, EngineFault, FileBytes, LabEvent, Report, SessionId,
    TrainRequest, UploadEvent,
};
use unroll_core::task::generate::sample::{Quality, Sampled};
use unroll_core::train::messages::TrainError;

/// Milliseconds after which reports are applied even when no animation frame came.
pub const APPLY_LATE_MS: i32 = 100;

/// Where a session's reports go.
enum Listener {
    Lab(Box<dyn FnMut(LabEvent)>),
    Upload(Box<dyn FnMut(UploadEvent)>),
    Split(Box<dyn FnMut(Option<SplitCounts>)>),
    Sample(Box<dyn FnMut(Result<Sampled, GenerateError>)>),
    Quality(Box<dyn FnMut(Result<Quality, GenerateError>)>),
}

/// A data set kept by the engine's worker (an upload parsed there). When the last handle is
/// dropped the worker forgets it.
#[derive(Debug)]
pub struct EngineData {
    id: DataId,
}

impl EngineData {
    /// Its number in the worker.
    pub fn id(&self) -> DataId {
        self.id
    }
}

impl Drop for EngineData {
    fn drop(&mut self) {
        EngineClient::get().send(vec![Command::Forget(self.id)]);
    }
}

/// Where the names of a data set are: on the page (sent to the worker before the first run
/// on it) or already in the worker.
#[derive(Clone, Debug)]
pub enum DataRef {
    /// Loaded by the page (the built-in data set).
    Page(Rc<NamesDataset>),
    /// Parsed and kept by the worker (an upload).
    Engine(Rc<EngineData>),
}

/// How an upload's parse in the worker ended.
pub enum UploadOutcome {
    /// The data set loaded: what the page shows of it, and the worker's handle.
    Loaded(Box<UploadSummary>, Rc<EngineData>),
    /// The files give no data set; the parser's typed error says why.
    Failed(UploadError),
    /// The engine failed before the parse ended.
    Fault(EngineFault),
    /// Cancelled before the end.
    Cancelled,
}

struct Session {
    listener: Listener,
    ended: Option<oneshot::Sender<()>>,
}

struct Inner {
    worker: Option<web_sys::Worker>,
    /// Why the worker could not start or stopped (shown as the sessions' error).
    broken: RefCell<Option<EngineFault>>,
    /// Whether the worker sees WebGPU (`None` until it said so).
    webgpu: Cell<Option<bool>>,
    next_id: Cell<u64>,
    sessions: RefCell<HashMap<SessionId, Session>>,
    inbox: RefCell<Vec<Report>>,
    apply_pending: Cell<bool>,
    /// The data set last sent and its number.
    data_sent: RefCell<Option<(Weak<NamesDataset>, DataId)>>,
    /// Applies the inbox (called by an animation frame and by a timer, whichever comes first).
    apply_cb: Closure<dyn FnMut()>,
    _on_message: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    _on_error: Option<Closure<dyn FnMut(web_sys::ErrorEvent)>>,
}

/// A handle on the document's engine worker (cheap to clone).
#[derive(Clone)]
pub struct EngineClient(Rc<Inner>);

thread_local! {
    static CLIENT: RefCell<Option<EngineClient>> = const { RefCell::new(None) };
}

/// The hashed glue (`.js`) URL of the running app, absolute.
fn glue_url() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let base = document.base_uri().ok().flatten()?;
    let link = document
        .query_selector("link[rel=modulepreload][href$='.js']")
        .ok()
        .flatten()?;
    let raw = link.get_attribute("href")?;
    web_sys::Url::new_with_base(&raw, &base)
        .ok()
        .map(|u| u.href())
}

impl EngineClient {
    /// The document's engine, started on first use.
    pub fn get() -> EngineClient {
        CLIENT.with(|c| c.borrow_mut().get_or_insert_with(Self::start).clone())
    }

    /// Starts the worker (called once, by [`EngineClient::get`]).
    fn start() -> EngineClient {
        Rc::new_cyclic(|weak: &Weak<Inner>| {
            let spawn = || -> Result<web_sys::Worker, String> {
                let glue = glue_url()
                    .ok_or_else(|| "the page does not name its wasm module".to_owned())?;
                let options = web_sys::WorkerOptions::new();
                options.set_type(web_sys::WorkerType::Module);
                options.set_name("unroll-engine");
                let worker = web_sys::Worker::new_with_options("engine-worker.js", &options)
                    .map_err(|e| format!("{e:?}"))?;
                let first = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&first, &"glue".into(), &glue.into());
                let _ = js_sys::Reflect::set(&first, &"module".into(), &wasm_bindgen::module());
                worker.post_message(&first).map_err(|e| format!("{e:?}"))?;
                Ok(worker)
            };
            let (worker, broken) = match spawn() {
                Ok(w) => (Some(w), None),
                Err(e) => (None, Some(EngineFault::CouldNotStart(e))),
            };
            let on_message = worker.as_ref().map(|w| {
                let weak = weak.clone();
                let cb = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
                    move |e: web_sys::MessageEvent| {
                        if let Some(inner) = weak.upgrade() {
                            EngineClient(inner).receive(e.data());
                        }
                    },
                );
                w.set_onmessage(Some(cb.as_ref().unchecked_ref()));
                cb
            });
            let on_error = worker.as_ref().map(|w| {
                let weak = weak.clone();
                let cb = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(
                    move |e: web_sys::ErrorEvent| {
                        if let Some(inner) = weak.upgrade() {
                            EngineClient(inner).fail(EngineFault::Stopped(e.message()));
                        }
                    },
                );
                w.set_onerror(Some(cb.as_ref().unchecked_ref()));
                cb
            });
            let apply_weak = weak.clone();
            let apply_cb = Closure::<dyn FnMut()>::new(move || {
                if let Some(inner) = apply_weak.upgrade() {
                    EngineClient(inner).apply();
                }
            });
            Inner {
                apply_cb,
                worker,
                broken: RefCell::new(broken),
                webgpu: Cell::new(None),
                next_id: Cell::new(1),
                sessions: RefCell::new(HashMap::new()),
                inbox: RefCell::new(Vec::new()),
                apply_pending: Cell::new(false),
                data_sent: RefCell::new(None),
                _on_message: on_message,
                _on_error: on_error,
            }
        })
        .into()
    }

    /// A fresh session number.
    pub fn new_session(&self) -> SessionId {
        let id = self.0.next_id.get();
        self.0.next_id.set(id + 1);
        id
    }

    /// Whether the worker sees WebGPU (`None` until it has started).
    pub fn worker_webgpu(&self) -> Option<bool> {
        self.0.webgpu.get()
    }

    /// Sends commands (one message).
    pub fn send(&self, commands: Vec<Command>) {
        self.send_ref(&commands)
    }

    fn send_ref(&self, commands: &[Command]) {
        if let Some(w) = &self.0.worker {
            let bytes = js_sys::Uint8Array::from(encode(&commands).as_slice());
            let transfer = js_sys::Array::of1(&bytes.buffer());
            let _ = w.post_message_with_transfer(&bytes, &transfer);
        }
    }

    /// Trains the sweep of `request` as session `session` (the names page's on `data`, the
    /// names it trains on), handing each event to `on_event`; resolves when the session has
    /// ended.
    pub async fn run_lab(
        &self,
        session: SessionId,
        mut request: TrainRequest,
        data: Option<&DataRef>,
        on_event: impl FnMut(LabEvent) + 'static,
    ) {
        let ended = self.register(session, Listener::Lab(Box::new(on_event)));
        let mut commands = Vec::new();
        if let Some(data) = data {
            request.data = Some(self.data_of(data, &mut commands));
        }
        commands.push(Command::Train {
            session,
            request: Box::new(request),
        });
        self.send(commands);
        let _ = ended.await;
    }

    /// The worker's number of `data`, pushing the command that sends it first when the worker
    /// does not have it yet.
    fn data_of(&self, data: &DataRef, commands: &mut Vec<Command>) -> DataId {
        let (id, dataset) = match data {
            DataRef::Page(data) => self.data_id(data),
            DataRef::Engine(data) => (data.id, None),
        };
        if let Some((id, dataset)) = dataset {
            commands.push(Command::Data { id, dataset });
        }
        id
    }

    /// Writes one name with a generator's weights on `data` (the job's `data` is set here).
    pub async fn sample(
        &self,
        mut job: GenerateJob,
        data: &DataRef,
    ) -> Result<Sampled, GenerateError> {
        let session = self.new_session();
        let answer = Rc::new(RefCell::new(None));
        let slot = answer.clone();
        let ended = self.register(
            session,
            Listener::Sample(Box::new(move |r| *slot.borrow_mut() = Some(r))),
        );
        let mut commands = Vec::new();
        job.data = self.data_of(data, &mut commands);
        commands.push(Command::Sample {
            session,
            job: Box::new(job),
        });
        self.send(commands);
        let _ = ended.await;
        let result = answer.borrow_mut().take();
        result.unwrap_or_else(|| Err(GenerateError::Engine(self.fault())))
    }

    /// The quality figures of `samples` names per language of `languages`, written with a
    /// generator's weights on `data` as session `session` (cancelled by
    /// [`EngineClient::cancel`]), each language's handed to `on_quality` as it comes; resolves
    /// when the session has ended.
    pub async fn quality(
        &self,
        session: SessionId,
        mut job: GenerateJob,
        data: &DataRef,
        languages: Vec<u32>,
        samples: usize,
        on_quality: impl FnMut(Result<Quality, GenerateError>) + 'static,
    ) {
        let ended = self.register(session, Listener::Quality(Box::new(on_quality)));
        let mut commands = Vec::new();
        job.data = self.data_of(data, &mut commands);
        commands.push(Command::Quality {
            session,
            job: Box::new(job),
            languages,
            samples,
        });
        self.send(commands);
        let _ = ended.await;
    }

    /// Why the worker failed, or that it stopped answering.
    fn fault(&self) -> EngineFault {
        self.0
            .broken
            .borrow()
            .clone()
            .unwrap_or_else(|| EngineFault::Stopped("the engine did not answer".into()))
    }

    /// Parses the user's `files` in the worker as session `session` (cancelled by
    /// [`EngineClient::cancel`]), handing each progress fraction to `on_progress`; resolves
    /// with the files (kept by the page for saving) and the outcome. The summary's split is
    /// for `seed`, and it lists the first `skipped_shown` skipped lines.
    pub async fn upload(
        &self,
        session: SessionId,
        files: Vec<(String, Vec<u8>)>,
        seed: u64,
        skipped_shown: usize,
        mut on_progress: impl FnMut(f64) + 'static,
    ) -> (Vec<(String, Vec<u8>)>, UploadOutcome) {
        let outcome = Rc::new(RefCell::new(None::<UploadEvent>));
        let last = outcome.clone();
        let ended = self.register(
            session,
            Listener::Upload(Box::new(move |event| match event {
                UploadEvent::Progress(p) => on_progress(p),
                other => *last.borrow_mut() = Some(other),
            })),
        );
        let commands = vec![Command::Upload {
            session,
            files: files.into_iter().map(|(n, b)| (n, FileBytes(b))).collect(),
            seed,
            skipped_shown,
        }];
        self.send_ref(&commands);
        let files = match commands.into_iter().next() {
            Some(Command::Upload { files, .. }) => {
                files.into_iter().map(|(n, b)| (n, b.0)).collect()
            }
            _ => Vec::new(),
        };
        let _ = ended.await;
        let outcome = match outcome.borrow_mut().take() {
            Some(UploadEvent::Loaded(summary)) => {
                UploadOutcome::Loaded(summary, Rc::new(EngineData { id: session }))
            }
            Some(UploadEvent::Failed(error)) => UploadOutcome::Failed(error),
            Some(UploadEvent::Fault(fault)) => UploadOutcome::Fault(fault),
            Some(UploadEvent::Cancelled) => UploadOutcome::Cancelled,
            Some(UploadEvent::Progress(_)) | None => {
                UploadOutcome::Fault(self.0.broken.borrow().clone().unwrap_or_else(|| {
                    EngineFault::Stopped("the engine stopped reading the files".into())
                }))
            }
        };
        (files, outcome)
    }

    /// Cancels session `session` (an upload's parse, or a run: it ends at its next step).
    pub fn cancel(&self, session: SessionId) {
        self.send(vec![Command::Stop(session)]);
    }

    /// The seeded split's counts of the worker's data set `data` for `seed` (`None` when the
    /// worker does not have it).
    pub async fn split(&self, data: DataId, seed: u64) -> Option<SplitCounts> {
        let session = self.new_session();
        let answer = Rc::new(RefCell::new(None));
        let slot = answer.clone();
        let ended = self.register(
            session,
            Listener::Split(Box::new(move |counts| *slot.borrow_mut() = counts)),
        );
        self.send(vec![Command::Split {
            session,
            data,
            seed,
        }]);
        let _ = ended.await;
        let counts = answer.borrow_mut().take();
        counts
    }

    /// The number of `data` in the worker, and the data itself when it must be sent first.
    /// Sends `data` to the worker unless it has it already, so a later run sends only its
    /// number.
    pub fn offer_data(&self, data: &Rc<NamesDataset>) {
        if let (_, Some((id, dataset))) = self.data_id(data) {
            self.send_ref(&[Command::Data { id, dataset }]);
        }
    }

    fn data_id(&self, data: &Rc<NamesDataset>) -> (DataId, Option<(DataId, NamesDataset)>) {
        let mut sent = self.0.data_sent.borrow_mut();
        if let Some((weak, id)) = sent.as_ref() {
            if weak.upgrade().is_some_and(|d| Rc::ptr_eq(&d, data)) {
                return (*id, None);
            }
        }
        let id = self.new_session();
        *sent = Some((Rc::downgrade(data), id));
        (id, Some((id, (**data).clone())))
    }

    fn register(&self, session: SessionId, listener: Listener) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        self.0.sessions.borrow_mut().insert(
            session,
            Session {
                listener,
                ended: Some(tx),
            },
        );
        if let Some(reason) = self.0.broken.borrow().clone() {
            self.end_with_error(session, reason);
        }
        rx
    }

    /// A message from the worker: a report batch, or the loader's `{fatal}` object.
    fn receive(&self, data: JsValue) {
        if let Some(bytes) = data.dyn_ref::<js_sys::Uint8Array>() {
            match decode::<Vec<Report>>(&bytes.to_vec()) {
                Ok(batch) => self.0.inbox.borrow_mut().extend(batch),
                Err(e) => self.fail(EngineFault::Unreadable(e)),
            }
            self.schedule_apply();
        } else {
            let fatal = js_sys::Reflect::get(&data, &"fatal".into())
                .ok()
                .and_then(|f| f.as_string())
                .unwrap_or_else(|| "unknown error".into());
            self.fail(EngineFault::CouldNotStart(fatal));
        }
    }

    /// Applies the inbox at the next animation frame, or after [`APPLY_LATE_MS`].
    fn schedule_apply(&self) {
        if self.0.apply_pending.replace(true) {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let f: &js_sys::Function = self.0.apply_cb.as_ref().unchecked_ref();
        let _ = window.request_animation_frame(f);
        // The second of the two calls finds nothing to apply.
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f, APPLY_LATE_MS);
    }

    fn apply(&self) {
        if !self.0.apply_pending.replace(false) {
            return;
        }
        let batch = std::mem::take(&mut *self.0.inbox.borrow_mut());
        for report in batch {
            match report {
                Report::Ready { webgpu } => self.0.webgpu.set(Some(webgpu)),
                Report::Lab { session, event } => self.dispatch(session, |l| {
                    if let Listener::Lab(f) = l {
                        f(event)
                    }
                }),
                Report::Upload { session, event } => self.dispatch(session, |l| {
                    if let Listener::Upload(f) = l {
                        f(event)
                    }
                }),
                Report::Split { session, counts } => self.dispatch(session, |l| {
                    if let Listener::Split(f) = l {
                        f(counts)
                    }
                }),
                Report::Sample { session, result } => self.dispatch(session, |l| {
                    if let Listener::Sample(f) = l {
                        f(result)
                    }
                }),
                Report::Quality { session, result } => self.dispatch(session, |l| {
                    if let Listener::Quality(f) = l {
                        f(result)
                    }
                }),
                Report::Ended(session) => self.end(session),
                Report::Fatal(message) => self.fail(EngineFault::Stopped(message)),
            }
        }
    }

    /// Calls the session's listener without holding the session table (a listener may start
    /// another session).
    fn dispatch(&self, session: SessionId, f: impl FnOnce(&mut Listener)) {
        let taken = self.0.sessions.borrow_mut().remove(&session);
        if let Some(mut s) = taken {
            f(&mut s.listener);
            self.0.sessions.borrow_mut().entry(session).or_insert(s);
        }
    }

    fn end(&self, session: SessionId) {
        let taken = self.0.sessions.borrow_mut().remove(&session);
        if let Some(mut s) = taken {
            if let Some(tx) = s.ended.take() {
                let _ = tx.send(());
            }
        }
    }

    fn end_with_error(&self, session: SessionId, reason: EngineFault) {
        self.dispatch(session, |l| match l {
            Listener::Lab(f) => f(LabEvent::Error(TrainError::Engine(reason.clone()))),
            Listener::Upload(f) => f(UploadEvent::Fault(reason.clone())),
            Listener::Split(f) => f(None),
            Listener::Sample(f) => f(Err(GenerateError::Engine(reason.clone()))),
            Listener::Quality(f) => f(Err(GenerateError::Engine(reason.clone()))),
        });
        self.end(session);
    }

    /// The worker failed: every session ends with `reason`.
    fn fail(&self, reason: EngineFault) {
        *self.0.broken.borrow_mut() = Some(reason.clone());
        let ids: Vec<SessionId> = self.0.sessions.borrow().keys().copied().collect();
        for id in ids {
            self.end_with_error(id, reason.clone());
        }
    }
}

impl From<Rc<Inner>> for EngineClient {
    fn from(inner: Rc<Inner>) -> Self {
        EngineClient(inner)
    }
}
