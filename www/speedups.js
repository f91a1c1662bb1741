// Speedups between the runs on the page. An IPC ratio only means something between two
// runs of the same workload (kernel, input size, seed and cycle window), so each run is
// compared with the first listed run of its workload, and machines are summed up over
// workloads by the harmonic mean of those speedups, MeDiC's metric. Both come from the wasm
// build of the simulator's own definitions, so the page, `warpscope compare` and the gallery
// agree on the same runs, a failed one among them included. Where a sampled run is in a
// ratio, the ratio is an estimate too, and carries the range its runs' 95 % intervals allow.

import { speedup as speedupOf, harmonic_mean } from '../pkg/warpscope.js';

/** The workload a run simulates: what two runs must share for their IPCs to compare. */
function workloadOf(spec) {
  return `${spec.kernel} (${spec.size}, seed ${spec.seed}${spec.maxCycles ? `, first ${spec.maxCycles} cycles` : ''})`;
}

/** The harmonic mean of speedups, or null when any is missing, zero or not a number. */
function harmonicMean(values) {
  return harmonic_mean(Float64Array.from(values, (v) => (v === null ? NaN : v))) ?? null;
}

/** A run's IPC as a range: its 95 % interval when sampled (unbounded when it has none),
 * the value itself when whole. */
function ipcRange(run) {
  const s = run.summary;
  if (!s.estimated) return [s.ipc, s.ipc];
  const i = s.intervals.ipc;
  return i ? [i.low, i.high] : [0, Infinity];
}

/** The range of `run`'s speedup over `base` that their IPCs' ranges allow, taken as
 * independent (wider than the matched windows `warpscope figure --sample` compares); null
 * when neither is sampled or the run is its own base. `high` is null when unbounded. */
function speedupRange(run, base) {
  if (run === base || !(run.summary.estimated || base.summary.estimated)) return null;
  const [lo, hi] = ipcRange(run);
  const [blo, bhi] = ipcRange(base);
  return { low: speedupOf(lo, bhi) ?? 0, high: speedupOf(hi, blo) ?? null };
}

/** The harmonic mean's range from its speedups' ranges (it grows with each of them); null
 * when none of them is an estimate. */
function harmonicRange(items) {
  if (!items.some((x) => x.range)) return null;
  const ends = (end) => items.map((x) => (x.range ? x.range[end] : x.speedup));
  const high = ends('high');
  return { low: harmonicMean(ends('low')) ?? 0, high: high.includes(null) ? null : harmonicMean(high) };
}

/**
 * For each run (`{ spec, summary: { ipc } }`, in list order) its workload, its speedup over
 * the first run of that workload and that base run, or a null speedup when the base has no IPC,
 * and the speedup's `range` where a sampled run is in it (`speedupRange`).
 */
export function speedups(runs) {
  const firstOf = new Map();
  return runs.map((r) => {
    const w = workloadOf(r.spec);
    if (!firstOf.has(w)) firstOf.set(w, r);
    const base = firstOf.get(w);
    const speedup = speedupOf(r.summary.ipc, base.summary.ipc) ?? null;
    return { run: r, workload: w, base, speedup, range: speedup === null ? null : speedupRange(r, base) };
  });
}

/**
 * Harmonic means of the speedups of each machine (`machineOf(spec)`) over the workloads it
 * ran, when the runs span more than one workload and more than one machine (a lone machine is
 * its own base everywhere, so its mean is 1 by construction); a machine's repeated runs of one
 * workload count once, by the first. Returns `[{ machine, hmean, range, workloads }]` in
 * first-seen order (`range` where sampled runs are in the mean).
 */
export function harmonicMeans(runs, machineOf) {
  const rows = speedups(runs);
  if (new Set(rows.map((x) => x.workload)).size < 2) return [];
  const byMachine = new Map();
  for (const x of rows) {
    const m = machineOf(x.run.spec);
    if (!byMachine.has(m)) byMachine.set(m, new Map());
    const seen = byMachine.get(m);
    if (!seen.has(x.workload)) seen.set(x.workload, x);
  }
  if (byMachine.size < 2) return [];
  const out = [];
  for (const [machine, seen] of byMachine) {
    const items = [...seen.values()];
    out.push({ machine, hmean: harmonicMean(items.map((x) => x.speedup)), range: harmonicRange(items), workloads: seen.size });
  }
  return out;
}

/**
 * A tuned machine's best runs: for each family of machines that a sweep split by the values of
 * its config fields (`tuningOf(spec)` gives `{ machine, field, setting }`: the machine without
 * the swept fields, their names and their values; null for an unswept run),
 * the fastest run on each workload and the harmonic mean of those runs' speedups, as
 * `warpscope compare --tune` keeps them. Only families that ran more than one setting are
 * listed. Returns `[{ machine, field, settings, hmean, range, kept: [{ workload, setting, speedup, range, run }] }]`
 * (the fastest by the estimate where runs are sampled).
 */
export function bestOfSweeps(runs, tuningOf) {
  const families = new Map();
  for (const x of speedups(runs)) {
    const t = tuningOf(x.run.spec);
    if (!t || x.speedup === null) continue;
    const key = `${t.machine}\n${t.field}`;
    if (!families.has(key)) families.set(key, { machine: t.machine, field: t.field, settings: new Set(), best: new Map() });
    const f = families.get(key);
    f.settings.add(t.setting);
    const held = f.best.get(x.workload);
    if (!held || x.speedup > held.speedup) f.best.set(x.workload, { workload: x.workload, setting: t.setting, speedup: x.speedup, range: x.range, run: x.run });
  }
  const out = [];
  for (const f of families.values()) {
    if (f.settings.size < 2) continue;
    const kept = [...f.best.values()];
    out.push({ machine: f.machine, field: f.field, settings: f.settings.size, hmean: harmonicMean(kept.map((k) => k.speedup)), range: harmonicRange(kept), kept });
  }
  return out;
}
