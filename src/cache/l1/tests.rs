//! Exact-cycle tests of the L1D alone: the test plays the SM and the interconnect.

use super::*;
use crate::config::{preset, Config, L1Config};

/// The medic-gtx480 machine (48 warps per SM) with its L1 changed by `f`.
fn cfg(f: impl FnOnce(&mut L1Config)) -> Config {
    let mut c = preset("medic-gtx480").unwrap();
    f(&mut c.l1d);
    c
}

/// SM `sm`'s L1 of `c`, as the simulator builds it.
fn l1d(c: &Config, sm: usize) -> L1D {
    L1D::new(&crate::sim::l1_setup(c, sm))
}

fn load(id: u64, addr: u64) -> MemReq {
    MemReq::new(id, addr, AccessKind::Read, 128)
}

/// The warp in `slot` (its first occupant).
fn slot(key: u32) -> Owner {
    Owner { key, gid: key }
}

/// Sends the miss queue's head back as the L2's reply and returns what it completes.
fn reply_head(l1: &mut L1D) -> Vec<(MemReq, bool)> {
    let r = l1.miss_queue.pop().expect("a miss was sent");
    let mut out = Vec::new();
    l1.fill(r, &mut out);
    out
}

#[test]
fn hit_data_is_ready_exactly_hit_latency_cycles_later() {
    let mut l1 = l1d(&cfg(|c| c.hit_latency = 3), 0);
    l1.access(load(1, 0x1000), 10).unwrap();
    assert_eq!(reply_head(&mut l1).len(), 1);
    l1.access(load(2, 0x1000), 20).unwrap();
    assert_eq!(l1.stats.hits, 1);
    assert!(l1.pop_hit(22).is_none());
    assert_eq!(l1.pop_hit(23).map(|r| r.id), Some(2));
    assert_eq!(l1.next_event(), None);
}

#[test]
fn misses_to_one_line_merge_in_one_mshr_up_to_the_limit() {
    let mut l1 = l1d(&cfg(|c| c.mshr_merge = 3), 0);
    for id in 0..3 {
        l1.access(load(id, 0x2000 + 4 * id), 0).unwrap();
    }
    assert_eq!(l1.miss_queue.len(), 1, "one request leaves for the L2");
    assert_eq!((l1.stats.misses, l1.stats.pending_hits), (1, 2));
    let err = l1.access(load(9, 0x2000), 0).unwrap_err();
    assert_eq!(err.1, RsFail::MshrMerge);
    assert_eq!(l1.stats.rsfail.mshr_merge, 1);
    let done = reply_head(&mut l1);
    assert_eq!(done.iter().map(|(r, _)| r.id).collect::<Vec<_>>(), vec![0, 1, 2]);
    assert_eq!(done.iter().filter(|(_, left)| *left).count(), 1, "only the primary travelled");
    assert_eq!(l1.outstanding(), (0, 0));
}

#[test]
fn full_miss_queue_refuses_and_changes_nothing() {
    let mut l1 = l1d(&cfg(|c| c.miss_queue = 2), 0);
    l1.access(load(0, 0x0000), 0).unwrap();
    l1.access(load(1, 0x4000), 0).unwrap();
    let (_, cause) = l1.access(load(2, 0x8000), 0).unwrap_err();
    assert_eq!(cause, RsFail::MissQueue);
    assert_eq!(l1.outstanding().0, 2, "the refused miss holds no MSHR");
    l1.miss_queue.pop();
    l1.access(load(2, 0x8000), 1).unwrap();
}

#[test]
fn all_ways_reserved_is_a_line_allocation_failure() {
    // 16 KB, 4 ways, 128 B lines: 32 sets, so lines 4 KB apart share a set.
    let mut l1 = l1d(&cfg(|c| c.miss_queue = 16), 0);
    for i in 0..4 {
        l1.access(load(i, i * 4096), 0).unwrap();
    }
    assert_eq!(l1.access(load(4, 4 * 4096), 0).unwrap_err().1, RsFail::LineAlloc);
}

#[test]
fn a_refusal_repeats_without_a_lookup_until_the_l1_changes() {
    let mut l1 = l1d(&cfg(|c| c.miss_queue = 16), 0);
    for i in 0..4 {
        l1.access(load(i, i * 4096), 0).unwrap();
    }
    assert!(!l1.repeat_refusal(), "nothing was refused");
    assert_eq!(l1.access(load(4, 4 * 4096), 0).unwrap_err().1, RsFail::LineAlloc);
    assert!(l1.repeat_refusal());
    assert!(l1.repeat_refusal());
    assert_eq!(l1.stats.rsfail.line_alloc, 3, "each repeat counts as a refused retry");
    let r = l1.pop_miss().expect("a miss was queued");
    assert!(!l1.repeat_refusal(), "the miss queue moved, so the access must be tried again");
    let mut out = Vec::new();
    l1.fill(r, &mut out);
    assert!(!l1.repeat_refusal());
    l1.access(load(4, 4 * 4096), 1).unwrap();
    assert!(!l1.repeat_refusal(), "accepted: nothing to repeat");
    assert_eq!(l1.stats.rsfail.line_alloc, 3);
}

#[test]
fn out_of_mshrs_is_an_entry_failure() {
    let mut l1 = l1d(
        &cfg(|c| {
            c.mshrs = 2;
            c.miss_queue = 8
        }),
        0,
    );
    l1.access(load(0, 0), 0).unwrap();
    l1.access(load(1, 128), 0).unwrap();
    assert_eq!(l1.access(load(2, 256), 0).unwrap_err().1, RsFail::MshrEntry);
}

#[test]
fn stores_write_evict_and_cg_loads_skip_the_l1() {
    let mut l1 = l1d(&cfg(|_| {}), 0);
    l1.access(load(0, 0x3000), 0).unwrap();
    reply_head(&mut l1);
    let mut st = MemReq::new(1, 0x3000, AccessKind::Write, 128);
    st.op = CacheOp::Ca;
    l1.access(st, 1).unwrap();
    assert_eq!(l1.miss_queue.len(), 1);
    l1.miss_queue.pop();
    l1.access(load(2, 0x3000), 2).unwrap();
    assert_eq!(l1.stats.misses, 2, "the store evicted the line");
    let mut cg = load(3, 0x5000);
    cg.op = CacheOp::Cg;
    l1.access(cg, 3).unwrap();
    assert_eq!(l1.stats.bypassed, 1);
    assert_eq!(l1.outstanding().0, 1, "no MSHR for the .cg load");
}

fn cg(id: u64, addr: u64) -> MemReq {
    let mut r = load(id, addr);
    r.op = CacheOp::Cg;
    r
}

#[test]
fn on_fill_reserves_no_line_and_keeps_the_victim_until_the_data_returns() {
    let mut l1 = l1d(&cfg(|c| c.allocation = crate::config::AllocationKind::OnFill), 0);
    // Fill set 0 (lines 4 KB apart share a set) with four valid lines.
    for i in 0..4 {
        l1.access(load(i, i * 4096), 0).unwrap();
        reply_head(&mut l1);
    }
    // Four more misses to the same set: on-miss would fail on the fifth line slot.
    for i in 4..8 {
        l1.access(load(i, i * 4096), 1).unwrap();
    }
    assert_eq!(l1.outstanding(), (4, 0), "MSHRs but no reserved lines");
    l1.access(load(20, 0), 2).unwrap();
    assert_eq!(l1.pop_hit(3).map(|r| r.id), Some(20), "the old line still hits while the misses are out");
    reply_head(&mut l1);
    l1.access(load(21, 4 * 4096), 4).unwrap();
    assert_eq!(l1.stats.hits, 2, "the filled line is now cached");
}

#[test]
fn on_fill_merges_misses_in_the_mshr() {
    let mut l1 = l1d(&cfg(|c| c.allocation = crate::config::AllocationKind::OnFill), 0);
    l1.access(load(0, 0x100), 0).unwrap();
    l1.access(load(1, 0x104), 0).unwrap();
    assert_eq!((l1.stats.misses, l1.stats.pending_hits), (1, 1));
    assert_eq!(reply_head(&mut l1).len(), 2);
}

#[test]
fn bypass_slots_limit_bypasses_and_a_refused_bypass_takes_the_l1_path() {
    let mut l1 = l1d(&cfg(|c| c.bypass_slots = crate::config::BypassSlots(Some(1))), 0);
    l1.access(cg(0, 0x1000), 0).unwrap();
    l1.access(cg(1, 0x2000), 0).unwrap();
    assert_eq!(l1.stats.bypassed, 1);
    assert_eq!(l1.stats.rsfail.bypass_slot, 1);
    assert_eq!(l1.stats.misses, 1, "the second load was cached instead");
    assert_eq!(l1.outstanding().0, 1);
    let first = l1.miss_queue.pop().unwrap();
    assert!(first.l1_bypassed);
    let mut out = Vec::new();
    l1.fill(first, &mut out);
    assert_eq!(out.len(), 1);
    l1.access(cg(2, 0x3000), 1).unwrap();
    assert_eq!(l1.stats.bypassed, 2, "the reply freed the slot");
}

#[test]
fn mrpb_bypasses_instead_of_stalling() {
    let mut l1 = l1d(
        &cfg(|c| {
            c.bypass = crate::config::L1BypassKind::Mrpb;
            c.mshrs = 1;
        }),
        0,
    );
    l1.access(load(0, 0x0), 0).unwrap();
    l1.access(load(1, 0x80), 0).unwrap();
    assert_eq!((l1.stats.misses, l1.stats.bypassed), (1, 1));
    assert_eq!(l1.stats.rsfail.total(), 0, "no stall");
}

#[test]
fn evictions_go_to_the_owners_victim_tags_and_misses_are_classified_by_evictor() {
    // One set of one way: every allocation evicts the previous line.
    let mut l1 = l1d(&cfg(|c| (c.size_kb, c.ways, c.line_bytes) = (1, 8, 128)), 0);
    l1.set_feedback(Feedback::VtaHits);
    let from = |id: u64, addr: u64, slot: u16| {
        let mut r = load(id, addr);
        (r.warp_slot, r.warp) = (slot, 100 + slot as u32);
        r
    };
    // Warp 0 fills the set's 8 ways, warp 3 evicts one of them, warp 0 wants it back.
    for i in 0..8 {
        l1.access(from(i, i * 128, 0), 0).unwrap();
        reply_head(&mut l1);
    }
    l1.access(from(8, 8 * 128, 3), 0).unwrap();
    reply_head(&mut l1);
    l1.access(from(9, 0, 0), 0).unwrap();
    reply_head(&mut l1);
    assert_eq!(l1.stats.miss_classes, MissClassCounts { intra_warp: 0, inter_warp: 1, other: 9 });
    let w = |s: u32| Owner { key: s, gid: 100 + s };
    assert_eq!(l1.events, vec![L1Event::VtaHit { warp: w(0), evictor: w(3), set: 0 }]);
    // Warp 0's refill evicted its own line 1: asking again is intra-warp contention.
    l1.access(from(10, 128, 0), 0).unwrap();
    assert_eq!(l1.stats.miss_classes.intra_warp, 1);
}

/// SC'14 warp-group tags: a tagged load the L1 answers moves its tag to a queued request
/// of its warp-load and partition, or, when those already left, sends it alone; a group
/// with no request out needs no tag.
#[test]
fn an_absorbed_warp_group_tag_moves_to_a_queued_sibling_or_leaves_alone() {
    let member = |id: u64, wl: u32, addr: u64, last: bool| {
        let mut r = load(id, addr);
        (r.warp_load, r.partition, r.group_last) = (wl, 2, last);
        r
    };
    for group_tags in [false, true] {
        let mut l1 = l1d(&cfg(|_| {}), 0);
        l1.set_group_tags(group_tags);
        l1.access(load(1, 0x1000), 0).unwrap();
        reply_head(&mut l1);
        l1.access(member(2, 5, 0x2000, false), 1).unwrap();
        l1.access(member(3, 5, 0x1000, true), 2).unwrap();
        assert!(l1.miss_queue.pop().unwrap().group_last, "the queued sibling carries the tag");
        assert!(l1.miss_queue.is_empty());
        l1.access(member(4, 6, 0x1000, true), 3).unwrap();
        assert!(l1.miss_queue.is_empty(), "all of warp-load 6 hit: no tag");
        l1.access(member(5, 7, 0x3000, false), 4).unwrap();
        l1.miss_queue.pop();
        l1.access(member(6, 7, 0x1000, true), 5).unwrap();
        let packet = l1.miss_queue.pop().map(|p| (p.tag_only, p.group_last, p.warp_load, p.partition));
        assert_eq!(packet, group_tags.then_some((true, true, 7, 2)), "group_tags {group_tags}");
    }
}

#[test]
fn warming_fills_lines_that_detailed_loads_then_hit_and_counts_nothing() {
    let mut l1 = l1d(&cfg(|_| {}), 0);
    assert!(l1.warm(0x1000, AccessKind::Read, CacheOp::Ca, slot(0)), "a cold line goes on to the L2");
    assert!(!l1.warm(0x1000, AccessKind::Read, CacheOp::Ca, slot(0)), "then hits");
    assert!(l1.warm(0x2000, AccessKind::Read, CacheOp::Cg, slot(0)), ".cg passes by");
    assert!(l1.warm(0x2000, AccessKind::Read, CacheOp::Ca, slot(0)), "and allocated nothing");
    assert_eq!(l1.stats.accesses, 0);
    l1.access(load(1, 0x1000), 10).unwrap();
    assert_eq!(l1.stats.hits, 1, "the warmed line serves a detailed load");
    assert!(l1.warm(0x1000, AccessKind::Write, CacheOp::Ca, slot(0)), "a store goes on to the L2");
    assert!(l1.warm(0x1000, AccessKind::Read, CacheOp::Ca, slot(0)), "and evicted its line");
}

#[test]
fn warming_keeps_out_the_lines_of_warps_mdb_tells_to_bypass() {
    // 16 KB, 4 ways, 128 B lines, linear index: 32 sets, and block b*32 falls in set 0,
    // which MDB shadows. Warp 0 reuses one line while warps 1..48 stream new ones through
    // the same set, so MDB keeps the L1 for warp 0 alone.
    let c = cfg(|c| {
        c.bypass = crate::config::L1BypassKind::Mdb;
        c.set_index = crate::cache::set_index::SetIndexKind::Linear;
        c.mdb_interval = 32;
        c.bypass_slots.0 = None;
    });
    let mut l1 = l1d(&c, 0);
    let addr = |block: u64| block * 32 * 128;
    let (mut id, mut fresh) = (0, 2000);
    for _ in 0..8 {
        for warp in 0..48u16 {
            let block = if warp == 0 { 1000 } else { fresh };
            fresh += 1;
            let mut r = load(id, addr(block));
            r.warp_slot = warp;
            id += 1;
            l1.access(r, id).unwrap();
            while !l1.miss_queue.is_empty() {
                reply_head(&mut l1);
            }
        }
    }
    assert_eq!((l1.bypass.route(0), l1.bypass.route(1)), (Route::Cache, Route::Bypass));
    for k in 0..16 {
        assert!(l1.warm(addr(5000 + k), AccessKind::Read, CacheOp::Ca, slot(7)), "a bypassing warp's line goes on");
    }
    assert!(!l1.warm(addr(1000), AccessKind::Read, CacheOp::Ca, slot(0)), "and evicted nothing of warp 0's");
    assert!(l1.warm(addr(5000), AccessKind::Read, CacheOp::Ca, slot(0)), "nor allocated its own");
}

#[test]
fn warming_files_victims_under_their_warps_so_detail_and_the_scheduler_see_the_contention() {
    // 16 KB, 4 ways, 128 B lines, linear index: block b*32 falls in set 0. Warp 0 warms a
    // line, warp 1 warms four others through the same set and pushes it out; warp 0's
    // return to it, warmed or detailed, is an inter-warp miss caused by warp 1.
    let c = cfg(|c| c.set_index = crate::cache::set_index::SetIndexKind::Linear);
    let addr = |block: u64| block * 32 * 128;
    let warmed = || {
        let mut l1 = l1d(&c, 0);
        l1.set_feedback(Feedback::VtaHits);
        assert!(l1.warm(addr(1), AccessKind::Read, CacheOp::Ca, slot(0)));
        for b in 2..6 {
            assert!(l1.warm(addr(b), AccessKind::Read, CacheOp::Ca, slot(1)));
        }
        assert!(l1.events.is_empty(), "cold misses name nobody");
        l1
    };
    let vta_hit = L1Event::VtaHit { warp: slot(0), evictor: slot(1), set: 0 };
    let mut l1 = warmed();
    assert!(l1.warm(addr(1), AccessKind::Read, CacheOp::Ca, slot(0)), "the line is gone");
    assert_eq!(l1.events, [vta_hit], "the scheduler hears of it in warming");
    assert_eq!(l1.stats.miss_classes.total(), 0, "warming counts nothing");
    let mut l1 = warmed();
    l1.access(load(1, addr(1)), 10).unwrap();
    assert_eq!(l1.stats.miss_classes.inter_warp, 1, "a detailed window classifies the miss");
    assert_eq!(l1.events, [vta_hit]);
}
