//! The controller's read and write queues and the write-drain mode between them.

use super::config::DramConfig;
use super::sched::{BankView, QueuedReq, SchedView};
use crate::mem::AccessKind;

#[derive(Debug, Clone)]
pub(crate) struct Queues {
    pub read: Vec<QueuedReq>,
    pub write: Vec<QueuedReq>,
    read_cap: usize,
    write_cap: usize,
    pub high: usize,
    low: usize,
    /// Write-drain mode as of the last tick.
    pub draining: bool,
}

impl Queues {
    pub fn new(d: &DramConfig) -> Self {
        Self {
            read: Vec::with_capacity(d.read_queue.min(64) as usize),
            write: Vec::with_capacity(d.write_queue.min(64) as usize),
            read_cap: d.read_queue as usize,
            write_cap: d.write_queue as usize,
            high: d.write_high_watermark as usize,
            low: d.write_low_watermark as usize,
            draining: false,
        }
    }

    pub fn can_accept(&self, kind: AccessKind) -> bool {
        match kind {
            AccessKind::Read => self.read.len() < self.read_cap,
            AccessKind::Write => self.write.len() < self.write_cap,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.read.is_empty() && self.write.is_empty()
    }

    pub fn push(&mut self, q: QueuedReq) {
        match q.req.kind {
            AccessKind::Read => self.read.push(q),
            AccessKind::Write => self.write.push(q),
        }
    }

    pub fn remove(&mut self, kind: AccessKind, i: usize) -> QueuedReq {
        match kind {
            AccessKind::Read => self.read.remove(i),
            AccessKind::Write => self.write.remove(i),
        }
    }

    /// Drain mode for the coming tick: entered at the high watermark, left at the low one.
    pub fn drain_next(&self) -> bool {
        let w = self.write.len();
        if self.draining {
            w > self.low
        } else {
            w >= self.high
        }
    }

    /// The policy's view with the queue served under `draining`: writes while draining
    /// or when no read waits, reads otherwise.
    pub fn view<'a>(&'a self, banks: &'a [BankView], command_queue: u32, now: u64, draining: bool) -> SchedView<'a> {
        let writes = draining || (self.read.is_empty() && !self.write.is_empty());
        SchedView {
            now,
            kind: if writes { AccessKind::Write } else { AccessKind::Read },
            queue: if writes { &self.write } else { &self.read },
            banks,
            command_queue,
            read_len: self.read.len(),
            write_len: self.write.len(),
            write_high_watermark: self.high as u32,
            draining,
        }
    }

    pub fn describe(&self) -> String {
        format!(
            "read queue {}/{}, write queue {}/{}{}",
            self.read.len(),
            self.read_cap,
            self.write.len(),
            self.write_cap,
            if self.draining { " (draining)" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;
    use crate::dram::addr_map::DramCoord;
    use crate::mem::MemReq;

    fn write(id: u64) -> QueuedReq {
        QueuedReq { req: MemReq::new(id, 0, AccessKind::Write, 128), coord: DramCoord::default() }
    }

    #[test]
    fn drain_has_hysteresis_between_watermarks() {
        let mut q = Queues::new(&preset("sc14-gtx480").unwrap().dram);
        for i in 0..31 {
            q.push(write(i));
        }
        assert!(!q.drain_next());
        q.push(write(31));
        assert!(q.drain_next());
        q.draining = true;
        while q.write.len() > 17 {
            q.remove(AccessKind::Write, 0);
        }
        assert!(q.drain_next());
        q.remove(AccessKind::Write, 0);
        assert!(!q.drain_next());
    }

    #[test]
    fn writes_served_when_no_read_waits() {
        let mut q = Queues::new(&preset("sc14-gtx480").unwrap().dram);
        q.push(write(1));
        assert_eq!(q.view(&[], 4, 0, false).kind, AccessKind::Write);
        q.push(QueuedReq { req: MemReq::new(2, 0, AccessKind::Read, 128), coord: DramCoord::default() });
        assert_eq!(q.view(&[], 4, 0, false).kind, AccessKind::Read);
        assert_eq!(q.view(&[], 4, 0, true).kind, AccessKind::Write);
    }
}
