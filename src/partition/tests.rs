use super::*;
use crate::config::preset;

/// A partition with two reply ports whose port 0 has a full injection buffer, holding
/// three replies in its L2-to-icnt queue(s) as the banks would have put them there.
fn blocked_port_0(queue: ReplyQueueKind) -> (Partition, Crossbar) {
    let mut cfg = preset("medic-gtx480").unwrap();
    cfg.l2.reply_ports = 2;
    cfg.l2.reply_queue = queue;
    let mut p = Partition::new(&cfg, 0);
    let mut net = Crossbar::new(2, 4, 8, 32, 10, 32);
    while net.can_push(0, 5) {
        net.push(0, 3, MemReq::new(99, 0, AccessKind::Read, 128), 5);
    }
    for id in 0..3 {
        let mut r = MemReq::new(id, id * 128, AccessKind::Read, 128);
        r.sm = 1;
        let n = p.out_queues.len();
        p.out_queues[id as usize % n].push(r);
    }
    (p, net)
}

/// The cycles at which a lone read, ejected at port 0 in cycle 0, leaves the port
/// (into a bank queue or, bypassed, the DRAM request queue) and reaches the channel.
fn cycles_taken(cfg: &Config) -> (u64, u64) {
    let mut p = Partition::new(cfg, 0);
    let mut shared = L2Shared::new(&cfg.l2, &cfg.medic, cfg.core.max_warps_per_sm, 1);
    let mut warps = WarpL2Counters::default();
    let mut net = Crossbar::new(1, cfg.icnt.nodes_per_partition as usize, 0, 32, 32, 32);
    net.push(0, 0, MemReq::new(1, 0, AccessKind::Read, 128), 1);
    let (mut next_id, mut left) = (1 << 56, None);
    for c in 0..1000 {
        net.tick(c, |_| {});
        let now = Now { core: c, icnt: c, l2: c, dram: c };
        p.tick_l2(&now, &mut net, &mut next_id, &mut warps, &mut shared);
        if p.requests == 1 && left.is_none() {
            left = Some(c);
        }
        if !p.dram.is_empty() {
            return (left.expect("left the port first"), c);
        }
    }
    panic!("the read never reached DRAM");
}

fn medic_with(rop: u32, dram: u32, bypass_all: bool, skip: RopSkip) -> Config {
    let mut cfg = preset("medic-gtx480").unwrap();
    (cfg.l2.rop_latency, cfg.l2.dram_latency, cfg.l2.rop_skip) = (rop, dram, skip);
    if bypass_all {
        cfg.l2.bypass = crate::config::L2BypassKind::Rand;
        cfg.l2.rand.share = 1.0;
    }
    cfg
}

#[test]
fn the_rop_pipeline_delays_what_looks_up_the_l2_by_its_latency() {
    use RopSkip::{Bypassed, None};
    let (port, dram) = cycles_taken(&medic_with(0, 0, false, Bypassed));
    assert_eq!(cycles_taken(&medic_with(7, 0, false, Bypassed)), (port + 7, dram + 7));
    assert_eq!(cycles_taken(&medic_with(7, 0, false, None)), (port + 7, dram + 7));
}

#[test]
fn bypassed_reads_skip_the_rop_pipeline_unless_told_not_to() {
    use RopSkip::{Bypassed, None};
    let (port, dram) = cycles_taken(&medic_with(0, 0, true, Bypassed));
    assert!(dram < cycles_taken(&medic_with(0, 0, false, Bypassed)).1, "the read bypassed the tag lookup");
    assert_eq!(cycles_taken(&medic_with(7, 0, true, Bypassed)), (port, dram));
    assert_eq!(cycles_taken(&medic_with(7, 0, true, None)), (port + 7, dram + 7));
}

#[test]
fn with_rop_skip_all_every_request_skips_the_pipeline() {
    for bypass_all in [false, true] {
        let without = cycles_taken(&medic_with(0, 0, bypass_all, RopSkip::All));
        assert_eq!(cycles_taken(&medic_with(120, 0, bypass_all, RopSkip::All)), without, "bypass {bypass_all}");
    }
}

#[test]
fn switched_to_skip_the_pipeline_it_delivers_what_is_in_it_first() {
    // A read enters the 120-cycle pipeline; then every request is to skip it, and a
    // second read arrives: the first finishes its latency, the second skips (by the
    // node's other port, whose line is empty).
    let cfg = medic_with(120, 0, false, RopSkip::Bypassed);
    let mut p = Partition::new(&cfg, 0);
    let mut shared = L2Shared::new(&cfg.l2, &cfg.medic, cfg.core.max_warps_per_sm, 1);
    let mut warps = WarpL2Counters::default();
    let mut net = Crossbar::new(1, cfg.icnt.nodes_per_partition as usize, 0, 32, 32, 32);
    net.push(0, 0, MemReq::new(1, 0, AccessKind::Read, 128), 1);
    let (mut next_id, mut left) = (1 << 56, Vec::new());
    let mut switched = false;
    for c in 0..1000 {
        if !switched && p.rop.iter().any(|l| !l.is_empty()) {
            p.set_rop_skip(&medic_with(120, 0, false, RopSkip::All).l2);
            net.push(0, 0, MemReq::new(2, 128, AccessKind::Read, 128), 1);
            switched = true;
        }
        net.tick(c, |_| {});
        let now = Now { core: c, icnt: c, l2: c, dram: c };
        let before = p.requests;
        p.tick_l2(&now, &mut net, &mut next_id, &mut warps, &mut shared);
        left.extend(std::iter::repeat_n(c, (p.requests - before) as usize));
    }
    assert!(switched, "the first read entered the pipeline");
    assert_eq!(left.len(), 2, "both reads reached the banks");
    assert!(left[0] < 10 && left[1] >= 120, "{left:?}");
    assert!(p.rop.is_empty() && !p.rop_draining, "the pipeline is gone once empty");
}

#[test]
fn the_dram_path_delays_misses_and_bypassed_reads_alike() {
    for bypass_all in [false, true] {
        let (port, dram) = cycles_taken(&medic_with(0, 0, bypass_all, RopSkip::Bypassed));
        let delayed = cycles_taken(&medic_with(0, 9, bypass_all, RopSkip::Bypassed));
        assert_eq!(delayed, (port, dram + 9), "bypass {bypass_all}");
    }
}

#[test]
fn one_reply_a_cycle_alternates_between_per_port_queues() {
    let mut cfg = preset("medic-gtx480").unwrap();
    cfg.l2.reply_ports = 2;
    cfg.l2.reply_queue = ReplyQueueKind::PerPort;
    let mut p = Partition::new(&cfg, 0);
    for cycle in 0..4u64 {
        p.banks[cycle as usize % 2].responses.push(MemReq::new(cycle, cycle * 128, AccessKind::Read, 128));
        assert!(p.queue_replies());
    }
    let ids = |q: &BoundedQueue<MemReq>| q.iter().map(|r| r.id).collect::<Vec<_>>();
    assert_eq!((ids(&p.out_queues[0]), ids(&p.out_queues[1])), (vec![0, 2], vec![1, 3]));
    assert!(!p.queue_replies(), "nothing left to move");
}

#[test]
fn a_unified_reply_queue_leaves_by_whichever_port_has_room() {
    let (mut p, mut net) = blocked_port_0(ReplyQueueKind::Unified);
    assert!(p.tick_icnt(0, &mut net));
    assert_eq!(p.out_queues[0].len(), 2, "one reply left");
    assert!(net.can_push(1, 6) && !net.can_push(1, 7), "by port 1, as 4 flits");
    assert!(p.tick_icnt(1, &mut net));
    assert_eq!(p.out_queues[0].len(), 1, "port 1 takes the next head at once");
}

#[test]
fn per_port_reply_queues_wait_for_their_own_port() {
    let (mut p, mut net) = blocked_port_0(ReplyQueueKind::PerPort);
    assert_eq!((p.out_queues[0].len(), p.out_queues[1].len()), (2, 1));
    assert!(p.tick_icnt(0, &mut net));
    assert_eq!((p.out_queues[0].len(), p.out_queues[1].len()), (2, 0), "only port 1's own reply left");
    assert!(!p.tick_icnt(1, &mut net), "port 0's replies wait behind its full buffer");
}
