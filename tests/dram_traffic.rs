//! Seeded random traffic through one DRAM channel: conservation (every read answered
//! exactly once, nothing left behind, counts add up), the command log obeys every
//! timing rule, and idle skipping via `next_event` reproduces per-cycle ticking exactly.

mod common;

use common::check_protocol;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use warpscope::config::{preset, Config, DramSchedulerKind};
use warpscope::dram::{DramChannel, DramStats};
use warpscope::mem::{AccessKind, MemReq};

/// `n` requests with arrival cycles: bursts, steady streams and long idle gaps, over a
/// few rows per bank so that both row hits and misses occur.
fn traffic(cfg: &Config, seed: u64, n: usize) -> Vec<(u64, MemReq)> {
    let map = DramChannel::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, 0).address_map().clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut t = 0u64;
    let lines = cfg.dram.row_bytes / 128;
    (0..n as u64)
        .map(|id| {
            t += match rng.gen_range(0..100) {
                0 => rng.gen_range(300..3000),
                1..=40 => 0,
                _ => rng.gen_range(1..8),
            };
            let kind = if rng.gen_bool(0.3) { AccessKind::Write } else { AccessKind::Read };
            let bytes = if rng.gen_bool(0.2) { 64 } else { 128 };
            let mut req = MemReq::new(id, 0, kind, bytes);
            let bank = rng.gen_range(0..cfg.dram.banks);
            let row = rng.gen_range(0..4);
            req.local = map.encode(bank, row, rng.gen_range(0..lines) * 128);
            (t, req)
        })
        .collect()
}

struct Outcome {
    /// (read id, cycle it popped), in pop order.
    done: Vec<(u64, u64)>,
    stats: DramStats,
    log_len: usize,
}

/// Drives the channel either every cycle or by jumping to the next event / arrival.
fn drive(cfg: &Config, reqs: &[(u64, MemReq)], skip: bool) -> Outcome {
    let mut ch = DramChannel::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, 0);
    ch.set_command_log(true);
    let (mut now, mut next, mut done) = (0u64, 0usize, Vec::new());
    let mut visits = 0u64;
    loop {
        while next < reqs.len() && reqs[next].0 <= now && ch.can_accept(reqs[next].1.kind) {
            ch.push(reqs[next].1.clone(), now);
            next += 1;
        }
        assert!(ch.read_queue_len() <= cfg.dram.read_queue as usize);
        assert!(ch.write_queue_len() <= cfg.dram.write_queue as usize);
        ch.tick(now);
        while let Some(r) = ch.pop_done(now) {
            assert!(r.dram_served && r.kind == AccessKind::Read);
            done.push((r.id, now));
        }
        visits += 1;
        if next == reqs.len() && ch.is_empty() {
            break;
        }
        assert!(now < 50_000_000, "stuck: {}", ch.describe());
        now = if skip {
            let event = ch.next_event(now);
            assert!(event.is_none_or(|t| t > now));
            // A waiting request is retried on the cycle after the channel made room.
            let arrival = reqs
                .get(next)
                .map(|r| if ch.can_accept(r.1.kind) { r.0.max(now + 1) } else { r.0 })
                .filter(|&a| a > now);
            let t = event.into_iter().chain(arrival).min();
            t.unwrap_or_else(|| panic!("nothing to wait for at {now}: {}", ch.describe()))
        } else {
            now + 1
        };
    }
    assert!(ch.next_event(now).is_none());
    check_protocol(cfg, ch.command_log());
    if skip {
        assert!(visits < now / 2, "idle skipping visited {visits} of {now} cycles");
    }
    Outcome { done, stats: ch.stats().clone(), log_len: ch.command_log().len() }
}

fn check(cfg: &Config, seed: u64) {
    let reqs = traffic(cfg, seed, 3000);
    let every = drive(cfg, &reqs, false);
    let skipped = drive(cfg, &reqs, true);

    let reads: HashMap<u64, u64> =
        reqs.iter().filter(|r| r.1.kind == AccessKind::Read).map(|r| (r.1.id, r.0)).collect();
    let mut seen = HashMap::new();
    for &(id, at) in &every.done {
        assert!(seen.insert(id, at).is_none(), "read {id} answered twice");
        let arrival = reads.get(&id).copied().expect("a write or unknown id came back");
        assert!(at >= arrival + cfg.dram.timing.t_cl as u64);
    }
    assert_eq!(seen.len(), reads.len(), "every read answered");
    let s = &every.stats;
    assert_eq!(s.reads as usize, reads.len());
    assert_eq!((s.reads + s.writes) as usize, reqs.len());
    assert_eq!(s.row_hits + s.row_misses, s.reads + s.writes);
    assert!(s.row_hits > 0 && s.row_misses > 0);
    assert_eq!(s.row_misses, s.activates);
    assert!(s.data_bus_busy <= s.cycles);

    let first_diff = every.done.iter().zip(&skipped.done).position(|(a, b)| a != b);
    assert_eq!(
        first_diff,
        None,
        "idle skipping changed a completion: {:?}",
        first_diff.map(|i| (every.done[i], skipped.done[i]))
    );
    assert_eq!(every.done.len(), skipped.done.len());
    assert_eq!(every.stats, skipped.stats);
    assert_eq!(every.log_len, skipped.log_len);
}

fn config(name: &str, kind: DramSchedulerKind, refresh: bool) -> Config {
    let mut cfg = preset(name).unwrap();
    cfg.dram.scheduler = kind;
    if refresh {
        cfg.dram.timing.t_refi = 900;
        cfg.dram.timing.t_rfc = 110;
    }
    cfg
}

#[test]
fn random_traffic_fr_fcfs() {
    check(&config("sc14-gtx480", DramSchedulerKind::FrFcfs, false), 1);
}

#[test]
fn random_traffic_fcfs() {
    check(&config("sc14-gtx480", DramSchedulerKind::Fcfs, false), 2);
}

#[test]
fn random_traffic_with_refresh() {
    let cfg = config("sc14-gtx480", DramSchedulerKind::FrFcfs, true);
    check(&cfg, 3);
    let reqs = traffic(&cfg, 3, 3000);
    assert!(drive(&cfg, &reqs, false).stats.refreshes > 10);
}

#[test]
fn random_traffic_medic_eight_banks_with_refresh() {
    check(&config("medic-gtx480", DramSchedulerKind::FrFcfs, true), 4);
    check(&config("medic-gtx480", DramSchedulerKind::Fcfs, true), 5);
}
