//! What the native binaries (`train-names`, `generate-names`, `delay-copy`, `long-memory`,
//! `bench`) share on the command line: the entry point (`--help`, an error printed with the
//! binary's name and exit status 2), one flag's value, the refusal of unknown arguments, and
//! writing an "As PyTorch" script. Native only: the browser has no command line.

use std::fmt::Display;
use std::path::Path;
use std::str::FromStr;

pub use pico_args::Arguments;

/// What a binary's `run` returns when it did not fail: `()`, or `bool` where `false` means
/// that a check it ran failed (exit status 1).
pub trait Finished {
    /// The exit status: 0, or 1 for a failed check.
    fn status(self) -> i32;
}

impl Finished for () {
    fn status(self) -> i32 {
        0
    }
}

impl Finished for bool {
    fn status(self) -> i32 {
        if self {
            0
        } else {
            1
        }
    }
}

/// A binary's `main`: with `-h` or `--help` among the arguments it prints `help` and exits
/// with status 0; otherwise it runs `run` on the arguments. An error is printed to stderr as
/// `{name}: {error}` and exits with status 2; a failed check ([`Finished`]) exits with 1.
pub fn main<F: Finished>(name: &str, help: &str, run: impl FnOnce(Arguments) -> Result<F, String>) {
    let mut args = Arguments::from_env();
    if args.contains(["-h", "--help"]) {
        print!("{help}");
        if !help.ends_with('\n') {
            println!();
        }
        return;
    }
    match run(args).map(Finished::status) {
        Ok(0) => {}
        Ok(status) => std::process::exit(status),
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::exit(2);
        }
    }
}

/// The value of `flag` (`--lr 0.01` or `--lr=0.01`) parsed as `T`, `None` when the flag is
/// absent. Errors: `{flag}: {why}` (a missing or unparsable value).
pub fn opt<T>(args: &mut Arguments, flag: &'static str) -> Result<Option<T>, String>
where
    T: FromStr,
    T::Err: Display,
{
    args.opt_value_from_str::<_, T>(flag)
        .map_err(|e| format!("{flag}: {e}"))
}

/// Refuses what is left after every known flag was read: `unknown arguments: [...] (see
/// --help)`.
pub fn finish(args: Arguments) -> Result<(), String> {
    let rest = args.finish();
    if rest.is_empty() {
        Ok(())
    } else {
        Err(format!("unknown arguments: {rest:?} (see --help)"))
    }
}

/// Writes an "As PyTorch" script to `path` and says so on stderr. Errors: `{path}: {why}`.
pub fn write_script(path: &Path, script: &str) -> Result<(), String> {
    std::fs::write(path, script).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("wrote the PyTorch script to {}", path.display());
    Ok(())
}
