//! The last few benchmarks built on this thread, so runs that differ only in the machine
//! (a demo's comparison, a sweep over policies, the profiling runs of coordinated
//! bypassing) generate their input once. A benchmark is immutable once built (kernels
//! `emit` through `&self`) and is fully determined by its name, size and seed (every
//! builder starts from an empty address space), so sharing it cannot change a report.
//! The cache is per thread: each web worker, and each thread of the CLI's parallel
//! runs, keeps its own.

use super::{build, Benchmark, Size};
use crate::settings::ConfigError;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// How many benchmarks a thread keeps: a run's input and its profiling input.
const KEEP: usize = 2;

type Key = (String, Size, u64);

thread_local! {
    static RECENT: RefCell<VecDeque<(Key, Rc<Benchmark>)>> = const { RefCell::new(VecDeque::new()) };
}

/// Benchmark `name` at `size` on data from `seed`: the one built last time if it is still
/// kept, otherwise a new one (which then evicts the least recently used).
pub fn build_shared(name: &str, size: Size, seed: u64) -> Result<Rc<Benchmark>, ConfigError> {
    let key = (name.to_string(), size, seed);
    let hit = RECENT.with_borrow_mut(|recent| {
        let i = recent.iter().position(|(k, _)| *k == key)?;
        let entry = recent.remove(i)?;
        let bench = Rc::clone(&entry.1);
        recent.push_back(entry);
        Some(bench)
    });
    if let Some(bench) = hit {
        return Ok(bench);
    }
    let bench = Rc::new(build(name, size, seed)?);
    RECENT.with_borrow_mut(|recent| {
        if recent.len() == KEEP {
            recent.pop_front();
        }
        recent.push_back((key, Rc::clone(&bench)));
    });
    Ok(bench)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_two_inputs_by_name_size_and_seed() {
        let a = build_shared("atax", Size::Tiny, 1).unwrap();
        assert!(Rc::ptr_eq(&a, &build_shared("atax", Size::Tiny, 1).unwrap()));
        let b = build_shared("atax", Size::Tiny, 2).unwrap();
        assert!(!Rc::ptr_eq(&a, &b), "another seed is another input");
        assert!(!Rc::ptr_eq(&a, &build_shared("atax", Size::Small, 1).unwrap()), "another size too");
        // Three inputs: the least recently used, atax/tiny/1, was dropped.
        assert!(Rc::ptr_eq(&b, &build_shared("atax", Size::Tiny, 2).unwrap()));
        assert!(!Rc::ptr_eq(&a, &build_shared("atax", Size::Tiny, 1).unwrap()));
    }

    #[test]
    fn an_unknown_kernel_is_an_error_and_is_not_kept() {
        assert_eq!(build_shared("nope", Size::Tiny, 1).err().map(|e| e.field), Some("kernel".to_string()));
    }
}
