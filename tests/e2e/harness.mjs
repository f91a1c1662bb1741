// Shared set-up for the end-to-end tests: serve dist/ on 127.0.0.1 and drive Debian's
// Chromium headless with playwright-core, collecting console errors and long tasks.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { serve } from '../../scripts/serve.mjs';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/**
 * Serves `dir` (dist/ unless told) and launches the browser. Each page gets a fresh
 * context, so no service worker or cache carries over from one page to another.
 */
export async function start(dir = new URL('../../dist', import.meta.url).pathname) {
  const server = await serve(dir, 0);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ARGS });
  const base = `http://127.0.0.1:${server.address().port}/`;
  return {
    base,
    server,
    browser,
    async page(path = '') {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.errors = [];
      page.on('console', (m) => m.type() === 'error' && page.errors.push(m.text()));
      page.on('pageerror', (e) => page.errors.push(e.message));
      await page.addInitScript(() => {
        window.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(new URL(path, base).href); // a full URL (file://…) goes as it is
      return page;
    },
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/**
 * Waits until the page has started. A shared link starts its runs at once, so the "Ready"
 * status may last a single frame; `window.warpscope`, set once start-up is over, does not.
 */
export async function ready(page) {
  await page.waitForFunction(
    () => window.warpscope !== undefined || /^(Ready|Press Run)/.test(document.getElementById('status').textContent),
    null,
    { timeout: 30000 },
  );
}

/** Waits for the run to end. `polling`: every frame by default; a measurement of the page's
 * frames polls every so many ms instead, so the polling adds no work to the frames measured. */
export async function finished(page, timeout = 60000, polling = 'raf') {
  await page.waitForFunction(() => /^(Done|Stopped)/.test(document.getElementById('status').textContent), null, { timeout, polling });
  return page.textContent('#status');
}

/** Share of non-white pixels of each canvas matching `selector`. */
export async function inkOf(page, selector) {
  return page.$$eval(selector, (canvases) =>
    canvases.map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) ink++;
      return ink / (d.length / 4);
    }),
  );
}

/** Scrolls each chart into view as a reader would: the page draws a chart when it is seen. */
export async function seeEveryChart(page) {
  for (const f of await page.$$('figure.chart')) {
    await f.scrollIntoViewIfNeeded();
    await page.waitForTimeout(60);
  }
  await page.waitForTimeout(300); // charts draw one per task
}

/** Share of non-white pixels of every chart canvas on the page, each seen first. */
export async function inkPerCanvas(page) {
  await seeEveryChart(page);
  return inkOf(page, 'canvas');
}

/// CPU time the hypervisor gave other guests (steal) and all CPU time, in ticks, from
/// /proc/stat; zeros where there is none.
export function cpuTicks() {
  try {
    const t = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { steal: t[7] || 0, total: t.reduce((a, b) => a + b, 0) };
  } catch {
    return { steal: 0, total: 0 };
  }
}
