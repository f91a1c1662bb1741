//! Coordinated static and dynamic L1 bypassing (Xie et al., HPCA 2015) and the comparison
//! policies built from its halves. The static half tags each global load `ca` (cache),
//! `cg` (bypass) or `cm` from a profile (`crate::coordinated` runs the profiling pass); the
//! dynamic half (`thread_blocks`) tags thread blocks `bg` or `ba` as they are dispatched,
//! and a `cm` load bypasses the L1 in `bg` blocks only. Without the dynamic half a `cm`
//! load uses the L1.
//!
//! With `coordinated.mode = centralized` only SM 0 learns TB_bg and broadcasts each new
//! value to every SM; decentralized, every SM learns its own.

mod load_tags;
mod thread_blocks;

pub use load_tags::LoadTags;
use thread_blocks::TbBypass;

use super::{CtaEvent, L1BypassKind, L1BypassPolicy, Profile, SmView};
use crate::cache::l1::L1Setup;
use crate::mem::CacheOp;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
pub struct Coordinated {
    tags: LoadTags,
    /// The thread-block learner (`coordinated`, `dynamic_only`).
    tb: Option<TbBypass>,
    /// Whether SM 0's decisions reach every SM.
    centralized: bool,
}

/// What coordinated bypassing decided: the per-load tags and TB_bg over time.
#[derive(Debug, Clone, Serialize)]
pub struct BypassReport {
    /// Cache operator each global load ran with, by PC.
    pub load_tags: BTreeMap<u32, CacheOp>,
    /// TB_bg of SM 0 (every SM's, when centralized) at each launch start and change.
    pub tb_bg_series: TbBgSeries,
}

#[derive(Debug, Clone, Serialize)]
pub struct TbBgSeries {
    pub cycle: Vec<u64>,
    pub tb_bg: Vec<u32>,
}

impl L1BypassPolicy for Coordinated {
    fn build(kind: L1BypassKind, s: &L1Setup) -> Self {
        let tb = matches!(kind, L1BypassKind::Coordinated | L1BypassKind::DynamicOnly)
            .then(|| TbBypass::new(s.ctas as usize, s.decentralized || s.sm == 0, s.l2_hit_latency));
        Self { tags: LoadTags::default(), tb, centralized: !s.decentralized }
    }

    fn profile(kind: L1BypassKind) -> Option<Profile> {
        Some(match kind {
            L1BypassKind::InstructionLevel => Profile::AllOrNothing,
            L1BypassKind::DynamicOnly => Profile::EveryLoadCm,
            _ => Profile::Tags,
        })
    }

    fn set_load_tags(&mut self, tags: LoadTags) {
        self.tags = tags;
    }

    fn load_op(&self, pc: u32, op: CacheOp, cta: Option<usize>) -> CacheOp {
        match self.tags.op(pc, op) {
            CacheOp::Cm if cta.is_some_and(|c| self.tb.as_ref().is_some_and(|t| t.is_bg(c))) => CacheOp::Cg,
            CacheOp::Cm => CacheOp::Ca,
            op => op,
        }
    }

    fn on_cta(&mut self, event: CtaEvent, sm: &SmView) {
        let Some(tb) = &mut self.tb else { return };
        match event {
            CtaEvent::Launch { max_ctas } => tb.begin_launch(max_ctas, sm.now),
            CtaEvent::Dispatch { slot } => tb.on_dispatch(slot, sm.now, sm.warps, sm.l1, sm.warming),
            CtaEvent::Retire { slot } => tb.on_retire(slot, sm.now, sm.warps, sm.l1, sm.warming),
            CtaEvent::StatsReset => tb.rebase(sm.now, sm.warps, sm.l1),
        }
    }

    fn broadcast(&mut self) -> Option<u32> {
        self.tb.as_mut().filter(|_| self.centralized)?.take_decision()
    }

    fn receive(&mut self, tb_bg: u32, now: u64) {
        if let Some(t) = &mut self.tb {
            t.set_tb_bg(tb_bg, now);
        }
    }

    fn report(&self) -> Option<BypassReport> {
        let series = self.tb.as_ref().map(|t| t.series.as_slice()).unwrap_or_default();
        Some(BypassReport {
            load_tags: self.tags.iter().collect(),
            tb_bg_series: TbBgSeries {
                cycle: series.iter().map(|&(c, _)| c).collect(),
                tb_bg: series.iter().map(|&(_, v)| v).collect(),
            },
        })
    }
}
