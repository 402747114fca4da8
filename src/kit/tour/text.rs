//! The tour's own texts (its button and dialog); each lesson's cues are in its `text.rs`.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// The guided tour of a lesson.
    #[derive(Debug)]
    pub struct TourText {
        /// The button that starts the tour.
        pub start: &'static str {
            "Tour", "导览"
        }
        /// The dialog's name.
        pub title: &'static str {
            "Tour of this lesson", "本课导览"
        }
        /// "Step {0} of {1}".
        pub step_of: fn(&str, &str) -> String {
            |a0, a1| format!("Step {a0} of {a1}"), |a0, a1| format!("第 {a0} 步，共 {a1} 步")
        }
        /// Button.
        pub back: &'static str {
            "Back", "上一步"
        }
        /// Button.
        pub next: &'static str {
            "Next", "下一步"
        }
        /// Button: stop the tour's own advancing.
        pub pause: &'static str {
            "Pause", "暂停"
        }
        /// Button: advance again.
        pub resume: &'static str {
            "Resume", "继续"
        }
        /// Button on the last step: end, with the learner's settings back.
        pub finish: &'static str {
            "Finish, my settings back", "结束，恢复我的设置"
        }
        /// Button on the last step: end, keeping what the tour set.
        pub keep: &'static str {
            "Keep the tour's settings", "保留导览的设置"
        }
        /// The close button's accessible name.
        pub close: &'static str {
            "Close the tour; your settings come back", "关闭导览，恢复你的设置"
        }
        /// Under the buttons: the keys.
        pub keys: &'static str {
            "← → back and next, Esc closes", "← → 上一步、下一步，退出键关闭"
        }
    }
}
