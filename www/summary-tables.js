// The summary tables under the charts, filled from the checked runs.

import { speedups, harmonicMeans, bestOfSweeps } from './speedups.js';
import { estimateText } from './summary.js';

const $ = (id) => document.getElementById(id);

/** Fills table `id` with a header, rows of cell texts and a caption; hides it when empty. */
function fillTable(id, cols, rows, caption) {
  const t = $(id);
  t.replaceChildren();
  t.hidden = rows.length === 0;
  if (t.hidden) return;
  const head = t.createTHead().insertRow();
  for (const c of cols) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = c;
    head.append(th);
  }
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) tr.insertCell().textContent = cell;
  }
  t.createCaption().textContent = caption;
}

/** A speedup as text, or a dash when there is none. */
const times = (x) => (x === null ? '–' : `${x.toFixed(3)}x`);

/** The summary tables of the checked `runs`: each run's numbers and speedup, each machine's
 * harmonic mean, and each swept machine at its best. `machineOf(spec, except)` and
 * `tuningOf(spec)` name a run's machine and sweep, `fmt` formats counts. */
export function renderSummary(runs, { fmt, machineOf, tuningOf }) {
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  const rows = speedups(runs).map(({ run: r, base, speedup }) => {
    const s = r.summary;
    const over = base === r ? '' : ` (over #${base.id})`;
    const est = (x, shown, key) => estimateText(s, x, shown, key);
    const note = s.estimated ? ` (estimated from ${s.windows} windows${s.oneWave ? '; one-wave, biased' : ''})` : '';
    return [`#${r.id} ${r.label}${note}${s.completed || r.spec.maxCycles ? '' : ' (incomplete)'}`, est(s.cycles, (x) => fmt(Math.round(x)), 'cycles'),
      est(s.ipc, (x) => x.toFixed(3), 'ipc'), `${times(speedup)}${speedup === null ? '' : over}`, est(s.l1, pct, 'l1'), pct(s.l1hit), pct(s.l1stall),
      s.l2bypass === null ? est(s.l2, pct, 'l2') : `${pct(s.l2)} (${pct(s.l2bypass)})`, est(s.bw, pct, 'bw'), pct(s.rbh), est(s.lat, (x) => x.toFixed(0), 'lat'), s.div.toFixed(0)];
  });
  fillTable('summary', ['run', 'cycles', 'IPC', 'speedup', 'L1 miss', 'L1 hit', 'L1 stall share', 'L2 miss', 'DRAM BW', 'row hits', 'warp-load latency', 'divergence'], rows,
    'Latencies in core cycles; speedup is IPC over the first listed run of the same kernel, size, seed and cycle window; L1 stall share is the share of SM cycles the L1 refused the LD/ST unit; in brackets, the L2 miss rate counting bypassed reads as misses, as MeDiC compares it with Rand\'s.');
  // Each machine's harmonic mean speedup over its workloads, when runs span several.
  const means = harmonicMeans(runs, machineOf).map((m) => [m.machine, String(m.workloads), times(m.hmean)]);
  fillTable('hmeans', ['machine', 'workloads', 'harmonic mean speedup'], means,
    'Harmonic mean of each machine\'s speedups (column "speedup" above) over the workloads it ran, as in MeDiC and `warpscope compare`; a mean over fewer workloads than another machine\'s does not compare with it.');
  // For each machine a sweep ran with several values of a field, the best value per workload.
  const tuned = bestOfSweeps(runs, tuningOf).map((m) => [m.machine, `${m.field} (${m.settings} values)`,
    m.kept.map((k) => `${k.workload}: ${k.setting} (#${k.run.id}, ${k.speedup.toFixed(3)}x)`).join('\n'), times(m.hmean)]);
  fillTable('tuned', ['machine', 'swept', 'best per workload', 'harmonic mean speedup'], tuned,
    'Each swept machine at its fastest run per workload, as `warpscope compare --tune` keeps it (MeDiC tunes Rand this way); keeping the best per workload is generous to the swept machine.');
}
