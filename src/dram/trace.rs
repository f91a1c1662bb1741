//! DRAM-only mode: a memory-request trace straight into the GDDR5 channels, without
//! cores or caches. Lines are `<cycle> <R|W> <address>` or DRAMSim3's
//! `<address> <READ|WRITE> <cycle>`, in cycle order; an address is hex with `0x` or
//! decimal, as in `warpscope cache`'s traces; `#` starts a comment. Each request moves one
//! L2 line (`l2.line_bytes`), as the GPU's controllers see it. Requests enter their
//! channel's queue in trace order at their cycle, or as soon as the queue has room.

use super::addr_map::AddressMap;
use super::config::{DramConfig, MemConfig};
use super::DramChannel;
use crate::mem::{AccessKind, MemReq};
use crate::trace_text::{address, cycle, lines};
use serde::Serialize;
use std::collections::VecDeque;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceReq {
    /// DRAM cycle the request is issued at.
    pub cycle: u64,
    pub kind: AccessKind,
    pub addr: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    /// 1-based line number.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => write!(f, "{}", self.message),
            n => write!(f, "line {n}: {}", self.message),
        }
    }
}

/// Largest trace cycle: the simulation adds timings to it and multiplies the run's
/// cycles by the channel count, which must not overflow a `u64`.
pub const MAX_CYCLE: u64 = 1 << 48;

fn parse_line(t: &[&str]) -> Result<TraceReq, String> {
    let [a, op, c] = t[..] else {
        return Err(format!(
            "expected 3 fields `<cycle> <R|W> <address>` or `<address> <READ|WRITE> <cycle>`, found {}",
            t.len()
        ));
    };
    let (kind, address_first) = match op.to_ascii_uppercase().as_str() {
        "R" => (AccessKind::Read, false),
        "W" => (AccessKind::Write, false),
        "READ" => (AccessKind::Read, true),
        "WRITE" => (AccessKind::Write, true),
        _ => return Err(format!("`{op}` is not R, W, READ or WRITE")),
    };
    let (addr_token, cycle_token) = if address_first { (a, c) } else { (c, a) };
    let addr = address(addr_token).map_err(|m| format!("`{addr_token}` {m}"))?;
    let at = cycle(cycle_token).map_err(|m| format!("`{cycle_token}` {m}"))?;
    if at > MAX_CYCLE {
        return Err(format!("cycle {at} exceeds {MAX_CYCLE}, the largest this mode simulates"));
    }
    Ok(TraceReq { cycle: at, kind, addr })
}

/// Every request of a trace, in file order, for the channels of `map`. The first bad line
/// is an error, and so is a cycle before the line above's (requests enter in trace order),
/// an address beyond the modelled memory (its row in its channel past 2^32), and a trace
/// with no request.
pub fn parse_trace(text: &str, map: &AddressMap) -> Result<Vec<TraceReq>, TraceError> {
    let mut out: Vec<TraceReq> = Vec::new();
    let mut last_line = 0;
    for line in lines(text) {
        let err = |message: String| TraceError { line: line.number, message };
        let r = parse_line(&line.tokens).map_err(err)?;
        if let Some(prev) = out.last().filter(|p| p.cycle > r.cycle) {
            return Err(err(format!(
                "cycle {} comes before line {last_line}'s cycle {}; requests must be in cycle order",
                r.cycle, prev.cycle
            )));
        }
        let row = map.row_of(map.local(r.addr));
        if row > u32::MAX as u64 {
            return Err(err(format!(
                "address {:#x} is beyond the modelled memory: it would be row {row} of its channel, and rows go up to {}",
                r.addr,
                u32::MAX
            )));
        }
        last_line = line.number;
        out.push(r);
    }
    if out.is_empty() {
        return Err(TraceError {
            line: 0,
            message: "the trace has no requests (only comments and blank lines)".into(),
        });
    }
    Ok(out)
}

/// Average read latency in both units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Latency {
    pub dram_cycles: f64,
    pub ns: f64,
}

/// What `warpscope dram` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceReport {
    pub scheduler: &'static str,
    pub channels: u32,
    pub requests: u64,
    pub reads: u64,
    pub writes: u64,
    /// Trace cycle to last data beat, over reads (includes waiting for queue room).
    pub avg_latency: Latency,
    /// Data-bus busy cycles / DRAM cycles of the run, averaged over channels.
    pub bandwidth_utilization: f64,
    pub row_buffer_hit_rate: f64,
    /// DRAM cycles until the last read's data was back and every queue was empty.
    pub cycles: u64,
}

/// Runs the trace through the channels until every request is served; `line_bytes` is the
/// L2's line (each request's size) and `dram_mhz` the DRAM clock the report's times use.
pub fn run_trace(mem: &MemConfig, d: &DramConfig, line_bytes: u32, dram_mhz: f64, trace: &[TraceReq]) -> TraceReport {
    let n = mem.partitions.max(1) as usize;
    let mut chans: Vec<DramChannel> = (0..n).map(|c| DramChannel::new(mem, d, line_bytes, c as u32)).collect();
    let map = chans[0].address_map().clone();
    let mut waiting: Vec<VecDeque<MemReq>> = vec![VecDeque::new(); n];
    let mut order: Vec<usize> = (0..trace.len()).collect();
    order.sort_by_key(|&i| trace[i].cycle);
    let mut next = 0;
    let (mut now, mut lat_sum) = (0u64, 0u64);
    loop {
        while let Some(&i) = order.get(next).filter(|&&i| trace[i].cycle <= now) {
            let t = &trace[i];
            let mut req = MemReq::new(i as u64, t.addr, t.kind, line_bytes);
            req.partition = map.partition(t.addr) as u16;
            req.local = map.local(t.addr);
            req.t_issue = t.cycle;
            waiting[req.partition as usize].push_back(req);
            next += 1;
        }
        for (c, ch) in chans.iter_mut().enumerate() {
            while waiting[c].front().is_some_and(|r| ch.can_accept(r.kind)) {
                let r = waiting[c].pop_front().expect("front exists");
                ch.push(r, now);
            }
            ch.tick(now);
            while let Some(r) = ch.pop_done(now) {
                lat_sum += now - r.t_issue;
            }
        }
        let all_in = next == order.len() && waiting.iter().all(VecDeque::is_empty);
        if all_in && chans.iter().all(DramChannel::is_empty) {
            break;
        }
        let mut wake = order.get(next).map(|&i| trace[i].cycle.max(now + 1));
        if waiting.iter().any(|w| !w.is_empty()) {
            wake = Some(now + 1);
        }
        for ch in &chans {
            if let Some(t) = ch.next_event(now) {
                wake = Some(wake.map_or(t, |w| w.min(t)));
            }
        }
        now = wake.unwrap_or(now + 1);
    }
    let cycles = now.max(1);
    let (mut reads, mut writes, mut hits, mut busy) = (0, 0, 0, 0);
    for ch in &chans {
        let s = ch.stats();
        reads += s.reads;
        writes += s.writes;
        hits += s.row_hits;
        busy += s.data_bus_busy;
    }
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let avg = ratio(lat_sum, reads);
    TraceReport {
        scheduler: d.scheduler.as_str(),
        channels: n as u32,
        requests: trace.len() as u64,
        reads,
        writes,
        avg_latency: Latency { dram_cycles: avg, ns: avg * 1000.0 / dram_mhz },
        bandwidth_utilization: ratio(busy, cycles * n as u64),
        row_buffer_hit_rate: ratio(hits, reads + writes),
        cycles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;

    fn parse(text: &str) -> Result<Vec<TraceReq>, TraceError> {
        let cfg = preset("sc14-gtx480").unwrap();
        parse_trace(text, &AddressMap::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes))
    }

    #[test]
    fn both_line_formats_comments_and_one_number_syntax() {
        let t = parse("# header\n10 R 0x1f00\n0x80 WRITE 12  # dramsim3\n\n15 w 40\n").unwrap();
        assert_eq!(t.len(), 3);
        assert_eq!(t[0], TraceReq { cycle: 10, kind: AccessKind::Read, addr: 0x1f00 });
        assert_eq!(t[1], TraceReq { cycle: 12, kind: AccessKind::Write, addr: 0x80 });
        // Without 0x an address is decimal, as in `warpscope cache`.
        assert_eq!(t[2].addr, 40);
    }

    #[test]
    fn bad_lines_name_their_number() {
        let e = parse("1 R 0x0\n2 X 0x0\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().starts_with("line 2: `X` is not"), "{e}");
        assert_eq!(parse("1 R zz").unwrap_err().line, 1);
        assert_eq!(parse("\n\nR 0x0").unwrap_err().line, 3);
        assert!(parse("q R 0x0").unwrap_err().message.contains("cycle"));
        assert!(parse("1 R 1f").unwrap_err().message.contains("hex with 0x"));
    }

    #[test]
    fn out_of_order_cycles_empty_traces_and_addresses_past_the_memory_are_refused() {
        let e = parse("10 R 0x0\n# c\n5 R 0x80\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: cycle 5 comes before line 1's cycle 10; requests must be in cycle order");
        assert_eq!(
            parse("# nothing\n\n").unwrap_err().to_string(),
            "the trace has no requests (only comments and blank lines)"
        );
        // Six channels of 16 banks of 2 KB rows: a channel's row passes 32 bits near 2^49.5.
        let e = parse("0 R 0x0\n1 R 0xfff0000000000000\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("0xfff0000000000000 is beyond the modelled memory"), "{e}");
        assert!(parse("0 R 0x800000000000").is_ok());
    }

    #[test]
    fn one_read_takes_act_rcd_cl_and_the_burst() {
        let cfg = preset("sc14-gtx480").unwrap();
        let r = run_trace(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, cfg.clocks.dram_mhz, &parse("100 R 0x0").unwrap());
        assert_eq!((r.requests, r.reads, r.writes), (1, 1, 0));
        // ACT, tRCD, the line's two bursts tCCDL apart, tCL, the last burst.
        assert_eq!(r.avg_latency.dram_cycles, 18.0 + 3.0 + 18.0 + 2.0);
        assert_eq!(r.cycles, 141);
        assert_eq!(r.row_buffer_hit_rate, 0.0);
    }
}
