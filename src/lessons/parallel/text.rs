//! Lesson 8, why Transformers replaced RNNs.

use unroll_core::config::Lang;

/// Lesson 8: why Transformers replaced RNNs.
#[derive(Debug)]
pub struct ParallelText {
    /// Title.
    pub title: &'static str,
    /// One line for the index.
    pub summary: &'static str,
    /// The page's introduction.
    pub lede: &'static str,
    /// Controls panel.
    pub controls: &'static str,
    /// The cell radios' group name.
    pub cell: &'static str,
    /// Slider label (the URL key follows it as code).
    pub hidden_size: &'static str,
    /// Slider label (the URL key follows it as code).
    pub max_len: &'static str,
    /// Series: {0} cell.
    pub seq_series: fn(&str) -> String,
    /// Series.
    pub par_series: &'static str,
    /// Axis.
    pub x_title: &'static str,
    /// Axis.
    pub y_title: &'static str,
    /// Button.
    pub measure: &'static str,
    /// Status.
    pub measuring: &'static str,
    /// Status.
    pub done: fn(&str) -> String,
    /// Backend note.
    pub backend: &'static str,
    /// Panel.
    pub chart: &'static str,
    /// Column: {0} workload.
    pub depth_col: fn(&str) -> String,
    /// Column: {0} workload.
    pub time_col: fn(&str) -> String,
    /// About.
    pub about_1: &'static str,
    /// About.
    pub about_2: &'static str,
    /// About.
    pub about_3: &'static str,
    /// The tour's cues, one per step of [`super::tour::TOUR`].
    pub tour: &'static [&'static str],
}

impl ParallelText {
    /// English.
    pub const EN: ParallelText = ParallelText {
        title: "Why Transformers replaced RNNs",
        summary: "How serial depth grows with the length, for an RNN and for attention: measured live in this tab.",
        lede: "An RNN must finish step t before step t + 1. Attention compares all positions in one operation. Time both here.",
        controls: "What to time",
        cell: "Cell",
        hidden_size: "Hidden size",
        max_len: "Longest sequence",
        seq_series: |a0| format!("{a0} forward, L dependent steps"),
        par_series: "all-pairs scores Q·Kᵀ, one operation",
        x_title: "sequence length L",
        y_title: "time per call, ms (log scale)",
        measure: "Measure again",
        measuring: "Measuring…",
        done: |a0| format!("Each point is the median of {a0} samples, each the mean time per call over a batch of calls lasting at least a few milliseconds (the browser's clock is coarse); the shaded bars span the fastest and slowest sample."),
        backend: "Backend: the Rust CPU path compiled to WebAssembly (single-threaded), the same code the CPU trainer runs.",
        chart: "Measured in this tab",
        depth_col: |a0| format!("{a0}: serial depth"),
        time_col: |a0| format!("{a0}: ms, median (min–max)"),
        about_1: "Serial depth is the length of the longest chain of operations that must wait for each other. An RNN's is O(L): h_t needs h_{t−1}. All L² attention scores are independent: depth O(1), so the work spreads over as many cores as a GPU has.",
        about_2: "On one CPU thread both are sequential anyway, and attention does more arithmetic (L²·d against L·G·H²), so the all-pairs product can be the slower curve here. The difference that decided history is on parallel hardware: L dispatches that must wait for each other against one.",
        about_3: "These are measurements of this machine and this moment: run them again and they change a little.",
        tour: &[
            "A recurrent cell must take its L steps one after another: step t needs h_{t−1}.",
            "“Measure again” times the recurrent cell and the all-pairs scores for L = 8, 16, … up to max_len, here in this tab.",
            "The chart draws the measured medians against L, both axes logarithmic.",
            "Your turn: predict in the checkpoint, then reveal the page's answer.",
        ],
    };

    /// 简体中文.
    pub const ZH: ParallelText = ParallelText {
        title: "为什么 Transformer 取代了 RNN",
        summary: "RNN 与注意力的串行深度如何随长度增长：在这个标签页中实时测量。",
        lede: "RNN 必须先算完第 t 步才能算第 t + 1 步；注意力机制在一次运算里比较所有位置。在这里为两者计时。",
        controls: "计时对象",
        cell: "单元",
        hidden_size: "隐藏层大小",
        max_len: "最长序列",
        seq_series: |a0| format!("{a0} 前向，L 个相互依赖的步"),
        par_series: "全部位置两两打分 Q·Kᵀ，一次运算",
        x_title: "序列长度 L",
        y_title: "每次调用耗时，毫秒（对数坐标）",
        measure: "重新测量",
        measuring: "测量中……",
        done: |a0| format!("每个点是 {a0} 个样本的中位数，每个样本是一批调用（总时长至少几毫秒，因为浏览器的时钟精度较粗）的平均单次耗时；浅色竖条覆盖最快到最慢的样本。"),
        backend: "后端：编译为 WebAssembly 的 Rust CPU 路径（单线程），与 CPU 训练器运行的代码相同。",
        chart: "在本标签页中实测",
        depth_col: |a0| format!("{a0}：串行深度"),
        time_col: |a0| format!("{a0}：毫秒，中位数（最小–最大）"),
        about_1: "串行深度是必须相互等待的最长运算链的长度。RNN 的串行深度是 O(L)：h_t 需要 h_{t−1}。注意力的 L² 个分数彼此独立：深度为 O(1)，所以计算可以分摊到 GPU 的所有核心上。",
        about_2: "在单个 CPU 线程上两者本来都是顺序执行的，而且注意力的计算量更大（L²·d 对比 L·G·H²），所以这里全部两两打分的曲线可能更慢。真正决定历史走向的差别在并行硬件上：L 次必须相互等待的调度，对比一次调度。",
        about_3: "这些是本机此刻的测量结果：再测一次，数字会有少许变化。",
        tour: &[
            "循环单元必须一步接一步地走完 L 步：第 t 步需要 h_{t−1}。",
            "“重新测量”会在本标签页中对 L = 8, 16, … 直到 max_len，分别为循环单元和全部两两打分计时。",
            "图表画出测得的中位数随 L 的变化，两个坐标轴都是对数刻度。",
            "轮到你了：在检查点中作出预测，再揭晓本页的答案。",
        ],
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static ParallelText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
