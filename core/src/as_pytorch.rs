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
//!
//! The generation lab's script is `core/templates/generate_names.py` ([`generate_script`]): the
//! conditioned next-character model, its recipe, held-out names, baselines and sampler. It shares
//! the names script's data code — normalisation, loading, Unroll's generator (ChaCha8 and its
//! shuffle), the split and the batches, the lines between `# <data>` and `# </data>` — which the
//! template imports from `train_names.py` and the written script carries in their place.
//!
//! The script functions take the template's text as an input: the native binaries and tests
//! pass the built-in copies ([`TEMPLATE`] and the others, `include_str!` of the same files),
//! while the web app fetches the files ([`Template::file`], served from the build's
//! `templates/` folder) when an "As PyTorch" panel opens, so its module carries none of them.

use crate::config::delay::DelayConfig;
use crate::config::train::{Head, TrainConfig};
use crate::math::params::CellKind;
use crate::task::generate::sample::SampleRequest;
use crate::task::generate::Conditioning;
use crate::train::sweep::SweepPlan;
use crate::train::trainer::Recipe;

/// The names page's script template, runnable as it is.
pub const TEMPLATE: &str = include_str!("../templates/train_names.py");

/// The long-memory lab's script template (delay-copy), runnable as it is.
pub const DELAY_TEMPLATE: &str = include_str!("../templates/delay_copy.py");

/// The long-memory tasks' script template (adding, copy, order), runnable as it is.
pub const MEMORY_TEMPLATE: &str = include_str!("../templates/long_memory.py");

/// The generation lab's script template, runnable as it is beside [`TEMPLATE`] (`train_names.py`),
/// whose data section it imports.
pub const GENERATE_TEMPLATE: &str = include_str!("../templates/generate_names.py");

/// One of the script templates, by the file it is (`core/templates/<file>`, served by the web
/// app as `templates/<file>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Template {
    /// `train_names.py`, the names page's ([`names_script`]).
    Names,
    /// `delay_copy.py`, the long-memory lab's ([`delay_script`]).
    Delay,
    /// `long_memory.py`, the long-memory tasks' ([`memory_script`]).
    Memory,
    /// `generate_names.py`, the generation lab's ([`generate_script`], which also reads
    /// [`Template::Names`]'s data section).
    Generate,
}

impl Template {
    /// Every template.
    pub const ALL: [Template; 4] = [
        Template::Names,
        Template::Delay,
        Template::Memory,
        Template::Generate,
    ];

    /// The template's file name, e.g. `train_names.py`.
    pub fn file(self) -> &'static str {
        match self {
            Template::Names => "train_names.py",
            Template::Delay => "delay_copy.py",
            Template::Memory => "long_memory.py",
            Template::Generate => "generate_names.py",
        }
    }

    /// The built-in copy of the template's text (`include_str!`), for native callers: a web
    /// build that never calls it carries none of the templates.
    pub fn builtin(self) -> &'static str {
        match self {
            Template::Names => TEMPLATE,
            Template::Delay => DELAY_TEMPLATE,
            Template::Memory => MEMORY_TEMPLATE,
            Template::Generate => GENERATE_TEMPLATE,
        }
    }
}

/// Whether `text` can be a script template: it has a configuration block (a fetched file that
/// is something else, a server's error page, is not one).
pub fn is_template(text: &str) -> bool {
    matches!((text.find(BEGIN), text.find(END)), (Some(b), Some(e)) if b < e)
}

const BEGIN: &str = "# <configuration>\n";
const END: &str = "# </configuration>\n";

/// The byte range of `template`'s section `tag`: from its `# <tag>` line to the end of its
/// `# </tag>` line.
fn section(template: &str, tag: &str) -> std::ops::Range<usize> {
    let (begin, end) = (format!("# <{tag}>\n"), format!("# </{tag}>\n"));
    match (template.find(&begin), template.find(&end)) {
        (Some(start), Some(stop)) if start <= stop => start..stop + end.len(),
        // Not one of the templates ([`is_template`]; callers check what they fetch): nothing of
        // the text is replaced, the section is empty at its end.
        _ => template.len()..template.len(),
    }
}

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
    let std::ops::Range { start, end } = section(template, "configuration");
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
        usage(&template[end..])
    )
}

/// The complete delay-copy script for the long-memory lab's `config` (its cells, delay, length,
/// vocabulary, hidden size, Adam rate, batch, clipping, forget-gate bias, steps, first seed and
/// seed count); `page` is the page's link; `template` is the text of [`Template::Delay`].
pub fn delay_script(template: &str, config: &DelayConfig, page: &str) -> String {
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
    fill(template, "delay_copy.py", &block, &delay_file_name(config))
}

/// The file name the long-memory lab offers: `unroll-delay{d}-{cells}.py`, e.g.
/// `unroll-delay8-both.py`.
pub fn delay_file_name(config: &DelayConfig) -> String {
    format!("unroll-delay{}-{}.py", config.delay, config.cell.as_str())
}

/// The complete script of a long-memory task's sweep `plan` (its task and T, cells, seeds,
/// recipe, budget and evaluation schedule, [`SweepPlan::eval_every`]); `page` is the page's
/// link; `template` is the text of [`Template::Memory`]. The plan's task is a long-memory task
/// (its key and T name it in the script).
pub fn memory_script(template: &str, plan: &SweepPlan, page: &str) -> String {
    let cells: Vec<String> = plan.cells.iter().map(|c| py_str(c.as_str())).collect();
    let r = &plan.recipe;
    let block = format!(
        "{BEGIN}CONFIG = dict(\n    task={task},\n    length={length},\n    cells=[{cells}],\n    hidden_size={hidden},\n    lr={lr:?},\n    batch_size={batch},\n    max_norm={max_norm:?},\n    forget_bias={forget:?},\n    steps={steps},\n    seed={seed},\n    seeds={seeds},\n    eval_every={every},\n)\nPAGE = {page}  # the page this configuration came from\n{END}",
        task = py_str(plan.task.key()),
        length = plan.task.length().unwrap_or(0),
        cells = cells.join(", "),
        hidden = r.hidden_size,
        lr = r.lr,
        batch = r.batch_size,
        max_norm = r.max_norm.unwrap_or(0.0),
        forget = r.forget_bias,
        steps = plan.steps,
        seed = plan.seeds.first().copied().unwrap_or(0),
        seeds = plan.seeds.len(),
        every = plan.eval_every,
        page = py_str(page),
    );
    fill(template, "long_memory.py", &block, &memory_file_name(plan))
}

/// The file name a task page offers: `unroll-{task}-t{T}.py` (and the cell when one alone is
/// trained, [`SweepPlan::file_tag`]), e.g. `unroll-adding-t50.py`.
pub fn memory_file_name(plan: &SweepPlan) -> String {
    format!("unroll-{}.py", plan.file_tag())
}

/// The complete script for `config` trained on `data` with `classes` in label order; `page` is
/// the page's link, quoted in the script so that it says where it came from; `template` is the
/// text of [`Template::Names`].
pub fn names_script(
    template: &str,
    config: &TrainConfig,
    classes: &[String],
    data: DataSource,
    page: &str,
) -> String {
    fill(
        template,
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

/// A run of the generation lab, as its script reproduces it.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateRun {
    /// The cell.
    pub cell: CellKind,
    /// Hidden size, layers, directions, Adam rate, batch, clipping and the LSTM's forget-gate bias.
    pub recipe: Recipe,
    /// How the language reaches the model.
    pub conditioning: Conditioning,
    /// Seed of the weights, the batches and the samples.
    pub seed: u32,
    /// Seed of the split (the names classifier's).
    pub split_seed: u64,
    /// Passes over the training names (when `steps` is 0).
    pub epochs: usize,
    /// Optimisation steps in all, the lab's step budget: the script goes through the epochs'
    /// batches in order and stops after this many (the last epoch cut where the lab's run
    /// stops); 0 trains `epochs` whole epochs.
    pub steps: u64,
    /// The sampler's settings for the names the script writes: its temperature, top-k and
    /// length limit (the language, prefix and seed are the script's options).
    pub sample: SampleRequest,
    /// Names written per language for the quality figures.
    pub samples: usize,
}

impl Default for GenerateRun {
    /// The lab's default recipe: GRU, hidden 64, one layer and direction, the language at every
    /// step, Adam 0.005, batches of 32, clipping at 1, forget-gate bias 1 (LSTM only), 3 epochs,
    /// seeds 0; 200 names per language at temperature 0.5 over every symbol.
    fn default() -> Self {
        GenerateRun {
            cell: CellKind::Gru,
            recipe: Recipe {
                hidden_size: 64,
                num_layers: 1,
                bidirectional: false,
                lr: 0.005,
                batch_size: 32,
                max_norm: Some(1.0),
                forget_bias: 1.0,
            },
            conditioning: Conditioning::Input,
            seed: 0,
            split_seed: 0,
            epochs: 3,
            steps: 0,
            sample: SampleRequest::new(0, 0.5, 0),
            samples: 200,
        }
    }
}

impl GenerateRun {
    /// The run the generation lab trains for `config` (its URL's settings, the recipe's
    /// defaults where a key is left at the delay-copy default:
    /// [`crate::train::plan::generate_recipe`]): its first cell and seed, the split seed
    /// [`crate::task::GENERATE_SPLIT_SEED`], the page's step budget (`steps`; `epochs` the
    /// passes it begins at `steps_per_epoch` steps each,
    /// [`crate::task::generate::GenerateTask::steps_per_epoch`]), the sampler's temperature
    /// and top-k, and [`crate::engine::generate::QUALITY_SAMPLES`] names per language.
    pub fn of_lab(config: &DelayConfig, steps_per_epoch: u64) -> GenerateRun {
        let (cells, seeds, recipe, steps) = crate::train::plan::generate_recipe(config);
        let request = crate::engine::generate::request_of(config);
        GenerateRun {
            cell: cells.first().copied().unwrap_or(CellKind::Gru),
            recipe,
            conditioning: config.conditioning,
            seed: seeds.first().copied().unwrap_or(config.seed),
            split_seed: crate::task::GENERATE_SPLIT_SEED,
            epochs: steps.div_ceil(steps_per_epoch.max(1)) as usize,
            steps,
            sample: SampleRequest {
                prefix: String::new(),
                greedy: false,
                ..request
            },
            samples: crate::engine::generate::QUALITY_SAMPLES,
        }
    }
}

/// The complete script of the generation lab's `run`; `page` is the page's link. The names
/// script's data section (loading, Unroll's generator, split, batches) replaces the template's
/// import of it, so the script runs on its own. `template` is the text of
/// [`Template::Generate`], `names_template` that of [`Template::Names`].
pub fn generate_script(
    template: &str,
    names_template: &str,
    run: &GenerateRun,
    page: &str,
) -> String {
    let r = &run.recipe;
    let block = format!(
        "{BEGIN}CONFIG = dict(\n    cell={cell},\n    hidden_size={hidden},\n    num_layers={layers},\n    bidirectional={bidir},\n    conditioning={cond},\n    lr={lr:?},\n    batch_size={batch},\n    epochs={epochs},\n    steps={steps},\n    max_norm={max_norm:?},\n    forget_bias={forget:?},\n    seed={seed},\n    split_seed={split},\n    temperature={temp:?},\n    top_k={top_k},\n    samples={samples},\n    max_len={max_len},\n)\nDATA = {data}  # the PyTorch tutorial's names: unzip its data.zip here, or pass --data\nPAGE = {page}  # the page this configuration came from\n{END}",
        cell = py_str(run.cell.spec().key),
        hidden = r.hidden_size,
        layers = r.num_layers,
        bidir = py_bool(r.bidirectional),
        cond = py_str(run.conditioning.as_str()),
        lr = r.lr,
        batch = r.batch_size,
        epochs = run.epochs,
        steps = run.steps,
        max_norm = r.max_norm.unwrap_or(0.0),
        forget = r.forget_bias,
        seed = run.seed,
        split = run.split_seed,
        temp = run.sample.temperature,
        top_k = run.sample.top_k,
        samples = run.samples,
        max_len = run.sample.max_len,
        data = py_str("data/names"),
        page = py_str(page),
    );
    let data = section(template, "data");
    let template = format!(
        "{}{}{}",
        &template[..data.start],
        &names_template[section(names_template, "data")],
        &template[data.end..]
    );
    fill(
        &template,
        "generate_names.py",
        &block,
        &generate_file_name(run),
    )
}

impl GenerateRun {
    /// The configuration the lab's files carry in their names: `{cell}-h{hidden}-{conditioning}`
    /// (`-bidir` after it with a backward direction), e.g. `gru-h64-input`.
    pub fn file_tag(&self) -> String {
        format!(
            "{}-h{}-{}{}",
            self.cell.spec().key,
            self.recipe.hidden_size,
            self.conditioning.as_str(),
            if self.recipe.bidirectional {
                "-bidir"
            } else {
                ""
            }
        )
    }
}

/// The file name the generation lab offers: `unroll-generate-{tag}.py`
/// ([`GenerateRun::file_tag`]), e.g. `unroll-generate-gru-h64-input.py`.
pub fn generate_file_name(run: &GenerateRun) -> String {
    format!("unroll-generate-{}.py", run.file_tag())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes() -> Vec<String> {
        vec!["Arabic".into(), "Chinese".into(), "Czech".into()]
    }

    /// Every line of `lines` stands, whole, in `script`.
    fn assert_lines(script: &str, lines: &[&str]) {
        for line in lines {
            assert!(script.lines().any(|l| l == *line), "missing {line:?}");
        }
    }

    /// `script` is a whole template with one configuration block, kept to its end.
    fn assert_one_block(script: &str) {
        assert_eq!(script.matches("CONFIG = dict(").count(), 1);
        assert!(script.ends_with("if __name__ == \"__main__\":\n    main()\n"));
    }

    #[test]
    fn each_template_is_its_file() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut named: Vec<&str> = Template::ALL.iter().map(|t| t.file()).collect();
        named.sort();
        assert_eq!(files, named, "the web app serves every file of templates/");
        for t in Template::ALL {
            let text = std::fs::read_to_string(dir.join(t.file())).unwrap();
            assert_eq!(t.builtin(), text, "{}", t.file());
        }
    }

    #[test]
    fn a_text_without_a_configuration_block_is_not_a_template_and_is_kept() {
        let text = "<!doctype html>\n<p>not found</p>\n";
        assert!(!is_template(text));
        assert!(Template::ALL.iter().all(|t| is_template(t.builtin())));
        let s = delay_script(text, &DelayConfig::default(), "p");
        assert!(s.starts_with(text), "{s}");
        assert_eq!(s.matches("CONFIG = dict(").count(), 1);
    }

    #[test]
    fn the_templates_have_one_configuration_block() {
        for t in [TEMPLATE, DELAY_TEMPLATE, MEMORY_TEMPLATE, GENERATE_TEMPLATE] {
            assert_eq!(t.matches(BEGIN).count(), 1);
            assert_eq!(t.matches(END).count(), 1);
            assert!(t.find(BEGIN) < t.find(END));
        }
        // The names script's data section, which the generation script carries.
        for t in [TEMPLATE, GENERATE_TEMPLATE] {
            assert_eq!(t.matches("# <data>\n").count(), 1);
            assert_eq!(t.matches("# </data>\n").count(), 1);
            assert!(section(t, "configuration").end < section(t, "data").start);
        }
    }

    #[test]
    fn the_generate_block_carries_every_setting() {
        let mut run = GenerateRun {
            cell: CellKind::Lstm,
            conditioning: Conditioning::State,
            seed: 7,
            split_seed: 3,
            epochs: 5,
            steps: 1500,
            samples: 40,
            ..GenerateRun::default()
        };
        run.recipe.hidden_size = 32;
        run.recipe.num_layers = 2;
        run.recipe.bidirectional = true;
        run.recipe.lr = 0.002;
        run.recipe.batch_size = 16;
        run.recipe.max_norm = None;
        run.recipe.forget_bias = 0.5;
        run.sample.temperature = 0.8;
        run.sample.top_k = 5;
        run.sample.max_len = 12;
        let s = generate_script(
            GENERATE_TEMPLATE,
            TEMPLATE,
            &run,
            "https://x/?v=1&lesson=generate",
        );
        assert_lines(
            &s,
            &[
                "    cell=\"lstm\",",
                "    hidden_size=32,",
                "    num_layers=2,",
                "    bidirectional=True,",
                "    conditioning=\"state\",",
                "    lr=0.002,",
                "    batch_size=16,",
                "    epochs=5,",
                "    steps=1500,",
                "    max_norm=0.0,",
                "    forget_bias=0.5,",
                "    seed=7,",
                "    split_seed=3,",
                "    temperature=0.8,",
                "    top_k=5,",
                "    samples=40,",
                "    max_len=12,",
                "PAGE = \"https://x/?v=1&lesson=generate\"  # the page this configuration came from",
            ],
        );
        assert_eq!(
            generate_file_name(&run),
            "unroll-generate-lstm-h32-state-bidir.py"
        );
        assert!(s.contains("    python3 unroll-generate-lstm-h32-state-bidir.py --epochs 1"));
        assert!(!s.contains("generate_names.py"));
        assert_one_block(&s);
    }

    #[test]
    fn the_generation_labs_run_is_its_step_budget() {
        let page = crate::train::plan::decode_lab("?v=1&lesson=generate").config;
        let run = GenerateRun::of_lab(&page, 519);
        // The lab's 1 500 steps are the default recipe's 3 epochs, the third cut at its step.
        assert_eq!(
            run,
            GenerateRun {
                steps: 1500,
                ..GenerateRun::default()
            }
        );
        let s = generate_script(GENERATE_TEMPLATE, TEMPLATE, &run, "p");
        assert!(s.lines().any(|l| l == "    steps=1500,"));
        let short = crate::train::plan::decode_lab(
            "?v=1&lesson=generate&steps=120&hidden_size=32&cell=lstm&temperature=0.8&top_k=5&seed=4",
        )
        .config;
        let run = GenerateRun::of_lab(&short, 519);
        assert_eq!(
            (
                run.cell,
                run.recipe.hidden_size,
                run.steps,
                run.epochs,
                run.seed
            ),
            (CellKind::Lstm, 32, 120, 1, 4)
        );
        assert_eq!((run.sample.temperature, run.sample.top_k), (0.8, 5));
        assert_eq!(run.file_tag(), "lstm-h32-input");
    }

    #[test]
    fn the_generate_script_carries_the_names_data_code() {
        let s = generate_script(GENERATE_TEMPLATE, TEMPLATE, &GenerateRun::default(), "p");
        // It runs on its own: the import is replaced by the names script's own lines.
        assert!(!s.contains("from train_names import"));
        let data = &TEMPLATE[section(TEMPLATE, "data")];
        assert_eq!(s.matches(data).count(), 1);
        for def in [
            "def normalize(",
            "def load(",
            "class ChaCha8:",
            "def shuffle(",
            "def split(",
            "def epoch_batches(",
        ] {
            assert_eq!(s.matches(def).count(), 1, "{def}");
        }
        // The default run is the lab's recipe.
        assert_lines(
            &s,
            &[
                "    cell=\"gru\",",
                "    hidden_size=64,",
                "    conditioning=\"input\",",
                "    lr=0.005,",
                "    batch_size=32,",
                "    epochs=3,",
                "    max_norm=1.0,",
                "    temperature=0.5,",
                "    top_k=0,",
                "    samples=200,",
                "    max_len=24,",
            ],
        );
        assert_eq!(
            generate_file_name(&GenerateRun::default()),
            "unroll-generate-gru-h64-input.py"
        );
    }

    #[test]
    fn the_usage_lines_name_the_offered_file() {
        let d = delay_script(DELAY_TEMPLATE, &DelayConfig::default(), "p");
        assert!(d.contains("    python3 unroll-delay8-both.py --steps 500 --seeds 1"));
        assert!(!d.contains("delay_copy.py"));
        let c = TrainConfig::default();
        let s = names_script(TEMPLATE, &c, &classes(), DataSource::Tutorial, "p");
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
        let s = delay_script(DELAY_TEMPLATE, &c, "https://x/?v=1&lesson=delay&delay=16");
        assert_lines(
            &s,
            &[
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
            ],
        );
        assert!(!s.contains("PAGE = None"));
        assert_one_block(&s);
        // The default pair is RNN then LSTM, the page's order.
        let d = delay_script(DELAY_TEMPLATE, &DelayConfig::default(), "p");
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
        let plan = SweepPlan::of_lab(&c).unwrap();
        let s = memory_script(
            MEMORY_TEMPLATE,
            &plan,
            "https://x/?v=1&lesson=delay&task=order",
        );
        assert_lines(
            &s,
            &[
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
            ],
        );
        assert!(s.contains("    python3 unroll-order-t70-gru.py --steps 100 --seeds 1"));
        assert!(!s.contains("long_memory.py"));
        assert_one_block(&s);
        // The page's defaults: T, budget, hidden size and cells of the task.
        let adding = DelayConfig {
            task: LabTask::Adding,
            ..DelayConfig::default()
        };
        let plan = SweepPlan::of_lab(&adding).unwrap();
        let s = memory_script(MEMORY_TEMPLATE, &plan, "p");
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
            TEMPLATE,
            &c,
            &classes(),
            DataSource::Tutorial,
            "https://x/?v=1&lesson=names",
        );
        assert_lines(
            &s,
            &[
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
            ],
        );
        // The template's own defaults are gone, the rest of it is kept.
        assert!(!s.contains("CLASSES = None"));
        assert_one_block(&s);
    }

    #[test]
    fn names_and_files_are_quoted_as_python_strings() {
        let s = names_script(
            TEMPLATE,
            &TrainConfig::default(),
            &["Fran\"çais".into(), "中文".into()],
            DataSource::Own("my \"names\".tsv"),
            "p",
        );
        assert!(s.contains("CLASSES = [\"Fran\\\"çais\", \"中文\"]"));
        assert!(s.contains("DATA = \"my \\\"names\\\".tsv\"  # your file"));
        let zip = names_script(
            TEMPLATE,
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
        let s = names_script(TEMPLATE, &c, &classes(), DataSource::Tutorial, "p");
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
