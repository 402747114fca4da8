//! The training page's charts: axis titles, legend entries, placeholders.

use unroll_core::config::Lang;

/// Text of the charts (axis titles, legends, empty-chart messages).
#[derive(Debug)]
pub struct ChartText {
    /// x axis of the loss chart.
    pub step: &'static str,
    /// x axis of the validation chart.
    pub epoch: &'static str,
    /// Loss axis.
    pub loss: &'static str,
    /// Accuracy axis.
    pub accuracy: &'static str,
    /// Legend: per-step batch loss.
    pub batch_loss: &'static str,
    /// Legend: mean of the last 20 steps.
    pub mean_20: &'static str,
    /// Legend: the steps whose batch was smaller than the batch size (one per epoch).
    pub small_batch: &'static str,
    /// Legend: the loss of a uniform guess, ln C.
    pub uniform: &'static str,
    /// Legend: mean training loss of an epoch.
    pub train_loss: &'static str,
    /// Legend: validation loss.
    pub val_loss: &'static str,
    /// Legend: validation accuracy.
    pub val_acc: &'static str,
    /// Empty loss chart.
    pub loss_empty: &'static str,
    /// Empty validation chart.
    pub val_empty: &'static str,
}

impl ChartText {
    /// English.
    pub const EN: ChartText = ChartText {
        step: "step",
        epoch: "epoch",
        loss: "loss (nats)",
        accuracy: "accuracy",
        batch_loss: "batch loss",
        small_batch: "epoch's smaller batch",
        mean_20: "mean of last 20",
        uniform: "uniform guess",
        train_loss: "train loss",
        val_loss: "validation loss",
        val_acc: "validation accuracy",
        loss_empty: "The loss appears here once training starts",
        val_empty: "Validation runs at the end of each epoch",
    };

    /// 简体中文.
    pub const ZH: ChartText = ChartText {
        step: "步数",
        epoch: "轮次",
        loss: "损失（nats）",
        accuracy: "准确率",
        batch_loss: "批次损失",
        small_batch: "每轮中较小的批次",
        mean_20: "最近 20 步平均",
        uniform: "均匀猜测",
        train_loss: "训练损失",
        val_loss: "验证损失",
        val_acc: "验证准确率",
        loss_empty: "开始训练后这里会显示损失",
        val_empty: "每轮结束时进行验证",
    };

    /// The texts in `lang`.
    pub fn of(lang: Lang) -> &'static ChartText {
        match lang {
            Lang::En => &Self::EN,
            Lang::Zh => &Self::ZH,
        }
    }
}
