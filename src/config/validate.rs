//! Validation of a parsed config into typed errors that name the field.

use super::{Config, SetIndexKind, WritePolicy};
use crate::cache::SetIndex;
use crate::mem::WARP_SIZE;
use crate::settings::{Checker, ConfigError, ConfigErrors};

/// The checks only the config's own validation makes.
impl Checker {
    fn freq(&mut self, field: &str, v: f64) {
        if !(v.is_finite() && (1.0..=100_000.0).contains(&v)) {
            self.0.push(ConfigError::new(field, format!("{v} MHz is outside 1..=100000 MHz")));
        }
    }
    /// Returns the set count when the geometry is consistent.
    fn geometry(&mut self, prefix: &str, size_bytes: u64, ways: u32, line: u32, parts: u64) -> Option<u32> {
        self.pow2(&format!("{prefix}.line_bytes"), line as u64);
        self.positive(&format!("{prefix}.ways"), ways as u64);
        let unit = ways as u64 * line as u64 * parts;
        if unit == 0 {
            return None;
        }
        let sets = size_bytes / unit;
        if sets == 0 || sets * unit != size_bytes || !sets.is_power_of_two() {
            self.0.push(ConfigError::new(
                format!("{prefix}.size_kb"),
                format!(
                    "{} KB is not sets x ways x line{} with a power-of-two set count ({} ways x {} B lines{} gives {} sets); {}",
                    size_bytes / 1024,
                    if parts > 1 { " x slices" } else { "" },
                    ways,
                    line,
                    if parts > 1 { format!(" x {parts} slices") } else { String::new() },
                    trim_sets(size_bytes as f64 / unit as f64),
                    nearest_sizes(size_bytes, unit)
                ),
            ));
            return None;
        }
        u32::try_from(sets).ok().filter(|_| line.is_power_of_two())
    }
    /// Whether the set-index function serves the set count (of a consistent geometry).
    fn set_index(&mut self, field: &str, kind: SetIndexKind, sets: Option<u32>, line: u32, how: &str) {
        let Some(sets) = sets else { return };
        if let Err(e) = SetIndex::new(kind, sets, line) {
            self.0.push(ConfigError::new(field, format!("{e} ({how})")));
        }
    }
}

/// A set count to two decimals at most (43690.67, not 43690.666666666664).
fn trim_sets(sets: f64) -> String {
    let s = format!("{sets:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The valid sizes nearest `size_bytes` for this geometry (`unit` bytes per set), in KB.
fn nearest_sizes(size_bytes: u64, unit: u64) -> String {
    let sets = (size_bytes / unit).max(1);
    let below = 1u64 << (63 - sets.leading_zeros());
    let kb = |sets: u64| sets.saturating_mul(unit) as f64 / 1024.0;
    let show = |x: f64| if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x}") };
    let above = below.saturating_mul(2);
    if below * unit == size_bytes || size_bytes < unit {
        format!("the nearest valid size is {} KB", show(kb(if size_bytes < unit { 1 } else { above })))
    } else {
        format!("the nearest valid sizes are {} KB and {} KB", show(kb(below)), show(kb(above)))
    }
}

/// The latencies longer than a quarter of `stats.watchdog_cycles` (in core cycles), in words:
/// a machine that waits that long between two signs of progress (a miss's ROP, DRAM path and
/// timings add up) trips the watchdog though it is only slow, and the watchdog's error says so.
pub fn latencies_past_watchdog(c: &Config) -> Vec<String> {
    let ck = &c.clocks;
    let t = &c.dram.timing;
    let limit = c.stats.watchdog_cycles / 4;
    let fields: [(&str, u32, f64); 10] = [
        ("core.alu_latency", c.core.alu_latency, ck.core_mhz),
        ("l1d.hit_latency", c.l1d.hit_latency, ck.core_mhz),
        ("icnt.latency", c.icnt.latency, ck.icnt_mhz),
        ("l2.tag_latency", c.l2.tag_latency, ck.l2_mhz),
        ("l2.rop_latency", c.l2.rop_latency, ck.l2_mhz),
        ("l2.dram_latency", c.l2.dram_latency, ck.l2_mhz),
        ("dram.timing.t_rc", t.t_rc, ck.dram_mhz),
        ("dram.timing.t_rfc", t.t_rfc, ck.dram_mhz),
        ("dram.timing.t_faw", t.t_faw, ck.dram_mhz),
        ("dram.coordination_latency", c.dram.coordination_latency, ck.dram_mhz),
    ];
    fields
        .into_iter()
        .filter(|&(_, cycles, mhz)| mhz > 0.0 && cycles as f64 * ck.core_mhz / mhz > limit as f64)
        .map(|(field, cycles, _)| format!("{field} = {cycles}"))
        .collect()
}

/// The `sample` section: windows measure something, enough of them for an interval, and
/// not more than a run could place apart.
fn sample(k: &mut Checker, c: &Config) {
    let s = &c.sample;
    k.at_most("sample.windows", s.windows as u64, 10_000, "simulator limit; 20 to 100 is the useful range");
    if s.windows == 1 {
        // One window's spread is unknown, so its estimates could carry no interval.
        k.0.push(ConfigError::new(
            "sample.windows",
            "1 window gives estimates with no interval: use 0 (a whole run) or at least 2 (20 to 100 is the useful range)",
        ));
    }
    if s.windows > 0 {
        k.positive("sample.measure_cycles", s.measure_cycles);
    }
}

/// The `medic` section, and bypasses that need DRAM to hold every line's data.
fn medic(k: &mut Checker, c: &Config) {
    let m = &c.medic;
    k.positive("medic.reset_interval", m.reset_interval);
    k.positive("medic.profile_accesses", m.profile_accesses as u64);
    if !(2..=16).contains(&m.counter_bits) {
        k.0.push(ConfigError::new("medic.counter_bits", format!("{} is outside 2..=16", m.counter_bits)));
    }
    let top_bit = 1u64 << (m.counter_bits.clamp(2, 16) - 1);
    if m.profile_accesses as u64 >= top_bit {
        k.0.push(ConfigError::new(
            "medic.profile_accesses",
            format!("must be below {top_bit}, 2^(counter_bits-1), where the counters halve"),
        ));
    }
    for (field, v) in [
        ("medic.mostly_hit_ratio", m.mostly_hit_ratio),
        ("medic.mostly_miss_ratio", m.mostly_miss_ratio),
        ("medic.boundary_step", m.boundary_step),
    ] {
        k.fraction(field, v);
    }
    if m.mostly_miss_ratio >= m.mostly_hit_ratio {
        k.0.push(ConfigError::new(
            "medic.mostly_miss_ratio",
            format!("{} must be below medic.mostly_hit_ratio ({})", m.mostly_miss_ratio, m.mostly_hit_ratio),
        ));
    }
    k.at_most("medic.sampled_warps", m.sampled_warps as u64, 1024, "report size limit");
    crate::cache::l2::bypass::check_params(&c.l2, k);
    let to_dram = c.l2.bypass.sends_reads_to_dram();
    if to_dram && c.l2.dram_queue < 2 {
        k.0.push(ConfigError::new(
            "l2.dram_queue",
            format!(
                "`{}` needs at least 2 entries (bypassed reads leave the last one to the banks)",
                c.l2.bypass.as_str()
            ),
        ));
    }
    // The MeDiC authors bypassed over GPGPU-Sim's write-back L2 (`write_back_fetch`), whose
    // data values are not modelled; a write-back L2 that allocates store misses without their
    // line is refused, as DRAM would lack the data of every line a store allocated.
    if to_dram && c.l2.write_policy == WritePolicy::WriteBack {
        k.0.push(ConfigError::new(
            "l2.bypass",
            format!(
                "`{}` sends reads straight to DRAM, which needs l2.write_policy = write_through or write_back_fetch (this write-back L2 may hold lines DRAM never had)",
                c.l2.bypass.as_str()
            ),
        ));
    }
}

/// Checks the relations serde cannot: sizes, geometry, queue capacities, watermarks.
pub fn validate(c: &Config) -> Result<(), ConfigErrors> {
    let mut k = Checker(Vec::new());
    k.freq("clocks.core_mhz", c.clocks.core_mhz);
    k.freq("clocks.icnt_mhz", c.clocks.icnt_mhz);
    k.freq("clocks.l2_mhz", c.clocks.l2_mhz);
    k.freq("clocks.dram_mhz", c.clocks.dram_mhz);

    let co = &c.core;
    k.positive("core.num_sms", co.num_sms as u64);
    k.at_most("core.num_sms", co.num_sms as u64, 1024, "simulator limit");
    k.positive("core.max_warps_per_sm", co.max_warps_per_sm as u64);
    k.at_most("core.max_warps_per_sm", co.max_warps_per_sm as u64, 1024, "simulator limit");
    k.positive("core.max_threads_per_sm", co.max_threads_per_sm as u64);
    k.positive("core.max_ctas_per_sm", co.max_ctas_per_sm as u64);
    k.at_most("core.max_ctas_per_sm", co.max_ctas_per_sm as u64, 1024, "simulator limit");
    k.at_most("core.max_threads_per_sm", co.max_threads_per_sm as u64, 1 << 16, "simulator limit");
    k.positive("core.schedulers_per_sm", co.schedulers_per_sm as u64);
    k.at_most(
        "core.schedulers_per_sm",
        co.schedulers_per_sm as u64,
        co.max_warps_per_sm.max(1) as u64,
        "more schedulers than warps",
    );
    k.positive("core.alu_latency", co.alu_latency as u64);
    k.positive("core.ldst_queue", co.ldst_queue as u64);
    crate::core::sched::check_params(co, &mut k);

    let l1 = &c.l1d;
    let l1_sets = k.geometry("l1d", l1.size_kb as u64 * 1024, l1.ways, l1.line_bytes, 1);
    k.at_most("l1d.line_bytes", l1.line_bytes as u64, 4096, "lines larger than a page are not modelled");
    k.at_most("l1d.size_kb", l1.size_kb as u64, 1 << 16, "64 MB simulator limit");
    k.at_most("l1d.ways", l1.ways as u64, 64, "simulator limit");
    k.set_index("l1d.set_index", l1.set_index, l1_sets, l1.line_bytes, "sets = size_kb / (ways x line_bytes)");
    k.positive("l1d.mshrs", l1.mshrs as u64);
    k.at_most("l1d.mshrs", l1.mshrs as u64, 1 << 16, "simulator limit");
    k.positive("l1d.mshr_merge", l1.mshr_merge as u64);
    k.positive("l1d.miss_queue", l1.miss_queue as u64);
    k.positive("l1d.hit_latency", l1.hit_latency as u64);
    if let Some(n) = l1.bypass_slots.0 {
        k.positive("l1d.bypass_slots", n as u64);
    }
    if (l1.mrpb_queue as usize) < WARP_SIZE {
        k.0.push(ConfigError::new(
            "l1d.mrpb_queue",
            format!(
                "{} is below {WARP_SIZE}: a warp's queue must hold one warp-load's requests (one per lane), or MRPB never issues it",
                l1.mrpb_queue
            ),
        ));
    }
    k.at_most("l1d.mrpb_queue", l1.mrpb_queue as u64, 1 << 16, "simulator limit");
    k.positive("l1d.mdb_interval", l1.mdb_interval as u64);
    k.positive("l1d.vta_entries", l1.vta_entries as u64);
    k.at_most("l1d.vta_entries", l1.vta_entries as u64, 4096, "simulator limit");

    let ic = &c.icnt;
    k.positive("icnt.latency", ic.latency as u64);
    k.pow2("icnt.flit_bytes", ic.flit_bytes as u64);
    k.positive("icnt.nodes_per_partition", ic.nodes_per_partition as u64);
    k.at_most("icnt.nodes_per_partition", ic.nodes_per_partition as u64, 64, "simulator limit");
    k.at_most("icnt.header_bytes", ic.header_bytes as u64, 1024, "simulator limit");
    let max_bytes = c.l1d.line_bytes.max(c.l2.line_bytes) as u64 + ic.header_bytes as u64;
    let max_packet = max_bytes.div_ceil(ic.flit_bytes.max(1) as u64);
    if (ic.input_buffer_flits as u64) < max_packet {
        k.0.push(ConfigError::new(
            "icnt.input_buffer_flits",
            format!("must hold one full packet ({max_packet} flits)"),
        ));
    }
    if (ic.output_buffer_flits as u64) < max_packet {
        k.0.push(ConfigError::new(
            "icnt.output_buffer_flits",
            format!("must hold one full packet ({max_packet} flits)"),
        ));
    }

    let l2 = &c.l2;
    let parts = c.mem.partitions as u64 * l2.banks_per_partition as u64;
    k.positive("mem.partitions", c.mem.partitions as u64);
    k.at_most("mem.partitions", c.mem.partitions as u64, 256, "simulator limit");
    k.positive("l2.banks_per_partition", l2.banks_per_partition as u64);
    let l2_sets = (parts > 0).then(|| k.geometry("l2", l2.size_kb as u64 * 1024, l2.ways, l2.line_bytes, parts));
    let how = "sets per bank = size_kb / (mem.partitions x banks_per_partition x ways x line_bytes)";
    k.set_index("l2.set_index", l2.set_index, l2_sets.flatten(), l2.line_bytes, how);
    if l2.line_bytes != l1.line_bytes {
        k.0.push(ConfigError::new("l2.line_bytes", format!("must equal l1d.line_bytes ({})", l1.line_bytes)));
    }
    k.at_most("l2.size_kb", l2.size_kb as u64, 1 << 20, "1 GB simulator limit");
    k.at_most("l2.ways", l2.ways as u64, 64, "simulator limit");
    k.at_most("l2.banks_per_partition", l2.banks_per_partition as u64, 64, "simulator limit");
    k.positive("l2.ports", l2.ports as u64);
    k.at_most("l2.ports", l2.ports as u64, 64, "simulator limit");
    k.positive("l2.reply_ports", l2.reply_ports as u64);
    k.at_most("l2.reply_ports", l2.reply_ports as u64, 64, "simulator limit");
    k.at_most("l2.mshrs", l2.mshrs as u64, 1 << 16, "simulator limit");
    k.positive("l2.bank_queue", l2.bank_queue as u64);
    k.positive("l2.tag_latency", l2.tag_latency as u64);
    k.positive("l2.pipeline_stages", l2.pipeline_stages as u64);
    k.at_most("l2.pipeline_stages", l2.pipeline_stages as u64, 1024, "simulator limit");
    if l2.pipeline_stages > l2.tag_latency {
        let msg =
            format!("{} stages exceed the {}-cycle l2.tag_latency they split", l2.pipeline_stages, l2.tag_latency);
        k.0.push(ConfigError::new("l2.pipeline_stages", msg));
    }
    k.positive("l2.bank_ports", l2.bank_ports as u64);
    k.at_most("l2.bank_ports", l2.bank_ports as u64, 64, "simulator limit");
    k.at_most("l2.rop_latency", l2.rop_latency as u64, 10_000, "simulator limit");
    k.at_most("l2.dram_latency", l2.dram_latency as u64, 10_000, "simulator limit");
    k.positive("l2.data_port_bytes", l2.data_port_bytes as u64);
    k.positive("l2.mshrs", l2.mshrs as u64);
    k.positive("l2.mshr_merge", l2.mshr_merge as u64);
    k.positive("l2.dram_queue", l2.dram_queue as u64);
    if l2.write_policy == WritePolicy::WriteBackFetch && l2.dram_queue < 2 {
        let msg = "must hold at least 2 requests under write_back_fetch (a store miss sends its store and a fetch)";
        k.0.push(ConfigError::new("l2.dram_queue", msg));
    }
    k.positive("l2.return_queue", l2.return_queue as u64);
    k.positive("l2.vta_entries", l2.vta_entries as u64);
    k.at_most("l2.vta_entries", l2.vta_entries as u64, 4096, "simulator limit");

    let d = &c.dram;
    k.pow2("dram.banks", d.banks as u64);
    k.at_most("dram.banks", d.banks as u64, 64, "simulator limit");
    k.pow2("dram.bank_groups", d.bank_groups as u64);
    if d.bank_groups > d.banks {
        k.0.push(ConfigError::new(
            "dram.bank_groups",
            format!("{} bank groups exceed {} banks", d.bank_groups, d.banks),
        ));
    }
    k.pow2("dram.row_bytes", d.row_bytes as u64);
    k.pow2("dram.burst_bytes", d.burst_bytes as u64);
    if d.row_bytes < l2.line_bytes {
        k.0.push(ConfigError::new("dram.row_bytes", format!("must hold at least one {} B line", l2.line_bytes)));
    }
    k.positive("dram.read_queue", d.read_queue as u64);
    k.positive("dram.write_queue", d.write_queue as u64);
    k.positive("dram.command_queue", d.command_queue as u64);
    if d.write_high_watermark > d.write_queue {
        k.0.push(ConfigError::new(
            "dram.write_high_watermark",
            format!("{} exceeds dram.write_queue ({})", d.write_high_watermark, d.write_queue),
        ));
    }
    if d.write_low_watermark >= d.write_high_watermark {
        k.0.push(ConfigError::new(
            "dram.write_low_watermark",
            format!("{} must be below dram.write_high_watermark ({})", d.write_low_watermark, d.write_high_watermark),
        ));
    }
    let t = &d.timing;
    for (name, v) in [
        ("t_rcd", t.t_rcd),
        ("t_rp", t.t_rp),
        ("t_ras", t.t_ras),
        ("t_rc", t.t_rc),
        ("t_cl", t.t_cl),
        ("t_wl", t.t_wl),
        ("t_burst", t.t_burst),
        ("t_ccds", t.t_ccds),
        ("t_ccdl", t.t_ccdl),
    ] {
        k.positive(&format!("dram.timing.{name}"), v as u64);
    }
    if t.t_rc < t.t_ras {
        k.0.push(ConfigError::new("dram.timing.t_rc", format!("{} is below t_ras ({})", t.t_rc, t.t_ras)));
    }
    if t.t_refi > 0 && t.t_rfc >= t.t_refi {
        k.0.push(ConfigError::new("dram.timing.t_rfc", format!("{} must be below t_refi ({})", t.t_rfc, t.t_refi)));
    }
    medic(&mut k, c);
    sample(&mut k, c);
    k.positive("dram.age_threshold", d.age_threshold as u64);
    k.positive("dram.max_row_hit_streak", d.max_row_hit_streak as u64);
    k.positive("dram.coordination_latency", d.coordination_latency as u64);
    crate::dram::sched::check_params(d, &mut k);
    k.positive("stats.sample_interval", c.stats.sample_interval);
    k.positive("stats.watchdog_cycles", c.stats.watchdog_cycles);

    let co = &c.coordinated;
    for (field, v) in [("coordinated.high_thres", co.high_thres), ("coordinated.low_thres", co.low_thres)] {
        if !(0.0..=1.0).contains(&v) {
            k.0.push(ConfigError::new(field, format!("{v} is not a share between 0 and 1")));
        }
    }
    if co.low_thres > co.high_thres {
        k.0.push(ConfigError::new(
            "coordinated.low_thres",
            format!("{} exceeds coordinated.high_thres ({})", co.low_thres, co.high_thres),
        ));
    }

    if k.0.is_empty() {
        Ok(())
    } else {
        Err(ConfigErrors(k.0))
    }
}
