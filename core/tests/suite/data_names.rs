//! The names loader, split and batches on the real data files.
//!
//! The folder is found by `unroll_core::data::locate_names_dir`: `UNROLL_NAMES_DIR`, else
//! `www/data/names` (written by `node scripts/fetch-data.mjs`), else `../shared/data/names`.
//! Expected figures: those of the names data set as PyTorch's tutorial loads it.

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;
use unroll_core::data::normalize::decode;
use unroll_core::data::{
    encode, epoch_order, locate_names_dir, normalize, Batches, NameError, NamesDataset, Split,
    VAL_FRACTION,
};

fn dataset() -> &'static NamesDataset {
    static DATA: OnceLock<NamesDataset> = OnceLock::new();
    DATA.get_or_init(|| {
        let root = &Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = locate_names_dir(root)
            .unwrap_or_else(|e| panic!("names data needed by this test: {e}"));
        NamesDataset::load_dir(&dir).unwrap_or_else(|e| panic!("loading {}: {e}", dir.display()))
    })
}

/// Normalisation as PyTorch's tutorial does it: NFD then the 57-symbol filter (not NFKD, not "drop
/// non-ASCII"); surrounding whitespace trimmed for files and user input alike.
#[test]
fn names_normalisation() {
    let cases = [
        ("Ślusàrski", "Slusarski"),
        ("M\u{00FC}ller", "Muller"),
        ("Mu\u{0308}ller", "Muller"),
        ("Groß", "Gro"),
        ("Marszałek", "Marszaek"),
        ("Ørsted", "rsted"),
        ("Au-Yong", "AuYong"),
        ("Rafaj1", "Rafaj"),
        ("Maxa/B", "MaxaB"),
        ("Lu:", "Lu"),
        ("To The First\u{00A0} Page", "To The First Page"),
        ("O\u{2019}Brien", "OBrien"),
        ("O'Brien", "O'Brien"),
        ("ＭＡＲＩＡ", ""),
        ("Park ", "Park"),
        ("  Nguyen\t", "Nguyen"),
        ("\u{00A0}Smith\u{00A0}", "Smith"),
        ("😀 Smith", "Smith"),
    ];
    for (input, want) in cases {
        assert_eq!(normalize(input), want, "normalize({input:?})");
    }
    for input in ["😀", "ŁŁ", "ＭＡＲＩＡ", "", " "] {
        let err = encode(input).unwrap_err();
        assert_eq!(
            err,
            NameError::NoUsableLetters {
                input: input.to_owned()
            }
        );
        assert!(err.to_string().starts_with("no usable letters"), "{err}");
    }
    assert_eq!(
        encode("ŁŁ").unwrap_err().to_string(),
        "no usable letters in “ŁŁ”: the model only reads the letters a–z and A–Z (accents are removed) \
         and the symbols space . , ; '"
    );
    assert_eq!(encode("Park ").unwrap(), encode("Park").unwrap());
}

const LANGUAGES: [&str; 18] = [
    "Arabic",
    "Chinese",
    "Czech",
    "Dutch",
    "English",
    "French",
    "German",
    "Greek",
    "Irish",
    "Italian",
    "Japanese",
    "Korean",
    "Polish",
    "Portuguese",
    "Russian",
    "Scottish",
    "Spanish",
    "Vietnamese",
];

#[test]
fn real_files_report_20074_lines_18_classes_17994_pairs() {
    let ds = dataset();
    let r = ds.report();
    assert_eq!(ds.classes(), LANGUAGES);
    assert_eq!(r.raw_lines, 20074);
    assert_eq!(r.distinct, 17994);
    assert_eq!(ds.len(), 17994);
    assert_eq!(r.skipped, 0);
    assert_eq!(r.duplicates, 20074 - 17994);
    let class = |name: &str| r.classes.iter().find(|c| c.class == name).unwrap();
    assert_eq!(class("Russian").raw_lines, 9408);
    assert_eq!(class("Vietnamese").raw_lines, 73);
    // Arabic.txt repeats ~108 names up to 28 times each (names-pytorch.md).
    assert_eq!(
        (class("Arabic").raw_lines, class("Arabic").distinct),
        (2000, 108)
    );
    for c in &r.classes {
        assert_eq!(
            c.raw_lines,
            c.distinct + c.skipped + c.duplicates,
            "{}",
            c.class
        );
    }
    assert_eq!(ds.class_counts().iter().sum::<usize>(), 17994);
}

#[test]
fn real_files_quirks_are_normalised() {
    let ds = dataset();
    let has = |name: &str, class: &str| {
        let label = ds.class_index(class).unwrap();
        ds.samples()
            .iter()
            .any(|s| s.name == name && s.label == label)
    };
    assert!(
        has("To The First Page", "Russian"),
        "Russian.txt's NBSP junk line, single space"
    );
    assert!(has("Gro", "German"), "Groß: ß has no decomposition");
    assert!(has("Slusarski", "Polish"));
    assert!(has("AuYong", "Chinese"));
    assert!(has("Rafaj", "Czech"));
    assert!(
        has("Park", "Korean") && has("Park", "English"),
        "\"Park \" is trimmed"
    );
    for s in ds.samples() {
        assert!(
            !s.name.is_empty() && !s.name.starts_with(' ') && !s.name.ends_with(' '),
            "{:?}",
            s.name
        );
        assert_eq!(decode(&s.tokens), s.name);
        assert!(s.tokens.iter().all(|&t| t < 57));
    }
    let longest = ds.samples().iter().map(|s| s.tokens.len()).max().unwrap();
    assert_eq!(longest, 19, "ShirinskyShikhmatov");
    assert_eq!(ds.report().multi_language_names, 480);
}

#[test]
fn split_is_grouped_by_name_covers_every_class_and_is_about_ten_percent() {
    let ds = dataset();
    for seed in [0u64, 1, 7, 12345] {
        let split = Split::new(ds, seed, 0.1);
        let mut all: Vec<usize> = split.train.iter().chain(&split.val).copied().collect();
        all.sort_unstable();
        assert_eq!(
            all,
            (0..ds.len()).collect::<Vec<_>>(),
            "seed {seed}: a partition of the samples"
        );

        let val_names: HashSet<&str> = split
            .val
            .iter()
            .map(|&i| ds.samples()[i].name.as_str())
            .collect();
        let leaked: Vec<&str> = split
            .train
            .iter()
            .map(|&i| ds.samples()[i].name.as_str())
            .filter(|n| val_names.contains(n))
            .collect();
        assert!(
            leaked.is_empty(),
            "seed {seed}: names on both sides: {leaked:?}"
        );

        let val_counts = split.val_class_counts(ds);
        for (class, (&v, &n)) in val_counts.iter().zip(&ds.class_counts()).enumerate() {
            assert!(
                v >= 1,
                "seed {seed}: {} missing from validation",
                ds.classes()[class]
            );
            let share = v as f64 / n as f64;
            assert!(
                (0.05..=0.2).contains(&share),
                "seed {seed}: {} has {v}/{n} in validation",
                ds.classes()[class]
            );
        }
        let share = split.val.len() as f64 / ds.len() as f64;
        assert!(
            (0.09..=0.11).contains(&share),
            "seed {seed}: validation share {share}"
        );
    }
}

#[test]
fn split_is_deterministic_per_seed_and_differs_between_seeds() {
    let ds = dataset();
    let a = Split::new(ds, 3, 0.1);
    assert_eq!(a, Split::new(ds, 3, 0.1));
    assert_ne!(a.val, Split::new(ds, 4, 0.1).val);
}

#[test]
fn epoch_batches_visit_every_training_sample_once() {
    let ds = dataset();
    let split = Split::new(ds, 0, 0.1);
    let batches = Batches::train_epoch(ds, &split.train, 64, 0, 0);
    assert_eq!(batches.num_batches(), split.train.len().div_ceil(64));
    let order = batches.order().to_vec();
    assert_eq!(
        order,
        Batches::train_epoch(ds, &split.train, 64, 0, 0).order()
    );
    assert_ne!(
        order,
        Batches::train_epoch(ds, &split.train, 64, 0, 1).order()
    );

    let mut seen = Vec::new();
    let mut count = 0;
    for batch in batches {
        count += 1;
        assert!(batch.batch >= 1 && batch.batch <= 64);
        assert_eq!(batch.tokens.len(), batch.batch * batch.seq_len);
        assert_eq!(batch.seq_len as u32, *batch.lengths.iter().max().unwrap());
        for b in 0..batch.batch {
            let row = &batch.tokens[b * batch.seq_len..(b + 1) * batch.seq_len];
            let len = batch.lengths[b] as usize;
            assert!(len >= 1);
            assert!(row[len..].iter().all(|&t| t == 0), "padding is 0");
            let idx = order[seen.len()];
            assert_eq!(decode(&row[..len]), ds.samples()[idx].name);
            assert_eq!(batch.labels[b], ds.samples()[idx].label);
            seen.push(idx);
        }
    }
    assert_eq!(count, split.train.len().div_ceil(64));
    seen.sort_unstable();
    assert_eq!(seen, split.train);

    let eval: Vec<_> = Batches::eval(ds, &split.val, 500).collect();
    assert_eq!(eval.iter().map(|b| b.batch).sum::<usize>(), split.val.len());
    assert_eq!(
        eval.last().unwrap().batch,
        split.val.len() - 500 * (eval.len() - 1)
    );
    assert_eq!(
        eval[0].labels[0],
        ds.samples()[split.val[0]].label,
        "fixed order"
    );
}

/// Training batches group names of equal length: on the real data they pad far fewer step-rows
/// than random batches of the same size (about 42 % at 64), in as many steps per epoch.
#[test]
fn bucketed_batches_pad_far_less_than_random_ones() {
    let ds = dataset();
    let split = Split::new(ds, 0, VAL_FRACTION);
    for (bs, epoch) in [(64, 0), (64, 1), (32, 0), (256, 0)] {
        let bucketed = Batches::train_epoch(ds, &split.train, bs, 0, epoch);
        let random = Batches::new(ds, epoch_order(&split.train, 0, epoch), bs);
        assert_eq!(bucketed.num_batches(), split.train.len().div_ceil(bs));
        assert_eq!(bucketed.num_batches(), random.num_batches());
        let (b, r) = (bucketed.padded_share(), random.padded_share());
        eprintln!(
            "batch {bs}, epoch {epoch}: {:.2} % of step-rows padded (bucketed), {:.2} % (random)",
            100.0 * b,
            100.0 * r
        );
        assert!(r > 0.3, "random batches of {bs} pad {r}");
        assert!(b < r / 10.0, "bucketed {b} vs random {r}");
    }
}
