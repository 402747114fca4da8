//! The texts the lesson pages share: navigation, step controls.

use unroll_core::config::Lang;

/// Texts shared by the lesson pages (navigation, step controls).
#[derive(Debug)]
pub struct CommonText {
    /// Header navigation: lessons.
    pub lessons: &'static str,
    /// Breadcrumb: all lessons.
    pub all_lessons: &'static str,
    /// "Lesson {0}".
    pub lesson_n: fn(&str) -> String,
    /// Previous/next navigation label.
    pub more_lessons: &'static str,
    /// The link on to the training page (the index's card, the last lesson's next link).
    pub train_link: &'static str,
    /// List editor.
    pub add_step: &'static str,
    /// List editor.
    pub remove_step: &'static str,
    /// Step controls.
    pub time_step: &'static str,
    /// Step controls.
    pub first_step: &'static str,
    /// Step controls.
    pub step_back: &'static str,
    /// Step controls.
    pub step_forward: &'static str,
    /// Step controls.
    pub play: &'static str,
    /// Step controls.
    pub pause: &'static str,
    /// Step controls: the slider of the stages within a step.
    pub stage: &'static str,
    /// A seed field.
    pub seed: &'static str,
    /// "About" panel title.
    pub about: &'static str,
    /// Number of steps.
    pub steps: &'static str,
    /// The cell radios' group name (RNN, LSTM, GRU).
    pub cell: &'static str,
}

impl CommonText {
    /// English.
    pub const EN: CommonText = CommonText {
        lessons: "Lessons",
        all_lessons: "All lessons",
        lesson_n: |a0| format!("Lesson {a0}"),
        more_lessons: "More lessons",
        train_link: "Open the training page",
        add_step: "+ step",
        remove_step: "− step",
        time_step: "Time step",
        first_step: "First step",
        step_back: "Step back",
        step_forward: "Step forward",
        play: "Play",
        pause: "Pause",
        stage: "Within the step",
        seed: "Seed",
        about: "What to notice",
        steps: "Steps",
        cell: "Cell",
    };

    /// 简体中文.
    pub const ZH: CommonText = CommonText {
        lessons: "课程",
        all_lessons: "全部课程",
        lesson_n: |a0| format!("第 {a0} 课"),
        more_lessons: "更多课程",
        train_link: "打开训练页面",
        add_step: "+ 一步",
        remove_step: "− 一步",
        time_step: "时间步",
        first_step: "第一步",
        step_back: "后退一步",
        step_forward: "前进一步",
        play: "播放",
        pause: "暂停",
        stage: "步内阶段",
        seed: "随机种子",
        about: "要点",
        steps: "步数",
        cell: "单元类型",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static CommonText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
