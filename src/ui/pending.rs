//! TEMPORARY stand-ins for APIs that other branches are writing (`config::TrainConfig` and its
//! URL codec, `data::names`, `train::session`). They exist only so the UI compiles and can be
//! looked at before those branches are merged; [`super::training_bridge`] is the only user, and
//! this file is deleted when the real modules land. Nothing here trains or is shown as a result.

use std::rc::Rc;

/// Stand-in for `config::CellKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// LSTM.
    Lstm,
}

/// Stand-in for `config::TrainConfig`.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Cell.
    pub cell: CellKind,
    /// Hidden size.
    pub hidden_size: u32,
    /// Batch size.
    pub batch_size: u32,
    /// Learning rate.
    pub lr: f64,
    /// Epochs.
    pub epochs: u32,
    /// Seed.
    pub seed: u32,
    /// Autostart.
    pub autostart: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig { cell: CellKind::Lstm, hidden_size: 128, batch_size: 64, lr: 1e-3, epochs: 5, seed: 0, autostart: false }
    }
}

/// Stand-in decoder: clamps numbers, falls back to defaults.
pub fn decode(search: &str) -> (TrainConfig, Vec<String>) {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(search.trim_start_matches('?')).unwrap_or_default();
    let mut c = TrainConfig::default();
    let mut notes = Vec::new();
    for (k, v) in pairs {
        let num = v.parse::<f64>();
        let mut clamp = |lo: f64, hi: f64| -> Option<f64> {
            match num {
                Ok(x) if x.is_finite() => {
                    let y = x.clamp(lo, hi);
                    if y != x {
                        notes.push(format!("{k}: {v} is out of range, using {y}"));
                    }
                    Some(y)
                }
                _ => {
                    notes.push(format!("{k}: “{v}” is not a number, using the default"));
                    None
                }
            }
        };
        match k.as_str() {
            "hidden_size" => c.hidden_size = clamp(8.0, 256.0).map(|x| x as u32).unwrap_or(128),
            "batch_size" => c.batch_size = clamp(1.0, 512.0).map(|x| x as u32).unwrap_or(64),
            "lr" => c.lr = clamp(1e-5, 1.0).unwrap_or(1e-3),
            "epochs" => c.epochs = clamp(1.0, 100.0).map(|x| x as u32).unwrap_or(5),
            "seed" => c.seed = clamp(0.0, u32::MAX as f64).map(|x| x as u32).unwrap_or(0),
            "autostart" => c.autostart = v == "1",
            "v" | "lesson" | "cell" => {}
            _ => notes.push(format!("{k}: unknown key, ignored")),
        }
    }
    (c, notes)
}

/// Stand-in encoder.
pub fn encode(c: &TrainConfig) -> String {
    let d = TrainConfig::default();
    let mut q = vec!["v=1".to_owned(), "lesson=names".to_owned()];
    if c.hidden_size != d.hidden_size {
        q.push(format!("hidden_size={}", c.hidden_size));
    }
    if c.batch_size != d.batch_size {
        q.push(format!("batch_size={}", c.batch_size));
    }
    if c.lr != d.lr {
        q.push(format!("lr={}", c.lr));
    }
    if c.epochs != d.epochs {
        q.push(format!("epochs={}", c.epochs));
    }
    if c.seed != d.seed {
        q.push(format!("seed={}", c.seed));
    }
    if c.autostart {
        q.push("autostart=1".to_owned());
    }
    q.join("&")
}

/// Stand-in for `data::names::NamesDataset`.
pub struct NamesDataset {
    /// (language, raw lines, distinct).
    pub classes: Vec<(String, usize, usize)>,
    /// Skipped.
    pub skipped: usize,
}

/// Stand-in parser (no normalisation).
pub fn parse(files: Vec<(String, String)>) -> Result<NamesDataset, String> {
    let mut classes = Vec::new();
    let mut skipped = 0;
    for (lang, text) in files {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let raw = lines.len();
        let mut set = std::collections::BTreeSet::new();
        for l in lines {
            if l.is_empty() {
                skipped += 1;
            } else {
                set.insert(l);
            }
        }
        classes.push((lang, raw, set.len()));
    }
    Ok(NamesDataset { classes, skipped })
}

/// Stand-in for `train::BackendKind`.
pub enum BackendKind {
    /// WebGPU.
    Gpu {
        /// Adapter.
        description: String,
    },
    /// CPU.
    Cpu {
        /// Why.
        notice: Option<String>,
    },
}

/// Stand-in for `train::TrainEvent`.
pub enum TrainEvent {
    /// Backend chosen.
    Backend(BackendKind),
    /// One step.
    Step {
        /// Global step, from 1.
        step: u64,
        /// Epoch, from 1.
        epoch: u32,
        /// Batch loss.
        loss: f32,
        /// Mean of last 20.
        mean_loss_20: f32,
    },
    /// One epoch.
    Epoch {
        /// Epoch, from 1.
        epoch: u32,
        /// Train loss.
        train_loss: f32,
        /// Val loss.
        val_loss: f32,
        /// Val acc.
        val_acc: f32,
        /// Seconds.
        sec: f64,
    },
    /// Done.
    Finished,
    /// Failed.
    Error(String),
}

/// Stand-in for `train::TrainControl`.
#[derive(Clone, Default)]
pub struct TrainControl(Rc<std::cell::Cell<u8>>);

impl TrainControl {
    /// Pause.
    pub fn pause(&self) {
        self.0.set(1)
    }
    /// Resume.
    pub fn resume(&self) {
        self.0.set(0)
    }
    /// Stop.
    pub fn stop(&self) {
        self.0.set(2)
    }
    /// Paused?
    pub fn is_paused(&self) -> bool {
        self.0.get() == 1
    }
}

/// Stand-in session: reports that no engine is wired.
pub async fn run_session(_c: TrainConfig, _d: Rc<NamesDataset>, _k: TrainControl, mut on_event: impl FnMut(TrainEvent)) {
    on_event(TrainEvent::Backend(BackendKind::Cpu { notice: Some("The training engine is not part of this build yet.".into()) }));
    on_event(TrainEvent::Error("The training engine is not part of this build yet.".into()));
}
