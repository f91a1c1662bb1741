// Replaying an Accel-Sim trace folder in the page: the folder is opened with the picker or
// dropped, read in the worker with progress (gzip inflated by the browser), and replayed
// through the normal run path, giving the CLI's report for the same folder and preset. A
// share link names the trace by folder and hash, and asks for the folder when reopened.
// Coordinated bypassing profiles the trace itself or a second trace folder, as the CLI's
// --profile-trace does. Bad folders are explained beside the trace control. The traces are written at test time
// by the native binary (`warpscope trace export`), which `cargo build --release` makes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { start, ready, finished, seeEveryChart } from './harness.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = `${ROOT}target/release/warpscope`;

let h;
let dir;
let preset;
/** The CLI's JSON report of each trace folder by path, on the page's default preset. */
const cli = new Map();

/** Writes built-in `kernel` at tiny as trace folder `dir/<rel>` and returns its path. */
function exportTrace(kernel, rel, seed = 1) {
  const out = `${dir}/${rel}`;
  execFileSync(BIN, ['trace', 'export', '--kernel', kernel, '--size', 'tiny', '--seed', String(seed), '--out', out], { stdio: 'pipe' });
  return out;
}

/** A copy of folder `from` at `dir/<rel>`, changed by `edit(path)`. */
function variant(from, rel, edit) {
  const out = `${dir}/${rel}`;
  cpSync(from, out, { recursive: true });
  edit(out);
  return out;
}

function cliReport(folder) {
  if (!cli.has(folder)) {
    const text = execFileSync(BIN, ['run', '--trace', folder, '--preset', preset, '--format', 'json', '--quiet'], { encoding: 'utf8' });
    cli.set(folder, JSON.parse(text));
  }
  return cli.get(folder);
}

let plain;
let gzipped;
before(async () => {
  h = await start();
  mkdirSync(`${ROOT}target/tmp`, { recursive: true });
  dir = mkdtempSync(`${ROOT}target/tmp/e2e-trace-`);
  plain = exportTrace('bfs', 'plain/bfs-trace');
  // The same trace with its kernel files gzipped, in a folder of the same name.
  gzipped = variant(plain, 'gzip/bfs-trace', (d) => {
    for (const name of readdirSync(d).filter((n) => n.endsWith('.traceg'))) {
      writeFileSync(`${d}/${name}.gz`, gzipSync(readFileSync(`${d}/${name}`)));
      rmSync(`${d}/${name}`);
    }
  });
  const page = await h.page();
  await ready(page);
  preset = await page.inputValue('#f-preset');
  await page.close();
});
after(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every text the status line shows from now on, collected in the page. */
async function recordStatus(page) {
  await page.evaluate(() => {
    window.__statuses = [];
    new MutationObserver(() => window.__statuses.push(document.getElementById('status').textContent)).observe(
      document.getElementById('status'), { childList: true, characterData: true, subtree: true });
  });
}

async function waitRuns(page, n, timeout = 120000) {
  await page.waitForFunction((k) => window.warpscope && window.warpscope.runs.length === k, n, { timeout });
  return finished(page, timeout);
}

const lastReport = (page) => page.evaluate(() => JSON.parse(window.warpscope.runs.at(-1).report));

/** Opens `folder` with the trace control's folder picker. */
const openFolder = (page, folder) => page.setInputFiles('#f-trace', folder);

test('a trace folder opened in the page replays in the worker with progress and gives the CLI\u2019s report', async () => {
  const page = await h.page();
  await ready(page);
  await recordStatus(page);
  await openFolder(page, plain);
  assert.match(await waitRuns(page, 1), /^Done/);
  assert.deepEqual(await lastReport(page), cliReport(plain), 'the page\u2019s report is the CLI\u2019s');
  const statuses = await page.evaluate(() => window.__statuses);
  assert.ok(statuses.some((s) => /^Reading kernelslist\.g/.test(s)), `the list is read: ${statuses}`);
  assert.ok(statuses.some((s) => /^Reading kernel-1\.traceg \(1 of 10\): \d+\u00a0%$/.test(s)), `reading shows progress: ${statuses}`);
  const label = await page.textContent('#run-list li');
  assert.match(label, /#1 bfs-trace \(trace\) on /, 'the run is named after its folder');
  assert.equal(await page.isDisabled('#f-kernel'), true, 'the kernel field gives way to the trace');
  assert.match(await page.textContent('#kernel-about'), /^Replaying the trace folder "bfs-trace" \(11 files\)/);
  // The form's settings apply, and a choice of kernels runs only those (here: the first).
  await page.fill('#f-kernels', '1');
  await page.click('#run');
  await waitRuns(page, 2);
  assert.match(await page.textContent('#run-list li:nth-child(2)'), /bfs-trace \(trace, kernels 1\)/);
  const one = await lastReport(page);
  assert.deepEqual(one.trace.kernels.map((k) => k.file), ['kernel-1.traceg']);
  await page.click('#trace-clear');
  assert.equal(await page.isDisabled('#f-kernel'), false, 'a built-in kernel can be chosen again');
  assert.match(await page.textContent('#kernel-about'), /^Rodinia breadth-first search/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a gzip kernel file is inflated by the browser and replays as the plain one does', async () => {
  const page = await h.page();
  await ready(page);
  await openFolder(page, gzipped);
  assert.match(await waitRuns(page, 1), /^Done/);
  assert.deepEqual(await lastReport(page), cliReport(gzipped));
  assert.deepEqual(cliReport(gzipped), cliReport(plain), 'the CLI reads the gzip file as the plain one');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('files dropped on the trace control replay as a folder named "trace"', async () => {
  const folder = variant(plain, 'drop/trace', () => {});
  const page = await h.page();
  await ready(page);
  const files = readdirSync(folder).map((name) => ({ name, text: readFileSync(`${folder}/${name}`, 'latin1') }));
  await page.evaluate((fs) => {
    const dt = new DataTransfer();
    for (const f of fs) dt.items.add(new File([f.text], f.name));
    const box = document.getElementById('trace-box');
    box.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    box.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
  assert.match(await waitRuns(page, 1), /^Done/);
  assert.deepEqual(await lastReport(page), cliReport(folder));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a share link names the trace by folder and hash, asks for it, refuses another folder and then reproduces the runs', async () => {
  const other = exportTrace('bfs', 'other/bfs-trace', 2);
  const page = await h.page();
  await ready(page);
  await page.selectOption('#f-size', 'tiny');
  await page.click('#run');
  await waitRuns(page, 1);
  await openFolder(page, plain);
  await waitRuns(page, 2);
  const before = await page.evaluate(() => window.warpscope.runs.map((r) => r.report));
  const sha256 = await page.evaluate(() => window.warpscope.runs[1].spec.trace.sha256);
  // As docs/traces.md says: `sha256sum kernelslist.g kernel-1.traceg ... | sha256sum`.
  const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');
  const read = ['kernelslist.g', ...readFileSync(`${plain}/kernelslist.g`, 'utf8').trim().split('\n')];
  assert.equal(sha256, sha(read.map((n) => `${sha(readFileSync(`${plain}/${n}`))}  ${n}\n`).join('')));
  // An embedded figure cannot ask for a folder: its snippet leaves the trace run out.
  await page.waitForFunction(() => /title="warpscope: [^"]*bfs \(tiny\) on [^"]*"/.test(document.getElementById('embed-snippet').value));
  assert.doesNotMatch(await page.inputValue('#embed-snippet'), /bfs-trace/);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s=v2.'));

  const again = await h.page(page.url().slice(h.base.length));
  // The built-in run opens as before; the trace run waits for its folder.
  await waitRuns(again, 1);
  assert.equal(await again.evaluate(() => window.warpscope.runs[0].report), before[0]);
  const ask = await again.textContent('#trace-ask');
  assert.ok(await again.isVisible('#trace-ask'));
  assert.match(ask, new RegExp(`open the folder "bfs-trace" \\(SHA-256 ${sha256.slice(0, 12)}…\\)`));
  mkdirSync(`${ROOT}target/screens`, { recursive: true });
  await again.locator('#trace-box').screenshot({ path: `${ROOT}target/screens/trace-link-asks.png` });
  // A folder of the same name with other contents is refused, naming what the link needs.
  await openFolder(again, other);
  await again.waitForFunction(() => document.getElementById('f-trace-error').textContent !== '');
  const refused = await again.textContent('#f-trace-error');
  assert.match(refused, /is not the trace this link was made with/);
  assert.match(refused, new RegExp(`"bfs-trace" with SHA-256 ${sha256.slice(0, 12)}`));
  await again.locator('#trace-box').screenshot({ path: `${ROOT}target/screens/trace-link-refuses.png` });
  assert.equal(await again.evaluate(() => window.warpscope.runs.length), 1);
  // The gzip copy holds the same text, so it is the same trace.
  await openFolder(again, gzipped);
  await waitRuns(again, 2);
  assert.deepEqual(await again.evaluate(() => window.warpscope.runs.map((r) => r.report)), before);
  assert.equal(await again.isVisible('#trace-ask'), false, 'nothing is left to ask for');
  assert.equal(await again.textContent('#f-trace-error'), '');
  assert.deepEqual([...page.errors, ...again.errors], []);
  await Promise.all([page.close(), again.close()]);
});

/** The CLI's JSON report of trace `folder` on xie-fermi under coordinated bypassing, its loads
 * profiled on `profile` (without one: on the trace itself). */
function cliProfiled(folder, profile) {
  const args = ['run', '--preset', 'xie-fermi', '--set', 'l1d.bypass=coordinated', '--trace', folder, '--format', 'json', '--quiet'];
  return JSON.parse(execFileSync(BIN, [...args, ...(profile ? ['--profile-trace', profile] : [])], { encoding: 'utf8' }));
}

/** What the CLI says on stderr when `profile` is the profiling trace of `folder`. */
function cliRefusal(folder, profile) {
  const args = ['run', '--preset', 'xie-fermi', '--set', 'l1d.bypass=coordinated', '--trace', folder, '--profile-trace', profile, '--quiet'];
  try {
    execFileSync(BIN, args, { stdio: 'pipe' });
  } catch (e) {
    return e.stderr.toString().trim();
  }
  throw new Error('the CLI ran it');
}

/** A page on xie-fermi with coordinated bypassing chosen. */
async function coordinatedPage(path = '') {
  const page = await h.page(path);
  await ready(page);
  await page.selectOption('#f-preset', 'xie-fermi');
  await page.selectOption('#f-l1d-bypass', 'coordinated');
  return page;
}

const openProfile = (page, folder) => page.setInputFiles('#f-profile', folder);

let spmvRun;
let spmvProfile;
test('coordinated bypassing profiles the trace itself, or another trace folder, and gives the CLI\u2019s reports; a link asks for both folders', async () => {
  // As docs/traces.md: the run's trace and its profiling input, the same kernel on seed 2.
  spmvRun = exportTrace('spmv', 'profiled/spmv-run', 1);
  spmvProfile = exportTrace('spmv', 'profiled/spmv-profile', 2);
  const page = await coordinatedPage();
  assert.equal(await page.isVisible('#profile-box'), false, 'no profile is offered without a trace');
  await openFolder(page, spmvRun);
  assert.match(await waitRuns(page, 1), /^Done/);
  assert.deepEqual(await lastReport(page), cliProfiled(spmvRun), 'self-profiled: the CLI\u2019s run without --profile-trace');
  assert.match(await page.textContent('#run-list li:nth-child(1)'), /#1 spmv-run \(trace, profiled on itself\) on xie-fermi, l1d\.bypass=coordinated/);
  assert.ok(await page.isVisible('#profile-box'));
  assert.match(await page.textContent('#profile-about'), /^Without a profiling trace, l1d\.bypass=coordinated profiles the trace itself, as the CLI does: an oracle/);
  await recordStatus(page);
  await openProfile(page, spmvProfile);
  assert.match(await waitRuns(page, 2), /^Done/);
  const profiled = await lastReport(page);
  assert.deepEqual(profiled, cliProfiled(spmvRun, spmvProfile), 'the CLI\u2019s run with --profile-trace');
  assert.match(await page.textContent('#run-list li:nth-child(2)'), /#2 spmv-run \(trace, profiled on spmv-profile\) on xie-fermi/);
  assert.match(await page.textContent('#profile-open'), /^Profiling trace: spmv-profile \(open another…\)/);
  assert.match(await page.textContent('#profile-about'), /profiles the loads on "spmv-profile" \(2 files\) before each run/);
  const statuses = await page.evaluate(() => window.__statuses);
  assert.ok(statuses.some((s) => /^Reading kernel-1\.traceg of the profiling trace "spmv-profile"/.test(s) || /^Reading kernelslist\.g of the profiling trace/.test(s)), `${statuses}`);
  assert.ok(statuses.includes('Profiling the loads on "spmv-profile"…'), `${statuses}`);
  const before = await page.evaluate(() => window.warpscope.runs.map((r) => r.report));
  const spec = await page.evaluate(() => window.warpscope.runs[1].spec.trace);
  assert.equal(spec.profile.name, 'spmv-profile');
  assert.match(spec.profile.sha256, /^[0-9a-f]{64}$/);
  assert.notEqual(spec.profile.sha256, spec.sha256);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s=v2.'));

  // Reopened, the link asks for the trace and, by name and hash, its profiling trace.
  const again = await h.page(page.url().slice(h.base.length));
  await ready(again);
  const ask = await again.textContent('#trace-ask');
  assert.match(ask, new RegExp(`open the folder "spmv-run" \\(SHA-256 ${spec.sha256.slice(0, 12)}…\\) and, with "Profile with another trace folder", the profiling trace "spmv-profile" \\(SHA-256 ${spec.profile.sha256.slice(0, 12)}…\\)`));
  assert.ok(await again.isVisible('#profile-box'), 'the profile can be opened before the trace');
  mkdirSync(`${ROOT}target/screens`, { recursive: true });
  await again.locator('#trace-box').screenshot({ path: `${ROOT}target/screens/trace-profile-link-asks.png` });
  // The wrong profiling folder is refused by its hash; the self-profiled run still runs.
  await openProfile(again, spmvRun);
  await openFolder(again, spmvRun);
  await again.waitForFunction(() => document.getElementById('f-profile-error').textContent !== '');
  assert.match(await again.textContent('#f-profile-error'), /^"spmv-run" is not the profiling trace this link was made with: .* the link needs the folder "spmv-profile" with SHA-256/);
  assert.equal(await again.evaluate(() => window.warpscope.runs.length), 1);
  await openProfile(again, spmvProfile);
  await waitRuns(again, 2);
  assert.deepEqual(await again.evaluate(() => window.warpscope.runs.map((r) => r.report)), before);
  assert.equal(await again.isVisible('#trace-ask'), false, 'nothing is left to ask for');
  assert.deepEqual([...page.errors, ...again.errors], []);
  await Promise.all([page.close(), again.close()]);
});

test('a malformed, truncated or incomplete profiling trace is explained beside the profile control, as the CLI says it', async () => {
  const lines = readFileSync(`${spmvProfile}/kernel-1.traceg`, 'utf8').split('\n');
  const at = lines.findIndex((l) => / LDG/.test(l));
  const malformed = variant(spmvProfile, 'profiled/bad-line', (d) => {
    writeFileSync(`${d}/kernel-1.traceg`, lines.map((l, i) => (i === at ? '0003 ffffffff zz' : l)).join('\n'));
  });
  const truncated = variant(spmvProfile, 'profiled/cut', (d) => writeFileSync(`${d}/kernel-1.traceg`, lines.slice(0, 200).join('\n')));
  const noList = variant(spmvProfile, 'profiled/no-list', (d) => rmSync(`${d}/kernelslist.g`));
  const page = await coordinatedPage();
  await openFolder(page, spmvRun);
  await waitRuns(page, 1);
  const screens = `${ROOT}target/screens/`;
  for (const [folder, want] of [
    [malformed, cliRefusal(spmvRun, malformed).replace(/^error: l1d\.bypass: /, '')],
    [truncated, cliRefusal(spmvRun, truncated).replace(/^error: l1d\.bypass: /, '')],
    [noList, 'the folder "no-list" has no kernelslist.g; open the folder that holds kernelslist.g and its kernel-N.traceg files.'],
  ]) {
    await page.evaluate(() => {
      document.getElementById('status').textContent = '';
    });
    await openProfile(page, folder);
    await page.waitForFunction(() => /^The trace was not replayed/.test(document.getElementById('status').textContent));
    assert.equal(await page.textContent('#f-profile-error'), want);
    assert.equal(await page.textContent('#f-trace-error'), '');
  }
  assert.match(await page.textContent('#f-profile-error'), /no-list/);
  assert.equal(await page.evaluate(() => window.warpscope.runs.length), 1, 'no refused run joins the runs');
  assert.equal(await page.$eval('#f-profile-error', (e) => Boolean(e.closest('#trace-box'))), true);
  // A profiling trace of another kernel is no error, on the CLI as here.
  const other = exportTrace('bfs', 'profiled/bfs', 2);
  await openProfile(page, other);
  assert.match(await waitRuns(page, 2), /^Done/);
  assert.deepEqual(await lastReport(page), cliProfiled(spmvRun, other));
  assert.equal(await page.textContent('#f-profile-error'), '');
  // Files dropped on the profile row are the profiling trace (the trace box keeps its own).
  const files = readdirSync(spmvProfile).map((name) => ({ name, text: readFileSync(`${spmvProfile}/${name}`, 'latin1') }));
  await page.evaluate((fs) => {
    const dt = new DataTransfer();
    for (const f of fs) dt.items.add(new File([f.text], f.name));
    const row = document.getElementById('profile-box');
    row.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    row.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
  assert.match(await waitRuns(page, 3), /^Done/);
  assert.deepEqual(await lastReport(page), cliProfiled(spmvRun, spmvProfile));
  assert.match(await page.textContent('#run-list li:nth-child(3)'), /spmv-run \(trace, profiled on trace\)/);
  assert.match(await page.textContent('#trace-open'), /^Trace folder: spmv-run/);
  assert.deepEqual(page.errors, []);
  await page.close();

  // What a person sees: the box profiling the trace itself, with a profiling trace chosen,
  // and with a refused one.
  mkdirSync(screens, { recursive: true });
  for (const [w, hgt] of [[1400, 1000], [1024, 768], [390, 844]]) {
    const p = await coordinatedPage();
    await p.setViewportSize({ width: w, height: hgt });
    await openFolder(p, spmvRun);
    await waitRuns(p, 1);
    await p.locator('#trace-box').scrollIntoViewIfNeeded();
    await p.locator('#trace-box').screenshot({ path: `${screens}trace-profile-self-${w}.png` });
    await openProfile(p, spmvProfile);
    await waitRuns(p, 2);
    await p.locator('#trace-box').scrollIntoViewIfNeeded();
    await p.locator('#trace-box').screenshot({ path: `${screens}trace-profile-${w}.png` });
    await openProfile(p, malformed);
    await p.waitForFunction(() => document.getElementById('f-profile-error').textContent !== '');
    await p.locator('#trace-box').screenshot({ path: `${screens}trace-profile-refused-${w}.png` });
    const { scroll, inner } = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
    assert.ok(scroll <= inner + 1, `the page scrolls sideways at ${w} px (${scroll} > ${inner})`);
    assert.deepEqual(p.errors, []);
    await p.close();
  }
});

/** Opens `folder`, typed `kernels` first, and returns the message beside the trace control. */
async function refusal(page, folder, kernels = '') {
  await page.fill('#f-kernels', kernels);
  await page.evaluate(() => {
    document.getElementById('f-trace-error').textContent = '';
    document.getElementById('f-kernels-error').textContent = '';
    document.getElementById('status').textContent = '';
  });
  await openFolder(page, folder);
  await page.waitForFunction(() => /^The trace was not replayed/.test(document.getElementById('status').textContent));
  const text = (id) => page.textContent(id);
  return { trace: await text('#f-trace-error'), kernels: await text('#f-kernels-error'), status: await text('#status') };
}

test('bad folders and kernel choices are explained beside the trace control', async () => {
  const noList = variant(plain, 'bad/no-list', (d) => rmSync(`${d}/kernelslist.g`));
  const noKernel = variant(plain, 'bad/no-kernel', (d) => rmSync(`${d}/kernel-2.traceg`));
  const badList = variant(plain, 'bad/bad-list', (d) => {
    writeFileSync(`${d}/kernelslist.g`, readFileSync(`${d}/kernelslist.g`, 'utf8').replace('kernel-2.traceg', 'launch everything'));
  });
  // The last instruction line of kernel 3 loses all but its PC and mask: found during the replay.
  const lines = readFileSync(`${plain}/kernel-3.traceg`, 'utf8').split('\n');
  const at = lines.findLastIndex((l) => /^[0-9a-f]{4} [0-9a-f]{8} /.test(l));
  lines[at] = lines[at].split(' ').slice(0, 2).join(' ');
  const badLine = variant(plain, 'bad/bad-line', (d) => writeFileSync(`${d}/kernel-3.traceg`, lines.join('\n')));
  const cutGzip = variant(gzipped, 'bad/cut-gzip', (d) => {
    const gz = readFileSync(`${d}/kernel-3.traceg.gz`);
    writeFileSync(`${d}/kernel-3.traceg.gz`, gz.subarray(0, gz.length >> 1));
  });

  const page = await h.page();
  await ready(page);
  let got = await refusal(page, noList);
  assert.match(got.trace, /^the folder "no-list" has no kernelslist\.g; open the folder that holds kernelslist\.g/);
  got = await refusal(page, noKernel);
  assert.match(got.trace, /^kernelslist\.g names kernel-2\.traceg, which is not in the folder "no-kernel"/);
  got = await refusal(page, badList);
  assert.match(got.trace, /^kernelslist\.g:2: expected a kernel trace file name .* found `launch everything`/);
  got = await refusal(page, badLine);
  assert.match(got.trace, new RegExp(`^kernel-3\\.traceg:${at + 1}: `), `a file:line message: ${got.trace}`);
  got = await refusal(page, cutGzip);
  assert.match(got.trace, /^kernel-3\.traceg\.gz is gzip data that is cut short or damaged/);
  got = await refusal(page, plain, '2-x');
  assert.equal(got.kernels, '`2-x` is not a kernel number or range (e.g. 1,3-5)');
  assert.equal(got.trace, '');
  got = await refusal(page, plain, '12');
  assert.match(got.kernels, /^there is no kernel 12: kernelslist\.g lists 10; choose numbers from 1 to 10/);
  assert.equal(await page.evaluate(() => window.warpscope.runs.length), 0, 'no refused trace joins the runs');
  // Each message sits in the trace box, next to the control.
  assert.equal(await page.$eval('#f-kernels-error', (e) => Boolean(e.closest('#trace-box'))), true);
  assert.equal(await page.$eval('#f-trace-error', (e) => Boolean(e.closest('#trace-box'))), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the trace box at 1400, 1024 and 390 px: before, while reading, after the run, and with a refusal', async () => {
  const screens = `${ROOT}target/screens/`;
  mkdirSync(screens, { recursive: true });
  // bfs at small with every address listed: some 40 MB, kernel-3.traceg 26 MB of it.
  const big = `${dir}/screens/bfs-small`;
  execFileSync(BIN, ['trace', 'export', '--kernel', 'bfs', '--size', 'small', '--list-addresses', '--out', big], { stdio: 'pipe' });
  // Its largest kernel launched ten times: long enough to read that the screenshot sees it.
  const long = variant(big, 'screens/bfs-long', (d) => writeFileSync(`${d}/kernelslist.g`, 'kernel-3.traceg\n'.repeat(10)));
  for (const [w, hgt] of [[1400, 1000], [1024, 768], [390, 844]]) {
    const page = await h.page();
    await page.setViewportSize({ width: w, height: hgt });
    await ready(page);
    const builder = page.locator('#builder');
    await page.locator('#trace-box').scrollIntoViewIfNeeded();
    await builder.screenshot({ path: `${screens}trace-box-${w}.png` });
    await openFolder(page, long);
    await page.waitForFunction(() => /^Reading kernel-3\.traceg \([1-7] of 10\)/.test(document.getElementById('status').textContent));
    await builder.screenshot({ path: `${screens}trace-reading-${w}.png` });
    await page.click('#cancel');
    await page.waitForFunction(() => document.getElementById('status').textContent === 'Cancelled.');
    assert.equal(await page.evaluate(() => window.warpscope.runs.length), 0, 'a trace cancelled while read adds no run');
    await openFolder(page, big);
    assert.match(await waitRuns(page, 1, 300000), /^Done/);
    const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
    assert.ok(scroll <= inner + 1, `the page scrolls sideways at ${w} px (${scroll} > ${inner})`);
    await seeEveryChart(page);
    await page.screenshot({ path: `${screens}trace-done-${w}.png`, fullPage: true });
    await refusal(page, big, '11');
    await page.locator('#trace-box').scrollIntoViewIfNeeded();
    await builder.screenshot({ path: `${screens}trace-refused-${w}.png` });
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
