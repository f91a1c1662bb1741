// The figure gallery in headless Chromium: every figure computes and draws at the tiny size
// on a pool of workers, exports SVG, embeds on its own, and bad embed links say what is valid;
// at paper, sampled, a kernel's DRAM-scheduler runs share one warming and match the CLI.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, inkOf } from './harness.mjs';

let h;
before(async () => {
  h = await start();
});
after(async () => {
  await h.close();
});

async function canvasInk(page, selector) {
  return (await inkOf(page, selector))[0];
}

async function galleryReady(page) {
  await page.waitForFunction(() => document.getElementById('gallery-app').getAttribute('aria-busy') === 'false', null, {
    timeout: 30000,
  });
}

test('every figure runs at tiny size, draws, states a verdict, and is kept for the session', async () => {
  const page = await h.page('gallery.html');
  await galleryReady(page);
  const names = await page.$$eval('article.card', (cards) => cards.map((c) => c.dataset.figure));
  assert.equal(names.length, 13);
  assert.match(await page.textContent('#g-workers'), /over \d+ workers/);
  await page.selectOption('#g-size', 'tiny');
  const t0 = Date.now();
  await page.click('#g-run-all');
  await page.waitForFunction(() => /figures shown/.test(document.getElementById('g-status').textContent), null, {
    timeout: 600000,
  });
  console.log(`gallery: 13 figures at tiny in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const name of names) {
    const card = `#fig-${name}`;
    assert.equal(await page.getAttribute(card, 'data-state'), 'done', `${name}: ${await page.textContent(`${card} .card-status`)}`);
    const ink = await canvasInk(page, `${card} canvas`);
    assert.ok(ink > 0.01, `${name} is blank (${ink})`);
    assert.match(await page.textContent(`${card} .ours`), /Ours \(tiny\): (agrees|partly agrees|differs) \S/);
    assert.ok((await page.locator(`${card} tbody tr`).count()) > 0, `${name} has a table`);
    assert.match(await page.inputValue(`${card} textarea`), /<iframe src="[^"]*gallery\.html\?embed=1&amp;figure=|<iframe src="[^"]*gallery\.html\?embed=1&figure=/);
  }
  // A second Run uses the kept figure: no simulations.
  const again = Date.now();
  await page.click('#fig-sc14-fig10 button:has-text("Run")');
  await page.waitForFunction(() => document.getElementById('fig-sc14-fig10').dataset.state === 'done');
  assert.ok(Date.now() - again < 2000, 'a kept figure shows at once');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button[aria-label="Export medic-fig11 as SVG"]')]);
  assert.equal(download.suggestedFilename(), 'medic-fig11.svg');
  const svg = await (await download.createReadStream()).toArray();
  assert.match(Buffer.concat(svg).toString(), /^<svg[\s\S]*MeDiC fig\. 11[\s\S]*<\/svg>\s*$/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an embedded figure waits for a click, then runs and draws on its own', async () => {
  const page = await h.page('gallery.html?embed=1&figure=sc14-fig11&size=tiny');
  await page.waitForSelector('#fig-sc14-fig11[data-state="idle"]');
  await page.waitForTimeout(500);
  assert.equal(await page.getAttribute('#fig-sc14-fig11', 'data-state'), 'idle', 'nothing runs before the click');
  await page.click('button[aria-label="Run sc14-fig11"]');
  await page.waitForFunction(() => document.getElementById('fig-sc14-fig11')?.dataset.state === 'done', null, {
    timeout: 120000,
  });
  assert.equal(await page.locator('article.card').count(), 1);
  assert.ok(!(await page.isVisible('#gallery-controls')));
  assert.ok((await canvasInk(page, '#fig-sc14-fig11 canvas')) > 0.01);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('an embed link with an unknown figure names the valid ones', async () => {
  const page = await h.page('gallery.html?embed=1&figure=medic-fig99');
  await page.waitForSelector('#cards .error');
  const text = await page.textContent('#cards .error');
  assert.match(text, /unknown figure "medic-fig99"; valid figures are: medic-fig3, medic-fig11/);
  await page.close();
});

test('Stop cancels the runs of a figure, and a bad seed is kept with its error', async () => {
  const page = await h.page('gallery.html');
  await galleryReady(page);
  await page.selectOption('#g-size', 'small');
  await page.click('#g-run-all');
  await page.waitForFunction(() => document.getElementById('fig-medic-fig3').dataset.state === 'running');
  await page.click('#g-stop');
  await page.waitForFunction(() => /figures shown/.test(document.getElementById('g-status').textContent), null, { timeout: 30000 });
  assert.equal(await page.getAttribute('#fig-medic-fig3', 'data-state'), 'idle');
  assert.equal(await page.textContent('#fig-medic-fig3 .card-status'), 'Stopped.');
  await page.fill('#g-seed', 'x1');
  await page.click('#fig-sc14-fig9 button:has-text("Run")');
  assert.match(await page.textContent('#g-seed-error'), /"x1" is not a whole number/);
  assert.equal(await page.inputValue('#g-seed'), 'x1');
  assert.equal(await page.getAttribute('#fig-sc14-fig9', 'data-state'), 'idle');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('two embeds of one page run one after the other', async () => {
  const page = await h.page('gallery.html?embed=1&figure=sc14-fig11&size=tiny');
  await page.waitForSelector('#fig-sc14-fig11[data-state="idle"]');
  // A course page with two figures: two frames of the same origin.
  await page.setContent(`<iframe id="a" src="${h.base}gallery.html?embed=1&figure=sc14-fig11&size=tiny" width="700" height="500"></iframe>
    <iframe id="b" src="${h.base}gallery.html?embed=1&figure=sc14-fig10&size=tiny" width="700" height="500"></iframe>`);
  const a = await (await page.$('#a')).contentFrame();
  const b = await (await page.$('#b')).contentFrame();
  await a.waitForSelector('#fig-sc14-fig11[data-state="idle"]');
  await b.waitForSelector('#fig-sc14-fig10[data-state="idle"]');
  await a.click('button[aria-label="Run sc14-fig11"]');
  await a.waitForSelector('#fig-sc14-fig11[data-state="running"]');
  // Click the second and read both states in one task, so the first cannot finish in
  // between (a tiny figure takes about a second, and its runs serve the second at once).
  const [first, second] = await page.evaluate(() => {
    const doc = (id) => document.getElementById(id).contentDocument;
    doc('b').querySelector('button[aria-label="Run sc14-fig10"]').click();
    return [doc('a').querySelector('#fig-sc14-fig11').dataset.state, doc('b').querySelector('#fig-sc14-fig10').dataset.state];
  });
  assert.equal(first, 'running');
  assert.equal(second, 'waiting', 'the second waits while the first runs');
  await new Promise((r) => setTimeout(r, 300));
  if (await a.getAttribute('#fig-sc14-fig11', 'data-state') === 'running') {
    assert.equal(await b.getAttribute('#fig-sc14-fig10', 'data-state'), 'waiting', 'and keeps waiting');
  }
  await a.waitForSelector('#fig-sc14-fig11[data-state="done"]', { timeout: 120000 });
  await b.waitForSelector('#fig-sc14-fig10[data-state="done"]', { timeout: 120000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a single figure stops on its own Stop, and tiny results say the caches are cold', async () => {
  const page = await h.page('gallery.html');
  await galleryReady(page);
  await page.selectOption('#g-size', 'small');
  await page.click('button[aria-label="Run sound-fig3"]');
  await page.waitForSelector('#fig-sound-fig3[data-state="running"]');
  await page.click('button[aria-label="Stop sound-fig3"]');
  await page.waitForSelector('#fig-sound-fig3[data-state="idle"]', { timeout: 30000 });
  assert.equal(await page.textContent('#fig-sound-fig3 .card-status'), 'Stopped.');
  assert.match(await page.textContent('#g-rules'), /within a factor of 2[\s\S]*agrees when every check holds/);
  await page.selectOption('#g-size', 'tiny');
  await page.click('button[aria-label="Run sc14-fig11"]');
  await page.waitForSelector('#fig-sc14-fig11[data-state="done"]', { timeout: 120000 });
  assert.match(await page.textContent('#fig-sc14-fig11 .ours'), /caches stay cold/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a figure at paper, sampled: progress counts windows, and the verdict is judged with the runs’ intervals', async () => {
  const page = await h.page('gallery.html');
  await galleryReady(page);
  await page.selectOption('#g-size', 'paper-sampled');
  await page.click('button[aria-label="Run medic-fig3"]');
  await page.waitForSelector('#fig-medic-fig3[data-state="running"]');
  // The bar moves as windows finish, well before any run does.
  await page.waitForFunction(() => {
    const card = document.getElementById('fig-medic-fig3');
    return card.querySelector('progress').value > 0 && /^0 of/.test(card.querySelector('.card-status').textContent);
  }, null, { timeout: 120000 });
  await page.waitForSelector('#fig-medic-fig3[data-state="done"]', { timeout: 400000 });
  const ours = await page.textContent('#fig-medic-fig3 .ours');
  assert.match(ours, /^Ours \(paper, sampled\): (agrees|partly agrees|differs) /);
  assert.match(ours, /Judged with the sampled runs’ 95 % intervals: \d+ of \d+ checks hold|Judged with the sampled runs' 95 % intervals: \d+ of \d+ checks hold/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('at paper, sampled, a kernel’s DRAM-scheduler runs share one warming on a worker, and the figure is the CLI’s', async () => {
  // `warpscope figure sc14-fig11 --size paper --sample 30` (seed 1): its runs of a kernel take
  // GMC's warming, computed once; each run's numbers are the same alone or grouped, natively or here.
  const verdict =
    "partly agrees WG-Bw's utilization is at least WG-M's on 5 of 5 kernels (paper: over 14 % more). The busiest kernel " +
    'keeps the DRAM bus 42.5 % busy under GMC, so there is little bandwidth to win back.';
  const cli = [
    ['bfs', '≈20.324 (8.238–29.821)', '≈20.276 (9.020–30.051)', '≈20.296 (8.602–29.757)', '≈20.343 (8.444–30.198)', '≈20.342 (8.437–30.175)'],
    ['sssp', '≈4.850 (4.529–5.143)', '≈4.848 (4.531–5.149)', '≈4.846 (4.528–5.146)', '≈4.859 (4.525–5.170)', '≈4.858 (4.524–5.169)'],
    ['spmv', '≈28.729 (28.585–28.848)', '≈28.286 (28.124–28.424)', '≈28.254 (28.056–28.422)', '≈28.321 (28.157–28.451)', '≈28.321 (28.157–28.451)'],
    ['pvc', '≈27.405 (24.006–30.253)', '≈27.066 (23.972–29.523)', '≈26.881 (23.314–29.828)', '≈27.115 (24.781–29.019)', '≈27.060 (24.619–29.005)'],
    ['kmeans', '≈42.500 (41.800–43.242)', '≈38.253 (37.335–39.100)', '≈38.278 (37.446–39.082)', '≈38.879 (37.935–39.854)', '≈38.879 (37.935–39.854)'],
  ];
  const page = await h.page('gallery.html');
  await galleryReady(page);
  await page.selectOption('#g-size', 'paper-sampled');
  const t0 = Date.now();
  await page.click('button[aria-label="Run sc14-fig11"]');
  await page.waitForSelector('#fig-sc14-fig11[data-state="done"], #fig-sc14-fig11[data-state="error"]', { timeout: 600000 });
  console.log(`gallery: sc14-fig11 at paper, sampled, in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const ours = (await page.textContent('#fig-sc14-fig11 .ours')).replace(/\s+/g, ' ');
  assert.ok(ours.startsWith(`Ours (paper, sampled): ${verdict}`), ours);
  assert.match(ours, /Whiskers: the central 95 % of the bar over the 400 draws/);
  const rows = await page.$$eval('#fig-sc14-fig11 table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, cli);
  assert.deepEqual(page.errors, []);
  await page.close();
});
