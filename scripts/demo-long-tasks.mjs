// Runs every demo of the page once, each in a fresh page at 1400x1000, and prints its wall
// time and the main-thread tasks over 50 ms while it ran (the page must stay responsive while
// a lecture demo runs). Needs a built dist/ (bash scripts/build-web.sh) and Chromium.
//   node scripts/demo-long-tasks.mjs [DEMO_ID...]
import { readFileSync } from 'node:fs';
import { start, ready, finished } from '../tests/e2e/harness.mjs';

const groups = JSON.parse(readFileSync(new URL('../www/demos.json', import.meta.url), 'utf8'));
const demos = groups.flatMap((g) => g.demos);
const wanted = process.argv.slice(2);
const h = await start();
let worst = 0;
for (const demo of demos.filter((d) => !wanted.length || wanted.includes(d.id))) {
  const page = await h.page();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await ready(page);
  const t0 = await page.evaluate(() => performance.now());
  await page.click(`button[data-demo="${demo.id}"]`);
  const status = await finished(page, 600000, 250);
  const t1 = await page.evaluate(() => performance.now());
  const long = await page.evaluate(
    ([a, b]) => window.__longTasks.filter((l) => l.start >= a && l.start < b).map((l) => Math.round(l.duration)),
    [t0, t1],
  );
  worst = Math.max(worst, long.length);
  console.log(`${demo.id.padEnd(14)} ${((t1 - t0) / 1000).toFixed(1).padStart(5)} s  ${long.length} long tasks` +
    (long.length ? ` (${long.join(', ')} ms)` : '') + `  ${status.trim()}`);
  await page.close();
}
await h.close();
process.exit(worst ? 1 : 0);
