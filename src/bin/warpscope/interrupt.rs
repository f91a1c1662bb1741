//! Ctrl-C on long work: the first SIGINT asks the simulations to stop at their next chunk so
//! the command can still print what finished; a second one ends the program at once. The
//! progress display says so, drawing on the terminal it owns.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status of a command stopped by Ctrl-C: 128 + SIGINT, as shells report it.
pub const EXIT_STATUS: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Takes over SIGINT for the rest of the program. Without a handler (wasm, or one already
/// set) Ctrl-C keeps its default of ending the program at once.
pub fn install() {
    #[cfg(not(target_arch = "wasm32"))]
    let _ = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_STATUS.into());
        }
    });
}

/// Whether Ctrl-C was pressed: runs not yet started are skipped and running ones stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Names on stderr the runs that did not finish and gives the interrupted exit status.
pub fn unfinished(runs: &[String]) -> ExitCode {
    eprintln!("interrupted: {} run(s) did not finish: {}", runs.len(), runs.join("; "));
    ExitCode::from(EXIT_STATUS)
}

/// What a command that runs many simulations prints, and the runs Ctrl-C left unfinished
/// (none when every run finished).
pub struct Printout {
    pub text: String,
    pub unfinished: Vec<String>,
}
