//! The SMs' config section (`core`); `config` composes it into the whole machine's `Config`.

use super::sched::WarpSchedulerKind;
use serde::{Deserialize, Serialize};

super::sched::with_params! {
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreConfig {
    pub num_sms: u32,
    pub max_threads_per_sm: u32,
    pub max_warps_per_sm: u32,
    pub max_ctas_per_sm: u32,
    /// Warp schedulers per SM; warp w belongs to scheduler w % schedulers_per_sm.
    pub schedulers_per_sm: u32,
    pub warp_scheduler: WarpSchedulerKind,
    /// Cycles before a warp may issue again after an ALU instruction (pipeline depth).
    pub alu_latency: u32,
    /// Memory instructions that may wait in the LD/ST unit's input queue.
    pub ldst_queue: u32,
}
// Here come the warp schedulers' parameters (`core.<scheduler>.<parameter>`), each declared
// and checked in its policy's file and named in the family's registry.
{
    /// Upper bound of SC'14 fig. 4: every load coalesces into one request (its first line).
    #[serde(default)]
    pub perfect_coalescing: bool,
}
}
