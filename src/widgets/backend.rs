//! Where a run trains, for every page that trains: the `backend` choice of the form (auto,
//! WebGPU, CPU, with its help line) and, once the engine has chosen, one line per cell naming
//! the path and why (`auto`'s two timings, or why not the GPU, or the step a lost device
//! handed the runs to the CPU from). The texts are the one catalogue of a run's path
//! ([`BackendText`]), so the choice reads the same on every page.

use crate::shell::backend_text::{cpu_reason_detail, BackendText};
use crate::shell::i18n::use_locale;
use crate::widgets::number_field::FieldLabel;
use leptos::prelude::*;
use unroll_core::config::BackendChoice;
use unroll_core::math::params::CellKind;
use unroll_core::train::backend::{BackendKind, CellBackend};
use unroll_core::train::messages::CpuReason;

/// The `backend` field: a select of auto / WebGPU / CPU with the chosen one's help line.
/// `id` is the select's element id and test id (`cfg-backend` on the names and delay forms,
/// `mcfg-backend` on a long-memory task's).
#[component]
pub fn BackendField(
    /// The choice shown.
    #[prop(into)]
    value: Signal<BackendChoice>,
    /// Called with the chosen word (`auto`, `gpu`, `cpu`), to go through the URL codec.
    on_change: Callback<String>,
    /// Locked while a run trains.
    #[prop(into)]
    disabled: Signal<bool>,
    /// The select's id and `data-testid`.
    id: &'static str,
) -> impl IntoView {
    let loc = use_locale();
    view! {
        <div class="field">
            <FieldLabel for_id=id key="backend" name=Signal::derive(move || BackendText::of(loc.lang()).field.to_owned()) />
            <select
                id=id
                data-testid=id
                disabled=move || disabled.get()
                prop:value=move || value.get().as_str().to_owned()
                on:change=move |ev| on_change.run(event_target_value(&ev))
            >
                <option value="auto">{move || BackendText::of(loc.lang()).auto}</option>
                <option value="gpu">"WebGPU"</option>
                <option value="cpu">{move || BackendText::of(loc.lang()).cpu}</option>
            </select>
            <div class="field-help">
                {move || {
                    let help = BackendText::of(loc.lang()).help;
                    match value.get() {
                        BackendChoice::Auto => help[0],
                        BackendChoice::Gpu => help[1],
                        BackendChoice::Cpu => help[2],
                    }
                }}
            </div>
        </div>
    }
}

/// The path `cell`'s runs train on as the engine last reported it in `backends`, and why:
/// `<prefix>-backend-<cell>` (`data-value` webgpu/cpu; `data-notice` measured/fallback/lost;
/// `data-gpu-ms` and `data-cpu-ms` the timings, unrounded, when `auto` measured them; the
/// GPU's error in the tooltip). `None` before the engine has chosen.
pub fn backend_line(
    prefix: &'static str,
    cell: CellKind,
    backends: RwSignal<Vec<CellBackend>>,
) -> Option<impl IntoView> {
    let loc = use_locale();
    let b = backends.with(|bs| bs.iter().find(|b| b.cell == cell).cloned())?;
    let (gpu, measured, notice) = match b.kind {
        BackendKind::Gpu { measured, .. } => (true, measured, None),
        BackendKind::Cpu { notice } => match notice {
            Some(CpuReason::Measured(t)) => (false, Some(t), None),
            other => (false, None, other),
        },
    };
    let key = if gpu { "webgpu" } else { "cpu" };
    let detail = notice.as_ref().map(cpu_reason_detail);
    let why = notice.as_ref().map(|n| match n {
        CpuReason::DeviceLost { .. } => "lost",
        CpuReason::Measured(_) => "measured",
        _ => "fallback",
    });
    Some(view! {
        <p
            class="stat-detail dl-backend"
            data-testid=format!("{prefix}-backend-{}", cell.as_str())
            data-value=key
            data-notice=why.or(measured.map(|_| "measured"))
            data-gpu-ms=measured.map(|t| t.gpu_ms.to_string())
            data-cpu-ms=measured.map(|t| t.cpu_ms.to_string())
            title=detail
        >
            {move || {
                let t = BackendText::of(loc.lang());
                let path = if gpu { "WebGPU" } else { "CPU" };
                let why = match (&measured, &notice) {
                    (Some(m), _) => format!(" — {}", (t.measured)(m)),
                    (None, Some(n)) => format!(" — {}", (t.cpu_reason)(n)),
                    (None, None) => String::new(),
                };
                format!("{}{path}{why}", t.line)
            }}
        </p>
    })
}
