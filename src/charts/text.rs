//! The training page's charts: axis titles, legend entries, placeholders.

use crate::shell::catalogue::catalogue;

catalogue! {
    /// Text of the charts (axis titles, legends, empty-chart messages).
    #[derive(Debug)]
    pub struct ChartText {
        /// x axis of the loss chart.
        pub step: &'static str {
            "step", "步数"
        }
        /// x axis of the validation chart.
        pub epoch: &'static str {
            "epoch", "轮次"
        }
        /// Loss axis.
        pub loss: &'static str {
            "loss (nats)", "损失（nats）"
        }
        /// Accuracy axis.
        pub accuracy: &'static str {
            "accuracy", "准确率"
        }
        /// Legend: per-step batch loss.
        pub batch_loss: &'static str {
            "batch loss", "批次损失"
        }
        /// Legend: mean of the last 20 steps.
        pub mean_20: &'static str {
            "mean of last 20", "最近 20 步平均"
        }
        /// Legend: the steps whose batch was smaller than the batch size (one per epoch).
        pub small_batch: &'static str {
            "epoch's smaller batch", "每轮中较小的批次"
        }
        /// Legend: the loss of a uniform guess, ln C.
        pub uniform: &'static str {
            "uniform guess", "均匀猜测"
        }
        /// Legend: mean training loss of an epoch.
        pub train_loss: &'static str {
            "train loss", "训练损失"
        }
        /// Legend: validation loss.
        pub val_loss: &'static str {
            "validation loss", "验证损失"
        }
        /// Legend: validation accuracy.
        pub val_acc: &'static str {
            "validation accuracy", "验证准确率"
        }
        /// Empty loss chart.
        pub loss_empty: &'static str {
            "The loss appears here once training starts", "开始训练后这里会显示损失"
        }
        /// Empty validation chart.
        pub val_empty: &'static str {
            "Validation runs at the end of each epoch", "每轮结束时进行验证"
        }
    }
}
