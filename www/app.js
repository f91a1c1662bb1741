// The page: builds the config form from the simulator's schema, runs experiments in the
// worker (built-in kernels, or a trace folder the user opens), keeps finished runs for
// comparison, draws the charts, and handles share links, embed mode and exports.
import init, { presets, kernels, bundles, config_schema, validate_config, chart_list, renamed_paths, profiled_l1_bypass } from '../pkg/warpscope.js';
import { SimClient } from './sim-client.js';
import { ConfigForm, get, set, overlay, sizeChoice } from './form.js';
import { Charts, download } from './charts.js';
import { DEMOS, DEMO_GROUPS } from './demos.js';
import { encodeView, readLink } from './share.js';
import { runNamer } from './labels.js';
import { summarize } from './summary.js';
import { parseSweep, expandSweep, oldPathNote } from './sweep.js';
import { FROM_FILE, registerServiceWorker, explainFileProtocol } from './offline.js';
import { wireTraceBox, showPending, showTrace as showTraceBox, showProfile as showProfileRow } from './trace-box.js';
import { renderSummary } from './summary-tables.js';
import { buildDemoWall } from './demo-wall.js';
import { embedSnippet, setupEmbed } from './embed.js';
import { seconds, timeLeft, readingText, progressText } from './progress-text.js';

const $ = (id) => document.getElementById(id);
// Built (and used once) at load: the first locale-aware format loads locale data, which
// took ~60 ms and must not happen inside a progress update.
const NUM = new Intl.NumberFormat('en-US');
NUM.format(1);
const fmt = (n) => NUM.format(n);
const params = new URLSearchParams(location.search);
const EMBED = params.get('embed') === '1';

const state = {
  presets: [],
  bundles: [],
  renamed: [], // [old path, new path] of every renamed config field
  form: null,
  charts: null,
  client: null,
  runs: [], // { id, label, spec, report (JSON text), summary, checked }
  queue: [], // specs waiting to run (a demo's comparison)
  batch: null, // { total, done, started, runMs: [] }: the runs one click started, for status and time left
  nextRunId: 1,
  paused: false,
  trace: null, // the trace folder opened: { name, files: [[name in the folder, File]] }
  profile: null, // the trace folder opened to profile the trace's loads, as `trace`
  profiled: [], // the l1d.bypass values that profile the loads before the run
  pending: [], // a link's trace runs, waiting for their folder
};

/** The preset with a policy bundle's overrides applied (MeDiC and its rivals, one word each). */
function applyBundle() {
  const b = state.bundles.find((x) => x.name === $('f-bundle').value);
  const config = presetConfig($('f-preset').value);
  if (b) for (const [path, v] of b.sets) set(config, path, v);
  state.form.fill(config);
  $('bundle-about').textContent = bundleAbout(b);
}

/** A bundle's one-line description with its settings; empty for none or the baseline. */
const bundleAbout = (b) => (b && b.sets.length ? `${b.description}: ${b.sets.map(([p, v]) => `${p}=${v}`).join(', ')}` : '');

const { differences, labelFor, legendLabels } = runNamer((name) => presetConfig(name), fmt, (spec) => profiles(spec.config));

/** Whether `config`'s L1 bypass policy profiles the loads before the run (on a trace: on a
 * profiling trace, or the trace itself). */
const profiles = (config) => state.profiled.includes(config?.l1d?.bypass);

function presetConfig(name) {
  const p = state.presets.find((x) => x.name === name);
  if (!p) return null;
  const config = structuredClone(p.config);
  config.sample ??= structuredClone(p.sample);
  return config;
}

/** The current form as a run spec: { preset, config, kernel, size, seed }. "paper
 * (sampled)" is size paper with the config's `sample` section on. With a trace folder open
 * (and `withTrace`), the run replays it: kernel is the folder's name, size `trace`, and
 * `trace` holds the kernels chosen and the profiling trace opened, if any. */
function readSpec(withTrace = true) {
  const preset = $('f-preset').value;
  const seedText = $('f-seed').value.trim();
  const config = state.form.read(presetConfig(preset));
  const t = withTrace && state.trace;
  return {
    preset,
    config,
    kernel: t ? t.name : $('f-kernel').value,
    size: t ? 'trace' : sizeChoice($('f-size').value, config),
    seed: /^\d+$/.test(seedText) ? Number(seedText) : seedText,
    ...(t ? { trace: { kernels: $('f-kernels').value.trim(), ...(state.profile ? { profile: { name: state.profile.name } } : {}) } } : {}),
  };
}

function fillForm(spec) {
  $('f-preset').value = spec.preset;
  describePreset();
  state.form.fill(overlay(presetConfig(spec.preset), spec.config));
  $('f-kernel').value = spec.kernel;
  describeKernel();
  $('f-size').value = spec.size === 'paper' && spec.config.sample?.windows > 0 ? 'paper-sampled' : spec.size;
  $('f-seed').value = String(spec.seed);
  $('f-sweep').value = spec.sweep || '';
}

/** The form as a link left it: its spec, and its policy bundle's name shown as chosen (the
 * link's config already holds the bundle's settings). */
function restoreForm(form) {
  fillForm(form);
  const b = state.bundles.find((x) => x.name === form.bundle);
  if (b) {
    $('f-bundle').value = b.name;
    $('bundle-about').textContent = bundleAbout(b);
  }
}

function specFromDemo(r) {
  const config = presetConfig(r.preset);
  for (const [path, v] of Object.entries(r.sets)) set(config, path, v);
  return { preset: r.preset, config, kernel: r.kernel, size: r.size, seed: r.seed, maxCycles: r.maxCycles };
}

function setStatus(text) {
  $('status').textContent = text;
}

/** Says `text` to screen readers: the start, each finished run of several, the end; not
 * every progress tick, which the visible status shows. */
function announce(text) {
  $('announce').textContent = text;
}

function setRunning(running) {
  $('run').disabled = running;
  $('pause').disabled = !running;
  $('cancel').disabled = !running;
  $('pause').textContent = 'Pause';
  state.paused = false;
  const embedRun = $('embed-run');
  if (embedRun) embedRun.disabled = running;
  $('app').setAttribute('aria-busy', String(running));
}

/** Checks a spec on the page before it goes to the worker; shows errors by field. */
function validate(spec) {
  state.form.clearErrors();
  $('form-error').textContent = '';
  const errors = [...validate_config(JSON.stringify(spec.config))];
  if (typeof spec.seed !== 'number' || !Number.isSafeInteger(spec.seed) || spec.seed < 0) {
    errors.push({ field: 'seed', message: `"${spec.seed}" is not a whole number from 0 to 2^53 - 1` });
  }
  state.form.showErrors(errors, $('form-error'));
  return errors.length === 0;
}

function startNext() {
  const spec = state.queue.shift();
  if (!spec) return;
  if (!EMBED && !validate(spec)) {
    state.queue = [];
    setStatus('Fix the marked fields, then press Run.');
    return;
  }
  state.current = spec;
  state.started = performance.now();
  state.firstProgress = null;
  setRunning(true);
  $('progress').value = 0;
  const b = state.batch;
  setStatus(b.total > 1 ? `Run ${b.done + 1} of ${b.total}: ${labelFor(spec)}…` : `Running ${labelFor(spec)}…`);
  // A link's trace run names the hash its files must have (`expect`); the form's does not.
  const t = spec.trace && state.trace;
  const p = t && spec.trace.profile;
  if (p && !state.profile) {
    const message = `This run profiled its loads on the trace folder "${p.name}" (SHA-256 ${p.sha256.slice(0, 12)}…): open it with "Profile with another trace folder" to run it.`;
    return onInvalid({ errors: [{ field: 'profile', message }] });
  }
  const profile = p && { folder: state.profile.name, files: state.profile.files, name: p.name, expect: p.sha256 };
  const trace = t && { folder: t.name, files: t.files, name: spec.kernel, kernels: spec.trace.kernels, expect: spec.trace.sha256, profile, profiled: profiles(spec.config) };
  state.client.run({ ...spec, trace });
}

/** Runs the form's experiment, once or once per point of its sweep. Every swept config is
 * checked first, so a bad swept value is named beside the sweep before anything runs. */
function runForm() {
  const options = (id) => [...$(id).options].map((o) => o.value);
  const sweep = parseSweep($('f-sweep').value, state.form.schema, { kernel: options('f-kernel'), size: options('f-size').filter((v) => v !== 'paper-sampled') }, state.renamed);
  state.form.clearErrors();
  if (sweep.error) return refuseSweep([sweep.error]);
  const across = state.trace && sweep.axes.find((a) => a.path === 'kernel' || a.path === 'size');
  if (across) return refuseSweep([`a trace replay has no ${across.path} to sweep; sweep its settings or seed, or use a built-in kernel`]);
  // A run whose policy does not profile has no profiling trace (a sweep may vary the policy).
  const unprofiled = (s) => (s.trace?.profile && !profiles(s.config) ? { ...s, trace: { kernels: s.trace.kernels } } : s);
  const specs = expandSweep(readSpec(), sweep.axes).map(unprofiled);
  const swept = new Set(sweep.axes.map((a) => a.path));
  const problems = new Set();
  for (const s of specs) {
    for (const e of validate_config(JSON.stringify(s.config))) {
      if (swept.has(e.field)) problems.add(`${e.field}=${get(s.config, e.field)}: ${e.message}`);
    }
  }
  if (problems.size) return refuseSweep([...problems]);
  runSpecs(specs);
}

function refuseSweep(problems) {
  $('f-sweep-error').textContent = problems.join('; ');
  $('f-sweep').setAttribute('aria-invalid', 'true');
  setStatus('Fix the marked fields, then press Run.');
}

/** Says, beside the status, why a click during a run starts nothing. */
function refuseWhileBusy() {
  const b = state.batch;
  const where = b && b.total > 1 ? ` (run ${b.done + 1} of ${b.total})` : '';
  $('busy-note').textContent = `Still running${where}: press Cancel first, then choose again.`;
  announce($('busy-note').textContent);
}

/** Starts `specs` one after another as one batch, bringing the status, progress and (below
 * them) the first plot into view. A click while a batch runs is refused, and says so. */
function runSpecs(specs, what = '') {
  if (state.client.busy) return refuseWhileBusy();
  $('busy-note').textContent = '';
  state.queue = specs.slice();
  state.batch = { total: specs.length, done: 0, started: performance.now(), runMs: [] };
  announce(`Started ${what || 'the run'}${specs.length > 1 ? `: ${specs.length} runs` : ''}.`);
  if (!EMBED) $('run-bar').scrollIntoView({ block: 'start', behavior: 'smooth' });
  startNext();
}

function onReading(message) {
  $('progress').value = message.overall;
  setStatus(readingText(message));
}

function onProgress({ progress: p }) {
  if (state.firstProgress === null) state.firstProgress = performance.now() - state.started;
  $('progress').value = p.fraction;
  setStatus(progressText(p, state.batch, timeLeft(state.batch, performance.now() - state.started, p.fraction, state.queue.length)));
}

function onDone({ report, error, sha256, profileSha256 }) {
  // A trace run keeps the hash of the files it read (and its profiling trace's), for share links.
  const t = state.current.trace;
  const profile = profileSha256 ? { profile: { ...t.profile, sha256: profileSha256 } } : {};
  const spec = sha256 ? { ...state.current, trace: { ...t, sha256, ...profile } } : state.current;
  if (state.pending.includes(state.current)) {
    state.pending = state.pending.filter((s) => s !== state.current);
    showPending(state.pending);
    showProfile();
  }
  const elapsed = performance.now() - state.started;
  const run = { id: state.nextRunId++, label: labelFor(spec), spec, report, summary: summarize(report), checked: true };
  state.runs.push(run);
  state.lastTiming = { startedAt: state.started, elapsedMs: elapsed, firstProgressMs: state.firstProgress, cycles: run.summary.cycles };
  $('progress').value = 1;
  const b = state.batch;
  b.done += 1;
  b.runMs.push(elapsed);
  setRunning(false);
  showResults();
  if (error) {
    state.queue = [];
    setStatus(`Stopped: ${error}`);
    announce(`Stopped: ${error}`);
  } else if (state.queue.length) {
    announce(`Run ${b.done} of ${b.total} done.`);
    startNext();
  } else {
    const total = performance.now() - b.started;
    const text = b.total > 1
      ? `Done: ${b.total} runs in ${seconds(total)}.`
      : `Done: ${fmt(run.summary.cycles)} cycles in ${seconds(elapsed)}.`;
    setStatus(text);
    announce(text);
  }
}

function onInvalid({ errors }) {
  setRunning(false);
  state.queue = [];
  state.form.showErrors(errors, $('form-error'));
  if (EMBED) $('busy-note').textContent = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  if (errors.some((e) => ['trace', 'kernels', 'profile'].includes(e.field))) {
    setStatus('The trace was not replayed; see the message at the trace folder.');
    $('trace-box').scrollIntoView({ block: 'nearest' });
  } else {
    setStatus(EMBED ? 'The simulator refused this configuration.' : 'The simulator refused this configuration; see the marked fields.');
  }
}

function onCancelled() {
  setRunning(false);
  state.queue = [];
  $('busy-note').textContent = '';
  setStatus('Cancelled.');
  announce('Cancelled.');
}

function onCrash({ message }) {
  setRunning(false);
  state.queue = [];
  $('form-error').textContent = `The simulator crashed: ${message}. It has been restarted; your settings are kept.`;
  setStatus('Crashed; restarted.');
}

function checkedRuns() {
  return state.runs.filter((r) => r.checked);
}

function renderRunList() {
  const ul = $('run-list');
  ul.replaceChildren();
  for (const r of state.runs) {
    const li = document.createElement('li');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = `run-${r.id}`;
    box.checked = r.checked;
    box.addEventListener('change', () => {
      r.checked = box.checked;
      showResults();
    });
    const lab = document.createElement('label');
    lab.htmlFor = box.id;
    lab.textContent = ` #${r.id} ${r.label}`;
    li.append(box, lab);
    ul.append(li);
  }
}

/** The machine a run simulates: its preset and what the form changed, but for `except` fields. */
function machineOf(spec, except = []) {
  const diff = differences(spec).filter((d) => !except.includes(d.slice(0, d.indexOf('='))));
  return `${spec.preset}${diff.length ? `, ${diff.join(', ')}` : ''}`;
}

/** A swept run's machine without its swept fields, their names and its values of them. */
function tuningOf(spec) {
  if (!spec.tuned) return null;
  return { machine: machineOf(spec, spec.tuned), field: spec.tuned.join(' '), setting: spec.tuned.map((p) => `${p}=${get(spec.config, p)}`).join(' ') };
}

function showResults() {
  $('results').hidden = false;
  if (!EMBED) {
    renderRunList();
    renderSummary(checkedRuns(), { fmt, machineOf, tuningOf });
  }
  // Charts draw whole reports; a sampled run has estimates only (the summary shows them).
  const checked = checkedRuns().filter((r) => !r.summary.estimated);
  const labels = legendLabels(checked);
  state.charts.show(checked.map((r, i) => ({ label: labels[i], report: r.report })));
  // Sampled runs alone leave nothing to draw: the note below the table says why.
  $('charts').hidden = checked.length === 0;
  $('sampled-note').hidden = !checkedRuns().some((r) => r.summary.estimated);
  $('one-wave-note').hidden = !checkedRuns().some((r) => r.summary.oneWave > 0);
  if (!EMBED) updateEmbedSnippet();
}

/** What is on screen: the form (with its policy bundle and sweep) and every run drawn. A
 * link cannot carry a trace's files, so its form holds the built-in kernel; a trace run it
 * holds names its folder and hash. */
function currentView() {
  const sweep = $('f-sweep').value.trim();
  const form = { ...readSpec(false), bundle: $('f-bundle').value, ...(sweep ? { sweep } : {}) };
  return { form, runs: checkedRuns().map((r) => r.spec) };
}

async function shareLink(view) {
  const url = new URL(location.href);
  url.search = '';
  url.hash = await encodeView(view);
  return url;
}

/** The iframe snippet shows the runs drawn (or, before any, the form's experiment); an
 * embedded figure cannot ask for a trace folder, so it leaves trace runs out. */
async function updateEmbedSnippet() {
  const view = currentView();
  view.runs = view.runs.filter((r) => !r.trace);
  if (!view.runs.length) view.runs = [view.form];
  const url = await shareLink(view);
  url.search = `?embed=1&chart=${$('embed-chart').value}`;
  const what = view.runs.length === 1 ? labelFor(view.runs[0]) : `${view.runs.length} runs: ${view.runs.map(labelFor).join('; ')}`;
  const title = `warpscope: ${$('embed-chart').selectedOptions[0].textContent}, ${what}`;
  $('embed-snippet').value = embedSnippet(url.href, title);
}

function describeKernel() {
  const k = state.kernels.find(([n]) => n === $('f-kernel').value);
  $('kernel-about').textContent = k ? k[1] : '';
}

function describePreset() {
  const p = state.presets.find((x) => x.name === $('f-preset').value);
  $('preset-about').textContent = p ? p.description : '';
}

/** Whether a folder opened in the trace box may be used now: not while a batch runs, and
 * not if it holds no files (said in the error field `errorId`). */
function acceptFolder(folder, errorId) {
  if (state.client.busy) {
    refuseWhileBusy();
    return false;
  }
  state.form.clearErrors($('trace-box'));
  if (folder.files.length) return true;
  $(errorId).textContent = 'That folder holds no files; open the folder with kernelslist.g and its kernel-N.traceg files.';
  return false;
}

/** Makes `trace` the form's workload and replays it: the link's waiting trace runs if there
 * are any (those of a folder of this name first), else the form's experiment. */
function useTrace(trace) {
  if (!acceptFolder(trace, 'f-trace-error')) return;
  state.trace = trace;
  showTrace();
  if (!state.pending.length) return runForm();
  // Runs still missing their profiling trace go last, so the others run first.
  const mine = (s) => (s.kernel === trace.name ? 0 : 1) + (s.trace.profile && !state.profile ? 2 : 0);
  runSpecs(state.pending.slice().sort((a, b) => mine(a) - mine(b)), 'the link\u2019s trace runs');
}

/** The trace box, the kernel fields and the profiling row as the open folders leave them. */
function showTrace() {
  showTraceBox(state.trace, describeKernel);
  showProfile();
}

/** The profiling row, for the form's L1 bypass policy if it profiles the loads. */
function showProfile() {
  const config = state.form.read(presetConfig($('f-preset').value));
  showProfileRow(state, profiles(config) && config.l1d.bypass);
}

/** Makes `folder` the trace the loads are profiled on, and replays as opening a trace does. */
function useProfile(folder) {
  if (!acceptFolder(folder, 'f-profile-error')) return;
  state.profile = folder;
  if (state.trace) useTrace(state.trace);
  else showProfile();
}

/** A demo pressed: its runs, after the ones on screen are unchecked. */
function runDemo(d) {
  if (state.client.busy) return refuseWhileBusy();
  const specs = d.runs.map(specFromDemo);
  fillForm(specs[specs.length - 1]);
  for (const r of state.runs) r.checked = false;
  runSpecs(specs, `"${d.title}"`);
}

function wireControls() {
  $('run-form').addEventListener('submit', (e) => {
    e.preventDefault();
    runForm();
  });
  $('pause').addEventListener('click', () => {
    state.paused = !state.paused;
    if (state.paused) state.client.pause();
    else state.client.resume();
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
  });
  $('cancel').addEventListener('click', () => state.client.cancel());
  $('f-preset').addEventListener('change', () => {
    state.form.fill(presetConfig($('f-preset').value));
    $('f-bundle').value = 'baseline';
    $('bundle-about').textContent = '';
    describePreset();
  });
  $('f-bundle').addEventListener('change', applyBundle);
  $('f-kernel').addEventListener('change', describeKernel);
  // A path typed the old way still sweeps; the note beside the box names its new path.
  $('f-sweep').addEventListener('input', () => { $('f-sweep-note').textContent = oldPathNote($('f-sweep').value, state.renamed); });
  $('share').addEventListener('click', async () => {
    const url = await shareLink(currentView());
    history.replaceState(null, '', url);
    try {
      await navigator.clipboard.writeText(url.href);
      setStatus('Share link copied to the clipboard (it is also in the address bar).');
    } catch {
      setStatus('Share link is in the address bar.');
    }
  });
  $('clear-runs').addEventListener('click', () => {
    state.runs = [];
    $('results').hidden = true;
  });
  $('export-json').addEventListener('click', () => {
    const runs = checkedRuns();
    const text = runs.length === 1 ? runs[0].report : `[${runs.map((r) => r.report).join(',')}]`;
    download('warpscope-report.json', text, 'application/json');
  });
  $('embed-chart').addEventListener('change', updateEmbedSnippet);
  $('run-form').addEventListener('change', updateEmbedSnippet);
  $('run-form').addEventListener('change', showProfile);
  wireTraceBox({
    onFolder: useTrace,
    onClear: () => {
      state.trace = null;
      state.form.clearErrors($('trace-box'));
      showTrace();
    },
    onProfile: useProfile,
    onSelf: () => {
      state.profile = null;
      state.form.clearErrors($('trace-box'));
      showProfile();
    },
  });
}

async function main() {
  await init();
  state.presets = presets();
  state.bundles = bundles();
  state.renamed = renamed_paths();
  state.profiled = profiled_l1_bypass();
  for (const b of state.bundles) $('f-bundle').append(new Option(b.name, b.name));
  state.kernels = kernels();
  for (const p of state.presets) $('f-preset').append(new Option(p.name, p.name));
  for (const [k] of state.kernels) $('f-kernel').append(new Option(k, k));
  $('f-kernel').value = 'bfs';
  state.form = new ConfigForm({ main: $('main-fields'), all: $('all-fields'), schema: config_schema() });
  state.form.fill(presetConfig(state.presets[0].name));
  describePreset();
  describeKernel();
  const urlProblems = [];
  let only = EMBED ? params.get('chart') || 'divergence' : null;
  const chartNames = chart_list().map((c) => c.name);
  if (only && !chartNames.includes(only)) {
    urlProblems.push(`this link asks for an unknown chart "${only}"; valid charts are: ${chartNames.join(', ')}. Showing divergence.`);
    only = 'divergence';
  }
  state.charts = new Charts($('charts'), { only });
  for (const c of state.charts.charts) $('embed-chart').append(new Option(c.title, c.name));
  state.client = new SimClient({
    reading: onReading,
    progress: onProgress,
    done: onDone,
    invalid: onInvalid,
    cancelled: onCancelled,
    crash: onCrash,
    paused: () => setStatus('Paused.'),
    resumed: () => setStatus('Resumed…'),
  });
  buildDemoWall($('demo-list'), DEMO_GROUPS, runDemo);
  wireControls();
  let shared = null;
  try {
    shared = await readLink(location.hash, state);
  } catch (err) {
    urlProblems.push(`${err.message || err} The page starts with its defaults instead.`);
  }
  // Shown where the user looks first: beside the form, or in an embed's bar.
  if (urlProblems.length) {
    const note = urlProblems.join(' ');
    $('form-error').textContent = note;
    if (EMBED) $('busy-note').textContent = note;
  }
  if (shared) restoreForm(shared.form);
  $('app').setAttribute('aria-busy', 'false');
  await updateEmbedSnippet();
  // "Ready" and `window.warpscope` appear together, with no await between them.
  setStatus('Ready. Pick a demo or press Run.');
  const linked = shared && (shared.runs.length ? shared.runs : [shared.form]);
  // A link's trace runs wait for their folder; its other runs start at once.
  const runs = linked && linked.filter((s) => !s.trace);
  if (EMBED) {
    if (linked && runs.length < linked.length) {
      $('busy-note').textContent = 'This figure has trace runs, which an embedded figure cannot replay (it cannot open their folder); open the link in the page for them.';
    }
    const specs = runs && runs.length ? runs : [specFromDemo(DEMOS[0].runs[0])];
    const what = specs.length === 1 ? labelFor(specs[0]) : `${specs.length} runs: ${legendLabels(specs.map((s, i) => ({ id: i + 1, spec: s, label: labelFor(s) }))).join('; ')}`;
    setupEmbed({ what, title: specs.map(labelFor).join('\n'), onRun: () => {
      state.runs = [];
      runSpecs(specs);
    } });
    setStatus('Press Run to simulate this figure.');
  } else {
    state.pending = linked ? linked.filter((s) => s.trace) : [];
    showPending(state.pending);
    showProfile();
    if (state.pending.length) setStatus('Ready. This link\u2019s trace runs wait for their folder: open it at the trace box.');
    if (shared && !shared.runs.length && shared.form.sweep) runForm();
    else if (runs && runs.length) runSpecs(runs, 'the shared runs');
  }
  window.warpscope = state;
}

if (FROM_FILE) {
  explainFileProtocol($('status'), $('status').parentElement);
} else {
  main().then(registerServiceWorker, (err) => {
    $('status').textContent = `The simulator could not start: ${err.message || err}`;
    console.error(err);
  });
}

