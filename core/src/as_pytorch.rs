//! The names page's and the long-memory lab's configurations as runnable PyTorch scripts
//! ("As PyTorch").
//!
//! The script is `core/templates/train_names.py`, a complete program that runs as it is (with the
//! page's defaults); [`names_script`] replaces its configuration block — the lines between
//! `# <configuration>` and `# </configuration>` — with the page's settings, its languages in
//! label order (the rows of `fc`), the data it trained on and the page's link. The rest of the
//! script (normalisation, split rule, equal-length batches, `nn.LSTM`/`nn.GRU`/`nn.RNN` with
//! `rnn.*`/`fc.*` names, forget-gate bias, head, Adam, clipping) mirrors the training code, and
//! `--load` reads the page's `.safetensors` with `load_state_dict(strict=True)`.
//!
//! The long-memory lab's script is `core/templates/delay_copy.py` ([`delay_script`]): the
//! delay-copy task, its cells and seeds, recipe and held-out evaluation schedule, filled in the
//! same way; its task pages' (adding, copy, order) is `core/templates/long_memory.py`
//! ([`memory_script`]), filled from the sweep's plan (the values the page trains with).

use crate::config::delay::DelayConfig;
use crate::config::train::{Head, TrainConfig};
use crate::memory::run::MemoryPlan;

/// The names page's script template, runnable as it is.
pub const TEMPLATE: &str = include_str!("../templates/train_names.py");

/// The long-memory lab's script template (delay-copy), runnable as it is.
pub const DELAY_TEMPLATE: &str = include_str!("../templates/delay_copy.py");

/// The long-memory tasks' script template (adding, copy, order), runnable as it is.
pub const MEMORY_TEMPLATE: &str = include_str!("../templates/long_memory.py");

const BEGIN: &str = "# <configuration>\n";
const END: &str = "# </configuration>\n";

/// Where the script reads its names from (`DATA` in the script, `--data` overrides it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataSource<'a> {
    /// The PyTorch tutorial's files: the folder `data/names` of its archive.
    Tutorial,
    /// The learner's own file or files, by the name they were loaded under (a `.tsv` is read
    /// as one; anything else is left for the learner to point `--data` at, and the script's
    /// comment says so).
    Own(&'a str),
}

/// A Python string literal for `s` (JSON's escapes are Python's).
fn py_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// The configuration block for `config`, `classes` (label order), `data` and `page` (the
/// page's full link).
fn block(config: &TrainConfig, classes: &[String], data: DataSource, page: &str) -> String {
    let head = match config.head {
        Head::Last => "last",
        Head::Padded => "padded",
    };
    let classes: Vec<String> = classes.iter().map(|c| py_str(c)).collect();
    let data = match data {
        DataSource::Tutorial => format!(
            "DATA = {}  # the PyTorch tutorial's names: unzip its data.zip here, or pass --data",
            py_str("data/names")
        ),
        DataSource::Own(name) if name.to_ascii_lowercase().ends_with(".tsv") => format!(
            "DATA = {}  # your file (name<TAB>label lines); pass --data PATH if it is elsewhere",
            py_str(name)
        ),
        DataSource::Own(name) => format!(
            "DATA = {}  # your data as loaded on the page: unpack it to a folder of <Language>.txt files (or one name<TAB>label .tsv) and pass --data PATH",
            py_str(name)
        ),
    };
    format!(
        "{BEGIN}CONFIG = dict(\n    cell={cell},\n    hidden_size={hidden},\n    num_layers={layers},\n    bidirectional={bidir},\n    lr={lr:?},\n    batch_size={batch},\n    epochs={epochs},\n    max_norm={max_norm:?},\n    forget_bias={forget:?},\n    seed={seed},\n    head={head},\n)\nCLASSES = [{classes}]  # the languages in label order (fc's rows)\n{data}\nPAGE = {page}  # the page this configuration came from\n{END}",
        cell = py_str(config.cell.spec().key),
        hidden = config.hidden_size,
        layers = config.num_layers,
        bidir = py_bool(config.bidirectional),
        lr = config.lr,
        batch = config.batch_size,
        epochs = config.epochs,
        max_norm = config.max_norm,
        forget = config.forget_bias,
        seed = config.seed,
        head = py_str(head),
        classes = classes.join(", "),
        page = py_str(page),
    )
}

/// `template` with its configuration block replaced by `block`, and its usage lines
/// (`python3 <template_name> …`) naming `file`, the name the script is offered under.
fn fill(template: &str, template_name: &str, block: &str, file: &str) -> String {
    let (Some(start), Some(end)) = (template.find(BEGIN), template.find(END)) else {
        unreachable!("the templates have their configuration block");
    };
    let usage = |text: &str| {
        text.replace(
            &format!("python3 {template_name}"),
            &format!("python3 {file}"),
        )
    };
    format!(
        "{}{}{}",
        usage(&template[..start]),
        block,
        usage(&template[end + END.len()..])
    )
}

/// The complete delay-copy script for the long-memory lab's `config` (its cells, delay, length,
/// vocabulary, hidden size, Adam rate, batch, clipping, forget-gate bias, steps, first seed and
/// seed count); `page` is the page's link.
pub fn delay_script(config: &DelayConfig, page: &str) -> String {
    let cells: Vec<String> = config
        .cell
        .cells()
        .iter()
        .map(|c| py_str(c.as_str()))
        .collect();
    let block = format!(
        "{BEGIN}CONFIG = dict(\n    cells=[{cells}],\n    delay={delay},\n    length={length},\n    vocab={vocab},\n    hidden_size={hidden},\n    lr={lr:?},\n    batch_size={batch},\n    max_norm={max_norm:?},\n    forget_bias={forget:?},\n    steps={steps},\n    seed={seed},\n    seeds={seeds},\n)\nPAGE = {page}  # the page this configuration came from\n{END}",
        cells = cells.join(", "),
        delay = config.delay,
        length = config.length,
        vocab = config.vocab,
        hidden = config.hidden_size,
        lr = config.lr,
        batch = config.batch_size,
        max_norm = config.max_norm,
        forget = config.forget_bias,
        steps = config.steps,
        seed = config.seed,
        seeds = config.seeds,
        page = py_str(page),
    );
    fill(
        DELAY_TEMPLATE,
        "delay_copy.py",
        &block,
        &delay_file_name(config),
    )
}

/// The file name the long-memory lab offers: `unroll-delay{d}-{cells}.py`, e.g.
/// `unroll-delay8-both.py`.
pub fn delay_file_name(config: &DelayConfig) -> String {
    format!("unroll-delay{}-{}.py", config.delay, config.cell.as_str())
}

/// The complete script of a long-memory task's sweep `plan` (its task and T, cells, seeds,
/// recipe, budget and evaluation schedule, [`MemoryPlan::eval_every`]); `page` is the page's
/// link.
pub fn memory_script(plan: &MemoryPlan, page: &str) -> String {
    let cells: Vec<String> = plan.cells.iter().map(|c| py_str(c.as_str())).collect();
    let r = &plan.recipe;
    let block = format!(
        "{BEGIN}CONFIG = dict(\n    task={task},\n    length={length},\n    cells=[{cells}],\n    hidden_size={hidden},\n    lr={lr:?},\n    batch_size={batch},\n    max_norm={max_norm:?},\n    forget_bias={forget:?},\n    steps={steps},\n    seed={seed},\n    seeds={seeds},\n    eval_every={every},\n)\nPAGE = {page}  # the page this configuration came from\n{END}",
        task = py_str(plan.task.kind().as_str()),
        length = plan.task.length(),
        cells = cells.join(", "),
        hidden = r.hidden_size,
        lr = r.lr,
        batch = r.batch_size,
        max_norm = r.max_norm.unwrap_or(0.0),
        forget = r.forget_bias,
        steps = plan.steps,
        seed = plan.seeds.first().copied().unwrap_or(0),
        seeds = plan.seeds.len(),
        every = plan.eval_every(),
        page = py_str(page),
    );
    fill(
        MEMORY_TEMPLATE,
        "long_memory.py",
        &block,
        &memory_file_name(plan),
    )
}

/// The file name a task page offers: `unroll-{task}-t{T}.py` (and the cell when one alone is
/// trained, [`MemoryPlan::file_tag`]), e.g. `unroll-adding-t50.py`.
pub fn memory_file_name(plan: &MemoryPlan) -> String {
    format!("unroll-{}.py", plan.file_tag())
}

/// The complete script for `config` trained on `data` with `classes` in label order; `page` is
/// the page's link, quoted in the script so that it says where it came from.
pub fn names_script(
    config: &TrainConfig,
    classes: &[String],
    data: DataSource,
    page: &str,
) -> String {
    fill(
        TEMPLATE,
        "train_names.py",
        &block(config, classes, data, page),
        &file_name(config),
    )
}

/// The file name the page offers: `unroll-names-{cell}-h{hidden}.py`, e.g.
/// `unroll-names-lstm-h128.py`.
pub fn file_name(config: &TrainConfig) -> String {
    format!(
        "unroll-names-{}-h{}.py",
        config.cell.spec().key,
        config.hidden_size
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::params::CellKind;

    fn classes() -> Vec<String> {
        vec!["Arabic".into(), "Chinese".into(), "Czech".into()]
    }

    #[test]
    fn the_templates_have_one_configuration_block() {
        for t in [TEMPLATE, DELAY_TEMPLATE, MEMORY_TEMPLATE] {
            assert_eq!(t.matches(BEGIN).count(), 1);
            assert_eq!(t.matches(END).count(), 1);
            assert!(t.find(BEGIN) < t.find(END));
        }
    }

    #[test]
    fn the_usage_lines_name_the_offered_file() {
        let d = delay_script(&DelayConfig::default(), "p");
        assert!(d.contains("    python3 unroll-delay8-both.py --steps 500 --seeds 1"));
        assert!(!d.contains("delay_copy.py"));
        let c = TrainConfig::default();
        let s = names_script(&c, &classes(), DataSource::Tutorial, "p");
        let file = file_name(&c);
        assert_eq!(s.matches(&format!("python3 {file}")).count(), 3);
        assert!(!s.contains("train_names.py"));
    }

    #[test]
    fn the_delay_block_carries_every_setting() {
        use crate::config::delay::CellSet;
        let c = DelayConfig {
            cell: CellSet::All,
            delay: 16,
            length: 64,
            vocab: 12,
            hidden_size: 32,
            lr: 0.01,
            batch_size: 16,
            max_norm: 0.0,
            forget_bias: 0.5,
            steps: 700,
            seed: 5,
            seeds: 2,
            ..DelayConfig::default()
        };
        let s = delay_script(&c, "https://x/?v=1&lesson=delay&delay=16");
        for line in [
            "    cells=[\"rnn\", \"lstm\", \"gru\"],",
            "    delay=16,",
            "    length=64,",
            "    vocab=12,",
            "    hidden_size=32,",
            "    lr=0.01,",
            "    batch_size=16,",
            "    max_norm=0.0,",
            "    forget_bias=0.5,",
            "    steps=700,",
            "    seed=5,",
            "    seeds=2,",
            "PAGE = \"https://x/?v=1&lesson=delay&delay=16\"  # the page this configuration came from",
        ] {
            assert!(s.lines().any(|l| l == line), "missing {line:?}");
        }
        assert_eq!(s.matches("CONFIG = dict(").count(), 1);
        assert!(!s.contains("PAGE = None"));
        assert!(s.ends_with("if __name__ == \"__main__\":\n    main()\n"));
        // The default pair is RNN then LSTM, the page's order.
        let d = delay_script(&DelayConfig::default(), "p");
        assert!(d.contains("    cells=[\"rnn\", \"lstm\"],\n"));
        assert_eq!(
            delay_file_name(&DelayConfig::default()),
            "unroll-delay8-both.py"
        );
        assert_eq!(delay_file_name(&c), "unroll-delay16-all.py");
    }

    #[test]
    fn the_memory_block_carries_the_plan() {
        use crate::config::delay::{CellSet, LabTask};
        let c = DelayConfig {
            task: LabTask::Order,
            cell: CellSet::One(CellKind::Gru),
            length: 70,
            lr: 0.01,
            batch_size: 16,
            max_norm: 0.0,
            forget_bias: 0.5,
            steps: 90,
            seed: 5,
            seeds: 2,
            ..DelayConfig::default()
        };
        let plan = MemoryPlan::of(&c).unwrap().unwrap();
        let s = memory_script(&plan, "https://x/?v=1&lesson=delay&task=order");
        for line in [
            "    task=\"order\",",
            "    length=70,",
            "    cells=[\"gru\"],",
            "    hidden_size=64,",
            "    lr=0.01,",
            "    batch_size=16,",
            "    max_norm=0.0,",
            "    forget_bias=0.5,",
            "    steps=90,",
            "    seed=5,",
            "    seeds=2,",
            "    eval_every=5,",
            "PAGE = \"https://x/?v=1&lesson=delay&task=order\"  # the page this configuration came from",
        ] {
            assert!(s.lines().any(|l| l == line), "missing {line:?}");
        }
        assert_eq!(s.matches("CONFIG = dict(").count(), 1);
        assert!(s.contains("    python3 unroll-order-t70-gru.py --steps 100 --seeds 1"));
        assert!(!s.contains("long_memory.py"));
        assert!(s.ends_with("if __name__ == \"__main__\":\n    main()\n"));
        // The page's defaults: T, budget, hidden size and cells of the task.
        let adding = DelayConfig {
            task: LabTask::Adding,
            ..DelayConfig::default()
        };
        let plan = MemoryPlan::of(&adding).unwrap().unwrap();
        let s = memory_script(&plan, "p");
        assert!(s.contains(
            "    length=50,\n    cells=[\"rnn\", \"lstm\", \"gru\"],\n    hidden_size=64,\n"
        ));
        assert!(s.contains("    steps=1500,\n    seed=0,\n    seeds=3,\n    eval_every=75,\n"));
        assert_eq!(memory_file_name(&plan), "unroll-adding-t50.py");
    }

    #[test]
    fn the_block_carries_every_setting() {
        let c = TrainConfig {
            cell: CellKind::Gru,
            hidden_size: 64,
            num_layers: 2,
            bidirectional: true,
            lr: 0.003,
            batch_size: 32,
            epochs: 7,
            max_norm: 1.5,
            forget_bias: 0.0,
            seed: 42,
            head: Head::Padded,
            ..TrainConfig::default()
        };
        let s = names_script(
            &c,
            &classes(),
            DataSource::Tutorial,
            "https://x/?v=1&lesson=names",
        );
        for line in [
            "    cell=\"gru\",",
            "    hidden_size=64,",
            "    num_layers=2,",
            "    bidirectional=True,",
            "    lr=0.003,",
            "    batch_size=32,",
            "    epochs=7,",
            "    max_norm=1.5,",
            "    forget_bias=0.0,",
            "    seed=42,",
            "    head=\"padded\",",
            "CLASSES = [\"Arabic\", \"Chinese\", \"Czech\"]  # the languages in label order (fc's rows)",
            "PAGE = \"https://x/?v=1&lesson=names\"  # the page this configuration came from",
        ] {
            assert!(s.lines().any(|l| l == line), "missing {line:?}");
        }
        // The template's own defaults are gone, the rest of it is kept.
        assert_eq!(s.matches("CONFIG = dict(").count(), 1);
        assert!(!s.contains("CLASSES = None"));
        assert!(s.ends_with("if __name__ == \"__main__\":\n    main()\n"));
    }

    #[test]
    fn names_and_files_are_quoted_as_python_strings() {
        let s = names_script(
            &TrainConfig::default(),
            &["Fran\"çais".into(), "中文".into()],
            DataSource::Own("my \"names\".tsv"),
            "p",
        );
        assert!(s.contains("CLASSES = [\"Fran\\\"çais\", \"中文\"]"));
        assert!(s.contains("DATA = \"my \\\"names\\\".tsv\"  # your file"));
        let zip = names_script(
            &TrainConfig::default(),
            &classes(),
            DataSource::Own("names.zip"),
            "p",
        );
        assert!(zip.contains("DATA = \"names.zip\"  # your data as loaded on the page: unpack it"));
    }

    #[test]
    fn tiny_learning_rates_stay_numbers_python_reads() {
        let c = TrainConfig {
            lr: 1e-5,
            ..TrainConfig::default()
        };
        let s = names_script(&c, &classes(), DataSource::Tutorial, "p");
        assert!(
            s.contains("    lr=1e-5,"),
            "{}",
            &s[s.find("lr=").unwrap()..][..12]
        );
    }

    #[test]
    fn the_file_name_says_cell_and_size() {
        assert_eq!(
            file_name(&TrainConfig::default()),
            "unroll-names-lstm-h128.py"
        );
    }
}
