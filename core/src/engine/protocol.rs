//! The messages between the page and the engine's Web Worker.
//!
//! Configurations travel as their canonical URL query (the codec of [`crate::config`] reads
//! them back exactly), data sets and results as serde values. One message is a batch:
//! `Vec<Command>` from the page, `Vec<Report>` from the worker, encoded with `postcard`
//! ([`encode`] / [`decode`]).

use std::rc::Rc;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

use super::generate::{GenerateError, GenerateJob};
use crate::data::names::NamesDataset;
use crate::data::split::SplitCounts;
use crate::data::upload::{UploadError, UploadSummary};
use crate::task::generate::sample::{Quality, Sampled};
use crate::train::backend::CellBackend;
use crate::train::messages::{TrainError, TrainNotice};
use crate::train::sweep::{ParamCount, Progress, RunId, SweepCheckpoint, SweepPlan, Tick, Weights};

pub use super::DataId;
pub use crate::config::delay::MAX_WORKERS;
pub use crate::train::messages::EngineFault;

/// A session (one sweep, or one upload's parse), numbered by the page.
pub type SessionId = u64;

/// What the page asks of the worker.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Command {
    /// Keep `dataset` as data set `id` for the sessions that name it (replaces an older
    /// data set with the same id).
    Data {
        /// Its number.
        id: DataId,
        /// The names loaded and checked by the page (the built-in data set; uploads are parsed
        /// by the worker itself, [`Command::Upload`]).
        dataset: NamesDataset,
    },
    /// Parse the user's files ([`crate::data::upload::UploadParser`]) as session `session`;
    /// reports come as [`Report::Upload`], and a data set that loads is kept as data set
    /// `session` (the same number) until [`Command::Forget`]. [`Command::Stop`] cancels the
    /// parse.
    Upload {
        /// The page's number for this parse, and for the data set it gives.
        session: SessionId,
        /// `(file name, bytes)` as chosen.
        files: Vec<(String, FileBytes)>,
        /// The seed of the split reported with the summary.
        seed: u64,
        /// How many skipped lines the summary lists (it counts all).
        skipped_shown: usize,
    },
    /// The seeded split's counts of data set `data` for `seed` as session `session`: one
    /// [`Report::Split`], then `Ended`.
    Split {
        /// The page's number for this request.
        session: SessionId,
        /// The data set.
        data: DataId,
        /// The split's seed.
        seed: u64,
    },
    /// Drop data set `id` (the page no longer uses it).
    Forget(DataId),
    /// Train the sweep of a page's configuration ([`TrainRequest`]); reports come as
    /// [`Report::Lab`].
    Train {
        /// The page's number for this run.
        session: SessionId,
        /// What to train.
        request: Box<TrainRequest>,
    },
    /// Train the runs `runs` of the sweep of `request` alone, as session `session`: one
    /// worker's share of a sweep trained in parallel workers
    /// ([`crate::train::sweep::Sweep::only`]); reports come as [`Report::Lab`], its last
    /// checkpoint naming its finished runs just before `Finished`.
    TrainShare {
        /// The page's number for this share.
        session: SessionId,
        /// The whole sweep (its `resume` holds this share's runs, if any).
        request: Box<TrainRequest>,
        /// The runs of the share.
        runs: Vec<RunId>,
    },
    /// Pause a session at its next step boundary.
    Pause(SessionId),
    /// Resume a paused session.
    Resume(SessionId),
    /// End a session at its next step boundary (no `Finished`).
    Stop(SessionId),
    /// Debug hook: destroy the session's GPU device, as a driver reset would.
    LoseDevice(SessionId),
    /// Debug hook: make the session's learning rate far too large, so its loss becomes
    /// non-finite ([`crate::train::sweep::Sweep::diverge`]).
    Diverge(SessionId),
    /// Debug hook: hold the session at the first tick boundary at which every run of the seed
    /// in training reached `step` (as [`Command::Pause`] does: a checkpoint, then nothing until resumed or
    /// stopped), without the page being told: a test reloads a page whose sweep is then
    /// certainly mid-run ([`super::run::RunControl::hold_at`]).
    HoldAt(SessionId, u64),
    /// Write one name with a generator's weights ([`super::generate::sample_job`]): one
    /// [`Report::Sample`], then `Ended`.
    Sample {
        /// The page's number for this request.
        session: SessionId,
        /// The weights, data and request.
        job: Box<GenerateJob>,
    },
    /// The quality of `samples` names per language written with a generator's weights
    /// ([`super::generate::quality_job`]): one [`Report::Quality`] per language of
    /// `languages`, in that order, then `Ended`. [`Command::Stop`] ends it between languages.
    Quality {
        /// The page's number for this request.
        session: SessionId,
        /// The weights, data and template request.
        job: Box<GenerateJob>,
        /// The languages' class indices.
        languages: Vec<u32>,
        /// Names written per language.
        samples: usize,
    },
}

/// The sweep a [`Command::Train`] asks for.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TrainRequest {
    /// The canonical query of the page's configuration: a `lesson=names` query (the names
    /// classifier on data set `data`) or a `lesson=delay` query (delay-copy or a long-memory
    /// task, [`SweepPlan::of_lab`]).
    pub query: String,
    /// The names data set (sent before with [`Command::Data`], or an upload's).
    pub data: Option<DataId>,
    /// Go on from this checkpoint of the sweep's first seed (saved by an earlier sweep of the
    /// same settings, [`LabEvent::Checkpoint`]).
    pub resume: Option<SweepCheckpoint>,
    /// Start the first seed's runs from these weights instead of a fresh initialisation
    /// (Adam's moments at zero).
    pub start_from: Option<Vec<f32>>,
    /// Shares per batch of the runs' CPU steps ([`crate::train::split`]; 1: unsplit); a
    /// `resume` checkpoint's own count wins. The shares after the first go to the helper
    /// workers the page connected to this worker ([`crate::engine::worker`]), if any.
    pub shares: usize,
}

/// What the worker tells the page.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Report {
    /// The worker has loaded the engine and handles commands.
    Ready {
        /// Whether this worker sees `navigator.gpu` (WebGPU inside workers).
        webgpu: bool,
    },
    /// An event of a sweep, in the session's order.
    Lab {
        /// The session.
        session: SessionId,
        /// The event.
        event: LabEvent,
    },
    /// An event of an upload's parse.
    Upload {
        /// The parse's session.
        session: SessionId,
        /// The event.
        event: UploadEvent,
    },
    /// The answer to [`Command::Split`] (`None`: the worker has no such data set).
    Split {
        /// The request's session.
        session: SessionId,
        /// The counts.
        counts: Option<SplitCounts>,
    },
    /// The name a [`Command::Sample`] wrote, or why none.
    Sample {
        /// The request's session.
        session: SessionId,
        /// The name with each step's distribution and `h_t`.
        result: Result<Sampled, GenerateError>,
    },
    /// One language's quality figures of a [`Command::Quality`], or why none.
    Quality {
        /// The request's session.
        session: SessionId,
        /// The figures.
        result: Result<Quality, GenerateError>,
    },
    /// The session's task has returned (after its last event).
    Ended(SessionId),
    /// The engine panicked; the message says where.
    Fatal(String),
    /// Bytes of the worker's wasm memory, sent with a batch when they changed (a sweep in
    /// parallel workers reports the sum of its workers').
    Memory(u64),
}

/// What the sweep trains, sent first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlanInfo {
    /// Every run, in the sweep's order (seed-major).
    pub runs: Vec<RunId>,
    /// Each cell's parameter count.
    pub params: Vec<ParamCount>,
    /// Optimisation steps of every run.
    pub steps: u64,
    /// Steps between two held-out evaluations (the names lab: one epoch).
    pub eval_every: u64,
}

impl PlanInfo {
    /// What `plan` trains.
    pub fn of(plan: &SweepPlan) -> PlanInfo {
        PlanInfo {
            runs: plan.run_ids(),
            params: plan.param_counts(),
            steps: plan.steps,
            eval_every: plan.eval_every,
        }
    }
}

/// What a sweep reports, in order: `Plan`, the first seed's `Weights` (and `GradFlow`), a
/// `Backend` per cell, then `Tick`s with `Progress`, `Weights`/`GradFlow` and `Checkpoint`s
/// between them, and `Finished` (or `Error`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum LabEvent {
    /// What the sweep trains (sent first).
    Plan(PlanInfo),
    /// The path a cell's runs train on: one per cell before the first tick, and again when a
    /// lost GPU device hands its runs to the CPU path (`CpuReason::DeviceLost`).
    Backend(CellBackend),
    /// One unit of work of one run: optimisation steps, a held-out evaluation, or both; the
    /// tick that finishes a run carries its result.
    Tick(Box<Tick>),
    /// The weights of a run of the seed being trained (before training, every few seconds, at
    /// each held-out evaluation, on pause and at the end).
    Weights {
        /// The run.
        run: RunId,
        /// Its weights.
        weights: Rc<Weights>,
    },
    /// `‖∂L/∂h_t‖` per step before the readout (index 0 = the readout step) on the task's
    /// fixed gradient-flow batch, with the weights of `step`; sent after the run's `Weights`
    /// when the task has such a batch.
    GradFlow {
        /// The run.
        run: RunId,
        /// The step of the weights used.
        step: u64,
        /// Mean norm per step before the readout.
        norms: Rc<Vec<f32>>,
    },
    /// The sweep's progress and the arg-max predictions of the runs being trained on the
    /// task's example sequence (empty without one), every few hundred milliseconds and at the
    /// end.
    Progress {
        /// Steps and runs done so far.
        progress: Progress,
        /// One entry per run of the seed being trained.
        predictions: Vec<(RunId, Vec<u32>)>,
    },
    /// Where the seed in training stands, so a later sweep can go on from it (every few
    /// seconds while it trains, after held-out evaluations, and on pause).
    Checkpoint(Box<SweepCheckpoint>),
    /// Something the user should know that does not stop training (a skipped step).
    Notice(TrainNotice),
    /// The Web Workers the sweep's runs train on (sent by the page's engine client after
    /// `Plan`, and again when a worker could not start and the sweep goes on with fewer).
    Workers(Workers),
    /// Every run trained its budget.
    Finished,
    /// The sweep could not start, stopped at a non-finite loss or the engine failed. After
    /// a non-finite loss one more event follows: the run's `Weights` from before that step.
    Error(TrainError),
}

/// How many Web Workers a sweep's runs train on, side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Workers {
    /// Workers training the sweep now.
    pub used: usize,
    /// Workers the sweep asked for (the URL's `workers`, or the machine's cores less one,
    /// at most [`MAX_WORKERS`] and at most the sweep's runs).
    pub wanted: usize,
    /// Workers that could not start (the sweep goes on without them).
    pub failed: usize,
    /// Why the sweep uses one worker where more were asked for, if it does.
    pub single: Option<SingleWorker>,
    /// Shares per batch of a single run split across the workers ([`crate::train::split`]):
    /// 1 when its runs are not split (a sweep's runs side by side, or one worker).
    pub shares: usize,
    /// Bytes of wasm memory the workers training it hold together, as they last reported
    /// (0 before they have).
    pub memory: u64,
}

/// Why a sweep trains on one worker where more were asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SingleWorker {
    /// Its runs may train on WebGPU (one device, driven from one worker).
    Gpu,
    /// Its one run is not split: on a machine with `cores` logical cores a split step costs
    /// more in messages than it saves ([`crate::engine::parallel::SPLIT_MIN_CORES`]).
    SplitDoesNotPay {
        /// The machine's logical cores (`navigator.hardwareConcurrency`).
        cores: usize,
    },
    /// Its one run is not split by `workers=0`: its step is smaller than the one measured to
    /// pay ([`crate::engine::parallel::SPLIT_MIN_HIDDEN`],
    /// [`crate::engine::parallel::SPLIT_MIN_ROWS`]).
    StepTooSmall {
        /// Hidden size H.
        hidden: usize,
        /// Sequences per step.
        batch: usize,
    },
}

/// What an upload's parse reports: progress, then one outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum UploadEvent {
    /// The share of the parse done, 0–1 ([`crate::data::upload::UploadParser::progress`]).
    Progress(f64),
    /// The data set loaded and is kept under the parse's number; what the page shows of it.
    Loaded(Box<UploadSummary>),
    /// The files give no data set (the parser's typed error, naming file and line).
    Failed(UploadError),
    /// The engine failed while parsing (the page's client reports this itself when the worker
    /// stops; the worker never sends it).
    Fault(EngineFault),
    /// Stopped by [`Command::Stop`] before the end.
    Cancelled,
}

/// A file's bytes, encoded as one byte string (a copy, not a sequence of numbers).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileBytes(pub Vec<u8>);

impl Serialize for FileBytes {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for FileBytes {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = FileBytes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<FileBytes, E> {
                Ok(FileBytes(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<FileBytes, E> {
                Ok(FileBytes(v))
            }
        }
        deserializer.deserialize_byte_buf(Visitor)
    }
}

/// Encodes one message.
///
/// # Panics
/// Never for the types of this module (postcard only fails on unsupported serde features).
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).expect("postcard encodes every protocol value")
}

/// Decodes one message.
///
/// # Errors
/// The decoder's message when `bytes` is not a message of type `T`.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    postcard::from_bytes(bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::config::delay::{DelayConfig, DelayRangeError, LabTask};
    use crate::config::{Head, TrainConfig};
    use crate::gpu::GpuError;
    use crate::math::model::{Readout, SeqModel};
    use crate::math::params::{CellKind, RnnSpec};
    use crate::task::TaskError;
    use crate::train::backend::{BackendKind, StepTimings};
    use crate::train::messages::CpuReason;
    use crate::train::sweep::{HeldOut, ResumeRefused, RunResult};
    use crate::train::trainer::{Backend, StepRecord};

    fn weights() -> Weights {
        let spec = RnnSpec::stacked(CellKind::Lstm, 5, 3, 2, true);
        let model = SeqModel::new(spec, 4)
            .with_head(Head::Padded)
            .with_readout(Readout::LastK(2));
        let params = (0..model.layout.total_len())
            .map(|i| i as f32 * 0.5 - 3.0)
            .collect();
        Weights {
            model,
            params,
            step: 17,
        }
    }

    /// Weights travel as their model's arguments and come back as the same model.
    #[test]
    fn weights_round_trip() {
        let w = weights();
        let back = decode::<Weights>(&encode(&w)).unwrap();
        assert_eq!(back.params, w.params);
        assert_eq!(back.step, 17);
        assert_eq!(back.model.spec, w.model.spec);
        assert_eq!(back.model.head, Head::Padded);
        assert_eq!(back.model.readout, Readout::LastK(2));
        assert_eq!(back.model.layout, w.model.layout);
    }

    /// Every event kind survives the trip page ← worker with its values.
    #[test]
    fn events_round_trip() {
        let run = RunId {
            cell: CellKind::Gru,
            seed: 4,
        };
        let held = HeldOut {
            cell: run.cell,
            seed: run.seed,
            step: 3,
            acc: 0.5,
            loss: 2.25,
            solved: false,
            train_loss: Some(2.5),
            train_acc: None,
        };
        let step = StepRecord {
            step: 3,
            loss: 2.875,
            acc: 0.25,
            grad_norm: 1.5,
            skipped: false,
            sequences: 17,
            backend: Backend::Gpu,
        };
        let tick = Tick {
            run,
            steps: vec![step],
            heldout: Some(held),
            confusion: Some(vec![1, 0, 2, 3]),
            finished: Some(RunResult {
                run,
                task: "delay:vocab=2:length=4:delay=1".into(),
                steps: 3,
                skipped_steps: 0,
                params: ParamCount {
                    cell: run.cell,
                    total: 9,
                    recurrent: 7,
                },
                curve: vec![held],
                backend: Some(Backend::Gpu),
                cpu_from: Some(2),
            }),
            fell_back: None,
            bad_loss: Some((f64::NAN, 4)),
            ms: 12.5,
            eval_ms: 2.0,
        };
        let events = vec![
            LabEvent::Plan(PlanInfo {
                runs: vec![run],
                params: vec![ParamCount {
                    cell: run.cell,
                    total: 9,
                    recurrent: 7,
                }],
                steps: 30,
                eval_every: 10,
            }),
            LabEvent::Backend(CellBackend {
                cell: CellKind::Gru,
                kind: BackendKind::Cpu {
                    notice: Some(CpuReason::DeviceLost {
                        error: GpuError::DeviceLost("destroyed".into()),
                        step: 41,
                    }),
                },
            }),
            LabEvent::Backend(CellBackend {
                cell: CellKind::Rnn,
                kind: BackendKind::Gpu {
                    description: "lavapipe".into(),
                    measured: Some(StepTimings {
                        gpu_ms: 2.1,
                        cpu_ms: 6.8,
                    }),
                },
            }),
            LabEvent::Tick(Box::new(tick.clone())),
            LabEvent::Weights {
                run,
                weights: Rc::new(weights()),
            },
            LabEvent::GradFlow {
                run,
                step: 3,
                norms: Rc::new(vec![1.0, 0.5]),
            },
            LabEvent::Progress {
                progress: Progress {
                    steps_done: 3,
                    steps_total: 30,
                    runs_finished: 0,
                    runs_total: 1,
                },
                predictions: vec![(run, vec![1, 0, 1])],
            },
            LabEvent::Notice(TrainNotice::SkippedStep { step: 12 }),
            LabEvent::Finished,
            LabEvent::Error(TrainError::BadLoss {
                loss: f32::NAN,
                step: 42,
                clipping: false,
            }),
            LabEvent::Error(TrainError::Task(TaskError::Delay(DelayRangeError {
                delay: 90,
                length: 80,
            }))),
            LabEvent::Error(TrainError::Resume(ResumeRefused::Shape {
                run,
                saved: 10,
                expected: 12,
            })),
            LabEvent::Error(TrainError::Engine(EngineFault::NoData)),
        ];
        let batch: Vec<Report> = events
            .iter()
            .map(|e| Report::Lab {
                session: 5,
                event: e.clone(),
            })
            .collect();
        let back: Vec<LabEvent> = decode::<Vec<Report>>(&encode(&batch))
            .unwrap()
            .into_iter()
            .map(|r| match r {
                Report::Lab { session: 5, event } => event,
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(back.len(), events.len());
        assert!(matches!(&back[0], LabEvent::Plan(p) if p.steps == 30 && p.runs == [run]));
        assert!(matches!(
            &back[1],
            LabEvent::Backend(CellBackend {
                kind: BackendKind::Cpu {
                    notice: Some(CpuReason::DeviceLost { error: GpuError::DeviceLost(m), step: 41 })
                },
                ..
            }) if m == "destroyed"
        ));
        assert!(
            matches!(&back[2], LabEvent::Backend(b) if b.kind == BackendKind::Gpu {
                description: "lavapipe".into(),
                measured: Some(StepTimings { gpu_ms: 2.1, cpu_ms: 6.8 }),
            })
        );
        let LabEvent::Tick(t) = &back[3] else {
            panic!("{:?}", back[3])
        };
        assert_eq!(
            (t.steps.clone(), t.heldout, t.confusion.clone()),
            (tick.steps, tick.heldout, tick.confusion)
        );
        assert_eq!(t.finished, tick.finished);
        // The failing step and the loss travel as numbers (NaN stays NaN).
        assert!(matches!(t.bad_loss, Some((l, 4)) if l.is_nan()));
        assert!(
            matches!(&back[4], LabEvent::Weights { weights: w, .. } if w.params == weights().params)
        );
        assert!(
            matches!(&back[5], LabEvent::GradFlow { step: 3, norms, .. } if **norms == vec![1.0, 0.5])
        );
        assert!(
            matches!(&back[6], LabEvent::Progress { predictions, .. } if predictions == &[(run, vec![1, 0, 1])])
        );
        assert!(matches!(
            &back[7],
            LabEvent::Notice(TrainNotice::SkippedStep { step: 12 })
        ));
        assert!(matches!(back[8], LabEvent::Finished));
        assert!(
            matches!(&back[9], LabEvent::Error(TrainError::BadLoss { loss, step: 42, clipping: false }) if loss.is_nan())
        );
        assert!(matches!(
            &back[10],
            LabEvent::Error(TrainError::Task(TaskError::Delay(DelayRangeError {
                delay: 90,
                length: 80
            })))
        ));
        assert!(matches!(
            &back[11],
            LabEvent::Error(TrainError::Resume(ResumeRefused::Shape {
                saved: 10,
                expected: 12,
                ..
            }))
        ));
        assert!(matches!(
            &back[12],
            LabEvent::Error(TrainError::Engine(EngineFault::NoData))
        ));
    }

    /// An upload travels as its files' bytes; its events and the split counts come back with
    /// their values.
    #[test]
    fn upload_and_split_round_trip() {
        let files = vec![
            (
                "own.tsv".to_owned(),
                FileBytes(b"Abe\tJapanese\nM\xfcller\tGerman\n".to_vec()),
            ),
            ("empty.txt".to_owned(), FileBytes(Vec::new())),
        ];
        let commands = vec![
            Command::Upload {
                session: 4,
                files: files.clone(),
                seed: 9,
                skipped_shown: 5,
            },
            Command::Split {
                session: 6,
                data: 4,
                seed: 2,
            },
            Command::Forget(4),
            Command::Stop(4),
        ];
        let bytes = encode(&commands);
        let back = decode::<Vec<Command>>(&bytes).unwrap();
        assert!(
            matches!(&back[0], Command::Upload { session: 4, files: f, seed: 9, skipped_shown: 5 } if *f == files)
        );
        assert!(matches!(
            back[1],
            Command::Split {
                session: 6,
                data: 4,
                seed: 2
            }
        ));
        assert!(matches!(back[2], Command::Forget(4)));
        assert!(matches!(back[3], Command::Stop(4)));

        let up = crate::data::upload::dataset_from_uploads(&[(
            "own.tsv",
            "Abe\tJapanese\nSato\tJapanese\nweird\n\nMuller\tGerman\nSchmidt\tGerman\n".as_bytes(),
        )])
        .unwrap();
        let summary = up.summary(3, 5);
        let reports = vec![
            Report::Upload {
                session: 4,
                event: UploadEvent::Progress(0.25),
            },
            Report::Upload {
                session: 4,
                event: UploadEvent::Loaded(Box::new(summary.clone())),
            },
            Report::Upload {
                session: 5,
                event: UploadEvent::Failed(UploadError::MissingTab {
                    file: "bad.tsv".into(),
                    line: 1,
                }),
            },
            Report::Upload {
                session: 7,
                event: UploadEvent::Cancelled,
            },
            Report::Split {
                session: 6,
                counts: Some(summary.split.clone()),
            },
            Report::Split {
                session: 8,
                counts: None,
            },
        ];
        let back = decode::<Vec<Report>>(&encode(&reports)).unwrap();
        let events: Vec<(SessionId, UploadEvent)> = back[..4]
            .iter()
            .map(|r| match r {
                Report::Upload { session, event } => (*session, event.clone()),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(events[0], (4, UploadEvent::Progress(0.25)));
        assert_eq!(
            events[1],
            (4, UploadEvent::Loaded(Box::new(summary.clone())))
        );
        assert_eq!(
            events[2],
            (
                5,
                UploadEvent::Failed(UploadError::MissingTab {
                    file: "bad.tsv".into(),
                    line: 1
                })
            )
        );
        assert_eq!(events[3], (7, UploadEvent::Cancelled));
        assert!(
            matches!(&back[4], Report::Split { session: 6, counts: Some(c) } if *c == summary.split)
        );
        assert!(matches!(
            back[5],
            Report::Split {
                session: 8,
                counts: None
            }
        ));
        assert_eq!(summary.skipped, 1);
    }

    /// Commands carry the configuration as its canonical query, which reads back exactly,
    /// with what the sweep starts from.
    #[test]
    fn commands_round_trip_with_the_configuration() {
        let cfg = TrainConfig {
            hidden_size: 48,
            lr: 0.0003,
            ..TrainConfig::default()
        };
        let lab = DelayConfig {
            task: LabTask::Order,
            ..DelayConfig::default()
        };
        let commands = vec![
            Command::Train {
                session: 1,
                request: Box::new(TrainRequest {
                    query: cfg.to_query(),
                    data: Some(2),
                    resume: None,
                    start_from: Some(vec![0.5, -1.0]),
                    shares: 1,
                }),
            },
            Command::Train {
                session: 3,
                request: Box::new(TrainRequest {
                    query: crate::config::query::encode(&lab, None),
                    data: None,
                    resume: None,
                    start_from: None,
                    shares: 1,
                }),
            },
            Command::Pause(1),
            Command::Stop(1),
            Command::Diverge(1),
            Command::HoldAt(1, 500),
        ];
        let back = decode::<Vec<Command>>(&encode(&commands)).unwrap();
        let Command::Train { request, .. } = &back[0] else {
            panic!("{back:?}")
        };
        assert_eq!(TrainConfig::from_query(&request.query).config, cfg);
        assert_eq!(
            (request.data, request.start_from.clone()),
            (Some(2), Some(vec![0.5, -1.0]))
        );
        let Command::Train { request, .. } = &back[1] else {
            panic!("{back:?}")
        };
        assert_eq!(
            crate::config::query::decode::<DelayConfig>(&request.query).config,
            lab
        );
        assert!(matches!(back[3], Command::Stop(1)));
        assert!(matches!(back[4], Command::Diverge(1)));
        assert!(matches!(back[5], Command::HoldAt(1, 500)));
        assert!(decode::<Vec<Command>>(&[0xff, 0xff, 0xff]).is_err());
    }
}
