//! Accel-Sim SASS traces (docs/traces.md): reading a trace folder's `kernelslist.g` and
//! `kernel-N.traceg` files, plain or gzip, a thread block at a time; replaying them as
//! kernels on the cycle-level model; and writing built-in kernels in the same format.
//!
//! Nothing here opens files: a [`Source`] hands out readers, so the CLI reads a folder on
//! disk and the page files the user picked, through the same parser.

mod addrs;
mod blocks;
mod error;
pub mod export;
mod header;
mod inst;
mod lines;
mod list;
mod opcode;
mod packed;
mod replay;
mod run;
mod source;
mod translate;

pub use error::TraceError;
pub use header::Header;
pub use inst::{parse_inst, Inst};
use lines::Lines;
pub use list::Selection;
use list::{parse_list, Command};
pub use opcode::Treatment;
pub use replay::TraceKernel;
pub use run::{simulator, TraceLaunch, TraceReport};
use source::open_lines;
pub use source::{Files, Source};
pub use translate::{OpcodeCount, OpcodeTable};

use crate::kernels::{Benchmark, Kernel};
use std::rc::Rc;

/// The kernel files of list `list` in `source` that `select` chooses (1-based, in list
/// order; all without one), in launch order, each with the bytes the list copies to the
/// device before it (since the previous chosen launch).
pub fn launches(source: &dyn Source, list: &str, select: Option<&Selection>) -> Result<Vec<(String, u64)>, TraceError> {
    let commands = parse_list(&mut open_lines(source, list)?)?;
    let mut chosen = Vec::new();
    let (mut copied, mut kernels) = (0, 0);
    for command in commands {
        match command {
            Command::Memcpy { bytes } => copied += bytes,
            Command::Kernel(file) => {
                kernels += 1;
                if select.is_none_or(|s| s.contains(kernels)) {
                    chosen.push((file, std::mem::take(&mut copied)));
                }
            }
        }
    }
    if let Some(s) = select.filter(|s| s.max() > kernels) {
        let what = format!("--kernels names kernel {} but the list has {kernels}", s.max());
        return Err(TraceError::in_file(list, what));
    }
    if chosen.is_empty() {
        return Err(TraceError::in_file(list, "no kernel to run (the list names none, or --kernels chose none)"));
    }
    Ok(chosen)
}

/// A trace as its runs open it: where its files are, its list file, its name and the
/// kernels chosen. A trace's kernels are read as they run, so every run opens it afresh.
#[derive(Clone)]
pub struct TraceInput {
    pub source: Rc<dyn Source>,
    pub list: String,
    pub name: String,
    pub select: Option<Selection>,
}

impl TraceInput {
    /// The trace's benchmark (see [`open`]).
    pub fn open(&self) -> Result<Benchmark, TraceError> {
        open(Rc::clone(&self.source), &self.list, &self.name, self.select.as_ref())
    }
}

/// Opens the kernel list `list` of `source` and the headers of the kernels `select`
/// chooses (see [`launches`]), as a benchmark named `name`.
pub fn open(
    source: Rc<dyn Source>,
    list: &str,
    name: &str,
    select: Option<&Selection>,
) -> Result<Benchmark, TraceError> {
    let mut kernels: Vec<Box<dyn Kernel>> = Vec::new();
    for (file, copied) in launches(source.as_ref(), list, select)? {
        kernels.push(Box::new(TraceKernel::open(Rc::clone(&source), &file, copied)?));
    }
    Ok(Benchmark { name: name.to_string(), size: None, launches: kernels })
}
