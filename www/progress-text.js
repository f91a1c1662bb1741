// The status line's words while a batch runs: what is being read or simulated, how far, and
// the time the batch still needs. Pure functions of the progress messages and the batch.

const NUM = new Intl.NumberFormat('en-US');

/** `ms` as seconds, with a tenth below ten seconds. */
export const seconds = (ms) => (ms < 10000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** The time the batch still needs: the current run's rest at its pace so far (`elapsed` ms
 * for `fraction` of it), plus the `queued` runs at the finished runs' mean (`runMs`) or, before
 * any, the current run's estimate. Empty while nothing gives an estimate. */
export function timeLeft({ runMs }, elapsed, fraction, queued) {
  if (fraction < 0.05 && !runMs.length) return '';
  const current = fraction >= 0.05 ? elapsed / fraction : mean(runMs);
  const perRun = runMs.length ? mean(runMs) : current;
  return ` · about ${seconds(Math.max(0, current - elapsed) + perRun * queued)} left`;
}

/** A trace run's files being read (a profiling trace's: `profile`): which one, and how far;
 * then the profiling runs (`profiling`: the trace they replay). */
export function readingText({ file, index, count, fraction, profile, profiling }) {
  const of = profile ? ` of the profiling trace "${profile}"` : '';
  if (profiling) return `Profiling the loads on "${profiling}"…`;
  return index === 0 ? `Reading ${file}${of}…` : `Reading ${file}${of} (${index} of ${count}): ${Math.floor(fraction * 100)}\u00a0%`;
}

/** A run's progress `p` in a batch of `total` runs of which `done` are done; `left` is the
 * time-left text. A sampled run's cycle counts only its detailed stretches, and its IPC is
 * not yet known, so it says its window instead. */
export function progressText(p, { total, done }, left) {
  const run = total > 1 ? `Run ${done + 1} of ${total} · ` : '';
  const what = p.windows ? `window ${p.windows[0]} of ${p.windows[1]}` : `cycle ${NUM.format(p.cycle)}`;
  const ipc = p.windows ? '' : ` · IPC ${p.ipc.toFixed(3)}`;
  return `${run}${what} · ${(p.fraction * 100).toFixed(0)} % of CTAs${ipc}${left}`;
}
