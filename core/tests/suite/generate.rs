//! The names generator: its batches (teacher forcing, the end marker, no padding), its
//! held-out set (the classifier's validation split), the n-gram baselines against a hand
//! computation, the sampler (seeded, greedy, temperature and top-k, its errors), and a short
//! run on the real names that goes below the bigram baseline.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use unroll_core::data::{locate_names_dir, NamesDataset};
use unroll_core::math::model::{Head, Targets};
use unroll_core::math::params::CellKind;
use unroll_core::math::recurrent::SeqData;
use unroll_core::task::generate::sample::{
    quality, sample, step_distribution, SampleError, SampleRequest,
};
use unroll_core::task::generate::{Conditioning, GenerateTask, LmBaselines, Ngrams};
use unroll_core::task::names::NamesTask;
use unroll_core::task::{Criterion, Task};
use unroll_core::train::trainer::{at_once, model_of, Recipe, Trainer};

fn real_data() -> Arc<NamesDataset> {
    static DATA: OnceLock<Arc<NamesDataset>> = OnceLock::new();
    DATA.get_or_init(|| {
        let root = &Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = locate_names_dir(root)
            .unwrap_or_else(|e| panic!("names data needed by this test: {e}"));
        Arc::new(NamesDataset::load_dir(&dir).unwrap())
    })
    .clone()
}

/// Two languages over the letters a, b, c.
fn tiny() -> GenerateTask {
    let data = NamesDataset::from_class_files([
        ("X", "ab\nba\nabc\naab\nbb\n"),
        ("Y", "c\ncc\nca\ncab\nbc\n"),
    ])
    .unwrap();
    GenerateTask::new(Arc::new(data), 0, Conditioning::Input)
}

#[test]
fn a_name_is_read_from_a_start_marker_to_an_end_marker() {
    let task = tiny();
    let a = task.alphabet();
    assert_eq!((a.len(), a.classes(), a.end()), (3, 4, 3));
    assert_eq!(task.features(), 3 + 1 + 2);
    // "ca" of language Y (1): inputs start, c, a; targets c, a, end.
    let batch = task.batch_of(&[(&[2, 0], 1), (&[0, 1], 0)]);
    assert_eq!(
        (batch.batch, batch.seq_len, batch.lengths.clone()),
        (2, 3, vec![3, 3])
    );
    let Targets::Classes(targets) = &batch.targets else {
        panic!("class targets")
    };
    // Step-major: step t of name b at t·B + b.
    assert_eq!(targets, &vec![2, 0, 0, 1, 3, 3]);
    let SeqData::Dense(x) = &batch.input else {
        panic!("dense input")
    };
    let row = |t: usize, b: usize| x[(t * 2 + b) * 6..][..6].to_vec();
    assert_eq!(row(0, 0), vec![0., 0., 0., 1., 0., 1.]); // start | Y
    assert_eq!(row(1, 0), vec![0., 0., 1., 0., 0., 1.]); // c | Y
    assert_eq!(row(2, 0), vec![1., 0., 0., 0., 0., 1.]); // a | Y
    assert_eq!(row(2, 1), vec![0., 1., 0., 0., 1., 0.]); // b | X
    let shape = task.shape();
    assert_eq!(shape.outputs, 4);
    assert_eq!(shape.max_seq_len, 4); // "abc", "aab", "cab" + the start step
}

#[test]
fn baselines_match_a_hand_computation() {
    // Letters a = 0, b = 1 (K = 3 outcomes with end). Train "ab", "b"; held out "a".
    // Counts: a 1, b 2, end 2 (N = 5); start→a 1, start→b 1, a→b 1, b→end 2.
    let b = LmBaselines::fit(&[&[0, 1], &[1]], &[&[0]], 2);
    assert_eq!(b.characters, 2);
    assert!((b.uniform - 3f64.ln()).abs() < 1e-12);
    let unigram = -((2.0f64 / 8.0).ln() + (3.0f64 / 8.0).ln()) / 2.0;
    assert!(
        (b.unigram - unigram).abs() < 1e-12,
        "{} vs {unigram}",
        b.unigram
    );
    // p(a | start) = (1 + 1)/(2 + 3), p(end | a) = (0 + 1)/(1 + 3).
    let bigram = -((2.0f64 / 5.0).ln() + (1.0f64 / 4.0).ln()) / 2.0;
    assert!(
        (b.bigram - bigram).abs() < 1e-12,
        "{} vs {bigram}",
        b.bigram
    );
    let n = Ngrams::fit(&[&[0, 1], &[1]], 2);
    assert!((n.bigram_loss(&[0]) - bigram).abs() < 1e-12);
    // Every conditional distribution sums to 1.
    for prev in 0..3 {
        let s: f64 = (0..3).map(|c| n.bigram(prev, c)).sum();
        assert!((s - 1.0).abs() < 1e-12);
    }
}

#[test]
fn held_out_names_are_the_classifiers_validation_split() {
    let data = real_data();
    let task = GenerateTask::new(data.clone(), 0, Conditioning::Input);
    let names = NamesTask::new(data.clone(), 0, Head::Last);
    assert_eq!(task.split(), names.split());
    let heldout = task.heldout(32);
    let count: usize = heldout.iter().map(|b| b.batch).sum();
    assert_eq!(count, names.split().val.len());
    let chars: usize = heldout.iter().map(|b| b.targets.len()).sum();
    assert_eq!(chars as u64, task.baselines().characters);
    assert!(heldout
        .iter()
        .all(|b| b.lengths.iter().all(|&l| l as usize == b.seq_len)));
    // The figures of the real data (split seed 0): 55 letters, and the baselines in order.
    let b = task.baselines();
    assert_eq!(task.alphabet().len(), 55);
    assert!((b.uniform - 56f64.ln()).abs() < 1e-12);
    assert!(b.bigram < b.unigram && b.unigram < b.uniform, "{b:?}");
    assert_eq!(task.criterion(), Some(Criterion::LossBelow(b.bigram)));
    assert_eq!(task.baseline().loss, b.unigram);
}

#[test]
fn every_training_name_once_per_epoch_in_batches_of_one_length() {
    let data = real_data();
    let task = GenerateTask::new(data.clone(), 0, Conditioning::Input);
    let train = task.split().train.len();
    let mut stream = task.stream(3, 64);
    let mut seen = 0;
    let mut batches = 0;
    let mut first = Vec::new();
    while seen < train {
        let b = stream.next_batch();
        assert!(b.lengths.iter().all(|&l| l as usize == b.seq_len));
        assert!(b.batch <= 64);
        assert_eq!(b.targets.len(), b.batch * b.seq_len);
        seen += b.batch;
        batches += 1;
        if batches <= 3 {
            first.push(b);
        }
    }
    assert_eq!(seen, train);
    assert_eq!(stream.position(), batches);
    // An epoch's steps as the As PyTorch script counts them (the page's step budget in epochs).
    assert_eq!(task.steps_per_epoch(64), batches as u64);
    assert_eq!(task.steps_per_epoch(32), 519);
    // Seeking back gives the same batches; another seed others.
    stream.seek(0);
    assert_eq!(stream.next_batch(), first[0]);
    stream.seek(2);
    assert_eq!(stream.next_batch(), first[2]);
    assert_ne!(task.stream(4, 64).next_batch(), first[0]);
}

fn trained(bidirectional: bool, epochs: usize) -> (GenerateTask, Trainer) {
    let task = GenerateTask::new(real_data(), 0, Conditioning::Input);
    let recipe = Recipe {
        hidden_size: 32,
        num_layers: 1,
        bidirectional,
        lr: 0.005,
        batch_size: 32,
        max_norm: Some(1.0),
        forget_bias: 1.0,
    };
    let mut trainer = Trainer::new(&task, CellKind::Gru, &recipe, 0);
    let names = task.split().train.len() * epochs;
    let mut seen = 0;
    while seen < names {
        seen += at_once(trainer.step()).sequences as usize;
    }
    (task, trainer)
}

/// One epoch of a small GRU: below the bigram baseline; bidirectional, far below it on the
/// teacher-forced loss and far worse at writing.
#[test]
fn one_epoch_beats_the_bigram_and_a_bidirectional_model_cannot_write() {
    let (task, mut uni) = trained(false, 1);
    let heldout = task.heldout(32);
    let loss = at_once(uni.evaluate(&heldout, false)).sums.mean_loss();
    let b = task.baselines();
    assert!(loss < b.bigram, "held-out {loss} ≥ bigram {}", b.bigram);
    let (_, mut bi) = trained(true, 1);
    let bi_loss = at_once(bi.evaluate(&heldout, false)).sums.mean_loss();
    assert!(bi_loss < loss / 2.0, "bidirectional {bi_loss} vs {loss}");
    let req = SampleRequest::new(4, 0.5, 0); // English
    let q_uni = quality(&task, uni.model(), uni.params(), &req, 50, None).unwrap();
    let q_bi = quality(&task, bi.model(), bi.params(), &req, 50, None).unwrap();
    assert!(
        q_bi.bigram_loss > q_uni.bigram_loss + 1.0,
        "{q_bi:?} vs {q_uni:?}"
    );
    assert!(
        q_uni.mean_length > 0.6 * q_uni.data_mean_length,
        "{q_uni:?}"
    );
    assert!(q_bi.mean_length < 0.5 * q_uni.mean_length, "{q_bi:?}");
    assert!(q_uni.new > 0.5, "{q_uni:?}");
    let total = q_uni.training + q_uni.heldout + q_uni.new;
    assert!((total - 1.0).abs() < 1e-12);
}

fn tiny_model() -> (GenerateTask, unroll_core::math::model::SeqModel, Vec<f32>) {
    let task = tiny();
    let recipe = Recipe {
        hidden_size: 5,
        ..Recipe::default()
    };
    let model = model_of(&task, CellKind::Lstm, &recipe);
    // Larger weights than the default init, so the distributions are far from uniform.
    let params = model.init(7, 0.0).iter().map(|p| p * 4.0).collect();
    (task, model, params)
}

#[test]
fn sampling_is_seeded_and_shows_each_steps_distribution() {
    let (task, model, params) = tiny_model();
    let req = SampleRequest::new(0, 1.0, 11);
    let s = sample(&task, &model, &params, &req).unwrap();
    assert_eq!(s, sample(&task, &model, &params, &req).unwrap());
    let others: HashSet<String> = (0..20)
        .map(|seed| {
            let r = SampleRequest {
                seed,
                ..req.clone()
            };
            sample(&task, &model, &params, &r).unwrap().name
        })
        .collect();
    assert!(others.len() > 1, "every seed writes {others:?}");
    for st in &s.steps {
        assert_eq!(st.top.len(), 4); // fewer symbols than shown
        assert_eq!(st.hidden.len(), 5);
        let sum: f32 = st.top.iter().map(|t| t.1).sum();
        assert!((sum - 1.0).abs() < 1e-5);
        assert!(st.top.windows(2).all(|w| w[0].1 >= w[1].1));
        assert!(st.top.iter().any(|t| t.0 == st.chosen && t.1 > 0.0));
    }
    assert_eq!(s.ended, s.steps.last().unwrap().symbol.is_none());
    let letters: String = s.steps.iter().filter_map(|st| st.symbol).collect();
    assert_eq!(letters, s.name);
    // The steps' h_t and logits are the model's on the written prefix.
    if s.steps.len() > 1 {
        let prefix = task
            .alphabet()
            .letters(&unroll_core::data::encode(&s.name[..1]).unwrap())
            .unwrap();
        let fwd = model.forward(&params, &task.batch_of(&[(&prefix, 0)]));
        assert_eq!(s.steps[1].hidden, fwd.features[5..10].to_vec());
    }
}

#[test]
fn greedy_takes_the_arg_max_and_a_prefix_is_kept() {
    let (task, model, params) = tiny_model();
    let req = SampleRequest {
        greedy: true,
        prefix: "c".into(),
        max_len: 6,
        ..SampleRequest::new(1, 1.0, 0)
    };
    let a = sample(&task, &model, &params, &req).unwrap();
    let b = sample(
        &task,
        &model,
        &params,
        &SampleRequest {
            seed: 99,
            ..req.clone()
        },
    )
    .unwrap();
    assert_eq!(a, b, "greedy does not depend on the seed");
    assert!(a.name.starts_with('c'));
    assert!(a.name.len() <= 6);
    for st in &a.steps {
        assert_eq!(st.chosen, st.top[0].0);
    }
}

#[test]
fn temperature_and_top_k_shape_the_distribution() {
    let logits = [2.0f32, 1.0, 0.0, -1.0];
    let p1 = step_distribution(&logits, 1.0, 0);
    let e: Vec<f64> = logits.iter().map(|&y| f64::from(y).exp()).collect();
    let z: f64 = e.iter().sum();
    for (p, e) in p1.iter().zip(&e) {
        assert!((f64::from(*p) - e / z).abs() < 1e-6);
    }
    let cold = step_distribution(&logits, 0.1, 0);
    assert!(cold[0] > 0.9999);
    let hot = step_distribution(&logits, 2.0, 0);
    assert!(hot[0] < p1[0] && hot[3] > p1[3]);
    let top2 = step_distribution(&logits, 1.0, 2);
    assert_eq!((top2[2], top2[3]), (0.0, 0.0));
    let z2 = 2f64.exp() + 1f64.exp();
    assert!((f64::from(top2[0]) - 2f64.exp() / z2).abs() < 1e-6);
}

#[test]
fn bad_requests_get_clear_messages() {
    let (task, model, params) = tiny_model();
    let base = SampleRequest::new(0, 0.5, 0);
    let err = |r: SampleRequest| sample(&task, &model, &params, &r).unwrap_err();
    let e = err(SampleRequest {
        language: 2,
        ..base.clone()
    });
    assert_eq!(
        e,
        SampleError::Language {
            language: 2,
            languages: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "language 2 does not exist: the data has 2 languages"
    );
    let e = err(SampleRequest {
        temperature: 2.5,
        ..base.clone()
    });
    assert_eq!(e.to_string(), "temperature 2.5 is outside 0.1–2");
    assert!(matches!(
        err(SampleRequest {
            temperature: f64::NAN,
            ..base.clone()
        }),
        SampleError::Temperature { .. }
    ));
    let e = err(SampleRequest {
        prefix: "abz".into(),
        ..base.clone()
    });
    assert_eq!(e, SampleError::NotInAlphabet { symbol: 'z' });
    assert_eq!(
        e.to_string(),
        "“z” appears in no name of the data, so the model cannot read it"
    );
    assert!(matches!(
        err(SampleRequest {
            prefix: "😀".into(),
            ..base.clone()
        }),
        SampleError::Prefix { .. }
    ));
    let e = err(SampleRequest {
        prefix: "abc".into(),
        max_len: 2,
        ..base.clone()
    });
    assert_eq!(
        e,
        SampleError::TooLong {
            letters: 3,
            max_len: 2
        }
    );
    // A prefix with accents is normalised as the data is.
    let ok = sample(
        &task,
        &model,
        &params,
        &SampleRequest {
            prefix: "á".into(),
            ..base
        },
    );
    assert!(ok.unwrap().name.starts_with('a'));
}

/// A fixture of core/tests/fixtures/generate (see its generator,
/// core/tests/python/make_generate_fixtures.py).
#[derive(serde::Deserialize)]
struct Fixture {
    conditioning: String,
    cell: String,
    hidden_size: usize,
    num_layers: usize,
    bidirectional: bool,
    names: Vec<Vec<u32>>,
    language: Vec<u32>,
    dense: Vec<f32>,
    classes: Vec<u32>,
    params: std::collections::BTreeMap<String, crate::common::Tensor>,
    grads: std::collections::BTreeMap<String, crate::common::Tensor>,
    loss: f64,
}

/// The fixtures' data: letters a–d (A = 4) and two languages.
fn four_letters(conditioning: Conditioning) -> GenerateTask {
    let data = NamesDataset::from_class_files([("X", "abcd\nab\n"), ("Y", "dcba\ncd\n")]).unwrap();
    GenerateTask::new(Arc::new(data), 0, conditioning)
}

fn check_fixture(name: &str) {
    let path = format!(
        "{}/tests/fixtures/generate/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let f: Fixture = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let conditioning = match f.conditioning.as_str() {
        "input" => Conditioning::Input,
        "state" => Conditioning::State,
        other => panic!("{name}: conditioning {other}"),
    };
    let task = four_letters(conditioning);
    let names: Vec<(&[u32], u32)> = f
        .names
        .iter()
        .zip(&f.language)
        .map(|(n, &l)| (n.as_slice(), l))
        .collect();
    // The task's own batch is PyTorch's input and targets.
    let batch = task.batch_of(&names);
    assert_eq!(
        batch.input,
        SeqData::Dense(f.dense.clone()),
        "{name}: input"
    );
    assert_eq!(
        batch.targets,
        Targets::Classes(f.classes.clone()),
        "{name}: targets"
    );
    let recipe = Recipe {
        hidden_size: f.hidden_size,
        num_layers: f.num_layers,
        bidirectional: f.bidirectional,
        ..Recipe::default()
    };
    let model = model_of(&task, CellKind::parse(&f.cell).unwrap(), &recipe);
    let params = crate::common::params_of(name, &model, &f.params);
    crate::common::check_loss_and_grads(name, &model, &params, &batch, &f.grads, f.loss);
}

#[test]
fn loss_and_gradients_match_pytorch_with_the_language_in_the_input() {
    check_fixture("input_gru_l1.json");
    check_fixture("input_rnn_l2.json");
}

#[test]
fn loss_and_gradients_match_pytorch_bidirectional() {
    check_fixture("input_lstm_l1_bi.json");
}

#[test]
fn loss_and_gradients_match_pytorch_with_the_language_as_the_initial_state() {
    check_fixture("state_gru_l1.json");
    check_fixture("state_lstm_l2_bi.json");
}

/// With the language as the initial state, the steps read the letters alone, the batch
/// carries the languages, and the model starts from `init(onehot)`: two languages give two
/// different first distributions on the same letters.
#[test]
fn the_language_as_the_initial_state_changes_what_the_model_predicts() {
    let task = four_letters(Conditioning::State);
    assert_eq!(task.features(), 5);
    assert_eq!(task.shape().conditions, Some(2));
    let batch = task.batch_of(&[(&[0, 1], 1), (&[0, 1], 0)]);
    assert_eq!(batch.conditions, vec![1, 0]);
    let recipe = Recipe {
        hidden_size: 3,
        num_layers: 2,
        bidirectional: true,
        ..Recipe::default()
    };
    let model = model_of(&task, CellKind::Gru, &recipe);
    let init = model.layout.get("init.weight").unwrap();
    assert_eq!(init.shape, vec![2 * 2 * 3, 2]);
    let params = model.init(1, 0.0);
    let out = model.forward(&params, &batch).outputs;
    assert_ne!(out[..5], out[5..10], "the language reaches the first step");
    // The GPU path refuses such a model (its runs stay on the CPU path).
    assert_eq!(model.initial_state(), Some(2));
    // Row slices keep each sequence's language.
    assert_eq!(batch.rows(1..2).conditions, vec![0]);
}

/// The generation lab's page: `lesson=generate` is the lab with `task=generate`, its keys
/// round-trip, and keys left at delay-copy's defaults take the generation recipe.
#[test]
fn the_generation_lab_url_reads_back_and_takes_the_recipe() {
    use unroll_core::config::delay::{CellSet, LabTask};
    use unroll_core::config::lessons::{route, Route};
    use unroll_core::config::query::Lang;
    use unroll_core::train::plan::{decode_lab, encode_lab};
    use unroll_core::train::sweep::SweepPlan;

    let d = decode_lab("v=1&lesson=generate");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.config.task, LabTask::Generate);
    assert_eq!(encode_lab(&d.config, None), "v=1&lesson=generate");
    assert_eq!(route("v=1&lesson=generate"), Route::Delay);

    let q = "v=1&lesson=generate&conditioning=state&cell=lstm&layers=2&bidirectional=1\
             &language=7&prefix=Ma&temperature=0.8&top_k=5&sample_seed=42&greedy=1&lang=zh";
    let d = decode_lab(q);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let c = &d.config;
    assert_eq!(c.conditioning, Conditioning::State);
    assert_eq!(c.cell, CellSet::One(CellKind::Lstm));
    assert_eq!((c.layers, c.bidirectional), (2, true));
    assert_eq!((c.language, c.prefix.clone()), (7, vec!["Ma".to_owned()]));
    assert_eq!(
        (c.temperature, c.top_k, c.sample_seed, c.greedy),
        (0.8, 5, 42, true)
    );
    assert_eq!(encode_lab(c, Some(Lang::Zh)), q);
    let job = unroll_core::engine::generate::request_of(c);
    assert_eq!(
        (
            job.language,
            job.prefix.as_str(),
            job.top_k,
            job.seed,
            job.greedy
        ),
        (7, "Ma", 5, 42, true)
    );

    // Out of range: clamped with a notice.
    let d = decode_lab("v=1&lesson=generate&temperature=5");
    assert_eq!(d.config.temperature, 2.0);
    assert_eq!(d.notices.len(), 1);

    // Without the names data there is no task; with it, the recipe of docs/generation.md.
    let plain = decode_lab("v=1&lesson=generate").config;
    assert_eq!(
        SweepPlan::of_lab(&plain).unwrap_err(),
        unroll_core::task::TaskError::NoData
    );
    let plan = SweepPlan::of_lab_on(&plain, Some(real_data())).unwrap();
    assert_eq!(plan.task.key(), "generate");
    assert_eq!(plan.cells, vec![CellKind::Gru]);
    assert_eq!(plan.seeds, vec![0]);
    assert_eq!(plan.steps, 1500);
    assert_eq!((plan.recipe.hidden_size, plan.recipe.num_layers), (64, 1));
    assert!(!plan.recipe.bidirectional);
    assert!((plan.recipe.lr - 0.005).abs() < 1e-9);
    assert_eq!(plan.eval_every, 75);
    let plan = SweepPlan::of_lab_on(&decode_lab(q).config, Some(real_data())).unwrap();
    assert_eq!(
        (plan.recipe.num_layers, plan.recipe.bidirectional),
        (2, true)
    );
    assert_eq!(plan.cells, vec![CellKind::Lstm]);
    assert_eq!(plan.task.shape().conditions, Some(18));
}

/// A job of the tiny model's weights (step 9) on data set 4, without a classifier.
fn tiny_job(
    model: &unroll_core::math::model::SeqModel,
    params: &[f32],
    request: &SampleRequest,
) -> unroll_core::engine::generate::GenerateJob {
    unroll_core::engine::generate::GenerateJob {
        query: "v=1&lesson=generate".into(),
        data: 4,
        weights: unroll_core::train::sweep::Weights {
            model: model.clone(),
            params: params.to_vec(),
            step: 9,
        },
        request: request.clone(),
        classifier: None,
    }
}

/// The engine's sampler job writes what the sampler writes, refuses weights of another model,
/// and its messages survive the trip to the worker and back.
#[test]
fn the_engine_writes_a_name_from_a_runs_weights() {
    use unroll_core::engine::generate::{
        check_weights, quality_job, sample_job, GenerateError, GenerateJob,
    };
    use unroll_core::engine::protocol::{decode, encode, Command, Report};

    let (task, model, params) = tiny_model();
    let request = SampleRequest::new(1, 1.0, 3);
    let job = tiny_job(&model, &params, &request);
    let written = sample_job(&task, &job).unwrap();
    assert_eq!(written, sample(&task, &model, &params, &request).unwrap());
    let q = quality_job(&task, &job, 0, 30, None).unwrap();
    assert_eq!(q.recognised, None);
    assert_eq!(q.language, 0);
    assert_eq!(q.samples, 30);
    assert!((q.training + q.heldout + q.new - 1.0).abs() < 1e-12);

    let other = tiny_model_of(Conditioning::State);
    assert_eq!(
        check_weights(&other, &job.weights),
        Err(GenerateError::Weights {
            features: other.features(),
            input_size: task.features()
        })
    );
    let bad = GenerateJob {
        request: SampleRequest::new(1, 9.0, 3),
        ..job.clone()
    };
    assert_eq!(
        sample_job(&task, &bad).unwrap_err().to_string(),
        "temperature 9 is outside 0.1–2"
    );

    let commands = vec![
        Command::Sample {
            session: 2,
            job: Box::new(job.clone()),
        },
        Command::Quality {
            session: 3,
            job: Box::new(job.clone()),
            languages: vec![0, 1],
            samples: 200,
        },
    ];
    let back = decode::<Vec<Command>>(&encode(&commands)).unwrap();
    let Command::Sample { session: 2, job: j } = &back[0] else {
        panic!("{back:?}")
    };
    assert_eq!(sample_job(&task, j).unwrap(), written);
    assert!(matches!(
        &back[1],
        Command::Quality { session: 3, languages, samples: 200, .. } if *languages == [0, 1]
    ));
    let reports = vec![
        Report::Sample {
            session: 2,
            result: Ok(written.clone()),
        },
        Report::Quality {
            session: 3,
            result: Ok(q.clone()),
        },
        Report::Sample {
            session: 5,
            result: Err(GenerateError::NoData),
        },
    ];
    let back = decode::<Vec<Report>>(&encode(&reports)).unwrap();
    assert!(matches!(&back[0], Report::Sample { session: 2, result: Ok(s) } if *s == written));
    assert!(matches!(&back[1], Report::Quality { session: 3, result: Ok(x) } if *x == q));
    assert!(matches!(
        &back[2],
        Report::Sample {
            session: 5,
            result: Err(GenerateError::NoData)
        }
    ));
}

/// The engine judges the samples with the names classifier the names lab keeps (its weights
/// file read back): a classifier that always answers "Y" recognises every readable name asked
/// of Y and none asked of X; one of other languages, or none, gives no figure.
#[test]
fn a_kept_classifier_judges_the_samples() {
    use unroll_core::data::normalize::VOCAB_SIZE;
    use unroll_core::engine::generate::{quality_job, GenerateJob, KeptClassifier};
    use unroll_core::keep::{export_trained, DataSource};
    use unroll_core::math::model::SeqModel;
    use unroll_core::math::params::RnnSpec;

    let (task, model, params) = tiny_model();
    let kept = |classes: [&str; 2]| {
        let clf = SeqModel::new(RnnSpec::new(CellKind::Gru, VOCAB_SIZE, 4), 2);
        let mut p = vec![0.0f32; clf.layout.total_len()];
        p[clf.layout.get("fc.bias").unwrap().range().start + 1] = 5.0;
        let classes = classes.map(String::from).to_vec();
        let weights =
            export_trained(&clf, &p, &classes, Head::Last, 7, &DataSource::Builtin).unwrap();
        KeptClassifier { weights, classes }
    };
    let always_y = kept(["X", "Y"])
        .recogniser(&task)
        .expect("it knows X and Y");
    assert!(kept(["P", "Q"]).recogniser(&task).is_none());
    assert_eq!(always_y.recognises("abc", 1), Some(true));
    assert_eq!(always_y.recognises("abc", 0), Some(false));
    assert_eq!(always_y.recognises("", 1), Some(false));
    assert_eq!(always_y.recognises("abc", 2), None);
    let request = SampleRequest::new(0, 1.0, 11);
    let job = GenerateJob {
        classifier: Some(kept(["X", "Y"])),
        ..tiny_job(&model, &params, &request)
    };
    // Asked of Y: the share of names with a letter (an empty name cannot be read).
    let readable = (0..20u64)
        .filter(|i| {
            let r = SampleRequest {
                language: 1,
                seed: request.seed + i,
                ..request.clone()
            };
            !sample(&task, &model, &params, &r).unwrap().name.is_empty()
        })
        .count();
    let y = quality_job(&task, &job, 1, 20, Some(&always_y)).unwrap();
    assert_eq!(y.recognised, Some(readable as f64 / 20.0));
    assert!(readable > 0);
    let x = quality_job(&task, &job, 0, 20, Some(&always_y)).unwrap();
    assert_eq!(x.recognised, Some(0.0));
    assert_eq!(
        quality_job(&task, &job, 0, 20, None).unwrap().recognised,
        None
    );
}

fn tiny_model_of(conditioning: Conditioning) -> GenerateTask {
    let data = tiny().data().clone();
    GenerateTask::new(Arc::new(data), 0, conditioning)
}
