use super::*;
use crate::config::preset;

/// A medic-gtx480 bank with a 32 B data port, and everything its calls need.
struct Rig {
    bank: L2Bank,
    dram_q: DramQueue,
    next_id: u64,
    stats: L2Stats,
    warps: WarpL2Counters,
    shared: L2Shared,
}

impl Rig {
    fn new(write_policy: WritePolicy) -> Self {
        // A pipelined bank with 32 B data ports (GPGPU-Sim 3.2.2's), 32 MSHRs of 8 merges,
        // a 10-cycle lookup and a 16-entry DRAM request queue.
        let mut cfg = preset("medic-gtx480").unwrap();
        cfg.l2.data_port_bytes = 32;
        cfg.l2.bank_occupancy = crate::config::BankOccupancy::Pipelined;
        cfg.l2.mshr_merge = 8;
        cfg.l2.dram_queue = 16;
        cfg.l2.write_policy = write_policy;
        Self {
            bank: L2Bank::new(&cfg.l2, cfg.mem.partitions, cfg.core.num_sms, cfg.core.max_warps_per_sm),
            dram_q: BoundedQueue::new(cfg.l2.dram_queue),
            next_id: 100,
            stats: L2Stats::default(),
            warps: WarpL2Counters::default(),
            shared: L2Shared::new(&cfg.l2, &cfg.medic, cfg.core.max_warps_per_sm, 1),
        }
    }

    fn push(&mut self, kind: AccessKind, bytes: u32, local: u64) {
        let mut req = MemReq::new(self.next_id, local, kind, bytes);
        req.local = local;
        self.next_id += 1;
        self.bank.queue.push(req);
    }

    /// The L2 cycles in `0..until` at which the bank started a lookup.
    fn lookups(&mut self, until: u64) -> Vec<u64> {
        (0..until)
            .filter(|&now| {
                self.bank.drain_pipe(now, now);
                while self.bank.responses.pop().is_some() {}
                let r = &mut *self;
                r.bank.lookup(now, now, &mut r.dram_q, &mut r.next_id, &mut r.stats, &mut r.warps, &mut r.shared)
            })
            .collect()
    }
}

#[test]
fn a_hit_holds_the_access_port_for_a_line_over_the_port_width() {
    let mut r = Rig::new(WritePolicy::WriteBack);
    // A whole-line store miss allocates the line (4 cycles of data), then two read
    // hits move 128 B each and a 32 B hit moves one port width.
    r.push(AccessKind::Write, 128, 0);
    r.push(AccessKind::Read, 128, 0);
    r.push(AccessKind::Read, 128, 0);
    r.push(AccessKind::Read, 32, 0);
    r.push(AccessKind::Read, 32, 0);
    assert_eq!(r.lookups(20), vec![0, 4, 8, 12, 13]);
    assert_eq!(r.stats.read_hits, 4);
    r.push(AccessKind::Read, 128, 0);
    assert_eq!(r.bank.next_event(13, false), Some(14), "the port frees for the waiting read");
    assert_eq!(r.lookups(15)[..], [14][..]);
    assert_eq!(r.bank.next_event(14, false), Some(22), "then only the pipeline moves");
}

#[test]
fn a_miss_uses_only_the_tags_and_its_fill_holds_the_fill_port() {
    let mut r = Rig::new(WritePolicy::WriteThrough);
    // Lines 0 and 2 of the partition are both in bank 0 of 2.
    r.push(AccessKind::Read, 128, 0);
    r.push(AccessKind::Read, 128, 2 << 7);
    assert_eq!(r.lookups(3), vec![0, 1], "two misses in consecutive cycles");
    let fills: Vec<MemReq> = r.dram_q.iter_mut().map(|(_, q)| q.clone()).collect();
    assert_eq!(fills.len(), 2);
    let mut done = Vec::new();
    for now in 10..20 {
        if let Some(f) = fills.get(done.len()) {
            let at = Now { l2: now, core: now, ..Now::default() };
            if r.bank.fill(&at, f, &mut r.dram_q, &mut r.next_id, &mut r.stats, &mut r.shared) {
                done.push(now);
            }
        }
    }
    assert_eq!(done, vec![10, 14], "a 128 B line holds a 32 B fill port 4 cycles");
    assert_eq!(r.bank.responses.len(), 2);
}

#[test]
fn a_fill_waits_for_dram_queue_room_only_to_write_back_a_dirty_victim() {
    let mut r = Rig::new(WritePolicy::WriteBack);
    // Bank 0 of 2 has 32 sets of 16 ways: lines 64 k of the partition share its set 0.
    let line = |k: u64| (64 * k) << 7;
    let fill_at = |r: &mut Rig, now: u64, f: &MemReq| {
        let at = Now { l2: now, core: now, ..Now::default() };
        r.bank.fill(&at, f, &mut r.dram_q, &mut r.next_id, &mut r.stats, &mut r.shared)
    };
    let fetch = |r: &mut Rig| r.dram_q.pop().expect("the miss's fetch").1;
    let clog = |r: &mut Rig| {
        while r.dram_q.has_room(1) {
            r.dram_q.push((0, MemReq::new(0, 0, AccessKind::Read, 128)));
        }
    };
    r.push(AccessKind::Read, 128, line(0));
    r.lookups(1);
    let f = fetch(&mut r);
    clog(&mut r);
    assert!(fill_at(&mut r, 10, &f), "an empty way needs no write-back");
    while r.dram_q.pop().is_some() {}
    // Fifteen whole-line stores allocate the other ways dirty; a read then misses.
    for k in 1..16 {
        r.push(AccessKind::Write, 128, line(k));
    }
    r.push(AccessKind::Read, 128, line(16));
    r.lookups(100);
    let f = fetch(&mut r);
    assert!(r.dram_q.is_empty(), "no write-back yet");
    clog(&mut r);
    assert!(fill_at(&mut r, 200, &f), "the LRU victim, line 0, is clean");
    while r.dram_q.pop().is_some() {}
    r.push(AccessKind::Read, 128, line(17));
    assert!(r.lookups(300).len() == 1);
    let f2 = fetch(&mut r);
    clog(&mut r);
    assert!(!fill_at(&mut r, 300, &f2), "the LRU victim, line 1, is dirty and the queue full");
    r.dram_q.pop();
    assert!(fill_at(&mut r, 301, &f2));
    assert!(r.dram_q.iter_mut().any(|(_, w)| w.writeback && w.local == line(1)), "line 1 written back");
}

#[test]
fn a_fill_waits_until_every_merged_reader_has_a_reply_slot() {
    let mut r = Rig::new(WritePolicy::WriteThrough);
    for _ in 0..3 {
        r.push(AccessKind::Read, 128, 0);
    }
    r.lookups(10);
    let fetch = r.dram_q.pop().expect("one fetch for three merged reads").1;
    let cap = r.bank.responses.capacity();
    assert_eq!(cap, 8 + 32 * 8, "the return queue plus one bank's MSHRs times their merges");
    while r.bank.responses.has_room(3) {
        r.bank.responses.push(MemReq::new(0, 0, AccessKind::Read, 128));
    }
    let at = Now { l2: 20, core: 20, ..Now::default() };
    let fill =
        |r: &mut Rig, f: &MemReq| r.bank.fill(&at, f, &mut r.dram_q, &mut r.next_id, &mut r.stats, &mut r.shared);
    assert!(!fill(&mut r, &fetch), "two free slots for three readers");
    r.bank.responses.pop();
    assert!(fill(&mut r, &fetch));
    assert_eq!(r.bank.responses.len(), cap);
    let mut bypassed = MemReq::new(1, 1 << 20, AccessKind::Read, 128);
    bypassed.l2_route = L2Route::Dram;
    assert!(!fill(&mut r, &bypassed), "a bypassed read's data waits for a slot too");
    r.bank.responses.pop();
    assert!(fill(&mut r, &bypassed));
}

#[test]
fn warming_keeps_recency_and_writes_back_dirty_victims_without_counting() {
    let mut r = Rig::new(WritePolicy::WriteBack);
    let cfg = preset("medic-gtx480").unwrap();
    // Bank 0's blocks that share block 0's set, whatever the set index function.
    let (banks, line) = (cfg.l2.banks_per_partition as u64, cfg.l2.line_bytes as u64);
    let ways = cfg.l2.ways as u64;
    let set0 = r.bank.tags.set_of(0);
    let same: Vec<u64> = (0..).filter(|&b| r.bank.tags.set_of(b) == set0).take(2 * ways as usize + 2).collect();
    let local = |i: u64| same[i as usize] * banks * line;
    let mut warm = |i: u64, write: bool| {
        let w = r.bank.warm(local(i), write);
        assert!(!w.pending, "nothing is in flight before a detailed piece measured the MSHRs");
        (w.to_dram, w.writeback)
    };
    assert_eq!(warm(0, true), (true, None), "a store miss allocates dirty");
    for i in 1..ways {
        assert_eq!(warm(i, false), (true, None));
    }
    assert_eq!(warm(0, false), (false, None), "a hit, now most recent");
    // The next miss evicts block 1 (least recent), clean; then block 2.
    assert_eq!(warm(ways, false), (true, None));
    assert!(warm(1, false).0, "block 1 was the victim");
    // Fill the set with reads again until block 0, dirty, is the least recent.
    for i in ways + 1..2 * ways + 1 {
        let (_, wb) = warm(i, false);
        if let Some(w) = wb {
            assert_eq!(w, local(0), "only block 0 is dirty");
            assert_eq!(r.stats.writebacks, 0, "warming counts nothing");
            return;
        }
    }
    panic!("block 0's write-back never came");
}

#[test]
fn warming_a_store_miss_under_write_back_fetch_fills_clean_as_detail_does() {
    let mut r = Rig::new(WritePolicy::WriteBackFetch);
    let cfg = preset("medic-gtx480").unwrap();
    let (banks, line) = (cfg.l2.banks_per_partition as u64, cfg.l2.line_bytes as u64);
    let set0 = r.bank.tags.set_of(0);
    let same: Vec<u64> = (0..).filter(|&b| r.bank.tags.set_of(b) == set0).take(cfg.l2.ways as usize + 1).collect();
    let w = r.bank.warm(same[0] * banks * line, true);
    assert!(w.to_dram, "the store goes on to DRAM");
    // Read misses push block 0, least recent, out of the set: it was filled clean.
    for &b in &same[1..] {
        assert_eq!(r.bank.warm(b * banks * line, false).writeback, None, "no dirty victim");
    }
    assert!(r.bank.warm(same[0] * banks * line, false).to_dram, "block 0 was the victim");
}
