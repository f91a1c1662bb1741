//! The policy-family names accepted in config. Each family is an enum whose
//! snake_case variant names are the stable config values. Families with a registry (warp
//! schedulers, set-index functions, L1 bypass, L2 bypass, L2 insertion, partition mappings,
//! DRAM schedulers) declare their enum there, through `policy_enum!`, and are re-exported here,
//! as are the families a part declares with its sections (`dram.column_command`, ...) and the
//! benchmarks' input size (`coordinated.profile_size`).

pub use crate::cache::l1::bypass::L1BypassKind;
pub use crate::cache::l1::config::{AllocationKind, CgGranularity};
pub use crate::cache::l2::bypass::L2BypassKind;
pub use crate::cache::l2::config::{BankOccupancy, BoundaryRateKind, ReplyQueueKind, RopSkip, WarpIdKind, WritePolicy};
pub use crate::cache::l2::insertion::L2InsertionKind;
pub use crate::cache::set_index::SetIndexKind;
pub use crate::cache::tags::ReplacementKind;
pub use crate::core::sched::WarpSchedulerKind;
pub use crate::dram::config::{ColumnCommand, DramIdealKind};
pub use crate::dram::partition_mapping::PartitionMapping;
pub use crate::dram::sched::DramSchedulerKind;
pub use crate::kernels::Size;
use crate::settings::policy_enum;

policy_enum!(
    /// Who learns TB_bg in coordinated bypassing (`coordinated.mode`).
    CoordinatedMode {
        /// SM 0 learns and broadcasts its TB_bg to every SM.
        Centralized => "centralized",
        /// Every SM learns its own TB_bg.
        Decentralized => "decentralized",
    }
);

/// Name and valid values of every policy family, for `warpscope list policies`.
pub fn policy_families() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("core.warp_scheduler", WarpSchedulerKind::NAMES),
        ("l1d.set_index", SetIndexKind::NAMES),
        ("l1d.replacement", ReplacementKind::NAMES),
        ("l1d.allocation", AllocationKind::NAMES),
        ("l1d.bypass", L1BypassKind::NAMES),
        ("l1d.cg_granularity", CgGranularity::NAMES),
        ("coordinated.mode", CoordinatedMode::NAMES),
        ("coordinated.profile_size", Size::NAMES),
        ("l2.set_index", SetIndexKind::NAMES),
        ("l2.replacement", ReplacementKind::NAMES),
        ("l2.write_policy", WritePolicy::NAMES),
        ("l2.bypass", L2BypassKind::NAMES),
        ("l2.insertion", L2InsertionKind::NAMES),
        ("l2.reply_queue", ReplyQueueKind::NAMES),
        ("l2.rop_skip", RopSkip::NAMES),
        ("l2.bank_occupancy", BankOccupancy::NAMES),
        ("medic.warp_id", WarpIdKind::NAMES),
        ("medic.boundary_rate", BoundaryRateKind::NAMES),
        ("mem.partition_mapping", PartitionMapping::NAMES),
        ("dram.scheduler", DramSchedulerKind::NAMES),
        ("dram.ideal", DramIdealKind::NAMES),
        ("dram.column_command", ColumnCommand::NAMES),
    ]
}
