//! Per-load cache operators chosen by a bypass policy (coordinated bypassing's static
//! component), indexed by the load's PC: a tagged load's operator replaces the one the
//! kernel gave it.

use crate::mem::CacheOp;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadTags(BTreeMap<u32, CacheOp>);

impl LoadTags {
    pub fn new(tags: impl IntoIterator<Item = (u32, CacheOp)>) -> Self {
        Self(tags.into_iter().collect())
    }

    /// The operator the load at `pc` runs with.
    pub fn op(&self, pc: u32, kernel_op: CacheOp) -> CacheOp {
        self.0.get(&pc).copied().unwrap_or(kernel_op)
    }

    pub fn iter(&self) -> impl Iterator<Item = (u32, CacheOp)> + '_ {
        self.0.iter().map(|(&pc, &op)| (pc, op))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
