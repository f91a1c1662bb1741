// What a person sees: the page at a projector's, a laptop's and a phone's width with one run
// and with a dozen, the embed snippet's frame and the gallery. Each test saves screenshots
// under target/screens/ (kept by CI) and checks what a screenshot alone cannot prove: no
// sideways scrolling, charts as wide as their column and drawn, the run bar in view after a
// click, and the main thread's long tasks while a demo runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { start, ready, finished, inkOf, seeEveryChart, cpuTicks } from './harness.mjs';

const SCREENS = new URL('../../target/screens/', import.meta.url).pathname;
mkdirSync(SCREENS, { recursive: true });

let h;
before(async () => {
  h = await start();
});
after(async () => {
  await h.close();
});

const WIDTHS = [
  [1400, 1000],
  [1024, 768],
  [390, 844],
];

/** Redraws settle: charts draw one per task after a resize's debounce. */
async function settle(page) {
  await page.waitForTimeout(700);
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 50))));
}

/** The checks at one width: nothing scrolls sideways, every chart is drawn across its column. */
async function checkLayout(page, width, what) {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
  assert.ok(scroll <= inner + 1, `${what} at ${width} px: the page scrolls sideways (${scroll} > ${inner})`);
  const sizes = await page.$$eval('figure.chart canvas', (cs) => cs.map((c) => [c.clientWidth, c.clientHeight, c.parentElement.clientWidth]));
  for (const [w, hgt, column] of sizes) {
    assert.ok(w >= column - 20, `${what} at ${width} px: a ${w} px canvas in a ${column} px column`);
    assert.ok(hgt >= 250, `${what} at ${width} px: a chart ${hgt} px tall`);
  }
  await seeEveryChart(page);
  const ink = await inkOf(page, 'figure.chart canvas');
  assert.ok(ink.every((x) => x > 0.005), `${what} at ${width} px: blank charts ${JSON.stringify(ink)}`);
  const failed = await page.$$eval('.chart-error', (es) => es.map((e) => e.textContent).filter(Boolean));
  assert.deepEqual(failed, [], `${what} at ${width} px`);
}

async function shoot(page, name) {
  await page.screenshot({ path: `${SCREENS}${name}.png`, fullPage: true });
}

/** Long tasks of the main thread between two instants. */
function longTasks(page, from, to) {
  return page.evaluate(([a, b]) => window.__longTasks.filter((l) => l.start >= a && l.start < b).map((l) => Math.round(l.duration)), [from, to]);
}

test('the default demo on a phone: the run bar comes into view, and every chart draws across the screen', async () => {
  const page = await h.page();
  await page.setViewportSize({ width: 390, height: 844 });
  await ready(page);
  await page.click('button[data-demo="stall"]');
  await page.waitForTimeout(800);
  const bar = await page.$eval('#run-bar', (e) => e.getBoundingClientRect().toJSON());
  assert.ok(bar.top >= 0 && bar.bottom <= 844, `the run bar at ${bar.top}-${bar.bottom} after a demo click`);
  assert.match(await finished(page, 60000), /^Done/);
  await settle(page);
  await checkLayout(page, 390, 'the default demo');
  await shoot(page, 'default-demo-390');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a dozen runs stay legible at 1400, 1024 and 390 px, with no main-thread task over 50 ms', async () => {
  const page = await h.page();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await ready(page);
  // The first chart drawn after the page loads compiles the drawing code, which on a busy
  // machine can pass 50 ms once; work repeated for every run would recur. So the demo runs
  // again (from a cleared run list) when it had long tasks, up to three times, and fails when
  // every attempt had them on a machine the hypervisor did not starve.
  let clean = false;
  let starved = 0;
  for (let attempt = 0; attempt < 3 && !clean; attempt++) {
    if (attempt) await page.click('#clear-runs');
    const before = cpuTicks();
    const t0 = await page.evaluate(() => performance.now());
    await page.click('button[data-demo="mpki_heavy"]');
    // Polled every 250 ms, not every frame: polling per frame would add the harness's work
    // to every frame the page draws.
    await page.waitForFunction(() => window.warpscope.runs.length === 12, null, { timeout: 300000, polling: 250 });
    assert.match(await finished(page), /^Done: 12 runs/);
    const t1 = await page.evaluate(() => performance.now());
    const long = await longTasks(page, t0, t1);
    const after = cpuTicks();
    const stolen = after.total > before.total ? (after.steal - before.steal) / (after.total - before.total) : 0;
    console.log(`heavy kernels (12 runs): ${((t1 - t0) / 1000).toFixed(1)} s, ${long.length} long tasks` +
      (long.length ? `, longest ${Math.max(...long)} ms` : '') + `, ${(stolen * 100).toFixed(0)} % of the CPU stolen`);
    clean = long.length === 0;
    if (!clean && stolen >= 0.05) starved += 1;
  }
  if (!clean && starved === 3) console.log('responsiveness not measurable: the hypervisor starved every attempt');
  else assert.ok(clean, 'a main-thread task over 50 ms in every run of the twelve-run demo');
  for (const [w, hgt] of WIDTHS) {
    await page.setViewportSize({ width: w, height: hgt });
    await settle(page);
    await checkLayout(page, w, 'heavy kernels');
    await shoot(page, `heavy-kernels-${w}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the embed snippet\u2019s 720x480 frame shows its chart whole, with no scrollbar, and names what it shows', async () => {
  const page = await h.page();
  await ready(page);
  const snippet = await page.inputValue('#embed-snippet');
  const src = snippet.match(/src="([^"]+)"/)[1];
  const [, w, hgt] = snippet.match(/width="(\d+)" height="(\d+)"/).map(Number);
  const frame = await h.browser.newPage({ viewport: { width: w, height: hgt } });
  frame.errors = [];
  frame.on('pageerror', (e) => frame.errors.push(e.message));
  await frame.goto(src.replace(/^https?:\/\/[^/]+\//, h.base));
  await ready(frame);
  await frame.click('#embed-run');
  assert.match(await finished(frame, 60000), /^Done/);
  await settle(frame);
  const box = await frame.evaluate(() => ({
    sw: document.documentElement.scrollWidth,
    sh: document.documentElement.scrollHeight,
    canvas: document.querySelector('figure.chart canvas').getBoundingClientRect().toJSON(),
  }));
  await shoot(frame, 'embed-720x480');
  assert.ok(box.sw <= w && box.sh <= hgt, `the embed scrolls: ${box.sw}x${box.sh} in ${w}x${hgt}`);
  assert.ok(box.canvas.right <= w && box.canvas.bottom <= hgt, `the chart ends at ${box.canvas.right}x${box.canvas.bottom}`);
  assert.match(snippet, /title="warpscope: [^"]*bfs[^"]*medic-gtx480/, 'the title names the kernel and machine');
  assert.deepEqual(frame.errors, []);
  await Promise.all([page.close(), frame.close()]);
});

test('the gallery at 1024x768 with a figure drawn', async () => {
  const page = await h.page('gallery.html');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.waitForSelector('article.card');
  await page.selectOption('#g-size', 'tiny');
  await page.click('button[aria-label="Run xie-fig7"]');
  await page.waitForSelector('#fig-xie-fig7[data-state="done"]', { timeout: 120000 });
  await settle(page);
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
  assert.ok(scroll <= inner + 1, `the gallery scrolls sideways (${scroll} > ${inner})`);
  await page.$eval('#fig-xie-fig7', (e) => e.scrollIntoView());
  await page.screenshot({ path: `${SCREENS}gallery-1024x768.png` });
  assert.deepEqual(page.errors, []);
  await page.close();
});
