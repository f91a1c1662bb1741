//! The memory request that travels SM -> icnt -> L2 -> DRAM and back, and the small
//! types every level shares. Each request carries who asked (SM, warp, CTA, PC,
//! warp-load) so that warp-aware policies and per-warp statistics can see it.

use serde::{Deserialize, Serialize};

/// PTX-style cache operator of a global load: `ca` caches in L1 and L2, `cg` only in
/// L2 (bypasses L1), `cm` marks a load a bypass policy may decide about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheOp {
    Ca,
    Cg,
    Cm,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessKind {
    Read,
    Write,
}

/// MeDiC's five warp types by L2 hit ratio, plus `Unknown` before a warp's first profile.
/// The classifier (`cache::l2::warp_type`) assigns them; requests carry them to the
/// insertion policy and the DRAM scheduler, so the type lives here, below all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WarpType {
    #[default]
    Unknown,
    AllHit,
    MostlyHit,
    Balanced,
    MostlyMiss,
    AllMiss,
}

impl WarpType {
    /// WMS's mostly-hit bit: set for mostly-hit and (mischaracterised) all-hit warps.
    pub fn mostly_hit(self) -> bool {
        matches!(self, WarpType::AllHit | WarpType::MostlyHit)
    }

    /// WByp sends these warps' reads straight to DRAM.
    pub fn mostly_miss(self) -> bool {
        matches!(self, WarpType::MostlyMiss | WarpType::AllMiss)
    }
}

/// Where the partition's port sends a request (the L2 bypass policy decides, `l2.bypass`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum L2Route {
    /// The bank queue; a read miss allocates on fill.
    #[default]
    Cache,
    /// The bank queue, but nothing is allocated for it.
    NoAllocate,
    /// Straight to the DRAM request queue, skipping the L2 (reads only).
    Dram,
}

/// Threads per warp: the lanes of one instruction, so at most this many requests per
/// warp-load. Below the kernels, the SM and the config's checks, which all use it.
pub const WARP_SIZE: usize = 32;

/// Sentinel for "this request belongs to no tracked warp-load" (stores, write-backs).
pub const NO_WARP_LOAD: u32 = u32::MAX;

/// Core cycles after `t_issue` at which a request passed each stage of its trip through
/// a memory partition (0 until it does): the report splits request latency by them.
/// Offsets keep the request small; a trip longer than `u32::MAX` cycles saturates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Trip {
    /// Out of the request network, at the head of (or queued for) its partition port.
    pub arrived: u32,
    /// Taken off its port into a bank queue, or into the DRAM queue when bypassed.
    pub accepted: u32,
    /// Tag lookup started (`accepted` for a bypassed read).
    pub looked_up: u32,
    /// Its reply entered the bank's response queue.
    pub replied: u32,
    /// Its reply entered the reply network.
    pub sent: u32,
    /// Its reply left the reply network into its SM's ejection buffer.
    pub delivered: u32,
}

/// One line-sized memory request.
///
/// Timestamps are in the cycles of the domain that records them: `t_issue` and
/// latencies seen at the SM in core cycles, `t_l2_arrive` in L2 cycles,
/// `t_dram_arrive` in DRAM cycles.
#[derive(Debug, Clone, PartialEq)]
pub struct MemReq {
    /// Unique within a run.
    pub id: u64,
    /// Line-aligned global byte address.
    pub addr: u64,
    pub kind: AccessKind,
    /// Bytes of data the request moves (a line for reads and write-backs).
    pub bytes: u32,
    pub op: CacheOp,
    pub sm: u16,
    /// Warp slot within the SM.
    pub warp_slot: u16,
    /// Dynamic warp id within the whole run (stable across SMs), for per-warp statistics.
    pub warp: u32,
    pub cta: u32,
    pub pc: u32,
    /// Index of the warp-load in the SM's warp-load table, or `NO_WARP_LOAD`.
    pub warp_load: u32,
    /// The last request of its warp-load sent to this partition: a DRAM controller that
    /// sees it knows the warp-group is complete (SC'14 §IV-B).
    pub group_last: bool,
    /// Carries only its warp-group tag (`group_last`) to the partition's DRAM controller:
    /// the tagged request itself was answered by the L1. No reply.
    pub tag_only: bool,
    /// Destination memory partition (DRAM channel).
    pub partition: u16,
    /// Address with the channel bits removed: what the L2 slice and the DRAM channel index by.
    pub local: u64,
    /// L2 write-back of a dirty line (no SM waits for it).
    pub writeback: bool,
    /// Sent around the L1 (a `.cg` load, or the L1 bypass policy's choice): its reply does
    /// not fill the L1, and it holds one of `l1d.bypass_slots` until then. Unrelated to
    /// `l2_route`.
    pub l1_bypassed: bool,
    pub t_issue: u64,
    pub t_l2_arrive: u64,
    pub t_dram_arrive: u64,
    pub l2_hit: bool,
    pub dram_served: bool,
    /// The warp's MeDiC type when the request reached the L2 (WIP and WMS read it).
    pub warp_type: WarpType,
    /// Where the partition's port sent it: the banks, the banks without allocating, or
    /// straight to DRAM.
    pub l2_route: L2Route,
    pub trip: Trip,
}

impl MemReq {
    /// Core cycles from its issue to `now_core`, for its `trip` stamps.
    #[inline]
    pub fn since_issue(&self, now_core: u64) -> u32 {
        now_core.saturating_sub(self.t_issue).min(u32::MAX as u64) as u32
    }

    /// A request with every routing and timing field zeroed; callers fill what they know.
    pub fn new(id: u64, addr: u64, kind: AccessKind, bytes: u32) -> Self {
        Self {
            id,
            addr,
            kind,
            bytes,
            op: CacheOp::Ca,
            sm: 0,
            warp_slot: 0,
            warp: 0,
            cta: 0,
            pc: 0,
            warp_load: NO_WARP_LOAD,
            group_last: false,
            tag_only: false,
            partition: 0,
            local: addr,
            writeback: false,
            l1_bypassed: false,
            t_issue: 0,
            t_l2_arrive: 0,
            t_dram_arrive: 0,
            l2_hit: false,
            dram_served: false,
            warp_type: WarpType::Unknown,
            l2_route: L2Route::Cache,
            trip: Trip::default(),
        }
    }

    pub fn is_write(&self) -> bool {
        self.kind == AccessKind::Write
    }
}
