//! The engine's side of the Web Worker (wasm only).
//!
//! `www/engine-worker.js` loads the app's own wasm module inside a dedicated worker and calls
//! [`engine_worker_start`]; from then on every message from the page is a `Vec<Command>`.
//! Each session runs as a task of the worker's event loop: a sweep runs the one training loop
//! ([`super::run::run`]), which steps freely and calls [`crate::train::clock::check_in`]
//! between ticks, so commands are handled within about [`crate::train::clock::CHECK_IN_MS`]
//! without a timer per step. Reports are gathered and posted at most every
//! [`super::FLUSH_MS`] (and at once when a session ends).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::DedicatedWorkerGlobalScope;

use super::generate::{self, GenerateError, GenerateJob};
use super::protocol::{
    decode, encode, Command, DataId, FileBytes, LabEvent, Report, SessionId, TrainRequest,
    UploadEvent,
};
use super::run::{run, share_of, RunControl};
use super::share_port::{serve, PortHelpers};
use super::FLUSH_MS;
use crate::data::names::NamesDataset;
use crate::data::split::{SplitCounts, VAL_FRACTION};
use crate::data::upload::UploadParser;
use crate::task::generate::{Conditioning, GenerateTask};
use crate::train::clock::{now_ms, yield_now};
use crate::train::sweep::RunId;

/// Lines an upload's parse reads between two looks at the clock.
const UPLOAD_LINES_PER_CALL: usize = 2_000;

/// Longest stretch of an upload's parse before the worker handles its messages (a Cancel)
/// and reports progress (ms).
const UPLOAD_SLICE_MS: f64 = 50.0;

/// True when this code runs inside a dedicated Web Worker (not on a page).
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// Adopts the boot's choice of CPU kernels for this wasm instance (the page's and each engine
/// worker's): `self.unrollWasmSimd` is `"relaxed-simd"` where the browser compiled the module
/// that holds relaxed-SIMD instructions (`www/boot.js`; the page passes its own choice to its
/// workers with the module), anything else or nothing keeps the `simd128` kernels
/// ([`crate::math::linalg::set_relaxed_simd`]). Returns [`crate::math::linalg::kernel_name`],
/// also left in `self.unrollCpuKernel` for the end-to-end tests.
pub fn adopt_wasm_simd() -> &'static str {
    use crate::math::linalg;
    let global = js_sys::global();
    let chosen = js_sys::Reflect::get(&global, &"unrollWasmSimd".into())
        .ok()
        .and_then(|v| v.as_string());
    linalg::set_relaxed_simd(chosen.as_deref() == Some("relaxed-simd"));
    let kernel = linalg::kernel_name();
    let _ = js_sys::Reflect::set(&global, &"unrollCpuKernel".into(), &kernel.into());
    kernel
}

struct State {
    scope: DedicatedWorkerGlobalScope,
    data: HashMap<DataId, Arc<NamesDataset>>,
    controls: HashMap<SessionId, RunControl>,
    outbox: Vec<Report>,
    /// Bytes of wasm memory last reported ([`Report::Memory`]).
    memory: u64,
    last_flush: f64,
    timer_pending: bool,
    /// Whether this worker sees `navigator.gpu`.
    webgpu: bool,
    /// The generation task of the last sampler request, by data set and conditioning.
    generate: Option<((DataId, Conditioning), Arc<GenerateTask>)>,
    /// The ports to the helper workers the page connected for the next split run.
    helper_ports: Vec<web_sys::MessagePort>,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
    static FLUSH: RefCell<Option<Closure<dyn FnMut()>>> = const { RefCell::new(None) };
}

fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> Option<R> {
    STATE.with(|s| s.borrow_mut().as_mut().map(f))
}

/// Posts the gathered reports as one message (the bytes' buffer is transferred, not copied).
fn flush() {
    let Some((scope, batch)) = with_state(|s| {
        s.last_flush = now_ms();
        s.timer_pending = false;
        let memory = (core::arch::wasm32::memory_size(0) as u64) << 16;
        if !s.outbox.is_empty() && memory != s.memory {
            s.memory = memory;
            s.outbox.push(Report::Memory(memory));
        }
        (s.scope.clone(), std::mem::take(&mut s.outbox))
    }) else {
        return;
    };
    if batch.is_empty() {
        return;
    }
    let bytes = js_sys::Uint8Array::from(encode(&batch).as_slice());
    let transfer = js_sys::Array::of1(&bytes.buffer());
    let _ = scope.post_message_with_transfer(&bytes, &transfer);
}

/// Queues a report; posts the queue when [`FLUSH_MS`] have passed since the last post (a
/// busy loop) or schedules a post (a quiet one), and at once when `urgent`.
fn report(r: Report, urgent: bool) {
    let due = with_state(|s| {
        s.outbox.push(r);
        let due = urgent || now_ms() - s.last_flush >= FLUSH_MS;
        let schedule = !due && !s.timer_pending;
        if schedule {
            s.timer_pending = true;
        }
        (due, schedule, s.scope.clone())
    });
    let Some((due, schedule, scope)) = due else {
        return;
    };
    if due {
        flush();
    } else if schedule {
        FLUSH.with(|f| {
            if let Some(cb) = f.borrow().as_ref() {
                let _ = scope.set_timeout_with_callback_and_timeout_and_arguments_0(
                    cb.as_ref().unchecked_ref(),
                    FLUSH_MS as i32,
                );
            }
        });
    }
}

fn control_of(session: SessionId) -> Option<RunControl> {
    with_state(|s| s.controls.get(&session).cloned()).flatten()
}

fn handle(command: Command) {
    match command {
        Command::Data { id, dataset } => {
            with_state(|s| {
                s.data.insert(id, Arc::new(dataset));
                s.generate.take_if(|((d, _), _)| *d == id);
            });
        }
        Command::Upload {
            session,
            files,
            seed,
            skipped_shown,
        } => start_upload(session, files, seed, skipped_shown),
        Command::Split {
            session,
            data,
            seed,
        } => {
            let dataset = with_state(|s| s.data.get(&data).cloned()).flatten();
            let counts = dataset.map(|d| SplitCounts::new(&d, seed, VAL_FRACTION));
            report(Report::Split { session, counts }, false);
            report(Report::Ended(session), true);
        }
        Command::Forget(id) => {
            with_state(|s| {
                s.data.remove(&id);
                s.generate.take_if(|((d, _), _)| *d == id);
            });
        }
        Command::Train { session, request } => start_train(session, *request, None),
        Command::TrainShare {
            session,
            request,
            runs,
        } => start_train(session, *request, Some(runs)),
        Command::Pause(id) => {
            if let Some(c) = control_of(id) {
                c.pause()
            }
        }
        Command::Resume(id) => {
            if let Some(c) = control_of(id) {
                c.resume()
            }
        }
        Command::Stop(id) => {
            if let Some(c) = control_of(id) {
                c.stop()
            }
        }
        Command::LoseDevice(id) => {
            if let Some(c) = control_of(id) {
                c.simulate_device_loss()
            }
        }
        Command::Diverge(id) => {
            if let Some(c) = control_of(id) {
                c.simulate_divergence()
            }
        }
        Command::HoldAt(id, step) => {
            if let Some(c) = control_of(id) {
                c.hold_at(step)
            }
        }
        Command::Sample { session, job } => {
            let result = generate_task(&job).and_then(|t| generate::sample_job(&t, &job));
            report(Report::Sample { session, result }, false);
            report(Report::Ended(session), true);
        }
        Command::Quality {
            session,
            job,
            languages,
            samples,
        } => start_quality(session, *job, languages, samples),
    }
}

/// The generation task of `job` (kept while the data set and conditioning stay the same).
fn generate_task(job: &GenerateJob) -> Result<Arc<GenerateTask>, GenerateError> {
    let data = with_state(|s| s.data.get(&job.data).cloned())
        .flatten()
        .ok_or(GenerateError::NoData)?;
    let conditioning = crate::train::plan::decode_lab(&job.query)
        .config
        .conditioning;
    let key = (job.data, conditioning);
    if let Some(task) = with_state(|s| {
        s.generate
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, t)| t.clone())
    })
    .flatten()
    {
        return Ok(task);
    }
    let task = Arc::new(generate::task_of(&job.query, data)?);
    with_state(|s| s.generate = Some((key, task.clone())));
    Ok(task)
}

/// Writes the quality figures language by language, yielding between them (a Stop ends it).
fn start_quality(session: SessionId, job: GenerateJob, languages: Vec<u32>, samples: usize) {
    spawn_session(session, move |control| async move {
        let task = match generate_task(&job) {
            Ok(t) => t,
            Err(e) => {
                report(
                    Report::Quality {
                        session,
                        result: Err(e),
                    },
                    true,
                );
                return;
            }
        };
        let recogniser = job.classifier.as_ref().and_then(|c| c.recogniser(&task));
        for language in languages {
            let result = generate::quality_job(&task, &job, language, samples, recogniser.as_ref());
            let failed = result.is_err();
            report(Report::Quality { session, result }, true);
            if failed {
                return;
            }
            yield_now().await;
            if control.is_stopped() {
                return;
            }
        }
    });
}

/// Registers a control for `session` and runs `task` to its end, then reports `Ended`.
fn spawn_session<F>(session: SessionId, task: impl FnOnce(RunControl) -> F + 'static)
where
    F: std::future::Future<Output = ()> + 'static,
{
    let control = RunControl::new();
    with_state(|s| s.controls.insert(session, control.clone()));
    wasm_bindgen_futures::spawn_local(async move {
        task(control).await;
        with_state(|s| s.controls.remove(&session));
        report(Report::Ended(session), true);
    });
}

/// Trains the sweep of `request` ([`super::run::run`]), of the runs of `share` alone when
/// given, reporting its events.
fn start_train(session: SessionId, request: TrainRequest, share: Option<Vec<RunId>>) {
    let data = request
        .data
        .and_then(|id| with_state(|s| s.data.get(&id).cloned()).flatten());
    spawn_session(session, move |control| async move {
        let mut send = |event: LabEvent| {
            let urgent = match &event {
                LabEvent::Finished | LabEvent::Error(_) | LabEvent::Backend(_) => true,
                LabEvent::Tick(t) => t.finished.is_some(),
                _ => false,
            };
            report(Report::Lab { session, event }, urgent)
        };
        let (sweep, backend) = match share_of(&request, data, share.as_deref()) {
            Ok(s) => s,
            Err(e) => {
                send(LabEvent::Error(e));
                return;
            }
        };
        let webgpu = with_state(|s| s.webgpu).unwrap_or(false);
        let mut sweep = sweep;
        // The helpers the page connected for this run (a split run's shares after the
        // first); none: this worker computes every share, with the same numbers.
        let ports = with_state(|s| std::mem::take(&mut s.helper_ports)).unwrap_or_default();
        if sweep.shares() > 1 && !ports.is_empty() {
            sweep.set_helpers(Some(Rc::new(PortHelpers::new(ports))));
        } else {
            ports.iter().for_each(web_sys::MessagePort::close);
        }
        run(sweep, backend, webgpu, &control, &mut send).await;
    });
}

/// Parses an upload in slices of about [`UPLOAD_SLICE_MS`] (handling a Stop between them),
/// keeps the data set under `session` and reports its summary.
fn start_upload(
    session: SessionId,
    files: Vec<(String, FileBytes)>,
    seed: u64,
    skipped_shown: usize,
) {
    spawn_session(session, move |control| async move {
        let send =
            |event: UploadEvent, urgent: bool| report(Report::Upload { session, event }, urgent);
        let files: Vec<(String, Vec<u8>)> = files.into_iter().map(|(n, b)| (n, b.0)).collect();
        let mut parser = match UploadParser::new(&files) {
            Ok(p) => p,
            Err(e) => {
                send(UploadEvent::Failed(e), true);
                return;
            }
        };
        // The parser holds the decoded texts.
        drop(files);
        loop {
            let start = now_ms();
            let mut done = false;
            while !done && now_ms() - start < UPLOAD_SLICE_MS {
                match parser.step(UPLOAD_LINES_PER_CALL) {
                    Ok(d) => done = d,
                    Err(e) => {
                        send(UploadEvent::Failed(e), true);
                        return;
                    }
                }
            }
            send(UploadEvent::Progress(parser.progress()), false);
            if done {
                break;
            }
            yield_now().await;
            if control.is_stopped() {
                send(UploadEvent::Cancelled, true);
                return;
            }
        }
        match parser.finish() {
            Ok(upload) => {
                let summary = upload.summary(seed, skipped_shown);
                with_state(|s| s.data.insert(session, Arc::new(upload.dataset)));
                send(UploadEvent::Loaded(Box::new(summary)), true);
            }
            Err(e) => send(UploadEvent::Failed(e), true),
        }
    });
}

/// A message from the page: its commands (bytes), or the ports of a split run
/// (`{leaderPorts}`: to the helpers of the next run this worker trains; `{helperPort}`: this
/// worker is a helper on that port).
fn on_message(data: JsValue) {
    if !data.is_instance_of::<js_sys::Uint8Array>() {
        let field = |name: &str| js_sys::Reflect::get(&data, &name.into()).ok();
        if let Some(ports) = field("leaderPorts").and_then(|p| p.dyn_into::<js_sys::Array>().ok()) {
            let ports: Vec<web_sys::MessagePort> =
                ports.iter().filter_map(|p| p.dyn_into().ok()).collect();
            let old = with_state(|s| std::mem::replace(&mut s.helper_ports, ports));
            old.unwrap_or_default()
                .iter()
                .for_each(web_sys::MessagePort::close);
        } else if let Some(port) =
            field("helperPort").and_then(|p| p.dyn_into::<web_sys::MessagePort>().ok())
        {
            serve(port);
        }
        return;
    }
    let bytes = js_sys::Uint8Array::new(&data).to_vec();
    match decode::<Vec<Command>>(&bytes) {
        Ok(commands) => commands.into_iter().for_each(handle),
        Err(e) => report(Report::Fatal(format!("unreadable command: {e}")), true),
    }
}

/// Starts the engine inside the worker: handles the messages that arrived while the module
/// loaded (`pending`, oldest first), then every later one. Called once by
/// `www/engine-worker.js`.
#[wasm_bindgen]
pub fn engine_worker_start(pending: js_sys::Array) {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    adopt_wasm_simd();
    let webgpu = js_sys::Reflect::get(&scope.navigator(), &"gpu".into())
        .map(|g| !g.is_undefined() && !g.is_null())
        .unwrap_or(false);
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&format!("Unroll engine: {message}").into());
        report(Report::Fatal(message), true);
    }));
    STATE.with(|s| {
        *s.borrow_mut() = Some(State {
            scope: scope.clone(),
            data: HashMap::new(),
            controls: HashMap::new(),
            outbox: Vec::new(),
            memory: 0,
            last_flush: 0.0,
            timer_pending: false,
            webgpu,
            generate: None,
            helper_ports: Vec::new(),
        })
    });
    FLUSH.with(|f| *f.borrow_mut() = Some(Closure::new(flush)));
    report(Report::Ready { webgpu }, true);
    let handler = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| {
        on_message(e.data())
    });
    scope.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    handler.forget();
    for message in pending.iter() {
        on_message(message);
    }
}
