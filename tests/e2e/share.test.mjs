// Share links and embed snippets carry exactly what is on screen: every run of a comparison
// with its cycle window and settings, and the form with its policy bundle. Reopening one
// gives the same reports (the simulator is deterministic).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, finished } from './harness.mjs';

let h;
before(async () => {
  h = await start();
});
after(async () => {
  await h.close();
});

const reports = (page) => page.evaluate(() => window.warpscope.runs.map((r) => r.report));

async function waitRuns(page, n, timeout = 120000) {
  await page.waitForFunction((k) => window.warpscope && window.warpscope.runs.length === k, n, { timeout });
  return finished(page, timeout);
}

test('a demo\u2019s share link reopens all its runs, cycle windows included, with the same reports', async () => {
  const page = await h.page();
  await ready(page);
  await page.click('button[data-demo="camping"]');
  await waitRuns(page, 2);
  const before = await reports(page);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s=v2.'));
  const link = page.url().slice(h.base.length);
  const again = await h.page(link);
  assert.match(await waitRuns(again, 2), /^Done: 2 runs/);
  const after = await reports(again);
  assert.equal(after.length, 2);
  assert.ok(after.every((r, i) => r === before[i]), 'the reopened runs give the same reports');
  const labels = await again.$$eval('#summary tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.ok(labels.every((l) => /first 50,000 cycles/.test(l)), `the cycle window is kept: ${labels}`);
  assert.deepEqual([...page.errors, ...again.errors], []);
  await Promise.all([page.close(), again.close()]);
});

test('a link made under a policy bundle reopens with that bundle chosen and the same report', async () => {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-bundle', 'medic');
  await page.selectOption('#f-size', 'tiny');
  await page.click('#run');
  await waitRuns(page, 1);
  const before = await reports(page);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s=v2.'));
  const again = await h.page(page.url().slice(h.base.length));
  await waitRuns(again, 1);
  assert.equal(await again.inputValue('#f-bundle'), 'medic');
  assert.equal(await again.inputValue('#f-l2-bypass'), 'medic');
  assert.deepEqual(await reports(again), before);
  assert.deepEqual([...page.errors, ...again.errors], []);
  await Promise.all([page.close(), again.close()]);
});

test('after a demo, the embed snippet shows that demo\u2019s runs, and its frame runs them all', async () => {
  const page = await h.page();
  await ready(page);
  await page.click('button[data-demo="camping"]');
  await waitRuns(page, 2);
  const before = await reports(page);
  await page.waitForFunction(() => /2 runs: /.test(document.getElementById('embed-snippet').value));
  const snippet = await page.inputValue('#embed-snippet');
  assert.match(snippet, /title="warpscope: [^"]*2 runs: [^"]*first 50,000 cycles[^"]*partition_mapping=xor/);
  const src = snippet.match(/src="([^"]+)"/)[1];
  const frame = await h.page(src.slice(src.indexOf('?')).replace(/&amp;/g, '&'));
  await ready(frame);
  await frame.click('#embed-run');
  await waitRuns(frame, 2);
  assert.deepEqual(await reports(frame), before);
  assert.deepEqual([...page.errors, ...frame.errors], []);
  await Promise.all([page.close(), frame.close()]);
});
