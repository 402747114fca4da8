//! The model kept in IndexedDB: saved after each epoch and at the end of training (and after
//! "Load weights"), restored on page load once the data set is ready, and "Forget saved model".
//! Storage failures become a notice (`persist-notice`); the page works on without them.

use super::{KeepState, Part};
use crate::charts::loss_curve::LossSeries;
use crate::charts::val_curve::EpochPoint;
use crate::kit::keep_text::KeepText;
use crate::kit::keep_text::SavedModel;
use crate::kit::persist::{self, Stored};
use crate::names::bridge::{self as bridge, Weights};
use crate::names::data_loader::LoadState;
use crate::names::session::RunStatus;
use crate::shell::engine_client::{EngineClient, UploadOutcome};
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;
use unroll_core::keep::{
    curve_until, decode_checkpoint, encode_checkpoint, export_trained, import_trained, DataSource,
    SavedEpoch, SavedSession, SavedValReport, StorageAction, StorageError, CHECKPOINT_VERSION_MIN,
    SAVED_VERSION,
};
use unroll_core::train::clock::sleep_ms;

/// The record of what the page shows now, or `None` when there are no weights or no data.
/// The encodings (weights as safetensors, the checkpoint) are left to [`Snapshot::encode`].
fn snapshot(state: KeepState, finished: bool) -> Option<Snapshot> {
    let h = state.hooks;
    let v = state.session;
    let w = v.weights.get_untracked()?;
    let classes = state.classes_untracked();
    if classes.is_empty() {
        return None;
    }
    let source = state.source.get_untracked();
    let mut losses = v.losses.get_untracked();
    // A run that can go on keeps its checkpoint: the weights, the step and the curves saved are
    // the checkpoint's, so Resume continues them without a gap or a repeat.
    let checkpoint = if finished {
        None
    } else {
        v.checkpoint.get_untracked()
    };
    let step = match &checkpoint {
        Some(c) => {
            let at = c.step();
            losses.step_loss = curve_until(&losses.step_loss, at);
            losses.mean_loss = curve_until(&losses.mean_loss, at);
            losses.small_batches.retain(|m| m.0 <= at);
            at
        }
        None => w.step,
    };
    let session = SavedSession {
        version: SAVED_VERSION,
        query: h.config.with_untracked(|c| bridge::encode_config(c, None)),
        source,
        classes,
        step,
        epoch: v.epoch.get_untracked(),
        step_loss: losses.step_loss,
        mean_loss: losses.mean_loss,
        small_batches: losses.small_batches,
        epochs: v.epochs.with_untracked(|e| {
            e.iter()
                .map(|(p, sec)| SavedEpoch {
                    epoch: p.epoch,
                    train_loss: p.train_loss,
                    val_loss: p.val_loss,
                    val_acc: p.val_acc,
                    sec: *sec,
                })
                .collect()
        }),
        val_report: v
            .last_val
            .with_untracked(|r| r.as_deref().map(SavedValReport::from_report)),
        finished,
        backend: v
            .backend
            .with_untracked(|b| b.as_ref().map(|b| b.key().to_owned())),
    };
    Some(Snapshot {
        session,
        weights: w,
        upload: state.upload_files.get_value().as_ref().clone(),
        checkpoint,
    })
}

/// What a save writes, before its two encodings.
struct Snapshot {
    session: SavedSession,
    weights: Rc<Weights>,
    upload: Vec<(String, Vec<u8>)>,
    checkpoint: Option<Rc<bridge::SweepCheckpoint>>,
}

impl Snapshot {
    /// The record to store: the weights of the checkpoint (or the latest ones) as safetensors
    /// and the checkpoint encoded. Each encoding runs in a task of its own, so neither holds
    /// the page for long while training goes on.
    ///
    /// Errors: the weights' export error.
    async fn encode(self) -> Result<Stored, StorageError> {
        let Snapshot {
            session,
            weights: w,
            upload,
            checkpoint,
        } = self;
        sleep_ms(0).await;
        let params = checkpoint
            .as_ref()
            .and_then(|c| c.runs.first())
            .map_or(w.params.as_slice(), |r| r.trainer.params.as_slice());
        let source = &session.source;
        let weights = export_trained(
            &w.model,
            params,
            &session.classes,
            w.model.head,
            session.step,
            source,
        )
        .map_err(StorageError::Weights)?;
        sleep_ms(0).await;
        let checkpoint = checkpoint.map(|c| encode_checkpoint(&c));
        sleep_ms(0).await;
        Ok(Stored {
            session,
            weights,
            upload,
            checkpoint,
        })
    }
}

thread_local! {
    /// A save waiting for its task: `Some(finished)` (finished if any request said so).
    static SAVE_PENDING: Cell<Option<bool>> = const { Cell::new(None) };
}

/// Saves what the page shows (in the background): the record is built in a task of its own,
/// after the update that asked for it, and requests made before that task runs (the epoch's
/// end and its checkpoint arrive together) are one save of the latest state.
pub fn save_now(state: KeepState, finished: bool) {
    let waiting = SAVE_PENDING.with(|p| p.replace(Some(p.get().unwrap_or(false) || finished)));
    if waiting.is_some() {
        return;
    }
    set_timeout(
        move || {
            let finished = SAVE_PENDING.with(|p| p.take()).unwrap_or(finished);
            save_latest(state, finished);
        },
        Duration::ZERO,
    );
}

/// Builds the record of what the page shows now and writes it.
fn save_latest(state: KeepState, finished: bool) {
    let Some(snapshot) = snapshot(state, finished) else {
        return;
    };
    let checkpoint_step = snapshot.checkpoint.as_ref().map(|_| snapshot.session.step);
    spawn_local(async move {
        let stored = match snapshot.encode().await {
            Ok(s) => s,
            Err(e) => {
                state.problem(StorageAction::Save, e);
                return;
            }
        };
        match persist::save(&stored).await {
            Ok(()) => {
                state.checkpoint_saved.set(checkpoint_step);
                state.has_saved.set(true);
                state.persist_problem.set(None);
                // The offered record was just replaced.
                state.offered.set(None);
            }
            Err(e) => state.problem(StorageAction::Save, e),
        }
    });
}

/// Offers the model saved in this browser (if any) for restoring, without touching it: after
/// weights without training metadata were loaded, the trained model stays one click away.
pub fn offer_saved(state: KeepState) {
    spawn_local(async move {
        match persist::load().await {
            Ok(Some(stored)) => {
                state.has_saved.set(true);
                state.offered.set(Some(Rc::new(stored)));
            }
            Ok(None) => {}
            Err(e) => read_failed(state, e),
        }
    });
}

/// Shows why the saved record could not be read. A record that is there but damaged (or of
/// another version) can still be deleted: "Forget saved model" is offered for it.
fn read_failed(state: KeepState, e: StorageError) {
    if matches!(
        e,
        StorageError::Damaged { .. } | StorageError::Version { .. }
    ) {
        state.has_saved.set(true);
    }
    state.problem(StorageAction::Read, e);
}

/// Puts a saved record back on the page; saved uploaded files are parsed again by the
/// engine's worker, as an upload is. Errors: why it cannot be used (the page keeps what it
/// has).
async fn restore(state: KeepState, mut stored: Stored) -> Result<(), StorageError> {
    let h = state.hooks;
    let v = state.session;
    if let DataSource::Upload { .. } = stored.session.source {
        reload_upload(state, &mut stored).await?;
    }
    let s = stored.session;
    let classes = state.classes_untracked();
    if classes != s.classes {
        return Err(StorageError::OtherClasses {
            saved: s.classes.len(),
            loaded: classes.len(),
        });
    }
    let imported = import_trained(&stored.weights).map_err(StorageError::Weights)?;
    // The metrics panel (confusion matrix, per-class accuracy) shows the saved report again.
    let val_report = s
        .val_report
        .as_ref()
        .map(|r| r.to_report(classes.len()))
        .transpose()
        .map_err(|detail| StorageError::Damaged { detail })?;
    let weights = Rc::new(Weights {
        model: imported.model.with_head(imported.head),
        params: imported.params,
        step: imported.step,
    });
    h.config.set(bridge::decode_config(&s.query).config);
    v.loss_mean_20.set(s.mean_loss.last().map(|(_, l)| *l));
    v.losses.set(LossSeries {
        step_loss: s.step_loss,
        mean_loss: s.mean_loss,
        small_batches: s.small_batches,
        ..LossSeries::default()
    });
    v.epochs.set(epoch_points(&s.epochs));
    // A run saved while it could go on offers Resume (an older record has no checkpoint, or
    // one of another layout).
    let checkpoint = match (&stored.checkpoint, s.finished) {
        (Some(bytes), false) if s.version >= CHECKPOINT_VERSION_MIN => Some(Rc::new(
            decode_checkpoint(bytes).map_err(|detail| StorageError::Damaged { detail })?,
        )),
        _ => None,
    };
    v.step.set(s.step);
    v.epoch.set(s.epoch);
    v.weights.set(Some(weights));
    v.checkpoint.set(checkpoint);
    v.last_val.set(val_report.map(Rc::new));
    state.restored.set(Some(s.step));
    state.acted(Part::Saved);
    Ok(())
}

/// Has the engine's worker parse a saved record's uploaded files again, as an upload is, and
/// makes them the page's data.
async fn reload_upload(state: KeepState, stored: &mut Stored) -> Result<(), StorageError> {
    let engine = EngineClient::get();
    let session = engine.new_session();
    let seed = bridge::decode_config(&stored.session.query).config.seed as u64;
    let files = std::mem::take(&mut stored.upload);
    let (files, outcome) = engine.upload(session, files, seed, 0, |_| {}).await;
    let summary_and_handle = match outcome {
        UploadOutcome::Loaded(summary, handle) => (summary, handle),
        UploadOutcome::Failed(e) => return Err(StorageError::SavedData(e)),
        UploadOutcome::Fault(f) => return Err(StorageError::Engine(f)),
        UploadOutcome::Cancelled => return Err(StorageError::Cancelled),
    };
    if state.busy() {
        return Err(StorageError::TrainingStarted);
    }
    let (summary, handle) = summary_and_handle;
    let loaded = Rc::new(bridge::loaded_upload(&summary, handle));
    state.use_data(loaded, stored.session.source.clone(), files);
    Ok(())
}

/// The saved epochs as the page's curves show them (point, seconds).
fn epoch_points(epochs: &[SavedEpoch]) -> Vec<(EpochPoint, f64)> {
    epochs
        .iter()
        .map(|e| {
            (
                EpochPoint {
                    epoch: e.epoch,
                    train_loss: e.train_loss,
                    val_loss: e.val_loss,
                    val_acc: e.val_acc,
                },
                e.sec,
            )
        })
        .collect()
}

/// The configuration's canonical query without `lang` and `autostart` (what a link and a saved
/// model are compared by).
fn canonical(config: &crate::names::bridge::TrainConfig) -> String {
    let mut c = config.clone();
    c.autostart = false;
    bridge::encode_config(&c, None)
}

/// A short summary of a saved configuration: cell, hidden_size, layers, seed and step.
fn summary(stored: &Stored) -> SavedModel {
    let c = bridge::decode_config(&stored.session.query).config;
    SavedModel {
        cell: c.cell.as_str().to_uppercase(),
        hidden_size: c.hidden_size,
        num_layers: c.num_layers,
        bidirectional: c.bidirectional,
        seed: c.seed,
        step: stored.session.step,
    }
}

/// Restores a saved model once the data set is ready when the page's link asks for the saved
/// configuration (otherwise offers it), and saves after each epoch and at the end of training.
pub fn install(state: KeepState) {
    let h = state.hooks;
    let v = state.session;
    // The configuration the page's link asks for (a shared link wins over the saved model).
    let link_query = canonical(&h.config.get_untracked());
    let pending = StoredValue::new_local(None::<Stored>);
    let loaded = RwSignal::new(false);
    spawn_local(async move {
        match persist::load().await {
            Ok(Some(stored)) => {
                state.has_saved.set(true);
                pending.set_value(Some(stored));
            }
            Ok(None) => {}
            Err(e) => read_failed(state, e),
        }
        loaded.set(true);
    });
    Effect::new(move |_| {
        let ready = h.data.with(|d| matches!(d, LoadState::Ready(_)));
        if !loaded.get() || !ready {
            return;
        }
        let Some(stored) = pending.try_update_value(|p| p.take()).flatten() else {
            return;
        };
        // A session the user already started, or a link asking for another configuration,
        // wins over the saved one: it is offered instead.
        let same = canonical(&bridge::decode_config(&stored.session.query).config) == link_query;
        if !same
            || v.status.get_untracked() != RunStatus::Idle
            || v.weights.with_untracked(|w| w.is_some())
        {
            state.offered.set(Some(Rc::new(stored)));
            return;
        }
        spawn_local(async move {
            if let Err(e) = restore(state, stored).await {
                state.problem(StorageAction::Restore, e);
            }
        });
    });
    // A new session replaces the restored model; Reset forgets the run's saved step.
    Effect::new(move |_| match v.status.get() {
        RunStatus::Running => state.restored.set(None),
        RunStatus::Idle => state.checkpoint_saved.set(None),
        _ => {}
    });
    // After each epoch (the weights published at the epoch's end follow its `Epoch` event) and
    // when the session finishes.
    let last_saved = StoredValue::new((0usize, false));
    Effect::new(move |_| {
        let has_weights = v.weights.with(|w| w.is_some());
        let status = v.status.get();
        if !has_weights
            || !matches!(
                status,
                RunStatus::Running | RunStatus::Paused | RunStatus::Finished
            )
        {
            if status == RunStatus::Idle {
                last_saved.set_value((0, false));
            }
            return;
        }
        let epochs = v.epochs.with_untracked(|e| e.len());
        let finished = status == RunStatus::Finished;
        let key = (epochs, finished);
        if epochs == 0 || key == last_saved.get_value() {
            return;
        }
        last_saved.set_value(key);
        save_now(state, finished);
    });
}

/// Seconds between two saves of a checkpoint when the record also holds uploaded files of more
/// than [`BIG_UPLOAD_BYTES`] (each save rewrites them).
const BIG_UPLOAD_SAVE_EVERY_MS: f64 = 30_000.0;
/// Uploaded bytes above which checkpoints are saved less often.
const BIG_UPLOAD_BYTES: usize = 5_000_000;

/// Saves the run's checkpoints as they arrive (every few seconds of training and on pause), so
/// a reload loses seconds, not an epoch.
pub fn install_checkpoint_saves(state: KeepState) {
    let v = state.session;
    let last = StoredValue::new(f64::NEG_INFINITY);
    Effect::new(move |_| {
        if v.checkpoint.with(|c| c.is_none()) {
            return;
        }
        if !v.status.get_untracked().busy() {
            return;
        }
        let big: usize = state
            .upload_files
            .get_value()
            .iter()
            .map(|(_, b)| b.len())
            .sum();
        let now = unroll_core::train::clock::now_ms();
        if big > BIG_UPLOAD_BYTES && now - last.get_value() < BIG_UPLOAD_SAVE_EVERY_MS {
            return;
        }
        last.set_value(now);
        save_now(state, false);
    });
}

/// The "Saved in this browser" part: restored line, storage notice, "Forget saved model".
#[component]
pub fn SavedModel(
    /// Shared keep state.
    state: KeepState,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let forgotten = RwSignal::new(false);
    let forget = move |_| forget_saved(state, forgotten);
    view! {
        <h3>{move || t().saved_heading}</h3>
        {move || state.offered.get().map(|stored| offer(state, &stored))}
        <RestoredLines state=state />
        // Without storage nothing is or will be saved: the notice below says so, alone.
        <p
            class="keep-help"
            class:hidden=move || {
                state
                    .persist_problem
                    .with(|p| p.as_ref().is_some_and(|p| matches!(p.error, StorageError::Unavailable { .. })))
            }
        >
            {move || {
                if forgotten.get() && !state.has_saved.get() {
                    t().forgotten
                } else if state.has_saved.get() {
                    t().saved_note
                } else {
                    t().nothing_saved
                }
            }}
        </p>
        {move || state.persist_problem.get().map(persist_notice)}
        <div class="keep-row">
            <button
                type="button"
                class="btn btn-ghost"
                data-testid="forget-saved"
                disabled=move || !state.has_saved.get()
                on:click=forget
            >
                {move || t().forget}
            </button>
        </div>
    }
}

/// Forgets the saved record; the note says so.
fn forget_saved(state: KeepState, forgotten: RwSignal<bool>) {
    spawn_local(async move {
        match persist::forget().await {
            Ok(()) => {
                state.has_saved.set(false);
                state.restored.set(None);
                state.offered.set(None);
                state.persist_problem.set(None);
                forgotten.set(true);
            }
            Err(e) => state.problem(StorageAction::Forget, e),
        }
    });
}

/// Restores the saved model offered.
fn restore_offered(state: KeepState) {
    let Some(stored) = state.offered.get_untracked() else {
        return;
    };
    spawn_local(async move {
        match restore(state, (*stored).clone()).await {
            Ok(()) => {
                state.offered.set(None);
                state.persist_problem.set(None);
            }
            Err(e) => state.problem(StorageAction::Restore, e),
        }
    });
}

/// The offer of a saved model the page did not restore by itself, with its Restore button.
fn offer(state: KeepState, stored: &Stored) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let text = summary(stored);
    view! {
        <div class="keep-msg" data-testid="saved-offer" data-value=stored.session.query.clone()>
            <p>{move || (t().saved_offer)(&(t().saved_model)(&text))}</p>
            <button
                type="button"
                class="btn"
                data-testid="restore-saved"
                disabled=move || state.busy()
                on:click=move |_| restore_offered(state)
            >
                {move || t().restore_offer}
            </button>
        </div>
    }
}

/// The restored model's step (and whether it can be resumed), or the step of the run's latest
/// saved checkpoint.
#[component]
fn RestoredLines(state: KeepState) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    view! {
        {move || {
            state.restored.get().map(|step| {
                let resumable = state.session.checkpoint.with(|c| c.is_some());
                view! {
                    <p class="keep-msg ok" data-testid="restored" data-value=step.to_string() data-resumable=resumable.to_string()>
                        {move || if resumable { (t().restored_resumable)(step) } else { (t().restored)(step) }}
                    </p>
                }
            })
        }}
        {move || {
            state.checkpoint_saved.get().filter(|_| state.restored.get().is_none()).map(|step| view! {
                <p class="keep-help" data-testid="checkpoint-saved" data-value=step.to_string()>
                    {move || (t().checkpoint_saved)(step)}
                </p>
            })
        }}
    }
}

/// Why storing failed, and what failed.
fn persist_notice(p: unroll_core::keep::StorageProblem) -> impl IntoView {
    let loc = use_locale();
    let t = move || KeepText::of(loc.lang());
    let detail = p.error.detail();
    let action = match p.action {
        StorageAction::Save => "save",
        StorageAction::Read => "read",
        StorageAction::Restore => "restore",
        StorageAction::Forget => "forget",
    };
    view! {
        <div class="notice notice-warn compact" role="status" data-testid="persist-notice" data-value=action>
            <div class="notice-body" title=detail>{move || (t().storage_problem)(&p)}</div>
        </div>
    }
}
