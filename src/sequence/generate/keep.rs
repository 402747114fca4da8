//! The generation lab's runs on the lab's one driver ([`crate::sequence::driver`]): what a
//! run trains (its configuration without the sampler's keys, [`training`], whose canonical
//! query is the key it is kept under), the part's [`Part`] (each run's curves kept at every
//! evaluation and its final weights once finished, in the store's `generate-*` records,
//! with the training run's latest checkpoint), the two directions' figures taken from the run
//! shown and the runs kept ([`Pair`]), and the lines that say what a reload kept: a finished
//! run "kept from an earlier visit", a run a reload stopped with its offer to resume from its
//! checkpoint (bit-identical to a run that never stopped), a checkpoint kept while training,
//! and why keeping failed, in the page's language.
//!
//! Test hooks: `generate-kept` (`data-value` = the step the kept run reached), `generate-interrupted`
//! (`data-step` = the checkpoint's step Resume goes on from; absent when the run starts again),
//! `generate-saved` (`data-value` = the step of the checkpoint kept while training),
//! `generate-store-error`.

use super::GenerateModel;
use crate::kit::fmt::count_commas;
use crate::kit::keep_text::KeepText;
use crate::sequence::driver::{LabDriver, Part};
use crate::sequence::kept::KeptSweep;
use crate::sequence::runs::{KeptCurves, RunView, RunWeights};
use crate::sequence::store::{Records, GENERATE};
use crate::shell::i18n::use_locale;
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use std::rc::Rc;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::config::Lang;
use unroll_core::train::plan::generate_recipe;

/// Names generation's runs: the held-out and training-batch curves of each run kept at every
/// evaluation with its final weights once finished ([`KeptSweep`]), the engine's checkpoint
/// with the training-batch curves up to it ([`KeptCurves`]); a run a reload
/// stopped is shown paused (Resume goes on from its checkpoint); the page shows the kept run
/// of the recipe and direction the form names.
pub struct Generation;

impl Part for Generation {
    type Kept = Vec<KeptSweep>;
    type Curves = Vec<KeptCurves>;
    const RECORDS: Records = GENERATE;
    const OFFER: RunStatus = RunStatus::Paused;
    const FOLLOWS_FORM: bool = true;
    const KEEPS_WEIGHTS: bool = true;
}

/// The generation runs shown.
pub type GenerateDriver = LabDriver<Generation>;

/// What `config` trains: its keys with the sampler's (`language`, `prefix`, `temperature`,
/// `top_k`, `sample_seed`, `greedy`) at their defaults, so that writing names with a run
/// never changes the key it is kept under.
pub fn training(config: &DelayConfig) -> DelayConfig {
    let d = DelayConfig::default();
    DelayConfig {
        language: d.language,
        prefix: d.prefix,
        temperature: d.temperature,
        top_k: d.top_k,
        sample_seed: d.sample_seed,
        greedy: d.greedy,
        ..config.clone()
    }
}

/// The unidirectional (0) and bidirectional (1) runs of the recipe `config` names.
pub fn pair(config: &DelayConfig) -> [DelayConfig; 2] {
    let t = training(config);
    [false, true].map(|bidirectional| DelayConfig {
        bidirectional,
        ..t.clone()
    })
}

/// One direction's run as the page shows it: the first run of its sweep (its cell and seed),
/// live while the driver trains or shows it, else as kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// Held-out loss per character, `(step, loss)`.
    pub heldout: Vec<(u64, f64)>,
    /// Training-batch loss per character, `(step, loss)`.
    pub train: Vec<(u64, f64)>,
    /// Its latest weights (a kept run: its final weights).
    pub weights: Option<RunWeights>,
    /// Its weights are the finished run's final ones.
    pub finished: bool,
}

impl Shown {
    fn of_view(r: &RunView) -> Self {
        Shown {
            heldout: r.heldout.iter().map(|h| (h.step, h.loss)).collect(),
            train: r.loss.clone(),
            weights: r.weights.clone(),
            finished: r.finished && r.final_weights().is_some(),
        }
    }

    fn of_kept(k: &KeptSweep) -> Self {
        let weights = k.weights.first().cloned().flatten();
        Shown {
            heldout: k
                .curves
                .first()
                .map(|c| c.iter().map(|h| (h.step, h.loss)).collect())
                .unwrap_or_default(),
            train: k.losses.first().cloned().unwrap_or_default(),
            finished: weights.is_some(),
            weights,
        }
    }
}

/// The two directions of the recipe the form names, from the driver's run shown and the runs
/// it keeps.
pub struct Pair;

impl Pair {
    /// Direction `dir` of `pair` (reactive: the driver's runs, the run shown, the kept runs).
    pub fn shown(driver: GenerateDriver, pair: &[DelayConfig; 2], dir: usize) -> Shown {
        let query = encode(&pair[dir], None);
        let live = driver
            .run_cfg
            .with(|c| c.as_ref().is_some_and(|c| encode(c, None) == query));
        if live {
            driver
                .runs
                .with(|rs| rs.first().map(Shown::of_view))
                .unwrap_or_default()
        } else {
            driver
                .kept
                .with(|k| k.iter().find(|s| s.query == query).map(Shown::of_kept))
                .unwrap_or_default()
        }
    }
}

/// Feeds the model's two directions from the driver: their curves, their weights (as the
/// sampler reads them), the configuration each trained, the cell shown; a direction whose
/// final weights changed loses its quality figures and has them measured again (one
/// direction at a time); after the unidirectional run of a comparison, trains the
/// bidirectional one.
pub fn follow(model: GenerateModel, cfg: RwSignal<DelayConfig>) {
    let driver = model.driver;
    // The kept runs of the form's recipe are shown once they and the data set are read.
    Effect::new(move |_| {
        driver.loaded.track();
        if driver.has_data() {
            cfg.with(|c| driver.show(&training(c)));
        }
    });
    let applied: StoredValue<[Option<RunWeights>; 2]> = StoredValue::new([None, None]);
    Effect::new(move |_| {
        let pair = cfg.with(pair);
        // Samples are measured one direction at a time, once the data set is loaded.
        let measuring = model.measuring.get().is_some() || !driver.has_data();
        for (dir, config) in pair.iter().enumerate() {
            let shown = Pair::shown(driver, &pair, dir);
            let d = model.dirs[dir];
            if d.heldout.with_untracked(|h| *h != shown.heldout) {
                d.heldout.set(shown.heldout.clone());
            }
            if d.train.with_untracked(|h| *h != shown.train) {
                d.train.set(shown.train.clone());
            }
            let any = !shown.heldout.is_empty() || shown.weights.is_some();
            let trained = any.then(|| config.clone());
            if d.trained.with_untracked(|t| *t != trained) {
                d.trained.set(trained);
            }
            let same = applied.with_value(|a| a[dir] == shown.weights);
            if !same {
                applied.update_value(|a| a[dir] = shown.weights.clone());
                d.weights
                    .set(shown.weights.as_ref().map(|w| Rc::new((*w.0).clone())));
                if !d.quality.with_untracked(Vec::is_empty) {
                    d.quality.set(Vec::new());
                }
                model.measured.update_value(|m| m[dir] = None);
            }
            let step = shown.weights.as_ref().map(|w| w.0.step);
            let measured = model.measured.with_value(|m| m[dir] == step);
            if shown.finished && !measured && !measuring {
                model.measured.update_value(|m| m[dir] = step);
                let sampler = cfg.get_untracked();
                leptos::task::spawn_local(async move { model.measure(dir, &sampler) });
                break;
            }
        }
        let shown = usize::from(cfg.with(|c| c.bidirectional));
        let cell = model.dirs[shown]
            .trained
            .with(|t| t.as_ref().map(|c| generate_recipe(c).0[0]));
        if model.cell.get_untracked() != cell {
            model.cell.set(cell);
        }
    });
    // A comparison trains the bidirectional run once the unidirectional one finished.
    Effect::new(move |_| {
        if driver.flow.status.get() != RunStatus::Finished || !model.chain.get_value() {
            return;
        }
        let Some(uni) = driver.run_cfg.get_untracked().filter(|c| !c.bidirectional) else {
            return;
        };
        model.chain.set_value(false);
        model.train(DelayConfig {
            bidirectional: true,
            ..uni
        });
    });
}

/// The lines about what is kept of the run shown.
struct KeptLines {
    /// A finished run shown again after a reload: the step it reached.
    kept: fn(&str) -> String,
    /// A run a reload stopped, with the checkpoint's step Resume goes on from.
    interrupted_from: fn(&str) -> String,
    /// A run a reload stopped before any checkpoint was kept.
    interrupted: &'static str,
    /// A checkpoint kept while training.
    saved: fn(&str) -> String,
    /// Keeping failed: why.
    store_failed: fn(&str) -> String,
}

impl KeptLines {
    const EN: KeptLines = KeptLines {
        kept: |s| format!("Kept from an earlier visit: this run trained {s} steps; its curves, held-out loss and weights are this browser's copy (the sampler and the quality panel write with them). Reset forgets it."),
        interrupted_from: |s| format!("A reload stopped this run at step {s}. What it trained is shown; Resume goes on from there, with the numbers of a run that never stopped; Reset forgets it."),
        interrupted: "A reload stopped this run before a checkpoint was kept; Resume trains it again from step 0.",
        saved: |s| format!("Checkpoint kept at step {s}: a reload goes on from there."),
        store_failed: |e| format!("This run could not be kept in this browser: {e}"),
    };
    const ZH: KeptLines = KeptLines {
        kept: |s| {
            format!("保存自上次访问：这次运行训练了 {s} 步；曲线、留出损失和权重都是此浏览器中保存的副本（采样器和质量面板用它们写名字）。“重置”会删除它。")
        },
        interrupted_from: |s| {
            format!("重新加载页面让这次运行停在了第 {s} 步。已训练的部分显示在下面；“继续”从那里接着训练，结果与从未中断的运行相同；“重置”会删除它。")
        },
        interrupted: "重新加载页面让这次运行在保存检查点之前就停止了；“继续”从第 0 步重新训练。",
        saved: |s| format!("检查点已保存在第 {s} 步：重新加载页面后从这里继续。"),
        store_failed: |e| format!("这次运行无法保存在此浏览器中：{e}"),
    };

    fn of(lang: Lang) -> &'static KeptLines {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}

/// What is kept of the run shown: kept from an earlier visit, stopped by a reload (with its
/// checkpoint), a checkpoint kept while training, and why keeping failed.
#[component]
pub fn KeptNotes(
    /// The generation lab's state.
    model: GenerateModel,
) -> impl IntoView {
    let loc = use_locale();
    let driver = model.driver;
    // Shown again from the store, and not trained in this visit.
    let earlier = move || {
        driver.restored.get()
            && driver.run_cfg.with(|c| {
                c.as_ref()
                    .is_some_and(|c| !model.here.with(|h| h.contains(&encode(c, None))))
            })
    };
    let t = move || KeptLines::of(loc.lang());
    let status = driver.flow.status;
    view! {
        {move || (earlier() && status.get() == RunStatus::Finished).then(|| {
            let step = driver.runs.with(|rs| rs.first().map_or(0, |r| r.step));
            view! {
                <p class="notice notice-info" role="status" data-testid="generate-kept" data-value=step.to_string()>
                    {move || (t().kept)(&count_commas(step))}
                </p>
            }
        })}
        {move || driver.flow.offer.get().filter(|_| status.get() == RunStatus::Paused).map(|o| {
            let step = o.from.map(|f| f.step);
            view! {
                <p class="notice notice-info" role="status" data-testid="generate-interrupted" data-step=step.map(|s| s.to_string())>
                    {move || match step {
                        Some(s) => (t().interrupted_from)(&count_commas(s)),
                        None => t().interrupted.to_owned(),
                    }}
                </p>
            }
        })}
        {move || driver.flow.saved.get().filter(|_| status.get().busy()).map(|s| view! {
            <p class="panel-note" data-testid="generate-saved" data-value=s.step.to_string()>
                {move || (t().saved)(&count_commas(s.step))}
            </p>
        })}
        {move || driver.flow.store.error.get().map(|e| {
            let detail = e.detail();
            view! {
                <p class="notice notice-warn" role="status" data-testid="generate-store-error" title=detail>
                    {move || (t().store_failed)(&(KeepText::of(loc.lang()).storage_error)(&e))}
                </p>
            }
        })}
    }
}
