//! Exact-cycle DRAM timing probes on one channel of the `sc14-gtx480` preset
//! (tRCD 18, tRP 18, tRAS 42, tRC 60, tCL 18, tWL 4, tCCDS 2, tCCDL 3, tRRD 9, tFAW 35,
//! tWTR 8, tRTW 17, tRTP 3, tWR 18, tBURST 2, 64 B bursts: a 128 B line is 4 bus cycles).

mod common;

use common::{check_protocol, sc14, sc14_bursts, Probe};
use warpscope::config::DramSchedulerKind;
use warpscope::dram::DramCommand::{Act, Pre, Rd, Ref, Wr};

/// Opens `row` in each of `banks` and lets everything finish.
fn primed(cfg: &warpscope::config::Config, banks: &[u32], row: u32) -> Probe {
    let mut p = Probe::new(cfg);
    for &b in banks {
        p.read(b, row, 0);
    }
    p.run_until_empty();
    p.run(100);
    p
}

#[test]
fn open_row_read_returns_tcl_plus_bus_time_after_rd() {
    let cfg = sc14();
    let mut p = primed(&cfg, &[0], 5);
    let hits_before = p.ch.stats().row_hits;
    let id = p.read(0, 5, 128);
    p.run_until_empty();
    let rd = p.col_of(id);
    assert_eq!(rd.cmd, Rd);
    assert_eq!(p.done_at(id), rd.at + 18 + 4);
    assert_eq!(rd.data_done, Some(rd.at + 22));
    assert_eq!(p.ch.stats().row_hits, hits_before + 1);
    check_protocol(&cfg, p.ch.command_log());
}

#[test]
fn act_to_rd_is_trcd() {
    let cfg = sc14();
    let mut p = Probe::new(&cfg);
    let id = p.read(3, 7, 0);
    p.run_until_empty();
    let act = p.cmds(Act)[0];
    assert_eq!(act.at, 0);
    assert_eq!(p.col_of(id).at, act.at + 18);
    assert_eq!(p.done_at(id), 18 + 18 + 4);
    assert_eq!(p.ch.stats().row_misses, 1);
}

#[test]
fn acts_to_different_banks_are_trrd_apart() {
    let cfg = sc14();
    let mut p = Probe::new(&cfg);
    p.read(0, 1, 0);
    p.read(1, 1, 0);
    p.run_until_empty();
    let acts: Vec<u64> = p.cmds(Act).iter().map(|r| r.at).collect();
    assert_eq!(acts, vec![0, 9]);
}

#[test]
fn fifth_act_waits_for_tfaw() {
    let mut cfg = sc14();
    cfg.dram.timing.t_faw = 50;
    // tRCD 20 keeps the RDs off the cycles of the ACTs (one command per cycle).
    cfg.dram.timing.t_rcd = 20;
    let mut p = Probe::new(&cfg);
    for b in 0..5 {
        p.read(b, 1, 0);
    }
    p.run_until_empty();
    let acts: Vec<u64> = p.cmds(Act).iter().map(|r| r.at).collect();
    assert_eq!(acts, vec![0, 9, 18, 27, 50]);
    check_protocol(&cfg, p.ch.command_log());
}

#[test]
fn same_bank_acts_are_trc_apart_and_pre_waits_tras() {
    for (t_rc, second_act) in [(60, 60), (80, 80)] {
        let mut cfg = sc14();
        cfg.dram.timing.t_rc = t_rc;
        let mut p = Probe::new(&cfg);
        p.read(0, 1, 0);
        p.read(0, 2, 0);
        p.run_until_empty();
        let acts: Vec<u64> = p.cmds(Act).iter().map(|r| r.at).collect();
        assert_eq!(acts, vec![0, second_act], "t_rc {t_rc}");
        assert_eq!(p.cmds(Pre)[0].at, 42, "PRE waits tRAS after ACT");
        check_protocol(&cfg, p.ch.command_log());
    }
}

#[test]
fn rd_to_pre_is_trtp() {
    let mut cfg = sc14();
    cfg.dram.timing.t_ras = 10;
    cfg.dram.timing.t_rtp = 7;
    let mut p = Probe::new(&cfg);
    let id = p.read(0, 1, 0);
    p.read(0, 2, 0);
    p.run_until_empty();
    let rd = p.col_of(id).at;
    assert_eq!(rd, 18);
    // A 128 B read is two bursts (2 tCK each): tRTP counts from the second one.
    assert_eq!(p.cmds(Pre)[0].at, rd + 2 + 7);
    check_protocol(&cfg, p.ch.command_log());
}

#[test]
fn read_after_write_waits_twtr() {
    let cfg = sc14();
    let mut p = Probe::new(&cfg);
    let w = p.write(0, 1, 0);
    let wr = p.run_until(Wr, Some(w));
    assert_eq!(wr.at, 18);
    let r = p.read(0, 1, 128);
    p.run_until_empty();
    // write data ends tWL + 4 bus cycles after WR, then tWTR.
    assert_eq!(p.col_of(r).at, wr.at + 4 + 4 + 8);
    check_protocol(&cfg, p.ch.command_log());
}

#[test]
fn write_after_read_waits_trtw() {
    let mut cfg = sc14();
    cfg.dram.timing.t_rtw = 30;
    let mut p = Probe::new(&cfg);
    let r = p.read(0, 1, 0);
    let rd = p.run_until(Rd, Some(r));
    let w = p.write(0, 1, 128);
    p.run_until_empty();
    assert_eq!(p.col_of(w).at, rd.at + 30);
    check_protocol(&cfg, p.ch.command_log());
}

/// Gap between the RDs of two simultaneous 64 B or 128 B row hits in banks `a` and `b`.
fn col_gap(a: u32, b: u32, bytes: u32) -> u64 {
    let cfg = sc14();
    let mut p = primed(&cfg, &[a, b], 3);
    let x = p.push(warpscope::mem::AccessKind::Read, a, 3, 256, bytes);
    let y = p.push(warpscope::mem::AccessKind::Read, b, 3, 256, bytes);
    p.run_until_empty();
    check_protocol(&cfg, p.ch.command_log());
    p.col_of(x).at.abs_diff(p.col_of(y).at)
}

#[test]
fn column_commands_are_tccdl_apart_in_a_group_and_tccds_across() {
    // 4 bank groups: bank % 4. With 64 B requests the bus (2 cycles) does not bind.
    assert_eq!(col_gap(0, 4, 64), 3);
    assert_eq!(col_gap(0, 1, 64), 2);
    // A 128 B request holds the bus for 4 cycles, which binds over both tCCDs.
    assert_eq!(col_gap(0, 4, 128), 4);
    assert_eq!(col_gap(0, 1, 128), 4);
}

#[test]
fn row_hit_stream_keeps_the_bus_busy_back_to_back() {
    let cfg = sc14();
    let mut p = primed(&cfg, &[2], 3);
    let busy_before = p.ch.stats().data_bus_busy;
    let ids: Vec<u64> = (0..12).map(|i| p.read(2, 3, (i % 16) * 128)).collect();
    p.run_until_empty();
    let done: Vec<u64> = ids.iter().map(|&id| p.done_at(id)).collect();
    for w in done.windows(2) {
        assert_eq!(w[1] - w[0], 4, "completions {done:?}");
    }
    let rds: Vec<u64> = ids.iter().map(|&id| p.col_of(id).at).collect();
    for w in rds.windows(2) {
        assert_eq!(w[1] - w[0], 4, "RDs {rds:?}");
    }
    assert_eq!(p.ch.stats().data_bus_busy - busy_before, 12 * 4);
    check_protocol(&cfg, p.ch.command_log());
}

#[test]
fn write_drain_starts_at_high_and_stops_at_low_watermark() {
    let cfg = sc14();
    let (high, low) = (32, 16);
    let mut p = Probe::new(&cfg);
    // Row misses on one bank keep reads queued for thousands of cycles.
    for i in 0..40 {
        p.read(0, i, 0);
    }
    for i in 0..high - 1 {
        p.write(1 + i % 15, 100 + i, 0);
    }
    p.run(300);
    assert!(!p.ch.draining());
    assert!(p.cmds(Wr).is_empty());
    assert_eq!(p.ch.write_queue_len(), high as usize - 1);
    p.write(5, 999, 0);
    p.step();
    assert!(p.ch.draining());
    let reads_waiting = p.ch.read_queue_len();
    let mut guard = 0;
    while p.ch.draining() {
        assert_eq!(p.ch.read_queue_len(), reads_waiting, "no read scheduled while draining");
        p.step();
        guard += 1;
        assert!(guard < 10_000);
    }
    assert_eq!(p.ch.write_queue_len(), low as usize);
    while p.ch.read_queue_len() > 0 {
        assert_eq!(p.ch.write_queue_len(), low as usize, "writes wait while reads remain");
        p.step();
    }
    p.run_until_empty();
    assert_eq!(p.ch.stats().writes, high as u64);
    check_protocol(&cfg, p.ch.command_log());
}

/// Completion order of an older row miss and a younger row hit on one bank.
fn miss_then_hit(kind: DramSchedulerKind) -> (u64, u64) {
    let mut cfg = sc14();
    cfg.dram.scheduler = kind;
    let mut p = primed(&cfg, &[0], 1);
    let miss = p.read(0, 2, 0);
    let hit = p.read(0, 1, 128);
    p.run_until_empty();
    check_protocol(&cfg, p.ch.command_log());
    (p.done_at(miss), p.done_at(hit))
}

#[test]
fn fr_fcfs_serves_a_younger_row_hit_first_fcfs_does_not() {
    let (miss, hit) = miss_then_hit(DramSchedulerKind::FrFcfs);
    assert!(hit < miss, "FR-FCFS: hit {hit} miss {miss}");
    let (miss, hit) = miss_then_hit(DramSchedulerKind::Fcfs);
    assert!(miss < hit, "FCFS: hit {hit} miss {miss}");
}

#[test]
fn refresh_closes_all_banks_and_blocks_for_trfc() {
    let mut cfg = sc14();
    cfg.dram.timing.t_refi = 200;
    cfg.dram.timing.t_rfc = 40;
    let mut p = Probe::new(&cfg);
    let mut ids = Vec::new();
    for i in 0..60 {
        ids.push(p.read(i % 16, i / 16, 0));
    }
    p.run_until_empty();
    let refs = p.cmds(Ref);
    assert!(refs.len() >= 2, "refreshes {refs:?}");
    assert!(refs[0].at >= 200);
    for w in refs.windows(2) {
        assert!(w[1].at >= w[0].at + 200);
    }
    assert_eq!(p.ch.stats().refreshes, refs.len() as u64);
    assert_eq!(p.done.len(), ids.len());
    check_protocol(&cfg, p.ch.command_log());
}

#[test]
fn refreshes_during_idle_are_replayed_on_the_next_arrival() {
    let mut cfg = sc14();
    cfg.dram.timing.t_refi = 400;
    cfg.dram.timing.t_rfc = 50;
    let mut p = Probe::new(&cfg);
    p.read(0, 1, 0);
    p.run_until_empty();
    // Idle from cycle 40; the next arrival lands inside the 24th refresh.
    p.now = 9630;
    let id = p.read(0, 1, 0);
    p.run_until_empty();
    // Due at 400: PRE of the open row, REF after tRP at 418, then one every tREFI;
    // only the last periodic REF (418 + 23 * 400) is logged, all are counted.
    assert_eq!(p.cmds(Pre)[0].at, 400);
    let refs: Vec<u64> = p.cmds(Ref).iter().map(|r| r.at).collect();
    assert_eq!(refs, vec![418, 9618]);
    assert_eq!(p.ch.stats().refreshes, 24);
    assert_eq!(p.cmds(Act)[1].at, 9618 + 50, "ACT waits out tRFC");
    assert_eq!(p.done_at(id), 9668 + 18 + 18 + 4);
    check_protocol(&cfg, p.ch.command_log());
}

/// Each 64 B burst its own column command (`dram.column_command = burst`, as GDDR5 moves a
/// 128 B line): the line's two RDs go to one bank, so one bank group, tCCDL (3) apart, and
/// its data ends tCL (18) + tBURST (2) after the second.
#[test]
fn a_line_is_two_reads_tccdl_apart_when_each_burst_is_a_command() {
    let cfg = sc14_bursts();
    let mut p = primed(&cfg, &[2], 3);
    let id = p.read(2, 3, 128);
    p.run_until_empty();
    let rds: Vec<_> = p.ch.command_log().iter().filter(|r| r.req == Some(id)).copied().collect();
    assert_eq!(rds.len(), 2, "{rds:?}");
    assert_eq!(rds[1].at - rds[0].at, 3);
    assert_eq!(p.done_at(id), rds[1].at + 18 + 2);
    check_protocol(&cfg, p.ch.command_log());
}

/// Streaming from one bank with a command per burst: a burst every tCCDL (3) cycles holds
/// the bus for tBURST (2), so the bus is busy 2 of every 3 cycles and lines complete 6
/// apart; spread over two bank groups, bursts go tCCDS (2) apart and fill the bus.
#[test]
fn one_bank_streams_at_two_thirds_of_the_bus_and_two_groups_at_all_of_it() {
    let rd_gaps = |banks: &[u32]| {
        let cfg = sc14_bursts();
        let mut p = primed(&cfg, banks, 3);
        let n = banks.len() as u32;
        let ids: Vec<u64> = (0..12).map(|i| p.read(banks[(i % n) as usize], 3, (i / n % 16) * 128)).collect();
        p.run_until_empty();
        check_protocol(&cfg, p.ch.command_log());
        let rds: Vec<u64> =
            p.ch.command_log().iter().filter(|r| r.req.is_some_and(|id| ids.contains(&id))).map(|r| r.at).collect();
        assert_eq!(rds.len(), 24, "two bursts per line");
        let mut done: Vec<u64> = ids.iter().map(|&id| p.done_at(id)).collect();
        done.sort_unstable();
        (rds.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>(), done)
    };
    let (gaps, done) = rd_gaps(&[2]);
    assert!(gaps.iter().all(|&g| g == 3), "one bank: {gaps:?}");
    assert!(done.windows(2).all(|w| w[1] - w[0] == 6), "one bank: {done:?}");
    let (gaps, _) = rd_gaps(&[0, 1]);
    assert!(gaps.iter().all(|&g| g == 2), "two groups: {gaps:?}");
}
