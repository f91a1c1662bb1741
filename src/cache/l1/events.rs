//! What the L1 tells the SM's warp scheduler: the narrow feedback path CCWS and iWarp use.
//!
//! The L1 only queues events when the scheduler asked for them; the SM drains the queue
//! every core cycle and hands each event to its scheduler.

use crate::cache::vta::Owner;

/// How much the warp scheduler wants to hear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Feedback {
    #[default]
    None,
    /// Victim-tag hits only (CCWS).
    VtaHits,
    /// Victim-tag hits and every load's set (iWarp tracks when a victim leaves a set).
    VtaHitsAndAccesses,
}

/// One observation of the L1, in the order it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum L1Event {
    /// A miss of `warp` found its line in its own victim tags; `evictor` pushed it out
    /// (the same warp for intra-warp contention). Keys are the SM's warp slots.
    VtaHit { warp: Owner, evictor: Owner, set: u32 },
    /// `warp` sent a load through the L1 to `set`.
    Access { warp: Owner, set: u32 },
}
