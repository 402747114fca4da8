//! The tour's own texts (its button and dialog); each lesson's cues are in its `text.rs`.

use unroll_core::config::Lang;

/// The guided tour of a lesson.
#[derive(Debug)]
pub struct TourText {
    /// The button that starts the tour.
    pub start: &'static str,
    /// The dialog's name.
    pub title: &'static str,
    /// "Step {0} of {1}".
    pub step_of: fn(&str, &str) -> String,
    /// Button.
    pub back: &'static str,
    /// Button.
    pub next: &'static str,
    /// Button: stop the tour's own advancing.
    pub pause: &'static str,
    /// Button: advance again.
    pub resume: &'static str,
    /// Button on the last step: end, with the learner's settings back.
    pub finish: &'static str,
    /// Button on the last step: end, keeping what the tour set.
    pub keep: &'static str,
    /// The close button's accessible name.
    pub close: &'static str,
    /// Under the buttons: the keys.
    pub keys: &'static str,
}

impl TourText {
    /// English.
    pub const EN: TourText = TourText {
        start: "Tour",
        title: "Tour of this lesson",
        step_of: |a0, a1| format!("Step {a0} of {a1}"),
        back: "Back",
        next: "Next",
        pause: "Pause",
        resume: "Resume",
        finish: "Finish, my settings back",
        keep: "Keep the tour's settings",
        close: "Close the tour; your settings come back",
        keys: "← → back and next, Esc closes",
    };

    /// 简体中文.
    pub const ZH: TourText = TourText {
        start: "导览",
        title: "本课导览",
        step_of: |a0, a1| format!("第 {a0} 步，共 {a1} 步"),
        back: "上一步",
        next: "下一步",
        pause: "暂停",
        resume: "继续",
        finish: "结束，恢复我的设置",
        keep: "保留导览的设置",
        close: "关闭导览，恢复你的设置",
        keys: "← → 上一步、下一步，退出键关闭",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static TourText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
