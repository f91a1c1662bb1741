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

/** What a speedup's range means where sampled runs are in it. */
const SAMPLED = ' A speedup with ≈ involves a sampled run: its range is what the two runs\' 95 % intervals allow taken as independent, wider than the matched windows `warpscope figure --sample` compares; a range that holds 1.000 is not a gain.';

/** A speedup as text, or a dash when there is none; an estimated one (`range`, where a
 * sampled run is in it) with "≈" and the range its runs' intervals allow. */
const times = (x, range = null) => {
  if (x === null) return '–';
  if (!range) return `${x.toFixed(3)}x`;
  // An IPC interval reaching zero cycles leaves the ratio without an upper end.
  const high = range.high === null || range.high >= 1e6 ? '∞' : range.high.toFixed(3);
  return `≈${x.toFixed(3)}x (${range.low.toFixed(3)}–${high})`;
};

/** The summary tables of the checked `runs`: each run's numbers and speedup, each machine's
 * harmonic mean, and each swept machine at its best. `machineOf(spec, except)` and
 * `tuningOf(spec)` name a run's machine and sweep, `fmt` formats counts. */
export function renderSummary(runs, { fmt, machineOf, tuningOf }) {
  // A no-break space keeps a share's sign on its number when a narrow column wraps.
  const pct = (x) => `${(x * 100).toFixed(1)}\u00a0%`;
  const rows = speedups(runs).map(({ run: r, base, speedup, range }) => {
    const s = r.summary;
    const over = base === r ? '' : ` (over #${base.id})`;
    const est = (x, shown, key) => estimateText(s, x, shown, key);
    const windows = s.lone ? '1 window, so no intervals' : `${s.windows} windows`;
    const note = s.estimated ? ` (estimated from ${windows}${s.oneWave ? '; one-wave, biased' : ''})` : '';
    return [`#${r.id} ${r.label}${note}${s.completed || r.spec.maxCycles ? '' : ' (incomplete)'}`, est(s.cycles, (x) => fmt(Math.round(x)), 'cycles'),
      est(s.ipc, (x) => x.toFixed(3), 'ipc'), `${times(speedup, range)}${speedup === null ? '' : over}`, est(s.l1, pct, 'l1'), est(s.l1hit, pct, 'l1hit'), est(s.l1stall, pct, 'l1stall'),
      s.l2bypass === null ? est(s.l2, pct, 'l2') : `${pct(s.l2)} (${pct(s.l2bypass)})`, est(s.bw, pct, 'bw'), est(s.rbh, pct, 'rbh'), est(s.lat, (x) => x.toFixed(0), 'lat'), est(s.div, (x) => x.toFixed(0), 'div')];
  });
  fillTable('summary', ['run', 'cycles', 'IPC', 'speedup', 'L1 miss', 'L1 hit', 'L1 stall share', 'L2 miss', 'DRAM BW', 'row hits', 'warp-load latency', 'divergence'], rows,
    `Latencies in core cycles; speedup is IPC over the first listed run of the same kernel, size, seed and cycle window; L1 stall share is the share of SM cycles the L1 refused the LD/ST unit; in brackets, the L2 miss rate counting bypassed reads as misses, as MeDiC compares it with Rand's.${runs.some((r) => r.summary.estimated) ? SAMPLED : ''}`);
  // Each machine's harmonic mean speedup over its workloads, when runs span several.
  const means = harmonicMeans(runs, machineOf).map((m) => [m.machine, String(m.workloads), times(m.hmean, m.range)]);
  fillTable('hmeans', ['machine', 'workloads', 'harmonic mean speedup'], means,
    `Harmonic mean of each machine's speedups (column "speedup" above) over the workloads it ran, as in MeDiC and \`warpscope compare\`; a mean over fewer workloads than another machine's does not compare with it.${means.some((m) => m[2].startsWith('≈')) ? ' A mean with ≈ has sampled runs in it: its range comes from theirs, as above.' : ''}`);
  // For each machine a sweep ran with several values of a field, the best value per workload.
  const tuned = bestOfSweeps(runs, tuningOf).map((m) => [m.machine, `${m.field} (${m.settings} values)`,
    m.kept.map((k) => `${k.workload}: ${k.setting} (#${k.run.id}, ${times(k.speedup, k.range)})`).join('\n'), times(m.hmean, m.range)]);
  fillTable('tuned', ['machine', 'swept', 'best per workload', 'harmonic mean speedup'], tuned,
    'Each swept machine at its fastest run per workload, as `warpscope compare --tune` keeps it (MeDiC tunes Rand this way); keeping the best per workload is generous to the swept machine.');
}
