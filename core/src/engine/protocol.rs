//! The messages between the page and the engine's Web Worker.
//!
//! Configurations travel as their canonical URL query (the codec of [`crate::config`] reads
//! them back exactly), data sets and results as serde values. One message is a batch:
//! `Vec<Command>` from the page, `Vec<Report>` from the worker, encoded with `postcard`
//! ([`encode`] / [`decode`]).

use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::config::delay::DelayRangeError;
use crate::data::names::NamesDataset;
use crate::data::split::SplitCounts;
use crate::data::upload::{UploadError, UploadSummary};
use crate::delay::backend::CellBackend;
use crate::delay::run::{Progress, ResumeRefused, RunId, SweepCheckpoint, Tick};
use crate::train::session::{Checkpoint, EngineFault, TrainEvent};

/// A session (one names run, one compare run or one delay-copy run), numbered by the page.
pub type SessionId = u64;
/// A data set kept by the worker, numbered by the page.
pub type DataId = u64;

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
    /// Train the name classifier on data set `data` with the configuration of `query` (a
    /// `lesson=names` query); reports come as [`Report::Names`].
    Names {
        /// The page's number for this run.
        session: SessionId,
        /// The canonical query of the run's `TrainConfig`.
        query: String,
        /// The data set (sent before with [`Command::Data`]).
        data: DataId,
        /// Go on from this checkpoint of an earlier run with the same configuration and data.
        resume: Option<Checkpoint>,
    },
    /// Train the delay-copy task with the configuration of `query` (a `lesson=delay` query):
    /// every cell × seed, one after another ([`crate::delay::Sweep`]); reports come as
    /// [`Report::Delay`].
    Delay {
        /// The page's number for this run.
        session: SessionId,
        /// The canonical query of the run's `DelayConfig`.
        query: String,
        /// Go on from this checkpoint of the configuration's first seed (saved by an earlier
        /// sweep of the same settings, [`DelayEvent::Checkpoint`]).
        resume: Option<Box<SweepCheckpoint>>,
    },
    /// Train a long-memory task (the adding problem, copy memory or temporal order) with the
    /// configuration of `query` (a `lesson=delay` query with its `task`): every cell × seed of
    /// [`crate::memory::run::MemoryPlan`]; reports come as [`Report::Memory`].
    Memory {
        /// The page's number for this run.
        session: SessionId,
        /// The canonical query of the run's `DelayConfig`.
        query: String,
        /// The first run to train (the plan's earlier runs were trained before a reload).
        #[serde(default)]
        from_run: usize,
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
    /// non-finite ([`crate::train::session::TrainControl::simulate_divergence`]).
    Diverge(SessionId),
}

/// What the worker tells the page.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Report {
    /// The worker has loaded the engine and handles commands.
    Ready {
        /// Whether this worker sees `navigator.gpu` (WebGPU inside workers).
        webgpu: bool,
    },
    /// An event of a names session, in the session's order.
    Names {
        /// The session.
        session: SessionId,
        /// The event.
        event: TrainEvent,
    },
    /// An event of a delay-copy run.
    Delay {
        /// The session.
        session: SessionId,
        /// The event.
        event: DelayEvent,
    },
    /// An event of a long-memory run.
    Memory {
        /// The session.
        session: SessionId,
        /// The event.
        event: crate::memory::run::MemoryEvent,
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
    /// The session's task has returned (after its last event).
    Ended(SessionId),
    /// The engine panicked; the message says where.
    Fatal(String),
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

/// What a delay-copy sweep (every cell × seed of one configuration) reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DelayEvent {
    /// The path a cell's runs train on: one per cell before the first tick, and again when a
    /// lost GPU device hands its runs to the CPU path (`CpuReason::DeviceLost`).
    Backend(CellBackend),
    /// One unit of work of one run: an optimisation step, a held-out evaluation, or both; the
    /// tick that finishes a run carries its result.
    Tick(Tick),
    /// Arg-max predictions `[T − d]` on the example sequence of the runs being trained, and
    /// the sweep's progress (sent every few hundred milliseconds and at the end).
    Predictions {
        /// One entry per run of the seed being trained.
        runs: Vec<(RunId, Vec<u32>)>,
        /// Steps and runs done so far.
        progress: Progress,
    },
    /// Where the seed in training stands, so a later sweep can go on from it (sent every few
    /// seconds while it trains, see `checkpoint_every_ms`, and on pause).
    Checkpoint(Box<SweepCheckpoint>),
    /// Every run trained its step budget.
    Finished,
    /// The run could not start or the engine failed.
    Error(DelayError),
}

/// Why a delay-copy sweep did not run ([`DelayEvent::Error`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DelayError {
    /// The configuration breaks `0 < delay < length`.
    Range(DelayRangeError),
    /// The training engine failed.
    Engine(EngineFault),
    /// The checkpoint to go on from does not fit the sweep.
    Resume(ResumeRefused),
}

impl std::fmt::Display for DelayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DelayError::Range(e) => e.fmt(f),
            DelayError::Engine(e) => e.fmt(f),
            DelayError::Resume(e) => e.fmt(f),
        }
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
    use crate::config::{Head, TrainConfig};
    use crate::gpu::GpuError;
    use crate::math::classifier::ClassifierModel;
    use crate::math::params::RnnSpec;
    use crate::math::params::{CellKind, Nonlinearity};
    use crate::train::session::CpuReason;
    use crate::train::session::{
        BackendKind, EpochReport, TrainError, TrainNotice, ValReport, Weights,
    };

    /// A delay sweep's errors travel with their numbers.
    #[test]
    fn delay_errors_round_trip() {
        let reports = vec![
            Report::Delay {
                session: 3,
                event: DelayEvent::Error(DelayError::Range(DelayRangeError {
                    delay: 90,
                    length: 80,
                })),
            },
            Report::Delay {
                session: 4,
                event: DelayEvent::Error(DelayError::Engine(EngineFault::NoData)),
            },
        ];
        let back = decode::<Vec<Report>>(&encode(&reports)).unwrap();
        let events: Vec<DelayEvent> = back
            .into_iter()
            .map(|r| match r {
                Report::Delay { event, .. } => event,
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(
            events,
            vec![
                DelayEvent::Error(DelayError::Range(DelayRangeError {
                    delay: 90,
                    length: 80
                })),
                DelayEvent::Error(DelayError::Engine(EngineFault::NoData)),
            ]
        );
    }

    fn weights() -> Weights {
        let spec = RnnSpec {
            cell: CellKind::Lstm,
            nonlinearity: Nonlinearity::Tanh,
            input_size: 5,
            hidden_size: 3,
            num_layers: 2,
            bidirectional: true,
        };
        let model = ClassifierModel::new(spec, 4).with_head(Head::Padded);
        let params = (0..model.layout.total_len())
            .map(|i| i as f32 * 0.5 - 3.0)
            .collect();
        Weights {
            model,
            params,
            step: 17,
        }
    }

    /// Weights travel as their architecture's arguments and come back as the same model.
    #[test]
    fn weights_round_trip() {
        let w = weights();
        let back = decode::<Weights>(&encode(&w)).unwrap();
        assert_eq!(back.params, w.params);
        assert_eq!(back.step, 17);
        assert_eq!(back.model.spec, w.model.spec);
        assert_eq!(back.model.head, Head::Padded);
        assert_eq!(back.model.layout, w.model.layout);
    }

    /// Every event kind survives the trip page ← worker with its values.
    #[test]
    fn events_round_trip() {
        let mut report = ValReport::new(2, 3);
        report.add(0, 0);
        report.add(2, 1);
        let checkpoint = Checkpoint {
            step: 9,
            epoch: 2,
            batches_done: 4,
            epoch_loss: 7.25,
            epoch_correct: 40,
            epoch_names: 64,
            params: vec![1.0, -2.0],
            adam_step: 9,
            adam_m: vec![0.1, 0.2],
            adam_v: vec![0.3, 0.4],
            recent: vec![2.5, 2.25],
        };
        let events = [
            TrainEvent::Backend(BackendKind::Cpu {
                notice: Some(CpuReason::DeviceLost {
                    error: GpuError::DeviceLost("destroyed".into()),
                    step: 41,
                }),
            }),
            TrainEvent::Step {
                step: 3,
                epoch: 1,
                loss: 2.875,
                mean_loss_20: 2.9,
                names: 17,
            },
            TrainEvent::Epoch(EpochReport {
                epoch: 1,
                train_loss: 2.5,
                train_acc: 0.375,
                val_loss: 2.25,
                val_acc: 0.5,
                sec: 1.5,
            }),
            TrainEvent::Validation(Rc::new(report.clone())),
            TrainEvent::GradFlow {
                step: 3,
                norms: Rc::new(vec![1.0, 0.5]),
            },
            TrainEvent::DeviceLost(GpuError::DeviceLost("lost".into())),
            TrainEvent::Weights(Rc::new(weights())),
            TrainEvent::Checkpoint(Rc::new(checkpoint.clone())),
            TrainEvent::Notice(TrainNotice::SkippedStep { step: 12 }),
            TrainEvent::Finished,
            TrainEvent::Error(TrainError::BadLoss {
                loss: f32::NAN,
                step: 42,
                clipping: false,
            }),
            TrainEvent::Error(TrainError::ResumeMismatch {
                saved: 10,
                expected: 12,
            }),
            TrainEvent::Error(TrainError::Engine(EngineFault::Stopped("panic".into()))),
            TrainEvent::Backend(BackendKind::Cpu {
                notice: Some(CpuReason::NoWorkerWebGpu(GpuError::NoAdapter(
                    "navigator.gpu".into(),
                ))),
            }),
        ];
        let batch: Vec<Report> = events
            .iter()
            .map(|e| Report::Names {
                session: 5,
                event: e.clone(),
            })
            .collect();
        let back = decode::<Vec<Report>>(&encode(&batch)).unwrap();
        assert_eq!(back.len(), events.len());
        let back: Vec<TrainEvent> = back
            .into_iter()
            .map(|r| match r {
                Report::Names { session: 5, event } => event,
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert!(matches!(
            &back[0],
            TrainEvent::Backend(BackendKind::Cpu {
                notice: Some(CpuReason::DeviceLost { error: GpuError::DeviceLost(m), step: 41 })
            }) if m == "destroyed"
        ));
        assert!(
            matches!(back[1], TrainEvent::Step { step: 3, epoch: 1, loss, names: 17, .. } if loss == 2.875)
        );
        assert!(matches!(&back[2], TrainEvent::Epoch(r) if r.val_acc == 0.5 && r.sec == 1.5));
        assert!(matches!(&back[3], TrainEvent::Validation(v) if **v == report));
        assert!(
            matches!(&back[4], TrainEvent::GradFlow { step: 3, norms } if **norms == vec![1.0, 0.5])
        );
        assert!(matches!(&back[6], TrainEvent::Weights(w) if w.params == weights().params));
        assert!(matches!(&back[7], TrainEvent::Checkpoint(c) if **c == checkpoint));
        assert!(matches!(&back[5], TrainEvent::DeviceLost(GpuError::DeviceLost(m)) if m == "lost"));
        assert!(matches!(
            &back[8],
            TrainEvent::Notice(TrainNotice::SkippedStep { step: 12 })
        ));
        // The failing step and the loss travel as numbers (NaN stays NaN).
        assert!(
            matches!(&back[10], TrainEvent::Error(TrainError::BadLoss { loss, step: 42, clipping: false }) if loss.is_nan())
        );
        assert!(matches!(
            &back[11],
            TrainEvent::Error(TrainError::ResumeMismatch {
                saved: 10,
                expected: 12
            })
        ));
        assert!(
            matches!(&back[12], TrainEvent::Error(TrainError::Engine(EngineFault::Stopped(m))) if m == "panic")
        );
        assert!(matches!(
            &back[13],
            TrainEvent::Backend(BackendKind::Cpu {
                notice: Some(CpuReason::NoWorkerWebGpu(GpuError::NoAdapter(_)))
            })
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

    /// Commands carry the configuration as its canonical query, which reads back exactly.
    #[test]
    fn commands_round_trip_with_the_configuration() {
        let cfg = TrainConfig {
            hidden_size: 48,
            lr: 0.0003,
            ..TrainConfig::default()
        };
        let commands = vec![
            Command::Names {
                session: 1,
                query: cfg.to_query(),
                data: 2,
                resume: None,
            },
            Command::Pause(1),
            Command::Stop(1),
            Command::Diverge(1),
        ];
        let back = decode::<Vec<Command>>(&encode(&commands)).unwrap();
        let Command::Names { query, .. } = &back[0] else {
            panic!("{back:?}")
        };
        assert_eq!(TrainConfig::from_query(query).config, cfg);
        assert!(matches!(back[2], Command::Stop(1)));
        assert!(matches!(back[3], Command::Diverge(1)));
        assert!(decode::<Vec<Command>>(&[0xff, 0xff, 0xff]).is_err());
    }
}
