//! The words for the path a run trains on, which every lab shows: why a run that wanted the
//! GPU trains on the CPU ([`CpuReason`]), both paths' timings under `backend=auto`
//! ([`StepTimings`]), and a GPU failure ([`GpuError`]). The GPU's own words (wgpu's or the
//! browser's English) go in a tooltip: [`gpu_detail`], [`cpu_reason_detail`]. And how many
//! Web Workers a sweep's runs train on ([`workers_line`]).

use crate::shell::catalogue::catalogue;
use unroll_core::config::Lang;
use unroll_core::engine::parallel::{SPLIT_MIN_CORES, SPLIT_MIN_HIDDEN, SPLIT_MIN_ROWS};
use unroll_core::engine::protocol::{SingleWorker, Workers};
use unroll_core::gpu::GpuError;
use unroll_core::train::backend::StepTimings;
use unroll_core::train::messages::CpuReason;

catalogue! {
    /// The texts of a run's path (CPU or WebGPU).
    #[derive(Debug)]
    pub struct BackendText {
        /// The `backend` field's name.
        pub field: &'static str {
            "Backend", "后端"
        }
        /// The choice `auto`.
        pub auto: &'static str {
            "Automatic", "自动"
        }
        /// The choice `cpu`.
        pub cpu: &'static str {
            "CPU", "CPU"
        }
        /// The help line of each choice: auto, gpu, cpu.
        pub help: [&'static str; 3] {
            [
                "times a few steps on WebGPU and on the CPU, then trains on the faster",
                "WebGPU; falls back to the CPU with a notice",
                "the same maths in Rust on the CPU",
            ],
            [
                "先在 WebGPU 和 CPU 上各计时几步，再用较快的那个训练",
                "WebGPU；不可用时改用 CPU 并给出提示",
                "在 CPU 上用 Rust 执行同样的数学运算",
            ]
        }
        /// A cell's backend line: its label, with its colon.
        pub line: &'static str {
            "Backend: ", "后端："
        }
        /// Why a run that wanted the GPU trains on the CPU.
        pub cpu_reason: fn(&CpuReason) -> String {
            cpu_reason_en, cpu_reason_zh
        }
        /// Both paths' timings of `backend=auto` and the path they chose.
        pub measured: fn(&StepTimings) -> String {
            measured_en, measured_zh
        }
        /// The `workers` field's name.
        pub workers: &'static str {
            "Web Workers", "Web Worker 数"
        }
        /// The `workers` field's help line: the machine's logical cores, the workers `0`
        /// (automatic) gives.
        pub workers_help: fn(usize, usize) -> String {
            |c, n| format!("side by side, each with its own copy of the engine's memory; 0 = automatic: {n} here (this machine's {c} cores less one for the page)"),
            |c, n| format!("并行训练，每个 Worker 各占一份引擎内存；0 = 自动：本机 {n} 个（{c} 个核心，留一个给页面）")
        }
        /// Why a sweep that may train on WebGPU uses one worker.
        pub workers_gpu: &'static str {
            "1 worker: the runs may train on WebGPU (one GPU, driven from one worker)",
            "1 个 Web Worker：运行可能在 WebGPU 上训练（一块 GPU 由一个 Worker 驱动）"
        }
        /// A GPU failure in words (the Chinese table gives its kind; the detail, wgpu's or the
        /// browser's English, goes in a tooltip: [`gpu_detail`]).
        pub gpu_error: fn(&GpuError) -> String {
            gpu_error_en, gpu_error_zh
        }
    }
}

/// How many Web Workers train the sweep's runs side by side, or split its one run's batches,
/// why fewer than asked and the memory a sweep's workers hold together, in `lang`; `None` when
/// it trains on the one worker it asked for.
pub fn workers_line(w: &Workers, lang: Lang) -> Option<String> {
    let (used, failed) = (w.used, w.failed);
    let zh = lang == Lang::Zh;
    if w.shares > 1 {
        let s = w.shares;
        return Some(match (failed, zh) {
            (0, true) => format!("每批拆分到 {used} 个 Web Worker（{s} 份，梯度按固定顺序相加，Adam 更新一次）"),
            (0, false) => format!("Each batch split across {used} workers ({s} shares, gradients summed in a fixed order, one Adam update)"),
            (f, true) => format!("每批 {s} 份，由 {used} 个 Web Worker 计算（{f} 个未能启动，它们的份由第一个 Worker 计算，结果不变）"),
            (f, false) => format!("Each batch in {s} shares on {used} workers ({f} could not start: the first worker computes their shares, with the same numbers)"),
        });
    }
    if let Some(SingleWorker::SplitDoesNotPay { cores }) = w.single {
        return Some(if zh {
            format!("1 个 Web Worker：在 {cores} 核的机器上，页面和浏览器也要用这些核；把每批拆分到多个 Worker，机器空闲时更快，繁忙时更慢（链接中加 workers=2 即拆分；自动：{SPLIT_MIN_CORES} 核起才拆分）")
        } else {
            format!("1 worker: on {cores} cores the page and the browser need them too; splitting each batch across workers is faster on an otherwise idle machine and slower on a busy one (workers=2 in the link splits it; auto splits from {SPLIT_MIN_CORES} cores)")
        });
    }
    if let Some(SingleWorker::StepTooSmall { hidden, batch }) = w.single {
        return Some(if zh {
            format!("1 个 Web Worker：隐藏层 {hidden}、每步 {batch} 个序列，这一步太小，拆分到多个 Worker 的消息开销大于节省的时间（自动：隐藏层 {SPLIT_MIN_HIDDEN} 起、每份至少 {SPLIT_MIN_ROWS} 个序列才拆分；链接中加 workers=2 即拆分）")
        } else {
            format!("1 worker: at hidden size {hidden} with {batch} sequences a step, a step is too small to split; messages would cost more than the work saved (auto splits from hidden size {SPLIT_MIN_HIDDEN} and {SPLIT_MIN_ROWS} sequences a share; workers=2 in the link splits it)")
        });
    }
    let line = match (used, failed, w.single) {
        (_, _, Some(SingleWorker::Gpu)) if w.wanted > 1 => {
            BackendText::of(lang).workers_gpu.to_owned()
        }
        (1, 0, _) => return None,
        (1, f, _) if zh => format!("1 个 Web Worker：另外 {f} 个未能启动"),
        (1, f, _) => format!("1 worker: {f} more could not start"),
        (u, 0, _) if zh => format!("{u} 个 Web Worker 并行训练"),
        (u, 0, _) => format!("{u} workers side by side"),
        (u, f, _) if zh => format!("{u} 个 Web Worker 并行训练（{f} 个未能启动）"),
        (u, f, _) => format!("{u} workers side by side ({f} could not start)"),
    };
    // Each worker holds its own copy of the engine's memory.
    let mib = w.memory as f64 / 1_048_576.0;
    Some(match (w.memory, zh) {
        (0, _) => line,
        (_, true) => format!("{line}，共占内存 {mib:.0} MiB"),
        (_, false) => format!("{line}, {mib:.0} MiB of memory"),
    })
}

/// The GPU's own words about a failure, for a tooltip (`title`), in any language.
pub fn gpu_detail(e: &GpuError) -> String {
    e.to_string()
}

/// The detail of a CPU fallback's reason for a tooltip (the GPU's own words).
pub fn cpu_reason_detail(r: &CpuReason) -> String {
    match r {
        CpuReason::GpuUnavailable(e)
        | CpuReason::NoWorkerWebGpu(e)
        | CpuReason::DeviceLost { error: e, .. }
        | CpuReason::LostWhileMeasuring(e)
        | CpuReason::NotOnGpuPath(e) => gpu_detail(e),
        CpuReason::Measured(t) => t.to_string(),
    }
}

fn cpu_reason_en(r: &CpuReason) -> String {
    r.to_string()
}

fn measured_en(t: &StepTimings) -> String {
    t.to_string()
}

fn measured_zh(t: &StepTimings) -> String {
    format!(
        "WebGPU 每步 {:.1} 毫秒，CPU 每步 {:.1} 毫秒：使用 {}",
        t.gpu_ms,
        t.cpu_ms,
        if t.gpu_faster() { "WebGPU" } else { "CPU" }
    )
}

fn gpu_error_en(e: &GpuError) -> String {
    e.to_string()
}

fn gpu_error_zh(e: &GpuError) -> String {
    match e {
        GpuError::NoAdapter(_) => "没有可用的 GPU 适配器",
        GpuError::RequestDevice(_) => "无法创建 GPU 设备",
        GpuError::DeviceLost(_) => "GPU 设备已丢失",
        GpuError::Device(_) => "GPU 出错",
        GpuError::Readback(_) => "从 GPU 读回数据失败",
        GpuError::InvalidInput(_) => "输入不适合 GPU 路径",
        GpuError::TooLarge(_) => "超出此 GPU 的限制",
        GpuError::Unsupported(_) => "GPU 路径尚不支持此配置",
    }
    .into()
}

fn cpu_reason_zh(r: &CpuReason) -> String {
    match r {
        CpuReason::GpuUnavailable(g) => {
            format!("GPU 不可用（{}），改在 CPU 上训练。", gpu_error_zh(g))
        }
        CpuReason::NoWorkerWebGpu(g) => format!(
            "此浏览器不在后台线程（训练所在之处）中提供 WebGPU（{}），训练在 CPU 上进行。",
            gpu_error_zh(g)
        ),
        CpuReason::DeviceLost { error, step } => format!(
            "{}，训练从第 {step} 步起在 CPU 上继续。",
            gpu_error_zh(error)
        ),
        CpuReason::Measured(t) => measured_zh(t),
        CpuReason::LostWhileMeasuring(g) => {
            format!("测量两条路径时{}，训练在 CPU 上进行。", gpu_error_zh(g))
        }
        // The English detail (what the GPU path lacks) is in the line's tooltip.
        CpuReason::NotOnGpuPath(_) => "GPU 路径尚不能训练这个模型，训练在 CPU 上进行。".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workers(used: usize, failed: usize, single: Option<SingleWorker>, shares: usize) -> Workers {
        Workers {
            used,
            wanted: used.max(shares),
            failed,
            single,
            shares,
            memory: 0,
        }
    }

    /// The line of a sweep's workers names the memory they hold together once they reported
    /// it, in both languages.
    #[test]
    fn the_workers_line_reports_their_memory() {
        let mut w = workers(2, 0, None, 1);
        assert_eq!(
            workers_line(&w, Lang::En).unwrap(),
            "2 workers side by side"
        );
        w.memory = 36 << 20;
        assert_eq!(
            workers_line(&w, Lang::En).unwrap(),
            "2 workers side by side, 36 MiB of memory"
        );
        assert_eq!(
            workers_line(&w, Lang::Zh).unwrap(),
            "2 个 Web Worker 并行训练，共占内存 36 MiB"
        );
        assert_eq!(
            workers_line(&workers(1, 0, None, 1), Lang::En),
            None,
            "one worker asked, one used"
        );
    }

    #[test]
    fn a_split_run_says_how_and_an_unsplit_one_why() {
        let split = workers(2, 0, None, 2);
        assert_eq!(
            workers_line(&split, Lang::En).unwrap(),
            "Each batch split across 2 workers (2 shares, gradients summed in a fixed order, one Adam update)"
        );
        assert_eq!(
            workers_line(&split, Lang::Zh).unwrap(),
            "每批拆分到 2 个 Web Worker（2 份，梯度按固定顺序相加，Adam 更新一次）"
        );
        let short = workers(2, 1, None, 3);
        assert_eq!(
            workers_line(&short, Lang::En).unwrap(),
            "Each batch in 3 shares on 2 workers (1 could not start: the first worker computes their shares, with the same numbers)"
        );
        assert!(workers_line(&short, Lang::Zh)
            .unwrap()
            .contains("1 个未能启动"));
        let kept = workers(1, 0, Some(SingleWorker::SplitDoesNotPay { cores: 2 }), 1);
        assert_eq!(
            workers_line(&kept, Lang::En).unwrap(),
            "1 worker: on 2 cores the page and the browser need them too; splitting each batch across workers is faster on an otherwise idle machine and slower on a busy one (workers=2 in the link splits it; auto splits from 3 cores)"
        );
        assert!(workers_line(&kept, Lang::Zh)
            .unwrap()
            .starts_with("1 个 Web Worker：在 2 核的机器上"));
        let small = workers(
            1,
            0,
            Some(SingleWorker::StepTooSmall {
                hidden: 16,
                batch: 4,
            }),
            1,
        );
        assert_eq!(
            workers_line(&small, Lang::En).unwrap(),
            "1 worker: at hidden size 16 with 4 sequences a step, a step is too small to split; messages would cost more than the work saved (auto splits from hidden size 128 and 32 sequences a share; workers=2 in the link splits it)"
        );
        assert!(workers_line(&small, Lang::Zh)
            .unwrap()
            .starts_with("1 个 Web Worker：隐藏层 16、每步 4 个序列"));
        assert_eq!(workers_line(&workers(1, 0, None, 1), Lang::En), None);
    }
}
