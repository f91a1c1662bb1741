// Runs gallery figures in headless Chromium at one size, each in a fresh page on the page's
// own worker pool (one worker per core), and prints each figure's wall time, its runs and the
// verdict the page gives. Needs a built dist/ (bash scripts/build-web.sh) and Chromium.
//   node scripts/gallery-timing.mjs SIZE [FIGURE...]     (SIZE: tiny, small, paper, paper-sampled)
import { start } from '../tests/e2e/harness.mjs';

const [size, ...wanted] = process.argv.slice(2);
if (!['tiny', 'small', 'paper', 'paper-sampled'].includes(size)) {
  console.error('usage: node scripts/gallery-timing.mjs tiny|small|paper|paper-sampled [FIGURE...]');
  process.exit(2);
}
const h = await start();
const ready = (page) =>
  page.waitForFunction(() => document.getElementById('gallery-app').getAttribute('aria-busy') === 'false', null, { timeout: 60000 });
const first = await h.page('gallery.html');
await ready(first);
const names = await first.$$eval('article.card', (cards) => cards.map((c) => c.dataset.figure));
const workers = (await first.textContent('#g-workers')).trim();
await first.close();
const unknown = wanted.filter((w) => !names.includes(w));
if (unknown.length) {
  console.error(`unknown figures: ${unknown.join(', ')}; the gallery has: ${names.join(', ')}`);
  process.exit(2);
}
console.log(`size ${size}; ${workers}`);
for (const name of wanted.length ? wanted : names) {
  const page = await h.page('gallery.html');
  await ready(page);
  await page.selectOption('#g-size', size);
  const t0 = Date.now();
  await page.click(`button[aria-label="Run ${name}"]`);
  await page.waitForSelector(`#fig-${name}[data-state="running"], #fig-${name}[data-state="error"]`, { timeout: 60000 });
  const runs = (await page.textContent(`#fig-${name} .card-status`)).match(/of (\d+) runs/)?.[1] ?? '?';
  await page.waitForSelector(`#fig-${name}[data-state="done"], #fig-${name}[data-state="error"]`, { timeout: 0 });
  const seconds = (Date.now() - t0) / 1000;
  const failed = (await page.getAttribute(`#fig-${name}`, 'data-state')) === 'error';
  const status = failed ? `failed: ${(await page.textContent(`#fig-${name} .card-status`)).trim()}` : `${runs} runs`;
  const ours = (await page.textContent(`#fig-${name} .ours`)).trim().split(' — ')[0].slice(0, 60);
  console.log(`${name.padEnd(12)} ${seconds.toFixed(1).padStart(7)} s  ${status}  ${ours}`);
  if (page.errors.length) console.log(`  page errors: ${page.errors.join('; ')}`);
  await page.close();
}
await h.close();
