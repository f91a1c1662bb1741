//! SBWAS, the SIMT-aware scheduler of Lakshminarayana et al. as SC'14 §VII compares
//! with it: a potential function weighs serving a row hit against serving the warp
//! with the fewest requests left, per request: alpha x row-hit + (1 - alpha) / (the
//! requests its warp still has queued here). The highest potential goes first, ties to
//! the oldest. Decisions look at one bank's hit state at a time; writes use GMC, with
//! GMC's limits (`dram.age_threshold`, `dram.max_row_hit_streak`).

use super::gmc::Gmc;
use super::warp_groups::key_of;
use super::{DramSchedulerKind, QueuedReq, Registered, SchedView, TransactionPolicy};
use crate::dram::config::DramConfig;
use crate::mem::AccessKind;
use crate::settings::{Checker, ConfigError};

crate::settings::params! {
    /// `dram.sbwas`.
    pub struct Params {
        /// Weight of the row-hit term against the fewest-remaining-requests term (0..=1).
        pub alpha: f64 = 0.5,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        if !(0.0..=1.0).contains(&self.alpha) {
            k.0.push(ConfigError::new("dram.sbwas.alpha", format!("{} is outside 0..=1", self.alpha)));
        }
    }
}

#[derive(Debug, Clone)]
pub struct Sbwas {
    alpha: f64,
    gmc: Gmc,
}

impl Sbwas {
    pub fn new(d: &DramConfig) -> Self {
        Self { alpha: d.sbwas.alpha, gmc: Gmc::new(d) }
    }

    fn potential(&self, view: &SchedView<'_>, q: &QueuedReq) -> f64 {
        let left = match key_of(&q.req) {
            Some(k) => view.queue.iter().filter(|r| key_of(&r.req) == Some(k)).count(),
            None => 1,
        };
        let hit = if view.is_row_hit(q) { 1.0 } else { 0.0 };
        self.alpha * hit + (1.0 - self.alpha) / left as f64
    }
}

impl Registered for Sbwas {
    fn build(_kind: DramSchedulerKind, d: &DramConfig) -> Self {
        Self::new(d)
    }
}

impl TransactionPolicy for Sbwas {
    fn pick(&mut self, view: &SchedView<'_>) -> Option<usize> {
        if view.kind == AccessKind::Write {
            return self.gmc.pick(view);
        }
        let mut best: Option<(f64, usize)> = None;
        for (i, q) in view.queue.iter().enumerate().filter(|(_, q)| view.has_room(q)) {
            let p = self.potential(view, q);
            if best.is_none_or(|(b, _)| p > b) {
                best = Some((p, i));
            }
        }
        best.map(|(_, i)| i)
    }

    fn on_scheduled(&mut self, q: &QueuedReq, row_hit: bool, _now: u64) {
        self.gmc.note_scheduled(q, row_hit);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::BankView;
    use super::*;
    use crate::config::preset;

    fn sbwas(alpha: f64) -> Sbwas {
        let mut cfg = preset("sc14-gtx480").unwrap();
        cfg.dram.sbwas.alpha = alpha;
        Sbwas::new(&cfg.dram)
    }

    #[test]
    fn alpha_trades_row_hits_against_nearly_done_warps() {
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 2];
        // A row hit of a warp with 4 requests queued, and a miss of a warp with 1.
        let mut q = vec![queued(1, 0, 1, 90), queued(2, 0, 1, 90), queued(3, 0, 1, 90), queued(4, 0, 1, 90)];
        q.push(queued(5, 1, 7, 91));
        for (r, wl) in q.iter_mut().zip([1, 1, 1, 1, 2]) {
            r.req.warp_load = wl;
        }
        assert_eq!(sbwas(0.75).pick(&view(&q, &banks)), Some(0));
        assert_eq!(sbwas(0.25).pick(&view(&q, &banks)), Some(4));
    }
}
