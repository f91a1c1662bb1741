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

/** A fresh page with `kernel` started at "paper (sampled)". */
async function startSampled(kernel) {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-kernel', kernel);
  await page.selectOption('#f-size', 'paper-sampled');
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
