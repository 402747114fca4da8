//! How many Web Workers a lab sweep's runs train on: what the delay-copy and long-memory forms
//! show in their `workers` number field (0 = automatic: the machine's cores less one for the
//! page; 1 to [`MAX_WORKERS`](unroll_core::engine::protocol::MAX_WORKERS)). Its help line
//! names the machine's cores and what automatic gives on it; where the runs may train on
//! WebGPU (`backend=gpu`, or `auto` where the engine's worker sees WebGPU or has not said yet)
//! the sweep keeps one worker, so the field is locked and the line says why.

use crate::shell::backend_text::BackendText;
use crate::shell::engine_client::{cores, EngineClient};
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::Lang;
use unroll_core::engine::parallel::{auto_workers, may_train_on_gpu};

/// True when the sweep of `config` keeps one worker because its runs may train on WebGPU
/// (reactive: the engine's worker says whether it sees WebGPU once it has started).
pub fn gpu_bound(config: &DelayConfig) -> bool {
    let webgpu = EngineClient::get().worker_without_webgpu().then_some(false);
    may_train_on_gpu(config.backend, webgpu)
}

/// The `workers` field's help line in `lang` (reactive, as [`gpu_bound`]).
pub fn workers_help(lang: Lang, config: &DelayConfig) -> String {
    let t = BackendText::of(lang);
    if gpu_bound(config) {
        return t.workers_gpu.to_owned();
    }
    let cores = cores();
    (t.workers_help)(cores, auto_workers(cores))
}
