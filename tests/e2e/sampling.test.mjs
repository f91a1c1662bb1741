// "paper (sampled)": a paper-size run estimated from detailed windows in the worker, its
// estimates and 95 % intervals in the summary, the same numbers as the native CLI's, and a
// share link that reopens it sampled.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { start, ready, finished } from './harness.mjs';

let h;
before(async () => {
  h = await start();
});
after(async () => {
  await h.close();
});

/** A fresh page with `kernel` started at "paper (sampled)", over `sweep` if given. */
async function startSampled(kernel, sweep = '') {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-kernel', kernel);
  await page.selectOption('#f-size', 'paper-sampled');
  await page.fill('#f-sweep', sweep);
  await page.click('#run');
  return page;
}

test('a paper (sampled) run shows estimates with intervals, matches the CLI, and its link reopens it sampled', async () => {
  const page = await startSampled('spmv');
  await page.waitForFunction(() => /window \d+ of 30/.test(document.getElementById('status').textContent), null, { timeout: 60000 });
  assert.match(await finished(page, 240000), /^Done/);
  const row = await page.$eval('#summary tbody tr', (tr) => [...tr.cells].map((c) => c.textContent));
  assert.match(row[0], /estimated from 30 windows/);
  assert.match(row[2], /^≈\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\)$/, `IPC with its interval: ${row[2]}`);
  // Every number of a sampled run is an estimate and says so, with its interval (the speedup,
  // column 3, is the run over itself: exactly 1).
  row.forEach((cell, i) => i > 0 && i !== 3 && assert.match(cell, /^≈.+ \(.+–.+\)$/, `column ${i} estimated: ${cell}`));
  assert.equal(await page.isVisible('#sampled-note'), true);
  assert.equal(await page.isVisible('#one-wave-note'), false, 'spmv has no one-wave launch');
  const report = JSON.parse(await page.evaluate(() => window.warpscope.runs[0].report));
  // The native CLI on the same config and seed gives the same estimates (determinism).
  const cli = JSON.parse(
    execFileSync('target/release/warpscope', ['run', '--kernel', 'spmv', '--size', 'paper', '--sample', '30', '--format', 'json', '--quiet']),
  );
  assert.deepEqual(report.estimate, cli.estimate);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s=v2.'));
  const again = await h.page(page.url().slice(h.base.length));
  await ready(again);
  assert.equal(await again.inputValue('#f-size'), 'paper-sampled');
  assert.deepEqual([...page.errors, ...again.errors], []);
  await Promise.all([page.close(), again.close()]);
});

test('a run sampled inside a one-wave launch is marked biased, and the note says to confirm it at paper size', async () => {
  // atax at paper: its first launch's 32 thread blocks all fit on medic-gtx480 at once, and
  // sampling inside such a launch misses by more than its intervals (docs/sampling.md).
  const page = await startSampled('atax');
  assert.match(await finished(page, 400000), /^Done/);
  const label = await page.$eval('#summary tbody tr', (tr) => tr.cells[0].textContent);
  assert.match(label, /estimated from \d+ windows; one-wave, biased/);
  assert.equal(await page.isVisible('#one-wave-note'), true);
  assert.match(await page.textContent('#one-wave-note'), /confirm it at size "paper"/);
  assert.equal(await page.isVisible('#charts'), false, 'no fully simulated run to draw: no empty charts');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a speedup between sampled runs is an estimate, with the range its runs\' intervals allow', async () => {
  const page = await startSampled('spmv', 'dram.scheduler=fr_fcfs,gmc');
  assert.match(await finished(page, 400000), /^Done/);
  const rows = await page.$$eval('#summary tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows[0][3], '1.000x', 'a run over itself is exactly 1');
  const m = rows[1][3].match(/^≈(\d\.\d{3})x \((\d\.\d{3})–(\d\.\d{3})\) \(over #1\)$/);
  assert.ok(m, `speedup with its range: ${rows[1][3]}`);
  const [x, low, high] = m.slice(1).map(Number);
  assert.ok(low < x && x < high, rows[1][3]);
  // The range is the ratio of the IPC intervals' ends, taken as independent.
  const ipc = await page.evaluate(() => window.warpscope.runs.map((r) => JSON.parse(r.report).intervals.ipc));
  assert.equal(low.toFixed(3), (ipc[1].low / ipc[0].high).toFixed(3));
  assert.equal(high.toFixed(3), (ipc[1].high / ipc[0].low).toFixed(3));
  assert.match(await page.textContent('#summary caption'), /A speedup with ≈ involves a sampled run/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('one window is refused next to its field, and a run with one window sampled says it has no interval', async () => {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-kernel', 'bfs');
  await page.selectOption('#f-size', 'small');
  await page.click('#all-settings summary');
  await page.fill('#f-sample-windows', '1');
  await page.click('#run');
  const err = page.locator('#f-sample-windows-error');
  await err.waitFor({ state: 'visible' });
  assert.match(await err.textContent(), /no interval.*at least 2/);
  // Two windows on bfs at small: one falls in a launch head simulated whole, so one window
  // stands for every sampled chunk and its spread is unknown.
  await page.fill('#f-sample-windows', '2');
  await page.click('#run');
  assert.match(await finished(page), /^Done/);
  const row = await page.$eval('#summary tbody tr', (tr) => [...tr.cells].map((c) => c.textContent));
  assert.match(row[0], /estimated from 1 window, so no intervals/);
  assert.match(row[2], /^≈\d\.\d{3} \(no interval\)$/, `IPC: ${row[2]}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
