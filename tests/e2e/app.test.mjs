// The built page in headless Chromium: demos, plots, errors by field, cancel, compare,
// share links and embed mode, with the responsiveness figures the app promises.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { start, ready, finished, inkPerCanvas, cpuTicks } from './harness.mjs';

let h;
before(async () => {
  h = await start();
});
after(async () => {
  await h.close();
});

/** Opens the "Numbers" of the chart(s) matching `selector`: their tables are built then. */
async function openNumbers(page, selector) {
  await page.$$eval(`${selector} details`, (ds) => ds.forEach((d) => { d.open = true; }));
  await page.waitForFunction((s) => [...document.querySelectorAll(`${s} details table`)].every((t) => t.tBodies.length > 0), selector);
}

/** The cells' text of every row of the table(s) matching `selector`. */
async function tableRows(page, selector) {
  await openNumbers(page, selector);
  return page.$$eval(`${selector} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
}

/** Clicks demo `id` on `page`, waits for its `runs` runs and returns the summary's rows. */
async function runDemo(page, id, runs, timeout) {
  await page.click(`button[data-demo="${id}"]`);
  await page.waitForFunction((n) => window.warpscope.runs.length === n, runs, { timeout });
  await finished(page);
  return tableRows(page, '#summary');
}

/// Runs the default demo on `page` and returns the main-thread long tasks that started
/// while it ran, with the share of CPU time stolen from this machine meanwhile.
async function timedDemo(page) {
  const before = cpuTicks();
  await page.click('button[data-demo="stall"]');
  const status = await finished(page, 30000);
  assert.match(status, /^Done/);
  const t = await page.evaluate(() => window.warpscope.lastTiming);
  const long = await page.evaluate(
    ([from, to]) => window.__longTasks.filter((l) => l.start >= from && l.start < to),
    [t.startedAt, t.startedAt + t.elapsedMs],
  );
  console.log(`default demo: ${t.cycles} cycles in ${(t.elapsedMs / 1000).toFixed(2)} s ` +
    `(${Math.round(t.cycles / (t.elapsedMs / 1000))} cycles/s), first progress after ${t.firstProgressMs.toFixed(0)} ms, ` +
    `${long.length} long tasks during the run`);
  assert.ok(t.firstProgressMs < 1000, `first progress after ${t.firstProgressMs} ms`);
  assert.ok(t.elapsedMs < 10000, `the default demo took ${t.elapsedMs} ms`);
  const after = cpuTicks();
  const stolen = after.total > before.total ? (after.steal - before.steal) / (after.total - before.total) : 0;
  return { long, stolen };
}

test('the default demo runs to the end with every chart drawn, responsively', async () => {
  const page = await h.page();
  await ready(page);
  // The machine itself can stall the main thread: disk writeback (reproduced with a
  // concurrent `dd`) or a hypervisor that takes the VM's CPUs away (steal, seen at over
  // 50 % in CI). A run with long tasks is repeated, up to three runs. Long tasks while
  // under 5 % of the CPU was stolen fail at once, and so does a stall that recurs on an
  // unstarved machine; work the page did on every progress update would recur. Only
  // when every run was starved is the check reported as not measurable here.
  let starved = 0;
  for (let run = 0; run < 3; run++) {
    const { long, stolen } = await timedDemo(page);
    if (long.length === 0) break;
    console.log(`${long.length} long tasks with ${(stolen * 100).toFixed(0)} % of the CPU stolen: ${JSON.stringify(long)}`);
    assert.ok(stolen >= 0.05, 'no main-thread task over 50 ms while running on an unstarved machine');
    starved += 1;
  }
  if (starved === 3) console.log('responsiveness not measurable: the hypervisor starved every run');
  const ink = await inkPerCanvas(page);
  assert.equal(ink.length, 11);
  for (const [i, share] of ink.entries()) assert.ok(share > 0.01, `canvas ${i} is blank (${share})`);
  await openNumbers(page, '#charts figure');
  const tables = await page.$$eval('#charts figure', (fs) => fs.map((f) => [f.dataset.chart, f.querySelector('table').tBodies[0].rows.length]));
  assert.equal(tables.length, 11, 'each plot has a table');
  // TB_bg has no data without coordinated bypassing; every other chart has rows.
  for (const [chart, rows] of tables) assert.ok(chart === 'tb_bg' || rows > 0, `${chart}'s table is empty`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a bad field shows its error next to it and keeps what was typed', async () => {
  const page = await h.page();
  await ready(page);
  await page.fill('#f-l1d-size_kb', '15');
  await page.fill('#f-seed', '-4');
  await page.click('#run');
  const err = page.locator('#f-l1d-size_kb-error');
  await err.waitFor({ state: 'visible' });
  assert.match(await err.textContent(), /sets x ways x line/);
  assert.match(await page.textContent('#f-seed-error'), /whole number/);
  assert.equal(await page.inputValue('#f-l1d-size_kb'), '15');
  assert.equal(await page.getAttribute('#f-l1d-size_kb', 'aria-invalid'), 'true');
  assert.equal(await page.isEnabled('#run'), true, 'nothing started');
  await page.click('#all-settings summary');
  await page.fill('#f-dram-timing-t_rcd', 'abc');
  await page.click('#all-settings summary');
  await page.fill('#f-l1d-size_kb', '16');
  await page.fill('#f-seed', '1');
  await page.click('#run');
  await page.locator('#f-dram-timing-t_rcd-error').waitFor({ state: 'visible' });
  assert.equal(await page.getAttribute('#all-settings', 'open'), '', 'the settings holding the error open');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('cancel stops a run and pause holds it', async () => {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-kernel', 'atax');
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('cycle'));
  await page.click('#pause');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Paused.');
  const held = await page.evaluate(() => document.getElementById('progress').value);
  await page.waitForTimeout(400);
  assert.equal(await page.evaluate(() => document.getElementById('progress').value), held, 'no progress while paused');
  await page.click('#pause');
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('cycle'));
  await page.click('#cancel');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Cancelled.');
  assert.equal(await page.isEnabled('#run'), true);
  assert.equal(await page.isDisabled('#cancel'), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('two policies are compared in the same plots with speedups', async () => {
  const page = await h.page();
  await ready(page);
  const rows = await runDemo(page, 'sched', 2, 60000);
  assert.equal(rows.length, 2);
  assert.match(rows[1][0], /core\.warp_scheduler=lrr/);
  assert.equal(rows[0][3], '1.000x');
  assert.ok(Number.parseFloat(rows[1][3]) < 1, `LRR should be slower than GTO on atax: ${rows[1][3]}`);
  await openNumbers(page, 'figure[data-chart="divergence"]');
  const table = await page.$$eval('figure[data-chart="divergence"] thead th', (ths) => ths.map((t) => t.textContent));
  assert.ok(table.length >= 3, `the divergence table has one column per run: ${table}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('speedups compare runs of one workload, and machines by their harmonic mean', async () => {
  const page = await h.page();
  await ready(page);
  const runOne = async (kernel, n) => {
    await page.selectOption('#f-kernel', kernel);
    await page.selectOption('#f-size', 'tiny');
    await page.click('#run');
    await page.waitForFunction((k) => window.warpscope.runs.length === k, n, { timeout: 60000 });
    await finished(page);
  };
  assert.equal(await page.isHidden('#hmeans'), true);
  await runOne('bfs', 1);
  await runOne('sssp', 2);
  assert.equal(await page.isHidden('#hmeans'), true, 'a lone machine gets no mean: it is its own base');
  await page.selectOption('#f-core-warp_scheduler', 'lrr');
  await runOne('sssp', 3);
  await runOne('bfs', 4);
  const rows = await tableRows(page, '#summary');
  const ipc = rows.map((r) => Number(r[2]));
  assert.deepEqual(rows.slice(0, 2).map((r) => r[3]), ['1.000x', '1.000x'], 'each workload\'s first run is its own base');
  assert.match(rows[2][3], /x \(over #2\)$/, 'LRR on sssp is compared with sssp');
  assert.match(rows[3][3], /x \(over #1\)$/, 'LRR on bfs is compared with bfs');
  const sssp = Number.parseFloat(rows[2][3]);
  const bfs = Number.parseFloat(rows[3][3]);
  assert.ok(Math.abs(sssp - ipc[2] / ipc[1]) < 0.01 && Math.abs(bfs - ipc[3] / ipc[0]) < 0.01, `speedups ${sssp}, ${bfs} from IPCs ${ipc}`);
  const means = await tableRows(page, '#hmeans');
  assert.equal(means.length, 2, `one row per machine: ${JSON.stringify(means)}`);
  assert.deepEqual(means[0], ['medic-gtx480', '2', '1.000x']);
  assert.ok(sssp !== 1 || bfs !== 1, 'LRR changes the IPC');
  assert.match(means[1][0], /core\.warp_scheduler=lrr/);
  assert.equal(means[1][1], '2');
  assert.ok(Math.abs(Number.parseFloat(means[1][2]) - 2 / (1 / sssp + 1 / bfs)) < 0.002, `harmonic mean ${means[1][2]} of ${sssp}, ${bfs}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a sweep runs the experiment once per combination, and a bad sweep is named beside it', async () => {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-size', 'tiny');
  await page.fill('#f-sweep', 'l2.rand.shar=0.1');
  await page.click('#run');
  await page.locator('#f-sweep-error').waitFor({ state: 'visible' });
  assert.match(await page.textContent('#f-sweep-error'), /"l2\.rand\.shar" is not a setting; l2 has .*rand\.share/);
  assert.equal(await page.getAttribute('#f-sweep', 'aria-invalid'), 'true');
  await page.fill('#f-sweep', 'l2.rand.share=0.5,2');
  await page.click('#run');
  await page.waitForFunction(() => /^l2\.rand\.share=2: 2 is not a fraction/.test(document.getElementById('f-sweep-error').textContent));
  // The path Rand's share had before it moved into the policy still sweeps it.
  await page.fill('#f-sweep', 'medic.rand_share=0.5,3');
  await page.click('#run');
  await page.waitForFunction(() => /^l2\.rand\.share=3: 3 is not a fraction/.test(document.getElementById('f-sweep-error').textContent));
  assert.equal(
    await page.textContent('#f-sweep-note'),
    'medic.rand_share is now l2.rand.share; the old name works until the next release.',
    'the note beside the box names the new path',
  );
  await page.fill('#f-sweep', 'kernel=bfs,nope');
  assert.equal(await page.textContent('#f-sweep-note'), '', 'and goes once the old path does');
  await page.click('#run');
  await page.waitForFunction(() => /^kernel: "nope" is not a kernel; choose from .*sssp/.test(document.getElementById('f-sweep-error').textContent));
  assert.equal(await page.inputValue('#f-sweep'), 'kernel=bfs,nope', 'what was typed is kept');
  assert.equal(await page.isEnabled('#run'), true, 'nothing started');
  assert.equal(await page.evaluate(() => window.warpscope.runs.length), 0);
  await page.selectOption('#f-bundle', 'rand');
  await page.fill('#f-sweep', 'kernel=bfs,sssp l2.rand.share=0.1,0.5');
  await page.click('#run');
  await page.waitForFunction(() => window.warpscope.runs.length === 4, null, { timeout: 120000 });
  await finished(page);
  assert.equal(await page.textContent('#f-sweep-error'), '');
  const rows = await tableRows(page, '#summary');
  const points = [['bfs', '0.1'], ['bfs', '0.5'], ['sssp', '0.1'], ['sssp', '0.5']];
  points.forEach(([kernel, share], i) => {
    assert.ok(rows[i][0].startsWith(`#${i + 1} ${kernel} (tiny)`) && rows[i][0].includes('l2.bypass=rand') && rows[i][0].endsWith(`l2.rand.share=${share}`), rows[i][0]);
  });
  const l2 = await page.evaluate(() => window.warpscope.runs.map((r) => JSON.parse(r.report).l2));
  const pct = (x) => `${(x * 100).toFixed(1)}\u00a0%`;
  assert.ok(l2.every((x) => x.bypassed > 0), 'Rand bypasses');
  l2.forEach((x, i) => assert.equal(rows[i][7], `${pct(x.miss_rate)} (${pct(x.miss_rate_with_bypass)})`, 'L2 miss, then counting bypassed reads'));
  assert.match(rows[1][3], /x \(over #1\)$/);
  assert.match(rows[3][3], /x \(over #3\)$/);
  const means = await tableRows(page, '#hmeans');
  assert.deepEqual(means.map((m) => [m[0].endsWith(`rand.share=0.1`) || m[0].endsWith(`rand.share=0.5`), m[1]]), [[true, '2'], [true, '2']]);
  assert.equal(means[0][2], '1.000x');
  const tuned = await tableRows(page, '#tuned');
  assert.equal(tuned.length, 1, 'one swept machine');
  assert.ok(tuned[0][0].includes('l2.bypass=rand') && !tuned[0][0].includes('rand.share'), tuned[0][0]);
  assert.equal(tuned[0][1], 'l2.rand.share (2 values)');
  const speed = (i) => Number(rows[i][3].replace(/x.*/, ''));
  const best = [[0, 1], [2, 3]].map(([a, b]) => (speed(b) > speed(a) ? b : a));
  for (const [n, i] of best.entries()) {
    if (speed(2 * n) === speed(2 * n + 1)) continue; // a tie to three decimals: either is kept
    assert.match(tuned[0][2], new RegExp(`${points[i][0]} \\(tiny, seed 1\\): l2\\.rand\\.share=${points[i][1]} \\(#${i + 1}, `), `kept #${i + 1} for run ${n}`);
  }
  const hmean = 2 / best.reduce((acc, i) => acc + 1 / speed(i), 0);
  assert.ok(Math.abs(Number(tuned[0][3].replace('x', '')) - hmean) < 0.002, `${tuned[0][3]} against ${hmean}`);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s=v2.'));
  const shared = await h.page(page.url().slice(h.base.length));
  await shared.waitForFunction(() => window.warpscope && window.warpscope.runs.length === 4, null, { timeout: 120000 });
  await finished(shared);
  assert.equal(await shared.inputValue('#f-sweep'), 'kernel=bfs,sssp l2.rand.share=0.1,0.5', 'a share link keeps the sweep');
  const again = await tableRows(shared, '#summary');
  assert.deepEqual(again.map((r) => r.slice(0, 3)), rows.map((r) => r.slice(0, 3)), 'the shared sweep gives the same runs');
  assert.deepEqual([page.errors, shared.errors], [[], []]);
  await shared.close();
  await page.close();
});

test('a share link reproduces the run in a new page', async () => {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-kernel', 'spmv');
  await page.selectOption('#f-size', 'tiny');
  await page.fill('#f-seed', '7');
  await page.selectOption('#f-dram-scheduler', 'fcfs');
  await page.click('#run');
  await finished(page);
  const first = await page.evaluate(() => window.warpscope.runs[0].report);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s=v2.'));
  const url = page.url();
  const other = await h.page(url.slice(h.base.length));
  await finished(other);
  assert.equal(await other.inputValue('#f-seed'), '7');
  assert.equal(await other.inputValue('#f-dram-scheduler'), 'fcfs');
  const second = await other.evaluate(() => window.warpscope.runs[0].report);
  assert.equal(second, first, 'the shared run gives the identical report');
  const broken = await h.page('#s=v1.AAAA');
  await ready(broken);
  assert.match(await broken.textContent('#form-error'), /damaged/);
  assert.deepEqual([...page.errors, ...other.errors, ...broken.errors], []);
  await Promise.all([page.close(), other.close(), broken.close()]);
});

test('embed mode shows one figure and a Run button', async () => {
  const page = await h.page('?embed=1&chart=hit_ratio');
  await ready(page);
  assert.equal(await page.locator('figure.chart').count(), 1);
  assert.equal(await page.isVisible('#builder'), false);
  await page.click('#embed-run');
  await finished(page, 30000);
  const ink = await inkPerCanvas(page);
  assert.equal(ink.length, 1);
  assert.ok(ink[0] > 0.01);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a simulator crash is shown, the settings are kept, and a new worker runs the next experiment', async () => {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-kernel', 'atax');
  await page.fill('#f-l1d-size_kb', '32');
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('cycle'));
  // The message a worker posts when the wasm traps (a Rust panic aborts into a trap).
  await page.evaluate(() => {
    const c = window.warpscope.client;
    window.__crashed = c.worker;
    c.receive({ type: 'crash', id: c.activeId, message: 'RuntimeError: unreachable' });
  });
  assert.match(await page.textContent('#form-error'), /crashed: RuntimeError: unreachable.*settings are kept/);
  assert.equal(await page.inputValue('#f-l1d-size_kb'), '32');
  assert.equal(await page.evaluate(() => window.warpscope.client.worker !== window.__crashed), true, 'a new worker');
  await page.selectOption('#f-kernel', 'kmeans');
  await page.selectOption('#f-size', 'tiny');
  await page.click('#run');
  assert.match(await finished(page), /^Done/);
  await page.close();
});

test('the partition-camping demo compares a cycle window of modulo and xor mapping', async () => {
  const page = await h.page();
  await ready(page);
  const rows = (await runDemo(page, 'camping', 2, 90000)).map((r) => r[0]);
  assert.equal(rows.length, 2);
  for (const r of rows) assert.match(r, /first 50,000 cycles/);
  assert.match(rows[1], /mem\.partition_mapping=xor/);
  await openNumbers(page, 'figure[data-chart="partitions"]');
  const shares = await page.$$eval('figure[data-chart="partitions"] tbody tr', (trs) =>
    trs.map((tr) => [...tr.cells].slice(1).map((c) => Number.parseFloat(c.textContent))),
  );
  assert.equal(shares.length, 16, 'one row per partition');
  const maxOf = (col) => Math.max(...shares.map((r) => r[col]));
  assert.ok(maxOf(0) > 2 * maxOf(1), `modulo's busiest partition ${maxOf(0)} vs xor's ${maxOf(1)}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the iWarp machine runs under the iwarp scheduler and draws L1 and L2 misses by cause', async () => {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-preset', 'iwarp-fermi');
  const choices = await page.$$eval('#f-core-warp_scheduler option', (os) => os.map((o) => o.value));
  for (const s of ['lrr', 'gto', 'two_level', 'swl', 'ccws', 'iwarp']) assert.ok(choices.includes(s), `${s} in ${choices}`);
  assert.equal(await page.locator('#f-core-swl-limit').count(), 1, 'the SWL limit is in the main form');
  await page.selectOption('#f-core-warp_scheduler', 'iwarp');
  await page.selectOption('#f-kernel', 'bfs');
  await page.selectOption('#f-size', 'small');
  await page.click('#run');
  assert.match(await finished(page, 60000), /^Done/);
  await openNumbers(page, 'figure[data-chart="miss_classes"]');
  const rows = await page.$$eval('figure[data-chart="miss_classes"] tbody tr', (trs) =>
    trs.map((tr) => [...tr.cells].map((c) => c.textContent)),
  );
  assert.deepEqual(rows.map((r) => r[0]), ['L1 intra-warp', 'L1 inter-warp', 'L1 other', 'L2 intra-warp', 'L2 inter-warp', 'L2 other']);
  assert.ok(Number.parseFloat(rows[1][1]) > 0, `bfs at 16 KB has inter-warp L1 misses: ${rows[1][1]}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the medic bundle fills the form, and the MeDiC demo compares it with the baseline', async () => {
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-bundle', 'medic');
  assert.equal(await page.inputValue('#f-l2-bypass'), 'medic');
  assert.equal(await page.inputValue('#f-l2-insertion'), 'medic');
  assert.equal(await page.inputValue('#f-dram-scheduler'), 'medic_wms');
  assert.match(await page.textContent('#bundle-about'), /WByp \+ WIP \+ WMS/);
  const rows = (await runDemo(page, 'medic', 2, 120000)).map((r) => r[0]);
  assert.match(rows[1], /l2\.bypass=medic/);
  await openNumbers(page, 'figure[data-chart="warp_hit_ratio"]');
  const lines = await page.$$eval('figure[data-chart="warp_hit_ratio"] tbody tr', (trs) => trs.length);
  assert.ok(lines > 0, 'the sampled warps have windows');
  const reads = await tableRows(page, 'figure[data-chart="reads_by_type"]');
  assert.equal(reads.length, 6, 'a row per type, profiling first');
  assert.match(reads[0][0], /profiling/);
  const shares = reads.map((r) => Number(r[1]));
  assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 100) < 0.1, `the baseline's reads sum to 100 %: ${shares}`);
  const trip = await tableRows(page, 'figure[data-chart="read_trip"]');
  assert.equal(trip.length, 14, 'seven stages of L2 hits, then of DRAM reads');
  assert.match(trip[2][0], /L2 hits: l2 queue/);
  const hit = trip.slice(0, 7).map((r) => Number(r[1]));
  assert.ok(hit.every((c) => c >= 0) && hit.reduce((a, b) => a + b, 0) > 100, `an L2 hit's stages: ${hit}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the ROP demo shows how much of MeDiC\'s as-run gain on bfs is the ROP skip', async () => {
  const page = await h.page();
  await ready(page);
  const rows = await runDemo(page, 'medic-rop', 4, 160000);
  assert.ok(rows.every((r) => r[0].includes('on medic-gtx480')), rows.map((r) => r[0]).join('\n'));
  assert.match(rows[2][0], /l2\.rop_skip=all/);
  const [medic, asRun, skip] = [rows[1][3], rows[2][3], rows[3][3]].map((x) => Number.parseFloat(x));
  assert.ok(medic > 1.05 && asRun > medic + 0.1, `MeDiC ${medic}, as run ${asRun}`);
  assert.ok(skip > 1.2 && asRun - skip < medic - 1, `the skip alone ${skip}, MeDiC as run ${asRun}`);
  const l2 = await page.evaluate(() => window.warpscope.runs.map((r) => JSON.parse(r.report).l2.bypassed));
  assert.ok(l2[1] > 0 && l2[1] < 1000, `${l2[1]} reads bypassed`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the four-kernel MeDiC demo gives each machine its harmonic mean speedup', async () => {
  const page = await h.page();
  await ready(page);
  const rows = await runDemo(page, 'medic-hmean', 8, 240000);
  assert.equal(rows.length, 8);
  const medic = rows.slice(4).map((r, i) => {
    assert.match(r[3], new RegExp(`x \\(over #${i + 1}\\)$`), `MeDiC's run ${i + 5} is over the baseline of its kernel: ${r[3]}`);
    return Number.parseFloat(r[3]);
  });
  const means = await tableRows(page, '#hmeans');
  assert.deepEqual(means[0], ['medic-gtx480', '4', '1.000x']);
  assert.match(means[1][0], /l2\.bypass=medic, l2\.insertion=medic, dram\.scheduler=medic_wms/);
  const h4 = 4 / medic.reduce((a, v) => a + 1 / v, 0);
  assert.ok(Math.abs(Number.parseFloat(means[1][2]) - h4) < 0.002, `harmonic mean ${means[1][2]} of ${medic}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the warp-aware DRAM demo overlays GMC and three warp-aware schedulers on bfs', async () => {
  const page = await h.page();
  await ready(page);
  const rows = (await runDemo(page, 'warpaware', 4, 180000)).map((r) => r[0]);
  assert.equal(rows.length, 4);
  for (const [i, s] of ['gmc', 'wg', 'wg_m', 'wg_bw'].entries()) {
    assert.match(rows[i], new RegExp(`dram\\.scheduler=${s}\\b`));
  }
  await openNumbers(page, 'figure[data-chart="divergence"]');
  const head = await page.$$eval('figure[data-chart="divergence"] thead th', (ths) => ths.length);
  assert.equal(head, 5, 'one column per run beside the bins');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the demo wall groups its demos, says how long each takes and tells what to see on demand', async () => {
  const page = await h.page();
  await ready(page);
  const { DEMO_GROUPS } = await import('data:text/javascript,' + encodeURIComponent(
    `export const DEMO_GROUPS = ${readFileSync(new URL('../../www/demos.json', import.meta.url), 'utf8')};`));
  const wall = await page.$$eval('#demo-list .demo-group', (sections) => sections.map((s) => ({
    heading: s.querySelector('h3').textContent,
    labelled: s.getAttribute('aria-labelledby') === s.querySelector('h3').id,
    demos: [...s.querySelectorAll('li')].map((li) => {
      const b = li.querySelector('button');
      const text = document.getElementById(b.getAttribute('aria-describedby'));
      return { id: b.dataset.demo, name: b.textContent, text: text.textContent, open: li.querySelector('details').open, inDetails: text.closest('details') !== null };
    }),
  })));
  assert.deepEqual(wall.map((g) => g.heading), DEMO_GROUPS.map((g) => g.title));
  for (const [gi, g] of wall.entries()) {
    assert.ok(g.labelled, `${g.heading} is labelled by its heading`);
    for (const [di, d] of g.demos.entries()) {
      const want = DEMO_GROUPS[gi].demos[di];
      assert.equal(d.id, want.id);
      assert.match(d.name, new RegExp(`${want.runs.length} runs?, about ${want.seconds} s$`), `${d.id}: ${d.name}`);
      assert.equal(d.text, want.text, `${d.id}: the button is described by its sentence`);
      assert.ok(!d.open && d.inDetails, `${d.id}: the sentence is behind a closed disclosure`);
    }
  }
  await page.click('li:has(button[data-demo="iwarp"]) summary');
  assert.equal(await page.isVisible('#demo-text-iwarp'), true, 'a click on "What to see" opens it');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the TB_bg demo draws TB_bg over time for two coordinated runs', async () => {
  const page = await h.page();
  await ready(page);
  await runDemo(page, 'tb_bg', 2, 180000);
  assert.equal(await page.isHidden('#hmeans'), true, 'one machine on two kernels has no harmonic mean to give');
  const ink = await inkPerCanvas(page);
  const index = await page.$$eval('canvas', (cs) => cs.findIndex((c) => c.closest('figure').dataset.chart === 'tb_bg'));
  assert.ok(index >= 0, 'a TB_bg chart on the page');
  assert.ok(ink[index] > 0.01, `the TB_bg canvas is blank (${ink[index]})`);
  const rows = await tableRows(page, 'figure[data-chart="tb_bg"]');
  for (const kernel of ['conv_separable', 'pvc']) {
    const values = new Set(rows.filter((r) => r[0].includes(kernel)).map((r) => r[2]));
    assert.ok(values.size > 1, `TB_bg of ${kernel} moves: ${[...values]}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the coordinated demo shows L1 hit rate and stall share against always-cache', async () => {
  const page = await h.page();
  await ready(page);
  await runDemo(page, 'coordinated', 2, 180000);
  const head = await page.$$eval('#summary thead th', (ths) => ths.map((t) => t.textContent));
  const hit = head.indexOf('L1 hit');
  const stall = head.indexOf('L1 stall share');
  assert.ok(hit > 0 && stall > 0, `summary columns: ${head}`);
  const rows = await tableRows(page, '#summary');
  assert.equal(rows.length, 2);
  assert.match(rows[1][0], /l1d\.bypass=coordinated/);
  const pct = (s) => Number.parseFloat(s);
  for (const r of rows) {
    assert.match(r[hit], /^\d+\.\d\u00a0%$/);
    assert.ok(pct(r[stall]) > 0 && pct(r[stall]) < 100, `stall share ${r[stall]}`);
  }
  // The numbers the CLI gives for the same runs (docs/reproductions/xie.md).
  assert.ok(pct(rows[1][hit]) > pct(rows[0][hit]), `coordinated raises the L1 hit rate: ${rows[0][hit]} -> ${rows[1][hit]}`);
  assert.ok(pct(rows[1][stall]) < pct(rows[0][stall]), `and lowers the stall share: ${rows[0][stall]} -> ${rows[1][stall]}`);
  await openNumbers(page, 'figure[data-chart="tb_bg"]');
  const tbBg = await page.$$eval('figure[data-chart="tb_bg"] tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.ok(tbBg.length > 0 && tbBg.every((l) => /coordinated/.test(l)), 'only the coordinated run has TB_bg');
  assert.deepEqual(page.errors, []);
  await page.close();
});
