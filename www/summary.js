// The numbers the summary table shows for a run, read once from its report JSON.

export function summarize(reportJson) {
  const r = JSON.parse(reportJson);
  if (r.estimate) return estimated(r);
  return {
    cycles: r.cycles,
    ipc: r.ipc,
    completed: r.completed,
    error: r.error,
    l1: r.l1d.miss_rate,
    l1hit: r.l1d.hit_rate,
    // Cycles an SM's LD/ST unit was refused by its L1, over all SMs' cycles.
    l1stall: r.cycles > 0 ? r.core.l1_stall_cycles / (r.cycles * r.config.core.num_sms) : 0,
    l2: r.l2.miss_rate,
    l2bypass: r.l2.bypassed > 0 ? r.l2.miss_rate_with_bypass : null,
    bw: r.dram.bandwidth_utilization,
    rbh: r.dram.row_buffer_hit_rate,
    lat: r.latency.avg_warp_load_latency,
    div: r.latency.avg_divergence,
  };
}

/** A sampled run's numbers: its estimates, and their 95 % intervals by the same names. */
function estimated(r) {
  const e = r.estimate;
  const iv = (k) => r.intervals[k] ?? null;
  // The stall count is estimated per cycle and scaled to the estimated time, so its share
  // of the SMs' cycles has its interval over that same time.
  const smCycles = e.cycles * r.config.core.num_sms;
  const stallShare = (i) => (i && smCycles > 0 ? { low: i.low / smCycles, high: Math.min(1, i.high / smCycles) } : null);
  return {
    estimated: true,
    windows: r.windows.filter((w) => !w.exact && w.cycles > 0 && w.instructions > 0).length,
    // One sampled window: estimates of unknown spread, with no interval.
    lone: e.one_window_sampled ?? false,
    // Launches sampled inside although they fit on the machine at once: a known bias.
    oneWave: e.one_wave_launches_sampled ?? 0,
    cycles: e.cycles,
    ipc: e.ipc,
    completed: r.completed,
    error: r.error,
    l1: e.l1_miss_rate,
    l1hit: e.l1_hit_rate,
    l1stall: e.cycles > 0 ? e.l1_stall_cycles / (e.cycles * r.config.core.num_sms) : 0,
    l2: e.l2_miss_rate,
    l2bypass: null,
    bw: e.dram_bandwidth_utilization,
    rbh: e.dram_row_buffer_hit_rate,
    lat: e.warp_load_latency,
    div: e.divergence,
    intervals: {
      cycles: iv('cycles'), ipc: iv('ipc'), l1: iv('l1_miss_rate'), l1hit: iv('l1_hit_rate'), l1stall: stallShare(iv('l1_stall_cycles')),
      l2: iv('l2_miss_rate'), bw: iv('dram_bandwidth_utilization'), rbh: iv('dram_row_buffer_hit_rate'), lat: iv('warp_load_latency'), div: iv('divergence'),
    },
  };
}

/** A summary number as text: as it is for a full run; for a sampled run "≈" and its 95 %
 * interval (`key` names it in the summary's intervals). */
export function estimateText(s, x, shown, key) {
  if (!s.estimated) return shown(x);
  const i = s.intervals[key];
  // Without an interval (one sampled window, or no events to estimate it from) it is an
  // estimate of unknown spread, and says so.
  return i ? `≈${shown(x)} (${shown(i.low)}–${shown(i.high)})` : `≈${shown(x)} (no interval)`;
}
