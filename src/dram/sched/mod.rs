//! Transaction schedulers: the policy that picks which queued request moves into its
//! bank's command queue next. One policy per file, registered once in `registry!` below,
//! which gives the dispatch enum and the family's properties.
//!
//! Contract: each cycle the channel decides whether reads or writes are served (write
//! drain) and calls `pick` with that queue, oldest first. A policy returns the index of
//! a request whose bank command queue has room (`SchedView::has_room`), or `None` to
//! wait. Hooks let stateful policies (row sorters, warp-group tables, MERB counters)
//! follow arrivals, scheduling decisions and completions.

mod fcfs;
mod fr_fcfs;
mod gmc;
mod medic_wms;
pub mod merb;
pub mod sbwas;
mod wafcfs;
pub mod warp_groups;
mod wg;
mod wg_bw;
mod wg_m;
mod wg_w;

pub use fcfs::Fcfs;
pub use fr_fcfs::FrFcfs;
pub use gmc::Gmc;
pub use medic_wms::MedicWms;
pub use sbwas::Sbwas;
pub use wafcfs::Wafcfs;
pub use warp_groups::GroupKey;
pub use wg::Wg;

use super::addr_map::DramCoord;
use super::config::DramConfig;
use crate::mem::{AccessKind, MemReq};
use crate::settings::Checker;

/// A request waiting in the read or write queue, with its decoded coordinates.
/// `req.t_dram_arrive` is its arrival cycle.
#[derive(Debug, Clone, PartialEq)]
pub struct QueuedReq {
    pub req: MemReq,
    pub coord: DramCoord,
}

/// Warp-aware score of a row hit and of a row miss (tCL against tRP + tRCD + tCL): the
/// command queues keep each bank's sum, and the warp-group schedulers estimate with them.
pub(crate) const HIT_SCORE: u32 = 1;
pub(crate) const MISS_SCORE: u32 = 3;

/// What one bank looks like to a transaction scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BankView {
    /// Row in the row buffer now.
    pub open_row: Option<u32>,
    /// Row that will be open once the bank's queued transactions are done: the last
    /// queued transaction's row, or `open_row` when nothing is queued.
    pub planned_row: Option<u32>,
    /// Transactions in the bank's command queue.
    pub queued: u32,
    /// Summed warp-aware scores of those transactions (1 per row hit, 3 per row miss).
    pub score: u32,
}

/// Everything a policy may look at when picking.
#[derive(Debug, Clone, Copy)]
pub struct SchedView<'a> {
    pub now: u64,
    /// Which queue is being served this cycle.
    pub kind: AccessKind,
    /// That queue, oldest first.
    pub queue: &'a [QueuedReq],
    pub banks: &'a [BankView],
    /// Capacity of each bank's command queue.
    pub command_queue: u32,
    pub read_len: usize,
    pub write_len: usize,
    pub write_high_watermark: u32,
    pub draining: bool,
}

impl SchedView<'_> {
    /// The request's bank command queue can take one more transaction.
    pub fn has_room(&self, q: &QueuedReq) -> bool {
        self.banks.get(q.coord.bank as usize).is_some_and(|b| b.queued < self.command_queue)
    }

    /// The request will hit the row its bank has open after the already-queued commands.
    pub fn is_row_hit(&self, q: &QueuedReq) -> bool {
        self.banks.get(q.coord.bank as usize).is_some_and(|b| b.planned_row == Some(q.coord.row))
    }

    /// Index of the oldest request that can be scheduled now.
    pub fn oldest_ready(&self) -> Option<usize> {
        self.queue.iter().position(|q| self.has_room(q))
    }
}

/// One transaction-scheduling policy.
pub trait TransactionPolicy {
    /// Index into `view.queue` of the request to schedule now, or `None` to wait.
    fn pick(&mut self, view: &SchedView<'_>) -> Option<usize>;

    /// Whether `pick` could return a request at `view.now`. Used for idle skipping: it
    /// may say yes when `pick` would wait, never no when `pick` would pick.
    fn could_pick(&self, view: &SchedView<'_>) -> bool {
        view.oldest_ready().is_some()
    }

    /// The earliest cycle after `view.now - 1` at which `could_pick` may turn true by
    /// time alone (a timeout), for idle skipping; `None` when nothing is timed.
    fn next_event(&self, _view: &SchedView<'_>) -> Option<u64> {
        None
    }

    /// A request entered the read or write queue.
    fn on_arrival(&mut self, _q: &QueuedReq, _now: u64) {}

    /// A request moved into its bank's command queue; `row_hit` as `SchedView::is_row_hit` said.
    fn on_scheduled(&mut self, _q: &QueuedReq, _row_hit: bool, _now: u64) {}

    /// A read's data has been handed back to the L2.
    fn on_read_done(&mut self, _req: &MemReq, _now: u64) {}

    /// A request left the queue without being scheduled (the zero-divergence bound).
    fn on_removed(&mut self, _q: &QueuedReq, _now: u64) {}

    /// The L2 answered a warp-group's tagged request itself, so the tag never reaches
    /// the controller that way; the partition forwards it.
    fn on_group_tag(&mut self, _req: &MemReq, _now: u64) {}

    /// Coordination messages (warp-group, score) to broadcast to the other controllers,
    /// oldest first (WG-M and later send them).
    fn take_messages(&mut self) -> Vec<(GroupKey, u32)> {
        Vec::new()
    }

    /// A coordination message from another controller.
    fn receive(&mut self, _key: GroupKey, _score: u32) {}
}

/// How the registry below builds a policy and reads its properties. Each policy file
/// implements it, so what a policy needs is said beside the policy.
pub trait Registered: TransactionPolicy + Sized {
    /// The policy for config value `kind` (one of the kinds it is registered under).
    fn build(kind: DramSchedulerKind, d: &DramConfig) -> Self;

    /// Whether it waits for warp-groups to be complete, so every warp-group tag must reach
    /// the controller (the L1 sends the ones it absorbs as tag-only packets).
    fn needs_group_tags(_kind: DramSchedulerKind) -> bool {
        false
    }
}

/// The family's registry: first the policies with parameters, each as its config name and
/// its file's `Params` (the `dram` section gets a field `dram.<name>` for each, in this
/// order, through `with_params!`); then each entry names the dispatch variant, the type it
/// holds, the policy type and the config values (`DramSchedulerKind`) it runs, with their
/// names and doc comments. The config enum, the dispatch enum, its constructor and the
/// per-kind properties follow, and the compiler checks that every config value is
/// registered (the matches are exhaustive).
macro_rules! registry {
    (
        params { $($p:ident: $pm:ident::Params,)* }
        $($var:ident($field:ty): $ty:ty { $($(#[$m:meta])* $kind:ident = $s:literal,)+ })+
    ) => {
        crate::settings::policy_enum!(
            /// DRAM transaction scheduler (`dram.scheduler`).
            DramSchedulerKind { $($($(#[$m])* $kind => $s,)+)+ }
        );

        crate::settings::section_macro!(($) with_params $($p: crate::dram::sched::$pm::Params),*);

        /// Checks the parameters of every registered policy that has some (`dram.<name>`).
        pub(crate) fn check_params(d: &DramConfig, k: &mut Checker) {
            $(d.$p.check(k);)*
        }

        /// The configured policy, dispatched by enum to keep the per-cycle path monomorphic.
        #[derive(Debug, Clone)]
        pub enum DramScheduler { $($var($field)),+ }

        impl DramScheduler {
            pub fn new(kind: DramSchedulerKind, d: &DramConfig) -> Self {
                match kind {
                    $($(DramSchedulerKind::$kind)|+ => Self::$var(<$ty as Registered>::build(kind, d).into()),)+
                }
            }
        }

        impl DramSchedulerKind {
            /// `Registered::needs_group_tags` of the policy this value runs.
            pub fn needs_group_tags(self) -> bool {
                match self { $($(Self::$kind)|+ => <$ty as Registered>::needs_group_tags(self),)+ }
            }
        }

        impl TransactionPolicy for DramScheduler {
            fn pick(&mut self, view: &SchedView<'_>) -> Option<usize> {
                match self { $(Self::$var(p) => p.pick(view)),+ }
            }
            fn could_pick(&self, view: &SchedView<'_>) -> bool {
                match self { $(Self::$var(p) => p.could_pick(view)),+ }
            }
            fn next_event(&self, view: &SchedView<'_>) -> Option<u64> {
                match self { $(Self::$var(p) => p.next_event(view)),+ }
            }
            fn on_arrival(&mut self, q: &QueuedReq, now: u64) {
                match self { $(Self::$var(p) => p.on_arrival(q, now)),+ }
            }
            fn on_scheduled(&mut self, q: &QueuedReq, row_hit: bool, now: u64) {
                match self { $(Self::$var(p) => p.on_scheduled(q, row_hit, now)),+ }
            }
            fn on_read_done(&mut self, req: &MemReq, now: u64) {
                match self { $(Self::$var(p) => p.on_read_done(req, now)),+ }
            }
            fn on_removed(&mut self, q: &QueuedReq, now: u64) {
                match self { $(Self::$var(p) => p.on_removed(q, now)),+ }
            }
            fn on_group_tag(&mut self, req: &MemReq, now: u64) {
                match self { $(Self::$var(p) => p.on_group_tag(req, now)),+ }
            }
            fn take_messages(&mut self) -> Vec<(GroupKey, u32)> {
                match self { $(Self::$var(p) => p.take_messages()),+ }
            }
            fn receive(&mut self, key: GroupKey, score: u32) {
                match self { $(Self::$var(p) => p.receive(key, score)),+ }
            }
        }
    };
}

registry! {
    params {
        sbwas: sbwas::Params,
    }
    Fcfs(Fcfs): Fcfs {
        /// Oldest request first.
        Fcfs = "fcfs",
    }
    FrFcfs(FrFcfs): FrFcfs {
        /// Row hits first, then oldest.
        FrFcfs = "fr_fcfs",
    }
    MedicWms(MedicWms): MedicWms {
        /// MeDiC's WMS: FR-FCFS over requests of mostly-hit/all-hit warps first, then over the rest.
        MedicWms = "medic_wms",
    }
    Gmc(Gmc): Gmc {
        /// GPU memory controller baseline (SC'14 §II-C): row-hit streams per bank with an
        /// age threshold and a maximum row-hit streak.
        Gmc = "gmc",
    }
    // One engine for the SC'14 steps, switched on by kind; boxed, as it is large.
    Wg(Box<Wg>): Wg {
        /// Warp-groups, shortest expected completion first (SC'14 §IV-B).
        Wg = "wg",
        /// WG plus scores exchanged between channels over a coordination network (§IV-C).
        WgM = "wg_m",
        /// WG-M plus MERB: row misses wait until their bank served its minimum efficient row burst (§IV-D).
        WgBw = "wg_bw",
        /// WG-Bw plus warp-aware write drain: single-request warp-groups first near the high watermark (§IV-E).
        WgW = "wg_w",
    }
    Sbwas(Sbwas): Sbwas {
        /// SIMT-aware potential function of Lakshminarayana et al.: row hit vs. fewest remaining requests.
        Sbwas = "sbwas",
    }
    Wafcfs(Wafcfs): Wafcfs {
        /// Warp-groups first-come first-served.
        Wafcfs = "wafcfs",
    }
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::*;

    /// A queued read to (bank, row) arriving at `t`.
    pub fn queued(id: u64, bank: u32, row: u32, t: u64) -> QueuedReq {
        let mut req = MemReq::new(id, 0, AccessKind::Read, 128);
        req.t_dram_arrive = t;
        QueuedReq { req, coord: DramCoord { bank, bank_group: bank % 4, row, col: 0 } }
    }

    pub fn view<'a>(queue: &'a [QueuedReq], banks: &'a [BankView]) -> SchedView<'a> {
        SchedView {
            now: 100,
            kind: AccessKind::Read,
            queue,
            banks,
            command_queue: 2,
            read_len: queue.len(),
            write_len: 0,
            write_high_watermark: 32,
            draining: false,
        }
    }
}
