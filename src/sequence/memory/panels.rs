//! The panels of a long-memory task: what it is and what the run trains, the run's buttons
//! and progress, the held-out chart with the baseline, and the summary per run.

use super::text::{fmt_loss, index, MemoryText};
use super::MemoryDriver;
use crate::charts::delay::{self as chart, CurveChart, Line};
use crate::kit::fmt::count_commas;
use crate::sequence::delay::text::fmt_seconds;
use crate::shell::backend_text::workers_line;
use crate::shell::i18n::use_locale;
use crate::shell::run_status::RunStatus;
use crate::widgets::run_controls::{RunAction, RunControls};
use crate::widgets::script::{ScriptPanel, ScriptTemplates};
use leptos::prelude::*;
use unroll_core::as_pytorch::Template;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::memory::task::LengthError;
use unroll_core::memory::{MemoryTask, TaskKind};
use unroll_core::task::Criterion;
use unroll_core::train::plan::lab_length;
use unroll_core::train::sweep::{solved_after, SweepPlan};

/// The plan shown: the run's, else the configuration's (or why T does not fit).
pub type ShownPlan = Memo<Option<Result<SweepPlan, LengthError>>>;

/// The task: one sentence with its paper, T, recipe, budget, parameter counts, the baseline
/// with its formula, the criterion of "solved" and the paper's figure.
#[component]
pub fn TaskIntro(cfg: RwSignal<DelayConfig>, kind: TaskKind, plan: ShownPlan) -> impl IntoView {
    let loc = use_locale();
    let i = index(kind);
    let t = move || MemoryText::of(loc.lang());
    let facts = move || {
        let Some(Ok(p)) = plan.get() else {
            return plan.get().and_then(Result::err).map(|e| {
                let text = (t().length_error)(t().names[index(e.task)], &e.min.to_string(), &e.length.to_string());
                view! {
                    <p class="notice notice-error" role="alert" data-testid="memory-error" data-value=e.length.to_string()>{text}</p>
                }
                .into_any()
            });
        };
        let r = p.recipe;
        let clip = r.max_norm.map_or("—".to_string(), |m| m.to_string());
        let t = t();
        let params = p.param_counts().into_iter().map(|c| {
            let n = c.total;
            view! { <span data-testid=format!("memory-params-{}", c.cell.as_str()) data-value=n.to_string()>{format!("{}: {}", c.cell.name(), count_commas(n as u64))}</span> }
        }).collect_view();
        let length = cfg.with_untracked(lab_length);
        let seq_len = MemoryTask::new(kind, length).map_or(length, |task| task.seq_len());
        Some(view! {
            <ul class="mt-facts">
                <li data-testid="memory-length" data-value=length.to_string()>{(t.length)(&length.to_string(), &seq_len.to_string())}</li>
                <li>{(t.recipe)(&r.hidden_size.to_string(), &r.lr.to_string(), &r.batch_size.to_string(), &clip, &r.forget_bias.to_string())}</li>
                <li data-testid="memory-budget" data-value=p.steps.to_string()>{(t.budget)(&count_commas(p.steps), &count_commas(p.sequences()), &p.seeds.len().to_string(), &p.runs().to_string())}</li>
            </ul>
            <p class="panel-note mt-params-head">{t.params}</p>
            <div class="mt-params">{params}</div>
            <p class="lx-text mt-baseline" data-testid="task-baseline" data-value=p.task.baseline().loss.to_string()>
                {(t.baseline_formula[i])(&length.to_string())}
            </p>
        }.into_any())
    };
    view! {
        <section class="page-intro lx-intro">
            <h1>{move || t().names[i]}</h1>
            <p class="lede">{move || t().what[i]}</p>
            <p class="panel-note">{move || t().cpu_note}</p>
            // The page's buttons in one row, as on every lesson page.
            <div class="lx-intro-actions">
                <crate::kit::nav::CopyLink />
                <crate::kit::embed::CopyEmbed title=Signal::derive(move || MemoryText::of(loc.lang()).names[i].to_owned()) />
            </div>
        </section>
        <section class="panel">
            {facts}
            <p class="lx-text" data-testid="memory-criterion">{move || t().criterion[i]}</p>
            <p class="lx-text" data-testid="memory-paper">{move || t().paper[i]}</p>
            <p class="lx-text" data-testid="memory-default-shows">{move || t().default_shows[i]}</p>
        </section>
    }
}

// long: the run's controls and their notes as one view tree, each control's disabled state beside it
/// Start, Pause, Resume, Reset; the progress with the time left; a reload's or a failure's
/// note.
#[component]
pub fn RunPanel(
    cfg: RwSignal<DelayConfig>,
    driver: MemoryDriver,
    plan: ShownPlan,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || MemoryText::of(loc.lang());
    let status = driver.flow.status;
    let start = RunAction::new(
        move || t().buttons[if status.get().ended() { 1 } else { 0 }],
        move || !status.get().busy() && matches!(plan.get(), Some(Ok(_))),
        move || driver.start(cfg.get_untracked()),
    );
    let pause = RunAction::new(
        move || t().buttons[2],
        move || status.get().can_pause(),
        move || driver.pause(),
    );
    let resume = RunAction::new(
        move || t().buttons[3],
        move || status.get().can_resume(),
        move || driver.resume(),
    );
    let reset = RunAction::new(
        move || t().buttons[4],
        move || status.get() != RunStatus::Idle,
        move || driver.reset(),
    );
    let fraction = move || {
        let (d, n) = driver.steps();
        if n == 0 {
            0.0
        } else {
            d as f64 / n as f64
        }
    };
    view! {
        <section class="panel">
            <RunControls prefix="memory" class="controls mt-controls" start=start pause=pause resume=resume reset=reset>
                <span
                    class=move || format!("status-pill status-{}", status.get().pill())
                    data-testid="memory-status"
                    data-value=move || status.get().key()
                >
                    {move || t().status[status_index(status.get())]}
                </span>
            </RunControls>
            {move || driver.flow.offer.get().map(|i| {
                let n = i.planned;
                let text = move || match i.from {
                    Some(f) => (t().interrupted_from)(&i.done.to_string(), &n.to_string(), &f.seed.to_string(), &f.seeds.to_string(), &count_commas(f.step)),
                    None => (t().interrupted)(&i.done.to_string(), &n.to_string()),
                };
                view! {
                    <div class="notice notice-info" role="status" data-testid="memory-interrupted" data-value=i.done.to_string() data-step=i.from.map(|f| f.step.to_string())>
                        <div class="notice-body">{text}</div>
                        <button type="button" class="btn btn-small" data-testid="memory-go-on" on:click=move |_| driver.resume()>{move || t().go_on}</button>
                    </div>
                }
            })}
            {move || driver.flow.store.error.get().map(|e| {
                let detail = e.detail();
                view! {
                    <div class="notice notice-warn" role="status" data-testid="memory-store-error">
                        <div class="notice-body" title=detail>
                            {move || (t().store_failed)(&(crate::kit::keep_text::KeepText::of(loc.lang()).storage_error)(&e))}
                        </div>
                    </div>
                }
            })}
            {move || driver.error.get().map(|e| view! {
                <div class="notice notice-error" role="alert" data-testid="memory-error"><div class="notice-body">{move || (t().failed)(&e)}</div></div>
            })}
            <div class="mt-bar" data-testid="memory-progress" data-value=move || fraction().to_string()>
                <div style:width=move || format!("{:.1}%", fraction() * 100.0)></div>
            </div>
            <div class="mt-line">
                <span>{move || { let (d, n) = driver.steps(); (t().progress)(&count_commas(d), &count_commas(n)) }}</span>
                {move || driver.time_left().filter(|_| status.get().busy()).map(|s| view! {
                    <span data-testid="memory-time-left" data-value=s.to_string()>{move || (t().time_left)(&fmt_seconds(s, loc.lang()))}</span>
                })}
                {move || driver.flow.workers.get().and_then(|w| workers_line(&w, loc.lang()).map(|text| view! {
                    <span data-testid="memory-workers" data-value=w.used.to_string() data-failed=w.failed.to_string() data-memory=w.memory.to_string()>{text}</span>
                }))}
                {move || driver.flow.saved.get().filter(|_| status.get().busy()).map(|s| view! {
                    <span data-testid="memory-saved" data-value=s.step.to_string() data-seed=s.seed.to_string()>
                        {move || (t().saved)(&s.seed.to_string(), &s.seeds.to_string(), &count_commas(s.step))}
                    </span>
                })}
            </div>
            <crate::sequence::cells::CellLines driver=driver prefix="memory" />
        </section>
    }
}

/// The index of `status` in the status texts.
fn status_index(status: RunStatus) -> usize {
    match status {
        RunStatus::Idle => 0,
        RunStatus::Running => 1,
        RunStatus::Paused => 2,
        RunStatus::Finished => 3,
        RunStatus::Stopped => 4,
        RunStatus::Error => 5,
    }
}

// long: one chart panel as one view tree: the chart's data, the log switch, the baseline and solved lines
/// The held-out loss of every run on one chart, with the task's baseline and its "solved"
/// level as lines drawn over the runs', and a switch to a logarithmic loss axis
/// (`memory-log-y`), where a level of 0.01 under a baseline of 0.167 stays apart from it.
#[component]
pub fn ChartPanel(kind: TaskKind, driver: MemoryDriver, plan: ShownPlan) -> impl IntoView {
    let loc = use_locale();
    let i = index(kind);
    let log_y = RwSignal::new(false);
    let data = move || {
        let t = MemoryText::of(loc.drawn_lang());
        let (baseline, solved) = match plan.get() {
            Some(Ok(p)) => (
                p.task.baseline().loss,
                p.task.criterion().and_then(Criterion::loss_below),
            ),
            _ => (1.0, None),
        };
        let cells = driver.plan().map(|p| p.cells).unwrap_or_default();
        let lines: Vec<Line> = driver.runs.with(|rs| {
            rs.iter()
                .filter(|r| !r.heldout.is_empty())
                .map(|r| Line {
                    cell: r.id.cell,
                    points: r.heldout.iter().map(|p| (p.step, p.loss)).collect(),
                })
                .collect()
        });
        // The band between the lowest and the highest seed of each cell.
        let bands = cells
            .iter()
            .map(|&cell| {
                let seeds_of: Vec<&[(u64, f64)]> = lines
                    .iter()
                    .filter(|l| l.cell == cell)
                    .map(|l| l.points.as_slice())
                    .collect();
                (cell, chart::band(&seeds_of))
            })
            .collect();
        CurveChart {
            lines,
            bands,
            y_max: baseline * 1.5,
            percent: false,
            chance: Some((baseline, t.baseline)),
            solved: solved.map(|v| (v, (t.solved_line)(&fmt_loss(v, baseline)))),
            log_y: log_y.get(),
            x_desc: t.x_axis,
            y_desc: t.y_axis[i],
            empty: t.empty,
        }
    };
    view! {
        <section class="panel charts-panel">
            <div class="charts">
                {crate::charts::canvas::chart_canvas(
                    "chart-memory-loss",
                    Signal::derive(move || MemoryText::of(loc.lang()).chart),
                    data,
                    chart::point_count,
                    |area, c, style| {
                        let _ = chart::draw(area, c, style);
                    },
                )}
            </div>
            <label class="mt-log-y">
                <input type="checkbox" data-testid="memory-log-y" prop:checked=move || log_y.get() on:change=move |ev| log_y.set(event_target_checked(&ev)) />
                " "
                {move || MemoryText::of(loc.lang()).log_axis}
            </label>
            <div class="export-row">
                <crate::charts::csv::CsvButton
                    file=crate::widgets::export::tagged_file("unroll-memory-heldout", "csv")
                    rows=Signal::derive(move || driver.runs.with(|rs| rs.iter().map(|r| r.heldout.len()).sum::<usize>()))
                    csv=Callback::new(move |()| {
                        let (runs, batch) = untrack(|| driver.plan()).map(|p| (p.run_ids(), p.recipe.batch_size)).unwrap_or_default();
                        crate::charts::csv::memory_csv(&runs, batch, &untrack(|| driver.curves()))
                    })
                    label=Signal::derive(move || MemoryText::of(loc.lang()).chart.to_owned())
                />
            </div>
        </section>
    }
}

/// One row per run: its final held-out loss and accuracy, and when it met the criterion.
#[component]
pub fn SummaryPanel(driver: MemoryDriver) -> impl IntoView {
    let loc = use_locale();
    let t = move || MemoryText::of(loc.lang());
    let rows = move || {
        let Some(p) = driver.plan() else {
            return Vec::new();
        };
        let classification = p.task.baseline().accuracy.is_some();
        let mut rows = driver
            .curves()
            .iter()
            .zip(p.run_ids())
            .filter_map(|(c, run)| {
                let last = *c.last()?;
                let solved = solved_after(c, p.recipe.batch_size);
                let done = last.step >= p.steps;
                Some((run.cell, run.seed, last, solved, done, classification))
            })
            .collect::<Vec<_>>();
        // Cell by cell (the sweep trains seed by seed).
        rows.sort_by_key(|r| (r.0.index(), r.1));
        rows
    };
    let finished = move || rows().iter().filter(|r| r.4).count();
    view! {
        <section class="panel" data-testid="memory-summary" data-value=move || finished().to_string()>
            <h2>{move || t().summary}</h2>
            <div class="mt-table-wrap" data-scroller tabindex="0"><table class="mt-table">
                <thead><tr>{move || t().columns.iter().map(|c| view! { <th>{*c}</th> }).collect_view()}</tr></thead>
                <tbody>{move || rows().into_iter().map(|(cell, seed, last, solved, done, acc)| {
                    let verdict = match (solved, done) {
                        (Some(n), _) => (t().solved_after)(&count_commas(n)),
                        (None, true) => t().not_solved.to_string(),
                        (None, false) => t().training.to_string(),
                    };
                    view! {
                        <tr data-testid="memory-summary-row" data-cell=cell.as_str() data-seed=seed.to_string() data-value=last.loss.to_string() data-solved=solved.map(|n| n.to_string()).unwrap_or_default() data-done=done.to_string()>
                            <td>{cell.name()}</td><td>{seed}</td><td>{format!("{:.4}", last.loss)}</td>
                            <td>{if acc { format!("{:.1}%", last.acc * 100.0) } else { "—".into() }}</td>
                            <td>{verdict}</td>
                        </tr>
                    }
                }).collect_view()}</tbody>
            </table></div>
        </section>
    }
}

/// "As PyTorch": the plan shown (the sweep's while one exists, else the form's) as a runnable
/// script ([`unroll_core::as_pytorch::memory_script`]); none while T does not fit the task.
#[component]
pub fn AsPytorchPanel(cfg: RwSignal<DelayConfig>, plan: ShownPlan) -> impl IntoView {
    let loc = use_locale();
    let t = move || MemoryText::of(loc.lang());
    let templates = ScriptTemplates::fetch(&[Template::Memory]);
    let script = Memo::new(move |_| {
        let template = templates.text(Template::Memory)?;
        let plan = plan.get()?.ok()?;
        let page = crate::shell::url::page_link(&cfg.with(|c| encode(c, None)));
        Some(unroll_core::as_pytorch::memory_script(
            &template, &plan, &page,
        ))
    });
    let file = Memo::new(move |_| {
        plan.get()
            .and_then(Result::ok)
            .map(|p| unroll_core::as_pytorch::memory_file_name(&p))
            .unwrap_or_default()
    });
    view! {
        <ScriptPanel
            testid="memory-as-pytorch"
            templates=templates
            heading=Signal::derive(move || t().pytorch_heading.to_owned())
            help=Signal::derive(move || t().pytorch_help.to_owned())
            waiting=Signal::derive(move || t().pytorch_waiting.to_owned())
            script=script
            file=file
        />
    }
}
