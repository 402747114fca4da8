//! Lesson 8, why Transformers replaced RNNs.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Lesson 8: why Transformers replaced RNNs.
    #[derive(Debug)]
    pub struct ParallelText {
        /// Controls panel.
        pub controls: &'static str {
            "What to time", "计时对象"
        }
        /// The cell radios' group name.
        pub cell: &'static str {
            "Cell", "单元"
        }
        /// Slider label (the URL key follows it as code).
        pub hidden_size: &'static str {
            "Hidden size", "隐藏层大小"
        }
        /// Slider label (the URL key follows it as code).
        pub max_len: &'static str {
            "Longest sequence", "最长序列"
        }
        /// Series: {0} cell.
        pub seq_series: fn(&str) -> String {
            |a0| format!("{a0} forward, L dependent steps"), |a0| format!("{a0} 前向，L 个相互依赖的步")
        }
        /// Series.
        pub par_series: &'static str {
            "all-pairs scores Q·Kᵀ, one operation", "全部位置两两打分 Q·Kᵀ，一次运算"
        }
        /// Axis.
        pub x_title: &'static str {
            "sequence length L", "序列长度 L"
        }
        /// Axis.
        pub y_title: &'static str {
            "time per call, ms (log scale)", "每次调用耗时，毫秒（对数坐标）"
        }
        /// Button.
        pub measure: &'static str {
            "Measure again", "重新测量"
        }
        /// Status.
        pub measuring: &'static str {
            "Measuring…", "测量中……"
        }
        /// Status.
        pub done: fn(&str) -> String {
            |a0| format!("Each point is the median of {a0} samples, each the mean time per call over a batch of calls lasting at least a few milliseconds (the browser's clock is coarse); the shaded bars span the fastest and slowest sample."), |a0| format!("每个点是 {a0} 个样本的中位数，每个样本是一批调用（总时长至少几毫秒，因为浏览器的时钟精度较粗）的平均单次耗时；浅色竖条覆盖最快到最慢的样本。")
        }
        /// Backend note.
        pub backend: &'static str {
            "CPU: the Rust CPU path compiled to WebAssembly (single-threaded), the same code the CPU trainer runs.", "CPU：编译为 WebAssembly 的 Rust CPU 路径（单线程），与 CPU 训练器运行的代码相同。"
        }
        /// WebGPU note while the browser is asked.
        pub gpu_checking: &'static str {
            "WebGPU: asking the browser for a GPU…", "WebGPU：正在向浏览器请求 GPU……"
        }
        /// WebGPU note: the browser offers no adapter.
        pub gpu_none: &'static str {
            "WebGPU: this browser offers no GPU adapter; only the CPU is measured.", "WebGPU：此浏览器没有提供 GPU 适配器；只测量 CPU。"
        }
        /// WebGPU note: {0} the device's error (in English; the Chinese note leaves it out).
        pub gpu_failed: fn(&str) -> String {
            |why| format!("WebGPU: the GPU failed ({why}); only the CPU is measured."), |_| "WebGPU：GPU 出错；只测量 CPU。".to_owned()
        }
        /// WebGPU note: {0} the adapter.
        pub gpu_on: fn(&str) -> String {
            |name| format!("WebGPU: the same two workloads also run on {name}: the cell's whole-sequence kernel (its L steps one after another inside one dispatch) and one matmul dispatch for Q·Kᵀ; each call is one submission and its read-back."), |name| format!("WebGPU：同样的两种计算也在 {name} 上运行：单元的整段序列内核（L 步在一次调度内依次执行）和计算 Q·Kᵀ 的一次矩阵乘法调度；每次调用是一次提交加一次回读。")
        }
        /// An adapter whose name the browser hides.
        pub gpu_unnamed: &'static str {
            "this browser's GPU, its name hidden", "本浏览器的 GPU，名称被隐藏"
        }
        /// Column: {0} workload.
        pub gpu_col: fn(&str) -> String {
            |w| format!("{w}: ms on WebGPU"), |w| format!("{w}：WebGPU 毫秒")
        }
        /// Series on WebGPU: {0} the series' name.
        pub on_gpu: fn(&str) -> String {
            |name| format!("{name} (WebGPU)"), |name| format!("{name}（WebGPU）")
        }
        /// The serial depths' chart.
        pub depth_chart: &'static str {
            "Serial depth: dependent steps, counted", "串行深度：相互依赖的步数（计数）"
        }
        /// Series: {0} cell.
        pub seq_depth_series: fn(&str) -> String {
            |c| format!("{c}: dependent steps"), |c| format!("{c}：相互依赖的步数")
        }
        /// Series.
        pub par_depth_series: &'static str {
            "Q·Kᵀ: dependent steps", "Q·Kᵀ：相互依赖的步数"
        }
        /// Axis.
        pub depth_y_title: &'static str {
            "dependent steps (log scale)", "相互依赖的步数（对数坐标）"
        }
        /// Under the chart, the CPU: [first L, last L, cell, cell's growth, Q·Kᵀ's growth, cell's
        /// work growth, Q·Kᵀ's work growth].
        pub cpu_finding: fn(&[&str]) -> String {
            |a| format!("On this device's CPU (one thread), from L = {} to {} the {}'s time grew {} and Q·Kᵀ's {}. One thread does every multiply-add one after another, so the time follows the work, which grows {} for the {} and {} for Q·Kᵀ (its L² scores). A single thread has no parallel lanes to spread independent work over; the chart of serial depths below counts, per length, the steps that must wait for each other.", a[0], a[1], a[2], a[3], a[4], a[5], a[2], a[6]), |a| format!("在本设备的 CPU（单线程）上，L 从 {} 到 {}，{} 的耗时增长 {}，Q·Kᵀ 的耗时增长 {}。单线程把每一次乘加依次算完，所以耗时跟着计算量走：{} 的计算量增长 {}，Q·Kᵀ 要算的分数（L² 个）增长 {}。单线程没有可以分摊独立计算的并行通道；下面的串行深度图按长度数出必须相互等待的步数。", a[0], a[1], a[2], a[3], a[4], a[2], a[5], a[6])
        }
        /// Under the chart, WebGPU where Q·Kᵀ grew less: [adapter, first L, last L, cell, cell's
        /// growth, Q·Kᵀ's growth, Q·Kᵀ's work growth, round trip ms].
        pub gpu_finding_less: fn(&[&str]) -> String {
            |a| format!("On WebGPU ({}), from L = {} to {} the {}'s time grew {} and Q·Kᵀ's only {}, although its scores grew {} in number: the GPU computed the scores side by side, while the {}'s steps waited for each other inside one dispatch. Each call includes a round trip of about {} ms.", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[3], a[7]), |a| format!("在 WebGPU（{}）上，L 从 {} 到 {}，{} 的耗时增长 {}，而 Q·Kᵀ 只增长 {}，尽管它要算的分数数量增长 {}：GPU 同时计算这些分数，而 {} 的各步在一次调度内相互等待。每次调用都包含约 {} 毫秒的往返时间。", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[3], a[7])
        }
        /// The same where Q·Kᵀ did not grow less.
        pub gpu_finding_more: fn(&[&str]) -> String {
            |a| format!("On WebGPU ({}), from L = {} to {} the {}'s time grew {} and Q·Kᵀ's {}: this device did not run Q·Kᵀ's scores, grown {} in number, side by side (a browser may run WebGPU on the CPU, as SwiftShader does), so the product's work showed in its time. Each call includes a round trip of about {} ms.", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]), |a| format!("在 WebGPU（{}）上，L 从 {} 到 {}，{} 的耗时增长 {}，Q·Kᵀ 增长 {}：本设备没有把数量增长 {} 的 Q·Kᵀ 分数并行计算（浏览器可能在 CPU 上模拟运行 WebGPU），所以乘积的计算量体现在了耗时上。每次调用都包含约 {} 毫秒的往返时间。", a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
        }
        /// Panel.
        pub chart: &'static str {
            "Measured in this tab", "在本标签页中实测"
        }
        /// Column: {0} workload.
        pub depth_col: fn(&str) -> String {
            |a0| format!("{a0}: serial depth"), |a0| format!("{a0}：串行深度")
        }
        /// Column: {0} workload.
        pub time_col: fn(&str) -> String {
            |a0| format!("{a0}: ms, median (min–max)"), |a0| format!("{a0}：毫秒，中位数（最小–最大）")
        }
        /// About.
        pub about_1: &'static str {
            "Serial depth is the length of the longest chain of operations that must wait for each other. An RNN's is O(L): h_t needs h_{t−1}. All L² attention scores are independent: depth O(1), so the work spreads over as many cores as a GPU has.", "串行深度是必须相互等待的最长运算链的长度。RNN 的串行深度是 O(L)：h_t 需要 h_{t−1}。注意力的 L² 个分数彼此独立：深度为 O(1)，所以计算可以分摊到 GPU 的所有核心上。"
        }
        /// About.
        pub about_2: &'static str {
            "On one CPU thread both are sequential anyway, and attention does more arithmetic (L²·d against L·G·H²), so the all-pairs product can be the slower curve here. The difference that decided history is on parallel hardware: L dispatches that must wait for each other against one.", "在单个 CPU 线程上两者本来都是顺序执行的，而且注意力的计算量更大（L²·d 对比 L·G·H²），所以这里全部两两打分的曲线可能更慢。真正决定历史走向的差别在并行硬件上：L 次必须相互等待的调度，对比一次调度。"
        }
        /// About.
        pub about_3: &'static str {
            "These are measurements of this machine and this moment: run them again and they change a little.", "这些是本机此刻的测量结果：再测一次，数字会有少许变化。"
        }
        /// The tour's cues, one per step of [`super::tour::TOUR`].
        pub tour: &'static [&'static str] {
            &[
                "Serial depth counts the steps that must wait for one another. For each workload, ask which of its steps needs another step's result before it can start.",
                "“Measure again” times the recurrent cell and the all-pairs scores for L = 8, 16, … up to max_len, here in this tab.",
                "The chart draws the measured medians against L, both axes logarithmic.",
                "Your turn: make your prediction in the question below, then reveal the page's answer.",
            ],
            &[
                "串行深度数的是必须相互等待的步骤。对每种计算都问一问：它的哪一步必须先拿到另一步的结果才能开始？",
                "“重新测量”会在本标签页中对 L = 8, 16, … 直到 max_len，分别为循环单元和全部两两打分计时。",
                "图表画出测得的中位数随 L 的变化，两个坐标轴都是对数刻度。",
                "轮到你了：在下面的问题中作出预测，再揭晓本页的答案。",
            ]
        }
    }
}
