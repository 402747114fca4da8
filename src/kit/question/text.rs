//! The questions' own words (the questions are each lesson's, in its `question.rs`).

use crate::shell::catalogue::catalogue;

catalogue! {
    /// The question frame, the reveal and the index's progress marks.
    #[derive(Debug)]
    pub struct QuestionText {
        /// The box's heading.
        pub heading: &'static str {
            "Predict, then see", "先预测，再验证"
        }
        /// Label of the number slider and of the choice group.
        pub prediction: &'static str {
            "Your prediction", "你的预测"
        }
        /// Button: commit the prediction.
        pub lock: &'static str {
            "Lock my answer", "锁定答案"
        }
        /// Button: reveal without predicting.
        pub skip: &'static str {
            "Skip", "跳过"
        }
        /// Button: show the answer.
        pub reveal: &'static str {
            "Reveal", "揭晓"
        }
        /// Button: back to an open question.
        pub try_again: &'static str {
            "Try again", "重新作答"
        }
        /// {0}: the prediction.
        pub locked: fn(&str) -> String {
            |p| format!("Your answer, locked: {p}."), |p| format!("你的答案（已锁定）：{p}。")
        }
        /// {0}: the answer in words.
        pub answer: fn(&str) -> String {
            |a| format!("The page computes: {a}."), |a| format!("本页计算结果：{a}。")
        }
        /// {0}: the prediction; {1}: the gap.
        pub off_by: fn(&str, &str) -> String {
            |p, g| format!("You said {p}: off by {g}."), |p, g| format!("你的答案是 {p}，相差 {g}。")
        }
        /// A number prediction equal to the answer at the digits shown.
        pub exact: fn(&str) -> String {
            |p| format!("You said {p}: exactly right (to the digits shown)."), |p| format!("你的答案是 {p}：完全正确（在所示位数内）。")
        }
        /// A number prediction within half the slider's step of the answer (said, gap).
        pub near: fn(&str, &str) -> String {
            |p, g| format!("You said {p}: right, as close as the slider’s steps allow (off by {g})."), |p, g| format!("你的答案是 {p}：答对了，已是滑块步长所能达到的最接近值（相差 {g}）。")
        }
        /// The prediction was the answer.
        pub right: fn(&str) -> String {
            |p| format!("You said {p}: right."), |p| format!("你的答案是“{p}”：答对了。")
        }
        /// The prediction was another choice.
        pub wrong: fn(&str) -> String {
            |p| format!("You said {p}: not this time."), |p| format!("你的答案是“{p}”：这次没答对。")
        }
        /// Skipped.
        pub skipped: &'static str {
            "Skipped: no prediction.", "已跳过，未作预测。"
        }
        /// The page's settings changed after the reveal.
        pub stale: &'static str {
            "Computed for the settings at the reveal; they have changed since. “Try again” asks about the current ones.", "结果按揭晓时的设置计算；设置已改变。点“重新作答”可就当前设置作答。"
        }
        /// The page has no answer for its state (an error the page shows).
        pub no_answer: &'static str {
            "The page has no answer for these settings (see the message above).", "当前设置下本页没有答案（见上方提示）。"
        }
        /// Under an open question of a page that blurs the readouts giving its answer away.
        pub veiled_note: &'static str {
            "The numbers on the page that give the answer away are blurred until you reveal it or skip; the figures that show them can be downloaded after that.", "在你揭晓或跳过之前，本页上直接给出答案的数字会被模糊处理；显示这些数字的图也要在那之后才能下载。"
        }
        /// Under an open lab question once its run has started.
        pub after_note: &'static str {
            "This run has already started, so its results may be on the page: an answer given now is kept as answered after seeing, not as a prediction, and the index does not count it.", "本次运行已经开始，页面上可能已有结果：现在作答会记为“看过结果后作答”，不算预测，索引页也不计入。"
        }
        /// A prediction locked after the run had started.
        pub after_seen: &'static str {
            "Answered after the run had started: kept, but not counted as a prediction.", "在运行开始后作答：答案已保存，但不计为预测。"
        }
        /// In a chart whose curve is hidden while the question waits.
        pub veiled_chart: &'static str {
            "The curve is hidden until you answer.", "在你作答之前，曲线保持隐藏。"
        }
        /// Read by screen readers in place of a veiled readout.
        pub veiled_sr: &'static str {
            "hidden until you answer", "作答前隐藏"
        }
        /// The browser refused to keep answers.
        pub not_kept: &'static str {
            "This browser does not let the page keep your answers: they stay until you close or reload it.", "此浏览器不允许本页保存你的答案：答案会保留到你关闭或重新加载本页为止。"
        }
        /// An embedded page (in another site's frame) has no storage.
        pub not_kept_embedded: &'static str {
            "This frame cannot use your browser's storage, so your answers stay for this visit: until you close or reload the page.", "这个嵌入的框架无法使用浏览器的存储，所以你的答案只在本次访问中保留：直到你关闭或重新加载本页为止。"
        }
        /// Index: {0} revealed of {1}.
        pub progress: fn(&str, &str) -> String {
            |d, n| format!("{d} of {n} questions answered (skipped ones, and lab answers given after the run had started, do not count)"), |d, n| format!("已作答 {d}/{n} 个问题（跳过的、以及实验运行开始后才作答的不计）")
        }
        /// Index: button.
        pub reset: &'static str {
            "Reset questions", "重置问题"
        }
        /// The reset's second question.
        pub reset_confirm: &'static str {
            "Forget every answer in this browser?", "清除此浏览器中的全部答案？"
        }
        /// Confirms the reset.
        pub reset_yes: &'static str {
            "Reset", "重置"
        }
        /// Keeps the answers.
        pub reset_no: &'static str {
            "Keep them", "保留"
        }
        /// Index: after the reset.
        pub reset_done: &'static str {
            "Every question is open again.", "所有问题已重新开放。"
        }
        /// Index: the progress section's heading.
        pub progress_title: &'static str {
            "Predict, then see", "先预测，再验证"
        }
        /// Index: what the progress marks count.
        pub progress_text: &'static str {
            "Each lesson, and each of the two labs below, asks you to predict a number or a choice before the page shows its own. Your answers are kept in this browser only.", "每课以及下面的两个实验都请你先预测一个数值或选项，再看本页自己的计算结果。答案只保存在此浏览器中。"
        }
    }
}
