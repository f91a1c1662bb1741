// Offline and file://: after one visit the service worker serves the whole build with the
// network off; a new build is picked up on the next load; opened as a file, the pages say
// how to serve them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { start, ready, finished } from './harness.mjs';

const DIST = new URL('../../dist', import.meta.url).pathname;

let h;
before(async () => {
  h = await start();
});
after(async () => {
  await h.close();
});

const md5 = (bytes) => createHash('md5').update(bytes).digest('hex');

/** The precache list the build injected into `dir`/sw.js: [{ url, revision }]. */
function manifest(dir) {
  const m = readFileSync(join(dir, 'sw.js'), 'utf8').match(/\[\{'revision':[^\]]*\]/);
  assert.ok(m, 'sw.js carries a precache list');
  return JSON.parse(m[0].replaceAll("'", '"'));
}

async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
}

test('after one visit, the page runs and the gallery loads with the network off', async () => {
  const page = await h.page();
  await ready(page);
  await controlled(page);
  let hits = 0;
  const count = () => hits++;
  h.server.on('request', count);
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await page.context().setOffline(true);
  try {
    const response = await page.reload();
    assert.ok(response.fromServiceWorker(), 'the page came from the service worker');
    await ready(page);
    await page.selectOption('#f-size', 'tiny');
    await page.click('#run');
    assert.match(await finished(page), /^Done/);
    assert.equal(await page.evaluate(() => window.warpscope.runs.length), 1);
    const wasm = readdirSync(DIST).find((f) => f.endsWith('.wasm'));
    assert.equal(await page.evaluate((url) => fetch(url).then((r) => r.headers.get('content-type')), wasm), 'application/wasm');
    assert.deepEqual(warnings.filter((w) => /wasm|MIME/i.test(w)), [], 'the cached wasm compiles as it streams');
    await page.goto(`${h.base}gallery.html`);
    await page.waitForFunction(() => document.getElementById('gallery-app').getAttribute('aria-busy') === 'false', null, {
      timeout: 30000,
    });
    assert.equal(await page.locator('article.card').count(), 13);
    assert.equal(hits, 0, 'nothing reached the server while offline');
    assert.deepEqual(page.errors, []);
  } finally {
    h.server.off('request', count);
    await page.close();
  }
});

test('opened as a file, the page and the gallery say how to serve them over http', async () => {
  for (const [file, status, run] of [['index.html', '#status', '#run'], ['gallery.html', '#g-status', '#g-run-all']]) {
    const page = await h.page(pathToFileURL(join(DIST, file)).href);
    const hint = page.locator('.serve-hint');
    await hint.waitFor({ state: 'visible' });
    assert.match(await page.textContent(status), /^This page has to be served over http/);
    assert.equal(await page.isDisabled(run), true, 'nothing can run from a file');
    const text = await hint.textContent();
    assert.match(text, /bash scripts\/start\.sh/);
    assert.ok(text.includes(`python3 -m http.server 8080 --bind 127.0.0.1 --directory ${DIST.replace(/\/$/, '')}`), text);
    await page.waitForTimeout(500); // anything failing late would show up here
    assert.deepEqual(page.errors, [], file);
    await page.close();
  }
});

test('the build revisions every file, and a changed file reaches the next load', async () => {
  // Every emitted file is precached: content-hashed names as they are, the rest by MD5.
  const entries = manifest(DIST);
  const files = readdirSync(DIST).filter((f) => f !== 'sw.js');
  assert.deepEqual(entries.map((e) => e.url).sort(), files.sort());
  for (const { url, revision } of entries) {
    if (revision === null) assert.match(url, /\.[0-9a-f]{8}\.\w+$/, `${url} has a content hash in its name`);
    else assert.equal(revision, md5(readFileSync(join(DIST, url))), `${url}'s revision is its content hash`);
  }

  // A deploy of a copy; then a "new build" changes index.html and, as the build would,
  // its revision in sw.js.
  const dir = mkdtempSync(join(tmpdir(), 'warpscope-deploy-'));
  cpSync(DIST, dir, { recursive: true });
  const site = await start(dir);
  try {
    const page = await site.page();
    await ready(page);
    await controlled(page);
    await page.addInitScript(() => {
      navigator.serviceWorker.addEventListener('controllerchange', () => {
        window.__newWorker = true;
      });
    });
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const next = html.replace('<head>', '<head>\n  <meta name="build" content="next">');
    writeFileSync(join(dir, 'index.html'), next);
    const sw = readFileSync(join(dir, 'sw.js'), 'utf8');
    writeFileSync(join(dir, 'sw.js'), sw.replace(md5(html), md5(next)));
    assert.deepEqual(manifest(dir).find((e) => e.url === 'index.html').revision, md5(next));

    const build = () => page.evaluate(() => document.querySelector('meta[name="build"]')?.content ?? 'first');
    const first = await page.reload();
    assert.ok(first.fromServiceWorker());
    assert.equal(await build(), 'first', 'this load still comes from the old cache');
    await page.waitForFunction(() => window.__newWorker === true, null, { timeout: 30000 });
    await page.reload();
    assert.equal(await build(), 'next', 'the load after the new worker took over is the new build');
    await ready(page);
    assert.deepEqual(page.errors, []);
    await page.close();
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
