//! The page's side of the training engine's Web Worker ([`unroll_core::engine`]).
//!
//! One worker per document, started by the app shell ([`EngineClient::start`]) and kept for
//! the document's life, so switching pages inside the app never stops a run. Sessions are
//! numbered here; their reports are gathered and handed to the session's listener once per
//! animation frame (or after [`APPLY_LATE_MS`] when the tab draws no frames, e.g. hidden).
//!
//! A lab sweep (delay-copy, the long-memory tasks) on the CPU path trains its runs in several
//! workers side by side ([`unroll_core::engine::parallel`]): the extra workers start on the
//! first such sweep (from the same compiled module) and stay; each takes the sweep's next run
//! when its run ends, and the page gets one sweep's events, as from one worker, with a
//! `Workers` event saying how many train it. A worker that cannot start hands its run to the
//! others and the sweep goes on with fewer. The page's commands to the sweep (pause, resume,
//! stop, the debug hooks) go to every worker training one of its runs.
//!
//! A single run (the names lab's, compare mode's, a lab sweep of one run) on the CPU path is
//! split across workers where it pays ([`unroll_core::engine::parallel::split_for`]): the
//! first worker trains it and hands each batch's later shares to helpers, the extra workers
//! connected to it by a `MessageChannel` each ([`unroll_core::train::split`]); the page only
//! sets them up and gets the `Workers` event saying how the run is split.
//!
//! The worker script (`engine-worker.js`, copied by Trunk) runs the page's own module: its first
//! message holds the hashed glue's URL (read from the preload link Trunk writes into
//! `index.html`) and the page's compiled `WebAssembly.Module`, which the worker instantiates
//! without compiling it again.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use futures_channel::oneshot;
use leptos::prelude::{Get, RwSignal, Set};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use unroll_core::config::delay::DelayConfig;
use unroll_core::config::TrainConfig;
use unroll_core::data::names::NamesDataset;
use unroll_core::data::split::SplitCounts;
use unroll_core::data::upload::{UploadError, UploadSummary};
use unroll_core::engine::generate::{GenerateError, GenerateJob};
use unroll_core::engine::parallel::{split_for, workers_for, ParallelSweep};
use unroll_core::engine::protocol::{
    decode, encode, Command, DataId, EngineFault, FileBytes, LabEvent, Report, SessionId,
    TrainRequest, UploadEvent, Workers, MAX_WORKERS,
};
use unroll_core::engine::run::plan_of;
use unroll_core::task::generate::sample::{Quality, Sampled};
use unroll_core::train::clock::now_ms;
use unroll_core::train::messages::TrainError;
use unroll_core::train::sweep::RunId;

/// The machine's logical cores (`navigator.hardwareConcurrency`, 1 when unknown).
pub fn cores() -> usize {
    web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .filter(|c| c.is_finite() && *c >= 1.0)
        .map_or(1, |c| c as usize)
}

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
    /// The worker it runs in (0: the first).
    worker: usize,
}

/// A worker started for parallel sweeps (the second and later).
struct Extra {
    worker: Option<web_sys::Worker>,
    /// Why it could not start or stopped.
    broken: Option<EngineFault>,
    _on_message: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    _on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
}

/// One run of a parallel sweep in a worker.
#[derive(Clone, Copy)]
struct Share {
    session: SessionId,
    worker: usize,
    run: RunId,
    /// Its worker failed: the run went back to the others.
    lost: bool,
}

/// A sweep trained in several workers, as the page's session.
struct Group {
    query: String,
    merged: RefCell<ParallelSweep>,
    on_event: RefCell<Box<dyn FnMut(LabEvent)>>,
    ended: RefCell<Option<oneshot::Sender<()>>>,
    shares: RefCell<Vec<Share>>,
    /// Workers with no run left to take.
    idle: RefCell<Vec<usize>>,
    /// The workers it trains on.
    on: Vec<usize>,
    workers: Cell<Workers>,
    /// `Workers` is sent after the sweep's `Plan`.
    workers_sent: Cell<bool>,
    paused: Cell<bool>,
    stopped: Cell<bool>,
    failed: Cell<bool>,
    /// The debug hold each share is started with ([`EngineClient::hold_next_at`]).
    hold: Option<u64>,
}

struct Inner {
    worker: Option<web_sys::Worker>,
    /// The workers started for parallel sweeps, as workers 1, 2, …
    extra: RefCell<Vec<Extra>>,
    /// The parallel sweeps, by the page's session.
    groups: RefCell<HashMap<SessionId, Rc<Group>>>,
    /// Why the worker could not start or stopped (shown as the sessions' error).
    broken: RefCell<Option<EngineFault>>,
    /// Whether the worker sees WebGPU (`None` until it said so).
    webgpu: Cell<Option<bool>>,
    /// The worker said it has no WebGPU (reactive, for the forms; kept for the document's
    /// life, as the client is).
    no_webgpu: RwSignal<bool>,
    next_id: Cell<u64>,
    sessions: RefCell<HashMap<SessionId, Session>>,
    /// Reports and the worker each came from.
    inbox: RefCell<Vec<(usize, Report)>>,
    /// Bytes of each worker's wasm memory, as it last reported (by worker).
    memory: [Cell<u64>; MAX_WORKERS],
    apply_pending: Cell<bool>,
    /// When the inbox was last applied (ms, `performance.now()`).
    applied: Cell<f64>,
    /// The data set last sent and its number.
    data_sent: RefCell<Option<(Weak<NamesDataset>, DataId)>>,
    /// The debug hold the next sweep started is given ([`EngineClient::hold_next_at`]).
    hold: Cell<Option<u64>>,
    /// Applies the inbox (called by an animation frame and by a timer, whichever comes first).
    apply_cb: Closure<dyn FnMut()>,
    _on_message: Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    _on_error: Option<Closure<dyn FnMut(web_sys::Event)>>,
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

/// Installs `window.unrollDebug.holdAt(step)` ([`EngineClient::hold_next_at`]; false unless
/// `step` is a number ≥ 0), for every page: the app calls it once.
pub fn install_hold_hook() {
    crate::shell::browser::install_debug_hook("holdAt", |step| {
        let step = step.as_f64().filter(|s| *s >= 0.0);
        step.inspect(|s| EngineClient::get().hold_next_at(*s as u64))
            .is_some()
    });
}

impl EngineClient {
    /// The document's engine, started on first use.
    pub fn get() -> EngineClient {
        CLIENT.with(|c| c.borrow_mut().get_or_insert_with(Self::start).clone())
    }

    /// Starts the worker (called once, by [`EngineClient::get`]).
    fn start() -> EngineClient {
        Rc::new_cyclic(|weak: &Weak<Inner>| {
            let (worker, broken, on_message, on_error) = spawn_worker(weak, 0);
            let apply_weak = weak.clone();
            let apply_cb = Closure::<dyn FnMut()>::new(move || {
                if let Some(inner) = apply_weak.upgrade() {
                    EngineClient(inner).apply();
                }
            });
            Inner {
                apply_cb,
                worker,
                extra: RefCell::new(Vec::new()),
                groups: RefCell::new(HashMap::new()),
                broken: RefCell::new(broken),
                webgpu: Cell::new(None),
                no_webgpu: RwSignal::new(false),
                next_id: Cell::new(1),
                sessions: RefCell::new(HashMap::new()),
                inbox: RefCell::new(Vec::new()),
                memory: Default::default(),
                apply_pending: Cell::new(false),
                applied: Cell::new(0.0),
                data_sent: RefCell::new(None),
                hold: Cell::new(None),
                _on_message: on_message,
                _on_error: on_error,
            }
        })
        .into()
    }

    /// Debug hook (`window.unrollDebug.holdAt(step)`): the next sweep started is held in the
    /// engine at the first tick boundary at which a run reached `step` (each of its runs, on
    /// several workers), as a pause would hold it but unknown to the page, which goes on
    /// showing it running: a test reloads it there, certainly mid-run.
    pub fn hold_next_at(&self, step: u64) {
        self.0.hold.set(Some(step));
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

    /// True once the worker said it has no WebGPU; tracked, so a view reading it is drawn
    /// again then.
    pub fn worker_without_webgpu(&self) -> bool {
        self.0.no_webgpu.get()
    }

    /// Sends commands (one message); a command to a parallel sweep goes to every worker
    /// training one of its runs.
    pub fn send(&self, commands: Vec<Command>) {
        let mut own = Vec::with_capacity(commands.len());
        for command in commands {
            if !self.to_group(&command) {
                own.push(command);
            }
        }
        if !own.is_empty() {
            self.send_ref(&own)
        }
    }

    fn send_ref(&self, commands: &[Command]) {
        self.send_to(0, commands)
    }

    /// Sends commands to worker `k` (0: the first).
    fn send_to(&self, k: usize, commands: &[Command]) {
        let bytes = js_sys::Uint8Array::from(encode(&commands).as_slice());
        let transfer = js_sys::Array::of1(&bytes.buffer());
        if k == 0 {
            if let Some(w) = &self.0.worker {
                let _ = w.post_message_with_transfer(&bytes, &transfer);
            }
        } else if let Some(Extra {
            worker: Some(w), ..
        }) = self.0.extra.borrow().get(k - 1)
        {
            let _ = w.post_message_with_transfer(&bytes, &transfer);
        }
    }

    /// Hands a run command for a parallel sweep to its shares; false when `command` is for
    /// no parallel sweep.
    fn to_group(&self, command: &Command) -> bool {
        let (id, of): (SessionId, fn(SessionId) -> Command) = match command {
            Command::Pause(id) => (*id, Command::Pause),
            Command::Resume(id) => (*id, Command::Resume),
            Command::Stop(id) => (*id, Command::Stop),
            Command::LoseDevice(id) => (*id, Command::LoseDevice),
            Command::Diverge(id) => (*id, Command::Diverge),
            _ => return false,
        };
        let Some(group) = self.0.groups.borrow().get(&id).cloned() else {
            return false;
        };
        match command {
            Command::Pause(_) => group.paused.set(true),
            Command::Resume(_) => group.paused.set(false),
            Command::Stop(_) => group.stopped.set(true),
            _ => {}
        }
        let shares = group.shares.borrow().clone();
        for share in shares.iter().filter(|s| !s.lost) {
            self.send_to(share.worker, &[of(share.session)]);
        }
        if group.stopped.get() && shares.is_empty() {
            self.end_group(id);
        }
        true
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
        let mut on_event = on_event;
        let workers = self.workers_of(&request, data.is_some());
        if let Some((w, merged)) = workers.clone() {
            if w.used > 1 && w.shares == 1 {
                return self
                    .run_parallel(session, request, w, merged, on_event)
                    .await;
            }
        }
        let mut workers = match workers {
            Some((w, _)) => Some(w),
            None if data.is_some() => self.names_split(&request),
            None => None,
        };
        // A single run split across workers: the helpers connected to the first worker.
        if let Some(w) = workers.as_mut() {
            if w.shares > 1 {
                w.used = 1 + self.connect_helpers(w.shares - 1);
                w.failed = w.shares - w.used;
            }
            request.shares = w.shares;
        }
        // One worker, or one run split: the page hears so after the sweep's plan.
        let mut pending = workers;
        let on_event = move |e: LabEvent| {
            let plan = matches!(e, LabEvent::Plan(_));
            on_event(e);
            if let (true, Some(w)) = (plan, pending.take()) {
                on_event(LabEvent::Workers(w));
            }
        };
        let ended = self.register(session, Listener::Lab(Box::new(on_event)));
        let mut commands = Vec::new();
        if let Some(data) = data {
            request.data = Some(self.data_of(data, &mut commands));
        }
        commands.push(Command::Train {
            session,
            request: Box::new(request),
        });
        if let Some(step) = self.0.hold.take() {
            commands.push(Command::HoldAt(session, step));
        }
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

    /// How many workers the lab sweep of `request` trains on, with its bookkeeping; `None`
    /// for the names lab (`names`) and for a request the first worker must answer itself (a
    /// query that gives no sweep, a checkpoint that does not fit).
    fn workers_of(&self, request: &TrainRequest, names: bool) -> Option<(Workers, ParallelSweep)> {
        if names || request.start_from.is_some() {
            return None;
        }
        let (plan, _) = plan_of(&request.query, None).ok()?;
        if let Some(c) = &request.resume {
            c.fits(&plan).ok()?;
        }
        let config = unroll_core::config::query::decode::<DelayConfig>(&request.query).config;
        let merged = ParallelSweep::new(&plan, request.resume.as_ref());
        let workers = workers_for(
            &config,
            cores(),
            self.worker_webgpu(),
            merged.runs_left(),
            request.resume.as_ref().map(|c| c.shares),
        );
        Some((workers, merged))
    }

    /// How the names lab's run of `request` is split ([`split_for`]); `None` when it starts
    /// from given weights (one worker, as for the lab sweeps).
    fn names_split(&self, request: &TrainRequest) -> Option<Workers> {
        if request.start_from.is_some() {
            return None;
        }
        let config = TrainConfig::from_query(&request.query).config;
        Some(split_for(
            config.workers,
            config.backend,
            cores(),
            self.0.webgpu.get(),
            request.resume.as_ref().map(|c| c.shares),
            (config.hidden_size, config.batch_size),
        ))
    }

    /// Starts up to `n` helpers for a split run on the workers after the first and connects
    /// each to the first worker by a `MessageChannel` of its own, so a share's messages never
    /// pass through this page; the helpers connected (the first worker computes the shares of
    /// those that are not).
    fn connect_helpers(&self, n: usize) -> usize {
        let helpers: Vec<usize> = self
            .workers_up_to(n + 1)
            .into_iter()
            .filter(|&k| k != 0)
            .collect();
        let ports = js_sys::Array::new();
        for k in helpers {
            let Ok(channel) = web_sys::MessageChannel::new() else {
                continue;
            };
            let message = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&message, &"helperPort".into(), &channel.port2());
            if self.post_object(k, &message, &js_sys::Array::of1(&channel.port2())) {
                ports.push(&channel.port1());
            }
        }
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"leaderPorts".into(), &ports);
        if !self.post_object(0, &message, &ports) {
            return 0;
        }
        ports.length() as usize
    }

    /// Posts `message`, transferring `transfer`, to worker `k` (0: the first); false when it
    /// could not.
    fn post_object(&self, k: usize, message: &JsValue, transfer: &js_sys::Array) -> bool {
        let post = |w: &web_sys::Worker| w.post_message_with_transfer(message, transfer).is_ok();
        if k == 0 {
            self.0.worker.as_ref().is_some_and(post)
        } else {
            matches!(self.0.extra.borrow().get(k - 1), Some(Extra { worker: Some(w), .. }) if post(w))
        }
    }

    /// Starts the extra workers up to `n` workers in all; the workers that can train.
    fn workers_up_to(&self, n: usize) -> Vec<usize> {
        while self.0.extra.borrow().len() + 1 < n {
            let k = self.0.extra.borrow().len() + 1;
            let (worker, broken, on_message, on_error) = spawn_worker(&Rc::downgrade(&self.0), k);
            self.0.extra.borrow_mut().push(Extra {
                worker,
                broken,
                _on_message: on_message,
                _on_error: on_error,
            });
        }
        (0..n).filter(|&k| self.broken_of(k).is_none()).collect()
    }

    /// Trains the sweep of `request` on `workers.used` workers, as session `session` (see
    /// the module docs); resolves when it has ended.
    async fn run_parallel(
        &self,
        session: SessionId,
        request: TrainRequest,
        mut workers: Workers,
        merged: ParallelSweep,
        on_event: impl FnMut(LabEvent) + 'static,
    ) {
        let usable = self.workers_up_to(workers.used);
        workers.failed = workers.used - usable.len();
        workers.used = usable.len();
        let (tx, rx) = oneshot::channel();
        let group = Rc::new(Group {
            query: request.query,
            merged: RefCell::new(merged),
            on_event: RefCell::new(Box::new(on_event)),
            ended: RefCell::new(Some(tx)),
            shares: RefCell::new(Vec::new()),
            idle: RefCell::new(Vec::new()),
            on: usable.clone(),
            workers: Cell::new(workers),
            workers_sent: Cell::new(false),
            paused: Cell::new(false),
            stopped: Cell::new(false),
            failed: Cell::new(false),
            hold: self.0.hold.take(),
        });
        self.0.groups.borrow_mut().insert(session, group.clone());
        if usable.is_empty() {
            let reason = self
                .broken_of(0)
                .unwrap_or_else(|| EngineFault::CouldNotStart("no worker started".into()));
            self.emit(&group, LabEvent::Error(TrainError::Engine(reason)));
            self.end_group(session);
        }
        for k in usable {
            self.hand_out(session, &group, k);
        }
        let _ = rx.await;
    }

    /// Hands the sweep's next run to worker `k` (idle when none is left; the sweep's end
    /// when every run is finished).
    fn hand_out(&self, id: SessionId, group: &Rc<Group>, k: usize) {
        if group.stopped.get() || group.failed.get() {
            return;
        }
        let next = group.merged.borrow_mut().take_next();
        let Some((run, resume)) = next else {
            group.idle.borrow_mut().push(k);
            self.finish_group(id, group);
            return;
        };
        let share = self.new_session();
        group.shares.borrow_mut().push(Share {
            session: share,
            worker: k,
            run,
            lost: false,
        });
        let (client, weak) = (Rc::downgrade(&self.0), Rc::downgrade(group));
        let ended = self.register_on(
            k,
            share,
            Listener::Lab(Box::new(move |e| {
                if let (Some(c), Some(g)) = (client.upgrade(), weak.upgrade()) {
                    EngineClient(c).share_event(&g, share, e);
                }
            })),
        );
        let mut commands = vec![Command::TrainShare {
            session: share,
            request: Box::new(TrainRequest {
                query: group.query.clone(),
                data: None,
                resume,
                start_from: None,
                shares: 1,
            }),
            runs: vec![run],
        }];
        if group.paused.get() {
            commands.push(Command::Pause(share));
        }
        if let Some(step) = group.hold {
            commands.push(Command::HoldAt(share, step));
        }
        self.send_to(k, &commands);
        let (client, weak) = (Rc::downgrade(&self.0), Rc::downgrade(group));
        wasm_bindgen_futures::spawn_local(async move {
            let _ = ended.await;
            if let (Some(c), Some(g)) = (client.upgrade(), weak.upgrade()) {
                EngineClient(c).share_ended(id, &g, share);
            }
        });
    }

    /// Hands an event to the page's listener of the sweep.
    fn emit(&self, group: &Group, event: LabEvent) {
        (group.on_event.borrow_mut())(event);
    }

    /// One event of share `share`: merged into the sweep's; a worker that could not start
    /// hands its run back (the sweep goes on with fewer workers, and says so).
    fn share_event(&self, group: &Rc<Group>, share: SessionId, event: LabEvent) {
        let Some(s) = group
            .shares
            .borrow()
            .iter()
            .find(|s| s.session == share)
            .copied()
        else {
            return;
        };
        if let LabEvent::Error(TrainError::Engine(_)) = &event {
            if s.worker > 0 && self.broken_of(s.worker).is_some() {
                group.merged.borrow_mut().requeue(s.run);
                for x in group.shares.borrow_mut().iter_mut() {
                    if x.session == share {
                        x.lost = true;
                    }
                }
                let mut w = group.workers.get();
                w.used = w.used.saturating_sub(1).max(1);
                w.failed += 1;
                group.workers.set(w);
                if group.workers_sent.get() {
                    self.emit(group, LabEvent::Workers(w));
                }
                return;
            }
        }
        let out = group.merged.borrow_mut().event(s.run, event);
        for e in out {
            let plan = matches!(e, LabEvent::Plan(_));
            if matches!(e, LabEvent::Error(_)) && !group.failed.replace(true) {
                // The sweep ends here, as with one worker: the other runs stop.
                for x in group.shares.borrow().iter() {
                    if x.session != share && !x.lost {
                        self.send_to(x.worker, &[Command::Stop(x.session)]);
                    }
                }
            }
            self.emit(group, e);
            if plan && !group.workers_sent.replace(true) {
                self.emit(group, LabEvent::Workers(group.workers.get()));
            }
        }
    }

    /// Share `share` has ended: its worker takes the next run (a lost share's run goes to an
    /// idle worker, if any); the sweep ends when every share has.
    fn share_ended(&self, id: SessionId, group: &Rc<Group>, share: SessionId) {
        let s = {
            let mut shares = group.shares.borrow_mut();
            let Some(i) = shares.iter().position(|s| s.session == share) else {
                return;
            };
            shares.remove(i)
        };
        if group.stopped.get() || group.failed.get() {
            if group.shares.borrow().is_empty() {
                self.end_group(id);
            }
            return;
        }
        if s.lost {
            let idle = group.idle.borrow_mut().pop();
            match idle {
                Some(k) => self.hand_out(id, group, k),
                None => self.finish_group(id, group),
            }
        } else {
            self.hand_out(id, group, s.worker);
        }
    }

    /// Ends the sweep when no share is left: `Finished` when every run is, else (every
    /// worker lost) the first worker's fault.
    fn finish_group(&self, id: SessionId, group: &Rc<Group>) {
        if !group.shares.borrow().is_empty() {
            return;
        }
        let finished = group.merged.borrow().is_finished();
        if finished {
            let events = group.merged.borrow().finish();
            for e in events {
                self.emit(group, e);
            }
        } else if !group.stopped.get() && !group.failed.get() {
            let reason = self.broken_of(0).unwrap_or_else(|| {
                EngineFault::Stopped("every worker of the sweep stopped".into())
            });
            self.emit(group, LabEvent::Error(TrainError::Engine(reason)));
        }
        self.end_group(id);
    }

    /// The parallel sweep `id` has ended: its session resolves.
    fn end_group(&self, id: SessionId) {
        let group = self.0.groups.borrow_mut().remove(&id);
        if let Some(g) = group {
            if let Some(tx) = g.ended.borrow_mut().take() {
                let _ = tx.send(());
            }
        }
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
        self.register_on(0, session, listener)
    }

    /// Registers `session` of worker `k`; it ends at once with the worker's fault when the
    /// worker is broken.
    fn register_on(
        &self,
        k: usize,
        session: SessionId,
        listener: Listener,
    ) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        self.0.sessions.borrow_mut().insert(
            session,
            Session {
                listener,
                ended: Some(tx),
                worker: k,
            },
        );
        if let Some(reason) = self.broken_of(k) {
            self.end_with_error(session, reason);
        }
        rx
    }

    /// Why worker `k` cannot train, if it cannot.
    fn broken_of(&self, k: usize) -> Option<EngineFault> {
        if k == 0 {
            self.0.broken.borrow().clone()
        } else {
            self.0.extra.borrow().get(k - 1).map_or(
                Some(EngineFault::CouldNotStart("no such worker".into())),
                |e| e.broken.clone(),
            )
        }
    }

    /// A message from worker `k`: a report batch, or the loader's `{fatal}` object.
    fn receive(&self, k: usize, data: JsValue) {
        if let Some(bytes) = data.dyn_ref::<js_sys::Uint8Array>() {
            match decode::<Vec<Report>>(&bytes.to_vec()) {
                Ok(batch) => self
                    .0
                    .inbox
                    .borrow_mut()
                    .extend(batch.into_iter().map(|r| (k, r))),
                Err(e) => self.fail_worker(k, EngineFault::Unreadable(e)),
            }
            self.schedule_apply();
        } else {
            let fatal = js_sys::Reflect::get(&data, &"fatal".into())
                .ok()
                .and_then(|f| f.as_string())
                .unwrap_or_else(|| "unknown error".into());
            self.fail_worker(k, EngineFault::CouldNotStart(fatal));
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
        // Several workers post their batches at their own times: while a sweep trains in
        // parallel, the page applies them together, at one worker's pace (each apply redraws
        // the page, on the cores the workers train on).
        let wait = APPLY_LATE_MS as f64 - (now_ms() - self.0.applied.get());
        if !self.0.groups.borrow().is_empty() && wait > 1.0 {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f, wait as i32);
            return;
        }
        let _ = window.request_animation_frame(f);
        // The second of the two calls finds nothing to apply.
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f, APPLY_LATE_MS);
    }

    fn apply(&self) {
        if !self.0.apply_pending.replace(false) {
            return;
        }
        self.0.applied.set(now_ms());
        let batch = std::mem::take(&mut *self.0.inbox.borrow_mut());
        for (k, report) in batch {
            match report {
                Report::Ready { webgpu } if k == 0 => {
                    self.0.webgpu.set(Some(webgpu));
                    self.0.no_webgpu.set(!webgpu);
                }
                Report::Ready { .. } => {}
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
                Report::Fatal(message) => self.fail_worker(k, EngineFault::Stopped(message)),
                Report::Memory(bytes) => self.memory_of(k, bytes),
            }
        }
    }

    /// Worker `k` holds `bytes` of wasm memory: the parallel sweeps training on it say their
    /// workers' sum.
    fn memory_of(&self, k: usize, bytes: u64) {
        if let Some(m) = self.0.memory.get(k) {
            m.set(bytes);
        }
        let groups: Vec<Rc<Group>> = self.0.groups.borrow().values().cloned().collect();
        for group in groups.iter().filter(|g| g.on.contains(&k)) {
            let mut w = group.workers.get();
            w.memory = group.on.iter().map(|&k| self.0.memory[k].get()).sum();
            group.workers.set(w);
            if group.workers_sent.get() {
                self.emit(group, LabEvent::Workers(w));
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

    /// Worker `k` failed: every session in it ends with `reason` (a parallel sweep hands
    /// the run of a later worker to the others).
    fn fail_worker(&self, k: usize, reason: EngineFault) {
        if k == 0 {
            *self.0.broken.borrow_mut() = Some(reason.clone());
        } else if let Some(e) = self.0.extra.borrow_mut().get_mut(k - 1) {
            e.broken = Some(reason.clone());
        }
        let ids: Vec<SessionId> = self
            .0
            .sessions
            .borrow()
            .iter()
            .filter(|(_, s)| s.worker == k)
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            self.end_with_error(id, reason.clone());
        }
    }
}

/// Starts engine worker `k` (0: the first) with the page's compiled module, its messages to
/// the client of `weak`: the worker, or why it could not start, and its handlers.
#[allow(clippy::type_complexity)]
fn spawn_worker(
    weak: &Weak<Inner>,
    k: usize,
) -> (
    Option<web_sys::Worker>,
    Option<EngineFault>,
    Option<Closure<dyn FnMut(web_sys::MessageEvent)>>,
    Option<Closure<dyn FnMut(web_sys::Event)>>,
) {
    let spawn = || -> Result<web_sys::Worker, String> {
        let glue = glue_url().ok_or_else(|| "the page does not name its wasm module".to_owned())?;
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        options.set_name(&if k == 0 {
            "unroll-engine".to_owned()
        } else {
            format!("unroll-engine-{k}")
        });
        let worker = web_sys::Worker::new_with_options("engine-worker.js", &options)
            .map_err(|e| format!("{e:?}"))?;
        let first = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&first, &"glue".into(), &glue.into());
        let _ = js_sys::Reflect::set(&first, &"module".into(), &wasm_bindgen::module());
        // The page's choice of CPU kernels, which the module it posts was chosen for.
        let simd = if unroll_core::math::linalg::relaxed_simd() {
            "relaxed-simd"
        } else {
            "simd128"
        };
        let _ = js_sys::Reflect::set(&first, &"simd".into(), &simd.into());
        worker.post_message(&first).map_err(|e| format!("{e:?}"))?;
        Ok(worker)
    };
    let (worker, broken) = match spawn() {
        Ok(w) => (Some(w), None),
        Err(e) => (None, Some(EngineFault::CouldNotStart(e))),
    };
    let on_message = worker.as_ref().map(|w| {
        let weak = weak.clone();
        let cb =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                if let Some(inner) = weak.upgrade() {
                    EngineClient(inner).receive(k, e.data());
                }
            });
        w.set_onmessage(Some(cb.as_ref().unchecked_ref()));
        cb
    });
    let on_error = worker.as_ref().map(|w| {
        let weak = weak.clone();
        // An error in the worker is an `ErrorEvent`; a script that did not load, a plain
        // `Event` without a message.
        let cb = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            let message = js_sys::Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "the engine's script did not load".to_owned());
            if let Some(inner) = weak.upgrade() {
                EngineClient(inner).fail_worker(k, EngineFault::Stopped(message));
            }
        });
        w.set_onerror(Some(cb.as_ref().unchecked_ref()));
        cb
    });
    (worker, broken, on_message, on_error)
}

impl From<Rc<Inner>> for EngineClient {
    fn from(inner: Rc<Inner>) -> Self {
        EngineClient(inner)
    }
}
