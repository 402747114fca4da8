//! The texts the lesson pages share: navigation, step controls.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Texts shared by the lesson pages (navigation, step controls).
    #[derive(Debug)]
    pub struct CommonText {
        /// Header navigation: lessons.
        pub lessons: &'static str {
            "Lessons", "课程"
        }
        /// Breadcrumb: all lessons.
        pub all_lessons: &'static str {
            "All lessons", "全部课程"
        }
        /// "Lesson {0}".
        pub lesson_n: fn(&str) -> String {
            |a0| format!("Lesson {a0}"), |a0| format!("第 {a0} 课")
        }
        /// Previous/next navigation label.
        pub more_lessons: &'static str {
            "More lessons", "更多课程"
        }
        /// The link on to the training page (the index's card, the last lesson's next link).
        pub train_link: &'static str {
            "Open the training page", "打开训练页面"
        }
        /// List editor.
        pub add_step: &'static str {
            "+ step", "+ 一步"
        }
        /// List editor.
        pub remove_step: &'static str {
            "− step", "− 一步"
        }
        /// Step controls.
        pub time_step: &'static str {
            "Time step", "时间步"
        }
        /// Step controls.
        pub first_step: &'static str {
            "First step", "第一步"
        }
        /// Step controls.
        pub step_back: &'static str {
            "Step back", "后退一步"
        }
        /// Step controls.
        pub step_forward: &'static str {
            "Step forward", "前进一步"
        }
        /// Step controls.
        pub play: &'static str {
            "Play", "播放"
        }
        /// Step controls.
        pub pause: &'static str {
            "Pause", "暂停"
        }
        /// Step controls: the slider of the stages within a step.
        pub stage: &'static str {
            "Within the step", "步内阶段"
        }
        /// A seed field.
        pub seed: &'static str {
            "Seed", "随机种子"
        }
        /// "About" panel title.
        pub about: &'static str {
            "What to notice", "要点"
        }
        /// Number of steps.
        pub steps: &'static str {
            "Steps", "步数"
        }
        /// The cell radios' group name (RNN, LSTM, GRU).
        pub cell: &'static str {
            "Cell", "单元类型"
        }
    }
}
