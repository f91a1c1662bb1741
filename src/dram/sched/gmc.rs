//! GMC, the SC'14 baseline (§II-C): requests are sorted into row-hit streams per bank,
//! and the transaction scheduler keeps serving the stream whose row its bank will have
//! open. Two limits keep latency bounded: a request older than the age threshold goes
//! first, and a bank that served `max_row_hit_streak` hits in a row lets other requests
//! (the misses its stream was starving) in. The command scheduler interleaves bank
//! groups first, then banks within a group (`cmd_sched.rs`).

use super::{DramSchedulerKind, QueuedReq, Registered, SchedView, TransactionPolicy};
use crate::dram::config::DramConfig;

#[derive(Debug, Clone)]
pub struct Gmc {
    /// Row hits scheduled to each bank since its last row miss.
    streak: Vec<u32>,
    age_threshold: u64,
    max_streak: u32,
}

impl Gmc {
    pub fn new(d: &DramConfig) -> Self {
        Self {
            streak: vec![0; d.banks.max(1) as usize],
            age_threshold: d.age_threshold as u64,
            max_streak: d.max_row_hit_streak,
        }
    }

    fn streak_of(&self, q: &QueuedReq) -> u32 {
        self.streak.get(q.coord.bank as usize).copied().unwrap_or(0)
    }

    /// Whether `q` continues its bank's row-hit stream within the streak limit.
    pub fn continues_stream(&self, view: &SchedView<'_>, q: &QueuedReq) -> bool {
        view.is_row_hit(q) && self.streak_of(q) < self.max_streak
    }

    /// Counts the streak of the bank `q` went to.
    pub fn note_scheduled(&mut self, q: &QueuedReq, row_hit: bool) {
        if let Some(s) = self.streak.get_mut(q.coord.bank as usize) {
            *s = if row_hit { s.saturating_add(1) } else { 0 };
        }
    }
}

impl Registered for Gmc {
    fn build(_kind: DramSchedulerKind, d: &DramConfig) -> Self {
        Self::new(d)
    }
}

impl TransactionPolicy for Gmc {
    fn pick(&mut self, view: &SchedView<'_>) -> Option<usize> {
        let oldest = view.oldest_ready()?;
        if view.now >= view.queue[oldest].req.t_dram_arrive + self.age_threshold {
            return Some(oldest);
        }
        let ready = || view.queue.iter().enumerate().filter(|(_, q)| view.has_room(q));
        if let Some((i, _)) = ready().find(|(_, q)| self.continues_stream(view, q)) {
            return Some(i);
        }
        // A new stream: the oldest request that is not a capped hit, so a bank at its
        // streak limit opens the row its waiting misses need.
        ready().find(|(_, q)| !view.is_row_hit(q)).map(|(i, _)| i).or(Some(oldest))
    }

    fn on_scheduled(&mut self, q: &QueuedReq, row_hit: bool, _now: u64) {
        self.note_scheduled(q, row_hit);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::BankView;
    use super::*;
    use crate::config::preset;

    fn gmc(streak: u32, age: u32) -> Gmc {
        let mut cfg = preset("sc14-gtx480").unwrap();
        cfg.dram.max_row_hit_streak = streak;
        cfg.dram.age_threshold = age;
        Gmc::new(&cfg.dram)
    }

    #[test]
    fn serves_the_open_stream_before_an_older_miss() {
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 2];
        let q = [queued(1, 0, 9, 90), queued(2, 0, 1, 95)];
        assert_eq!(gmc(4, 600).pick(&view(&q, &banks)), Some(1));
    }

    #[test]
    fn streak_limit_lets_the_waiting_miss_in() {
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 2];
        let q = [queued(1, 0, 9, 90), queued(2, 0, 1, 95)];
        let mut g = gmc(2, 600);
        g.note_scheduled(&q[1], true);
        g.note_scheduled(&q[1], true);
        assert_eq!(g.pick(&view(&q, &banks)), Some(0));
        g.note_scheduled(&q[0], false);
        assert_eq!(g.pick(&view(&q, &banks)), Some(1), "a miss restarts the streak");
    }

    #[test]
    fn old_request_goes_first() {
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 2];
        let q = [queued(1, 0, 9, 10), queued(2, 0, 1, 95)];
        assert_eq!(gmc(32, 90).pick(&view(&q, &banks)), Some(0), "waited 90 cycles at now = 100");
        assert_eq!(gmc(32, 91).pick(&view(&q, &banks)), Some(1));
    }
}
