//! The run report: every metric under a stable dotted key (docs/report-keys.md),
//! with the unit and clock domain of each in `units`.

use super::warps::{warp_report, WarpReport};
use super::Histogram;
use crate::cache::l1::bypass::BypassReport;
use crate::cache::l1::{L1Stats, RsFailCounts};
use crate::cache::l2::{L2RsFail, L2Stats};
use crate::cache::vta::MissClassCounts;
use crate::clock::{CORE, DRAM, ICNT};
use crate::config::Config;
use crate::core::latency::TripReport;
use crate::icnt::Crossbar;
use crate::sim::{LaunchRecord, Series, Simulator};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub version: &'static str,
    pub kernel: String,
    pub size: &'static str,
    pub seed: u64,
    /// False when the run was cut short (`--max-cycles`) or stopped by an error.
    pub completed: bool,
    pub error: Option<String>,
    pub cycles: u64,
    pub simulated_ns: f64,
    pub warp_instructions: u64,
    pub ipc: f64,
    pub launches: Vec<LaunchRecord>,
    pub core: CoreReport,
    pub l1d: L1Report,
    pub l2: L2Report,
    pub dram: DramReport,
    pub partitions: PartitionReport,
    pub icnt: IcntReport,
    pub latency: LatencyReport,
    pub warps: WarpReport,
    /// Coordinated L1 bypassing, when `l1d.bypass` tags loads or thread blocks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bypass: Option<BypassReport>,
    /// A replayed trace: its files and how each opcode was treated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<crate::trace::TraceReport>,
    pub series: Series,
    pub units: BTreeMap<&'static str, &'static str>,
    pub config: Config,
}

#[derive(Debug, Clone, Serialize)]
pub struct CoreReport {
    pub sms: u32,
    pub ctas: u64,
    pub loads: u64,
    pub stores: u64,
    pub requests: u64,
    pub requests_per_load: f64,
    pub l1_stall_cycles: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct L1Report {
    pub accesses: u64,
    pub hits: u64,
    pub pending_hits: u64,
    pub misses: u64,
    pub miss_rate: f64,
    pub hit_rate: f64,
    pub mpki: f64,
    pub stores: u64,
    pub reservation_fails: u64,
    pub rsfail_by_cause: RsFailCounts,
    pub rsfail_per_access: f64,
    /// Loads sent around the L1 (`.cg` or the bypass policy's choice).
    pub bypassed: u64,
    /// Bypasses refused because every bypass slot was taken.
    pub bypass_rsfail: u64,
    pub avg_bypass_in_flight: f64,
    /// MPKI of the misses that sent a request, by cause (pending hits are not classified).
    pub miss_classes: MissClassMpki,
}

/// Misses per 1000 warp instructions by cause, from the per-warp victim tags.
#[derive(Debug, Clone, Serialize)]
pub struct MissClassMpki {
    /// The warp's own allocations had evicted the line.
    pub intra_warp: f64,
    /// Another warp's allocation had evicted the line.
    pub inter_warp: f64,
    /// Not in the warp's victim tags: compulsory, capacity or shared data.
    pub other: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct L2Report {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    pub miss_rate: f64,
    /// The miss rate with each bypassed read counted as a miss: the share of requests the L2
    /// did not serve, which is how MeDiC's comparison with Rand counts (bypassing raises it).
    pub miss_rate_with_bypass: f64,
    pub mpki: f64,
    pub reads: u64,
    pub read_hits: u64,
    pub pending_hits: u64,
    pub writes: u64,
    pub write_hits: u64,
    pub writebacks: u64,
    /// Lines fetched for store misses (`l2.write_policy = write_back_fetch`).
    pub write_fetches: u64,
    /// DRAM returns the banks took (one per missed line however many reads merged into it;
    /// bypassed reads pass by), and valid lines that fills or allocating stores evicted.
    pub fills: u64,
    pub evictions: u64,
    /// Reads the bypass policy sent from the partition's port straight to DRAM.
    pub bypassed: u64,
    /// Requests that looked up the L2 without being allowed to allocate.
    pub no_allocate: u64,
    pub reservation_fails: L2RsFail,
    pub avg_queue_latency: f64,
    pub queue_latency_histogram: Histogram,
    /// MPKI of the read misses sent to DRAM, by cause (pending hits are not classified).
    pub miss_classes: MissClassMpki,
}

#[derive(Debug, Clone, Serialize)]
pub struct DramReport {
    pub reads: u64,
    pub writes: u64,
    pub activates: u64,
    pub row_buffer_hit_rate: f64,
    pub bandwidth_utilization: f64,
    pub avg_read_latency: f64,
    pub avg_read_latency_ns: f64,
    pub write_intensity: f64,
    pub bandwidth_utilization_per_channel: Vec<f64>,
    /// Over warp-loads with a DRAM-served request: channels and banks those requests used.
    pub channels_per_warp_load: f64,
    pub banks_per_warp_load: f64,
    /// WG-M coordination messages delivered between controllers.
    pub coordination_messages: u64,
}

/// The two crossbars: SMs to partition ports, and partition reply ports back to the SMs.
#[derive(Debug, Clone, Serialize)]
pub struct IcntReport {
    pub request: NetReport,
    pub reply: NetReport,
}

#[derive(Debug, Clone, Serialize)]
pub struct NetReport {
    pub packets: u64,
    pub flits: u64,
    /// Flits over injection-link cycles: how busy the sources' links were on average.
    pub link_utilization: f64,
    pub ejection_full_cycles: u64,
}

impl NetReport {
    fn of(net: &Crossbar, icnt_cycles: f64) -> Self {
        let s = &net.stats;
        let link_cycles = icnt_cycles * net.sources() as f64;
        Self {
            packets: s.packets,
            flits: s.flits,
            link_utilization: if link_cycles > 0.0 { s.flits as f64 / link_cycles } else { 0.0 },
            ejection_full_cycles: s.ejection_full_cycles,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PartitionReport {
    pub requests: Vec<u64>,
    /// The busiest partition's share over the mean share (1 = perfectly even).
    pub max_over_mean: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct LatencyReport {
    pub warp_loads: u64,
    pub avg_warp_load_latency: f64,
    /// The same over warp-loads DRAM served at least one request of.
    pub avg_dram_warp_load_latency: f64,
    pub avg_memory_latency: f64,
    pub avg_divergence: f64,
    pub avg_dram_divergence: f64,
    pub inter_bank_divergence: f64,
    pub avg_channels_per_warp_load: f64,
    pub warp_load_latency_histogram: Histogram,
    pub divergence_histogram: Histogram,
    pub dram_divergence_histogram: Histogram,
    pub inter_bank_divergence_histogram: Histogram,
    pub memory_latency_histogram: Histogram,
    /// Where the time of reads the L2 served went, stage by stage.
    pub trip_l2_hit: TripReport,
    /// The same for reads DRAM served (L2 misses and bypassed reads).
    pub trip_dram: TripReport,
}

fn bypass_report(sim: &Simulator) -> Option<BypassReport> {
    sim.sms.first()?.l1.bypass.report()
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

fn units() -> BTreeMap<&'static str, &'static str> {
    [
        ("cycles", "core cycles"),
        ("simulated_ns", "nanoseconds"),
        ("ipc", "warp instructions per core cycle (whole GPU)"),
        ("launches.start_cycle", "core cycles"),
        ("core.l1_stall_cycles", "core cycles, summed over SMs"),
        ("l1d.mpki", "L1 misses per 1000 warp instructions"),
        ("l1d.rsfail_per_access", "reservation failures per accepted L1 access"),
        ("l1d.avg_bypass_in_flight", "bypassed requests in flight per SM, averaged over core cycles"),
        ("l1d.miss_classes", "L1 misses per 1000 warp instructions, by cause (per-warp victim tags)"),
        ("l2.mpki", "L2 read misses per 1000 warp instructions"),
        ("l2.miss_classes", "L2 read misses per 1000 warp instructions, by cause (per-warp victim tags)"),
        ("l2.avg_queue_latency", "L2 cycles (arrival at the partition to tag lookup)"),
        ("l2.queue_latency_histogram", "L2 cycles"),
        ("dram.avg_read_latency", "DRAM command cycles (arrival at the controller to last data beat)"),
        ("dram.avg_read_latency_ns", "nanoseconds"),
        ("dram.bandwidth_utilization", "fraction of DRAM cycles the data bus carried data"),
        ("dram.row_buffer_hit_rate", "fraction of column accesses that found their row open"),
        ("dram.write_intensity", "fraction of DRAM accesses that were writes"),
        ("dram.channels_per_warp_load", "DRAM channels a warp-load's DRAM-served requests used"),
        ("dram.banks_per_warp_load", "DRAM banks (channel, bank) a warp-load's DRAM-served requests used"),
        ("dram.coordination_messages", "WG-M (warp, score) messages delivered between controllers"),
        ("partitions.requests", "requests arrived from the SMs per partition"),
        ("icnt.request.link_utilization", "flits / (icnt cycles x SM injection links)"),
        ("icnt.reply.link_utilization", "flits / (icnt cycles x partition reply ports)"),
        ("icnt.request.ejection_full_cycles", "icnt cycles, summed over partition ports"),
        ("icnt.reply.ejection_full_cycles", "icnt cycles, summed over SMs"),
        ("l2.fills", "DRAM returns taken by the banks (bypassed reads not counted)"),
        ("l2.evictions", "valid lines replaced by fills or allocating stores"),
        ("latency.avg_warp_load_latency", "core cycles (load issue to its last request back)"),
        (
            "latency.avg_dram_warp_load_latency",
            "core cycles (the same over warp-loads with at least one request DRAM served)",
        ),
        ("latency.avg_memory_latency", "core cycles (request leaves the SM to data back)"),
        ("latency.avg_divergence", "core cycles (last minus first return, warp-loads of >= 2 requests)"),
        ("latency.avg_dram_divergence", "core cycles (the same over DRAM-served requests, >= 2 of them)"),
        ("latency.inter_bank_divergence", "core cycles (slowest minus fastest hit of all-L2-hit warp-loads)"),
        ("latency.*_histogram", "core cycles"),
        ("latency.trip_l2_hit.reads", "reads that left the SM and hit in the L2"),
        ("latency.trip_dram.reads", "reads that left the SM and DRAM served (L2 misses and bypassed reads)"),
        (
            "latency.trip_*.*",
            "mean core cycles per read in each stage: request_net, port_wait (at the partition port for room in a bank queue or the DRAM queue), l2_queue (bank queue), l2_or_dram (tag lookup, or L2 miss handling and DRAM), reply_queue (waiting for a reply port), reply_net, sm_eject (in the SM's ejection buffer); they add up to the read's latency",
        ),
        ("warps.l2_hit_ratio_histogram", "warps per 10 % bin of per-warp L2 hit ratio"),
        ("warps.types", "fraction of warps with at least one L2 read"),
        ("warps.hit_ratio_series.window_cycles", "core cycles (medic.reset_interval)"),
        ("warps.hit_ratio_series.hit_ratio", "L2 read hits / L2 reads of the warp within each window"),
        (
            "warps.l2_reads_by_type",
            "fraction of L2 reads (looked up or bypassed) by the type the reading warp held when routed (profiling: not yet typed)",
        ),
        ("warps.type_stability", "fraction of consecutive fully profiled windows in which a warp kept its type"),
        ("warps.mostly_miss_boundary", "L2 hit ratio at or below which a warp counted as mostly-miss at the end"),
        ("l2.bypassed", "reads sent straight to DRAM by l2.bypass"),
        ("l2.miss_rate_with_bypass", "(misses + bypassed reads) / (accesses + bypassed reads)"),
        ("series.cycle", "core cycles"),
        ("bypass.tb_bg_series.cycle", "core cycles"),
        ("bypass.tb_bg_series.tb_bg", "thread blocks per SM tagged bg (their cm loads bypass the L1)"),
        ("series.ipc", "warp instructions per core cycle within each window"),
    ]
    .into_iter()
    .collect()
}

pub fn build_report(sim: &Simulator) -> Report {
    let cfg = sim.config();
    // Statistics cover the whole run, or a sampled window's measurement.
    let (cycles, dram_cycles) = sim.measured_cycles();
    let wi = sim.warp_instructions();
    let kilo = wi as f64 / 1000.0;
    let per_k = |n: u64| if kilo == 0.0 { 0.0 } else { n as f64 / kilo };
    let classes = |c: &MissClassCounts| MissClassMpki {
        intra_warp: per_k(c.intra_warp),
        inter_warp: per_k(c.inter_warp),
        other: per_k(c.other),
    };

    let mut l1 = L1Stats::default();
    let mut core = CoreReport {
        sms: cfg.core.num_sms,
        ctas: 0,
        loads: 0,
        stores: 0,
        requests: 0,
        requests_per_load: 0.0,
        l1_stall_cycles: 0,
    };
    for sm in &sim.sms {
        l1.merge(&sm.l1.stats);
        core.ctas += sm.stats.ctas_completed;
        core.loads += sm.stats.loads;
        core.stores += sm.stats.stores;
        core.requests += sm.stats.requests;
        core.l1_stall_cycles += sm.stats.l1_stall_cycles;
    }
    core.requests_per_load = ratio(core.requests, core.loads + core.stores);
    let l1_misses = l1.misses + l1.pending_hits;
    let l1d = L1Report {
        accesses: l1.accesses,
        hits: l1.hits,
        pending_hits: l1.pending_hits,
        misses: l1_misses,
        miss_rate: ratio(l1_misses, l1.accesses),
        hit_rate: ratio(l1.hits, l1.accesses),
        mpki: per_k(l1_misses),
        stores: l1.stores,
        reservation_fails: l1.rsfail.total(),
        rsfail_by_cause: l1.rsfail,
        rsfail_per_access: ratio(l1.rsfail.total(), l1.accesses + l1.stores + l1.bypassed),
        bypassed: l1.bypassed,
        bypass_rsfail: l1.rsfail.bypass_slot,
        avg_bypass_in_flight: ratio(l1.bypass_in_flight_cycles, cycles * cfg.core.num_sms as u64),
        miss_classes: classes(&l1.miss_classes),
    };

    let mut l2s = L2Stats::default();
    for part in &sim.partitions {
        l2s.merge(&part.stats);
    }
    let l2_misses = l2s.accesses() - l2s.hits();
    let l2 = L2Report {
        accesses: l2s.accesses(),
        hits: l2s.hits(),
        misses: l2_misses,
        miss_rate: ratio(l2_misses, l2s.accesses()),
        miss_rate_with_bypass: ratio(l2_misses + l2s.bypassed, l2s.accesses() + l2s.bypassed),
        mpki: per_k(l2s.read_misses + l2s.pending_hits),
        reads: l2s.reads,
        read_hits: l2s.read_hits,
        pending_hits: l2s.pending_hits,
        writes: l2s.writes,
        write_hits: l2s.write_hits,
        writebacks: l2s.writebacks,
        write_fetches: l2s.write_fetches,
        fills: l2s.fills,
        evictions: l2s.evictions,
        bypassed: l2s.bypassed,
        no_allocate: l2s.no_allocate,
        reservation_fails: l2s.rsfail,
        avg_queue_latency: l2s.queue_latency.mean(),
        queue_latency_histogram: l2s.queue_latency.clone(),
        miss_classes: classes(&l2s.miss_classes),
    };

    let dram_cycles = dram_cycles.max(1);
    let mut d = crate::dram::DramStats::default();
    let mut per_channel = Vec::new();
    for part in &sim.partitions {
        let s = part.dram.stats();
        d.reads += s.reads;
        d.writes += s.writes;
        d.row_hits += s.row_hits;
        d.row_misses += s.row_misses;
        d.activates += s.activates;
        d.data_bus_busy += s.data_bus_busy;
        d.read_latency_sum += s.read_latency_sum;
        per_channel.push(ratio(s.data_bus_busy, dram_cycles));
    }
    let dram = DramReport {
        reads: d.reads,
        writes: d.writes,
        activates: d.activates,
        row_buffer_hit_rate: ratio(d.row_hits, d.row_hits + d.row_misses),
        bandwidth_utilization: ratio(d.data_bus_busy, dram_cycles * sim.partitions.len() as u64),
        avg_read_latency: ratio(d.read_latency_sum, d.reads),
        avg_read_latency_ns: ratio(d.read_latency_sum, d.reads) * sim.clocks.period_ns(DRAM),
        write_intensity: ratio(d.writes, d.reads + d.writes),
        bandwidth_utilization_per_channel: per_channel,
        channels_per_warp_load: sim.loads.dram_channels_per_warp_load.mean(),
        banks_per_warp_load: sim.loads.dram_banks_per_warp_load.mean(),
        coordination_messages: sim.coord.delivered,
    };

    let requests: Vec<u64> = sim.partitions.iter().map(|p| p.requests).collect();
    let total: u64 = requests.iter().sum();
    let max = requests.iter().copied().max().unwrap_or(0);
    let partitions = PartitionReport {
        max_over_mean: if total == 0 { 0.0 } else { max as f64 * requests.len() as f64 / total as f64 },
        requests,
    };

    let icnt_cycles = cycles as f64 * sim.clocks.period_ns(CORE) / sim.clocks.period_ns(ICNT);
    let icnt = IcntReport {
        request: NetReport::of(&sim.req_net, icnt_cycles),
        reply: NetReport::of(&sim.reply_net, icnt_cycles),
    };

    let ls = &sim.loads;
    let latency = LatencyReport {
        warp_loads: ls.warp_loads,
        avg_warp_load_latency: ls.warp_load_latency.mean(),
        avg_dram_warp_load_latency: ls.dram_warp_load_latency.mean(),
        avg_memory_latency: ls.request_latency.mean(),
        avg_divergence: ls.divergence.mean(),
        avg_dram_divergence: ls.dram_divergence.mean(),
        inter_bank_divergence: ls.inter_bank_divergence.mean(),
        avg_channels_per_warp_load: ls.channels_per_warp_load.mean(),
        warp_load_latency_histogram: ls.warp_load_latency.clone(),
        divergence_histogram: ls.divergence.clone(),
        dram_divergence_histogram: ls.dram_divergence.clone(),
        inter_bank_divergence_histogram: ls.inter_bank_divergence.clone(),
        memory_latency_histogram: ls.request_latency.clone(),
        trip_l2_hit: ls.trip_l2_hit.report(),
        trip_dram: ls.trip_dram.report(),
    };

    Report {
        version: env!("CARGO_PKG_VERSION"),
        kernel: sim.benchmark().name.clone(),
        size: sim.benchmark().size_name(),
        seed: sim.seed(),
        completed: sim.is_finished(),
        error: sim.error().map(|e| e.to_string()),
        cycles,
        simulated_ns: cycles as f64 * sim.clocks.period_ns(CORE),
        warp_instructions: wi,
        ipc: ratio(wi, cycles),
        launches: sim.launches.clone(),
        core,
        l1d,
        l2,
        dram,
        partitions,
        icnt,
        latency,
        warps: warp_report(&sim.warp_l2, &sim.l2_shared.table, cfg.medic.sampled_warps as usize),
        bypass: bypass_report(sim),
        trace: crate::trace::TraceReport::of(sim.benchmark()),
        series: sim.series.clone(),
        units: units(),
        config: cfg.clone(),
    }
}
