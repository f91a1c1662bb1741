//! A short human-readable rendering of a report (`--format text`).

use super::Report;
use std::fmt::Write;

/// What a run's text names in its first line.
pub struct Heading<'a> {
    pub version: &'a str,
    pub kernel: &'a str,
    pub size: &'a str,
    pub machine: &'a str,
    pub seed: u64,
}

/// Writes the first line of a run's text (what ran, where) and returns its status: stopped
/// by an error, completed, or `unfinished` as the caller words it.
pub fn heading(s: &mut String, h: Heading, error: Option<&str>, completed: bool, unfinished: &str) -> String {
    let _ = writeln!(s, "warpscope {} — {} ({}) on {}, seed {}", h.version, h.kernel, h.size, h.machine, h.seed);
    match (error, completed) {
        (Some(e), _) => format!("STOPPED: {e}"),
        (None, true) => "completed".to_string(),
        (None, false) => unfinished.to_string(),
    }
}

pub fn render_text(r: &Report) -> String {
    let mut s = String::new();
    let c = &r.config;
    let h = Heading { version: r.version, kernel: &r.kernel, size: r.size, machine: &c.name, seed: r.seed };
    let status = heading(&mut s, h, r.error.as_deref(), r.completed, "cut short by --max-cycles");
    let _ = writeln!(s, "status      {status}");
    let _ = writeln!(
        s,
        "cycles      {} core cycles ({:.1} us simulated), {} launches",
        r.cycles,
        r.simulated_ns / 1000.0,
        r.launches.len()
    );
    let _ = writeln!(s, "IPC         {:.3} warp instructions/cycle ({} warp instructions)", r.ipc, r.warp_instructions);
    let _ = writeln!(
        s,
        "L1D         miss rate {:.1} % ({} accesses, {} hits, {} misses), {:.3} reservation fails/access, MPKI {:.1}",
        r.l1d.miss_rate * 100.0,
        r.l1d.accesses,
        r.l1d.hits,
        r.l1d.misses,
        r.l1d.rsfail_per_access,
        r.l1d.mpki
    );
    let _ = writeln!(
        s,
        "L2          miss rate {:.1} % ({} accesses), avg queuing {:.1} L2 cycles, MPKI {:.1}",
        r.l2.miss_rate * 100.0,
        r.l2.accesses,
        r.l2.avg_queue_latency,
        r.l2.mpki
    );
    if r.l2.bypassed > 0 {
        let _ = writeln!(
            s,
            "            {} reads bypassed; miss rate counting them as misses {:.1} %",
            r.l2.bypassed,
            r.l2.miss_rate_with_bypass * 100.0
        );
    }
    let _ = writeln!(
        s,
        "DRAM        {} reads, {} writes, row-buffer hit rate {:.1} %, bandwidth utilization {:.1} %, avg read {:.0} ns",
        r.dram.reads,
        r.dram.writes,
        r.dram.row_buffer_hit_rate * 100.0,
        r.dram.bandwidth_utilization * 100.0,
        r.dram.avg_read_latency_ns
    );
    let _ =
        writeln!(s, "partitions  requests {:?} (max/mean {:.2})", r.partitions.requests, r.partitions.max_over_mean);
    let _ = writeln!(
        s,
        "icnt        request links {:.1} % busy, reply links {:.1} % busy (flits per link-cycle)",
        r.icnt.request.link_utilization * 100.0,
        r.icnt.reply.link_utilization * 100.0
    );
    let l = &r.latency;
    let _ = writeln!(
        s,
        "latency     warp-load {:.0}, request {:.0}, divergence {:.0}, DRAM divergence {:.0} core cycles; {:.2} channels per warp-load",
        l.avg_warp_load_latency,
        l.avg_memory_latency,
        l.avg_divergence,
        l.avg_dram_divergence,
        l.avg_channels_per_warp_load
    );
    for (label, t) in [("L2 hits", &l.trip_l2_hit), ("DRAM reads", &l.trip_dram)] {
        if t.reads > 0 {
            let stages: Vec<String> =
                t.stages().iter().map(|(n, c)| format!("{} {c:.0}", n.replace('_', " "))).collect();
            let _ = writeln!(s, "  trip of   {label}: {} core cycles", stages.join(", "));
        }
    }
    let _ = writeln!(s, "warp types  {} of {} warps", percentages(&r.warps.types.shares()), r.warps.count);
    let _ = writeln!(s, "hit ratios  {:?} (warps per 10 % bin of L2 hit ratio)", r.warps.l2_hit_ratio_histogram);
    let _ = writeln!(
        s,
        "L2 reads    by MeDiC's type for their warp when routed: {}",
        percentages(&r.warps.l2_reads_by_type.shares())
    );
    if let Some(t) = &r.trace {
        let _ = writeln!(s, "trace       {} kernel files, {} warp instructions read", t.kernels.len(), t.instructions);
        for o in &t.opcodes {
            let _ = writeln!(s, "  {:<22} {:>12}  {:?}", o.opcode, o.count, o.treatment);
        }
    }
    s
}

/// "name 12 %, name 3 %, ..." from fractions.
fn percentages(shares: &[(&str, f64)]) -> String {
    shares.iter().map(|(name, f)| format!("{name} {:.0} %", f * 100.0)).collect::<Vec<_>>().join(", ")
}
