//! Functional warming of the L1 (sampled runs, `crate::sample`): the tags, recency order and
//! victim tags move as detail would move them, with no timing or statistics.

use super::bypass::Route;
use super::{Feedback, L1Event, L1D};
use crate::cache::vta::Owner;
use crate::cache::Probe;
use crate::mem::{AccessKind, CacheOp};

impl L1D {
    /// Functional warming (sampled runs): applies one line request of warp `who` to the
    /// tags, recency order and victim tags alone, with no timing or statistics. Stores evict
    /// their line, as in `store`; `.cg` loads and the loads the bypass policy routes around
    /// the L1 pass by. The policy sees each other read (`on_warm_access`), as it sees
    /// accepted ones in detail; nothing is refused here, so a bypass on refusal never
    /// happens. The scheduler's feedback is queued as in detail, so a throttle warms with
    /// the caches. Returns whether the request goes on to the L2.
    pub fn warm(&mut self, addr: u64, kind: AccessKind, op: CacheOp, who: Owner) -> bool {
        self.unchanged = false;
        let block = addr >> self.line_shift;
        if kind == AccessKind::Write {
            self.tags.invalidate(block);
            return true;
        }
        if op == CacheOp::Cg {
            return true;
        }
        let warp = who.key as usize;
        let bypassed = self.bypass.route(warp) == Route::Bypass;
        let set = self.tags.set_of(block);
        self.bypass.on_warm_access(warp, block, set);
        if bypassed {
            return true;
        }
        let missed = match self.tags.probe(block) {
            Probe::Hit { set, way } => {
                self.tags.touch(set, way);
                false
            }
            Probe::HitReserved { .. } => false,
            Probe::Miss { set, victim } => {
                self.classify(who, block, set);
                if let Some(way) = victim {
                    let ev = self.tags.allocate(set, way, block, false, 0);
                    self.tags.set_owner(set, way, who);
                    if let Some(ev) = ev {
                        self.vta.record(ev.owner, ev.block, who);
                    }
                }
                true
            }
        };
        if self.feedback == Feedback::VtaHitsAndAccesses {
            self.events.push(L1Event::Access { warp: who, set: set as u32 });
        }
        missed
    }
}
