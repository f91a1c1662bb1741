// The numbers the summary table shows for a run, read once from its report JSON.

export function summarize(reportJson) {
  const r = JSON.parse(reportJson);
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
