//! A single cache on its own (`warpscope cache`): a trace of addresses in, hits and
//! misses per set out. For checking textbook exercises and for comparing our tag array
//! and set-index functions with other cache simulators.
//!
//! The model is the simulator's own `TagArray`: LRU, no timing, every access completes
//! before the next. Reads allocate on a miss; writes allocate too unless the spec says
//! write-no-allocate. A write marks its line dirty, so `writebacks` counts the dirty
//! evictions a write-back cache would make.

mod trace;

pub use trace::{parse_trace, Access, TraceError};

use super::{Probe, SetIndex, TagArray};
use crate::cache::set_index::SetIndexKind;
use crate::cache::tags::ReplacementKind;
use crate::mem::AccessKind;
use crate::settings::ConfigError;
use serde::Serialize;

/// What a write miss does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteMiss {
    /// Fetch the line and write into it, like a read miss (the usual textbook default).
    Allocate,
    /// Send the write on and leave the cache unchanged.
    NoAllocate,
}

impl WriteMiss {
    pub const NAMES: &'static [&'static str] = &["allocate", "no-allocate"];
}

/// A checked cache geometry and policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CacheSpec {
    pub sets: u32,
    pub ways: u32,
    pub line_bytes: u32,
    pub size_bytes: u64,
    pub set_index: SetIndexKind,
    pub policy: ReplacementKind,
    pub write: WriteMiss,
}

/// The teaching mode's parameters as the user gave them; `spec` checks them.
#[derive(Debug, Clone)]
pub struct CacheArgs<'a> {
    pub sets: Option<u32>,
    /// Total bytes: derives the set count when `sets` is absent, must agree when present.
    pub size: Option<u64>,
    pub ways: u32,
    pub line: u32,
    pub set_index: &'a str,
    pub policy: &'a str,
    pub write: &'a str,
}

/// Largest geometry accepted: the tag array stores way numbers in a byte, and 2^22
/// lines keep a run's memory under about 100 MB.
const MAX_WAYS: u32 = 256;
const MAX_LINES: u64 = 1 << 22;

impl CacheArgs<'_> {
    /// The checked spec, or an error that names the flag (`--sets`, `--set-index`, ...).
    pub fn spec(&self) -> Result<CacheSpec, ConfigError> {
        let names = |flag: &str, name: &str, valid: &[&str]| {
            ConfigError::new(flag, format!("unknown `{name}`; valid values are: {}", valid.join(", ")))
        };
        let set_index = SetIndexKind::parse(self.set_index)
            .ok_or_else(|| names("--set-index", self.set_index, SetIndexKind::NAMES))?;
        let policy = ReplacementKind::parse(self.policy)
            .ok_or_else(|| names("--policy", self.policy, ReplacementKind::NAMES))?;
        let write = match self.write {
            "allocate" => WriteMiss::Allocate,
            "no-allocate" => WriteMiss::NoAllocate,
            other => return Err(names("--write", other, WriteMiss::NAMES)),
        };
        let line = self.line;
        if !line.is_power_of_two() || line > 4096 {
            return Err(ConfigError::new("--line", format!("{line} B is not a power of two from 1 to 4096")));
        }
        if !(1..=MAX_WAYS).contains(&self.ways) {
            return Err(ConfigError::new("--ways", format!("{} is not between 1 and {MAX_WAYS}", self.ways)));
        }
        let way_bytes = self.ways as u64 * line as u64;
        let sets = match (self.sets, self.size) {
            (Some(sets), Some(size)) if sets as u64 * way_bytes != size => {
                let product = format!("{sets} x {} x {line} = {} B", self.ways, sets as u64 * way_bytes);
                return Err(ConfigError::new(
                    "--size",
                    format!("{size} B is not --sets x --ways x --line ({product})"),
                ));
            }
            (Some(sets), _) => sets as u64,
            (None, Some(size)) if size % way_bytes == 0 => size / way_bytes,
            (None, Some(size)) => {
                let msg = format!("{size} B is not a whole number of sets of {} ways x {line} B", self.ways);
                return Err(ConfigError::new("--size", msg));
            }
            (None, None) => return Err(ConfigError::new("--sets", "give the set count, or --size to derive it")),
        };
        if sets.saturating_mul(self.ways as u64) > MAX_LINES {
            return Err(ConfigError::new(
                "--sets",
                format!("{sets} sets x {} ways exceeds {MAX_LINES} lines", self.ways),
            ));
        }
        if !sets.is_power_of_two() {
            return Err(ConfigError::new("--sets", format!("{sets} sets is not a power of two (1, 2, 4, ...)")));
        }
        let sets = sets as u32;
        SetIndex::new(set_index, sets, line).map_err(|e| ConfigError::new("--set-index", e.to_string()))?;
        let size_bytes = sets as u64 * way_bytes;
        Ok(CacheSpec { sets, ways: self.ways, line_bytes: line, size_bytes, set_index, policy, write })
    }
}

/// Accesses and misses of one set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SetCounts {
    pub set: usize,
    pub accesses: u64,
    pub misses: u64,
}

/// The outcome of a trace; `sets` has one entry per set, untouched ones included, so
/// a set-index function's unused sets show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CacheReport {
    pub cache: CacheSpec,
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    pub hit_rate: f64,
    pub miss_rate: f64,
    pub reads: u64,
    pub read_misses: u64,
    pub writes: u64,
    pub write_misses: u64,
    /// Valid lines replaced.
    pub evictions: u64,
    /// Dirty lines replaced (what a write-back cache writes to memory).
    pub writebacks: u64,
    /// Sets with at least one access.
    pub sets_used: usize,
    pub sets: Vec<SetCounts>,
}

/// Runs `accesses` through an empty cache of `spec`.
pub fn simulate(spec: &CacheSpec, accesses: &[Access]) -> CacheReport {
    // TagArray keeps an LRU order only; a new replacement kind has to be wired in here.
    let ReplacementKind::Lru = spec.policy;
    let mut tags = TagArray::new(spec.sets, spec.ways, spec.line_bytes, spec.set_index);
    let shift = spec.line_bytes.trailing_zeros();
    let mut r = CacheReport::empty(spec);
    for a in accesses {
        let block = a.addr >> shift;
        let write = a.kind == AccessKind::Write;
        let (set, way) = match tags.probe(block) {
            Probe::Hit { set, way } => {
                tags.touch(set, way);
                (set, Some(way))
            }
            Probe::Miss { set, victim } => {
                r.sets[set].misses += 1;
                if write {
                    r.write_misses += 1;
                } else {
                    r.read_misses += 1;
                }
                let way = victim.expect("no line is ever reserved here");
                let allocate = !write || spec.write == WriteMiss::Allocate;
                if allocate {
                    if let Some(old) = tags.allocate(set, way, block, false, 0) {
                        r.evictions += 1;
                        r.writebacks += old.dirty as u64;
                    }
                }
                (set, allocate.then_some(way))
            }
            Probe::HitReserved { .. } => unreachable!("no line is ever reserved here"),
        };
        r.sets[set].accesses += 1;
        if !write {
            r.reads += 1;
        } else {
            r.writes += 1;
            if let Some(way) = way {
                tags.set_dirty(set, way);
            }
        }
    }
    r.accesses = r.reads + r.writes;
    r.misses = r.read_misses + r.write_misses;
    r.hits = r.accesses - r.misses;
    if r.accesses > 0 {
        r.hit_rate = r.hits as f64 / r.accesses as f64;
        r.miss_rate = r.misses as f64 / r.accesses as f64;
    }
    r.sets_used = r.sets.iter().filter(|s| s.accesses > 0).count();
    r
}

impl CacheReport {
    fn empty(spec: &CacheSpec) -> Self {
        Self {
            cache: spec.clone(),
            accesses: 0,
            hits: 0,
            misses: 0,
            hit_rate: 0.0,
            miss_rate: 0.0,
            reads: 0,
            read_misses: 0,
            writes: 0,
            write_misses: 0,
            evictions: 0,
            writebacks: 0,
            sets_used: 0,
            sets: (0..spec.sets as usize).map(|set| SetCounts { set, accesses: 0, misses: 0 }).collect(),
        }
    }
}

#[cfg(test)]
mod tests;
