// The figure gallery: a card per paper figure. Run plans the figure's simulations (in
// wasm, from the same definitions as `warpscope figure`), spreads them over one worker per
// core under the card's progress bar, builds the figure from the runs' metrics and draws
// it. Runs and figures are kept in sessionStorage, so a figure whose runs another figure
// already made (SC'14's three share theirs) or one run earlier in the session is instant.
import init, { figure_list, figure_plan, figure_build, figure_draw, figure_fit_height, figure_svg_text, figure_csv, verdict_rules } from '../pkg/warpscope.js';
import { WorkerPool } from './pool.js';
import { set, sizeChoice } from './form.js';
import { download } from './charts.js';
import { FROM_FILE, registerServiceWorker, explainFileProtocol } from './offline.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const EMBED = params.get('embed') === '1';
const SIZES = ['tiny', 'small', 'paper', 'paper-sampled'];
/** How a card names a size. */
const SIZE_WORDS = { 'paper-sampled': 'paper, sampled' };
const cores = Math.max(1, navigator.hardwareConcurrency || 2);
const pool = new WorkerPool(cores);
const cards = new Map(); // name -> card
let figures = [];
let stopping = false;

/** sessionStorage that shrugs off a full or disabled store (the figure still shows). */
const store = {
  get(key) {
    try {
      return sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      sessionStorage.setItem(key, value);
    } catch {
      // Over quota or disabled: the result lives until the page closes.
    }
  },
};

/** FNV-1a over the text in two 32-bit lanes: a short storage key for a whole run spec. */
function digest(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

const runKey = (r) => `ws-run:${digest(JSON.stringify([r.kernel, r.size, r.seed, r.max_cycles ?? null, r.config]))}`;
const figureKey = (name, size, seed) => `ws-fig:${name}:${size}:${seed}`;

/** Indices of `plan`'s runs `todo`, in lists of those that share one warming (sampled,
 * `sample.warming_scheduler` or `warming_rop_skip` set, one kernel, configs equal but for
 * `dram.scheduler` and `l2.rop_skip`): a worker runs each list as one job. Each run's
 * report is the same either way. */
function warmingGroups(plan, todo) {
  const named = (v) => v && v !== 'own';
  const groups = new Map();
  for (const i of todo) {
    const r = plan[i];
    const s = r.config.sample;
    const shares = s && s.windows > 0 && (named(s.warming_scheduler) || named(s.warming_rop_skip)) && r.max_cycles == null;
    const reference = shares && {
      ...r.config,
      dram: { ...r.config.dram, scheduler: named(s.warming_scheduler) ? s.warming_scheduler : r.config.dram.scheduler },
      l2: { ...r.config.l2, rop_skip: named(s.warming_rop_skip) ? s.warming_rop_skip : r.config.l2.rop_skip },
    };
    const key = shares ? JSON.stringify([r.kernel, r.size, r.seed, reference]) : `run ${i}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(i);
  }
  return [...groups.values()];
}

function readSettings() {
  const size = $('g-size').value;
  const text = $('g-seed').value.trim();
  const ok = /^\d+$/.test(text) && Number.isSafeInteger(Number(text));
  $('g-seed-error').textContent = ok ? '' : `"${text}" is not a whole number from 0 to 2^53 - 1; the seed was left as you typed it`;
  $('g-seed').setAttribute('aria-invalid', String(!ok));
  return ok ? { size, seed: Number(text) } : null;
}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}

function embedUrl(name) {
  const url = new URL('gallery.html', location.href);
  url.search = `?embed=1&figure=${name}&size=${$('g-size').value}`;
  return url.href;
}

function makeCard(f) {
  const canvas = el('canvas', { role: 'img' });
  canvas.setAttribute('aria-label', f.title);
  const run = el('button', { type: 'button', textContent: 'Run' });
  run.setAttribute('aria-label', `Run ${f.name}`);
  const stopOne = el('button', { type: 'button', className: 'secondary', textContent: 'Stop', hidden: true });
  stopOne.setAttribute('aria-label', `Stop ${f.name}`);
  stopOne.addEventListener('click', () => pool.cancel(f.name));
  const progress = el('progress', { max: 1, value: 0 });
  progress.hidden = true;
  const status = el('span', { className: 'card-status' });
  const ours = el('p', { className: 'ours' }, el('strong', { textContent: 'Ours: ' }), el('span', { textContent: `Press Run to compute this figure in your browser (${f.runs} simulations).` }));
  const table = el('table');
  const numbers = el('details', {}, el('summary', { textContent: 'Numbers' }), table);
  const tools = el('div', { className: 'chart-tools' });
  const card = {
    f, canvas, run, stopOne, progress, status, ours, table, tools, outcome: null,
    article: el('article', { className: 'card', id: `fig-${f.name}` }),
  };
  for (const [label, fn] of [
    ['SVG', () => download(`${f.name}.svg`, figure_svg_text(card.outcome.figure, 900, 520), 'image/svg+xml')],
    ['CSV', () => download(`${f.name}.csv`, figure_csv(card.outcome.figure), 'text/csv')],
    ['PNG', () => canvas.toBlob((b) => download(`${f.name}.png`, b))],
  ]) {
    const b = el('button', { type: 'button', textContent: label, disabled: true });
    b.setAttribute('aria-label', `Export ${f.name} as ${label}`);
    b.addEventListener('click', () => card.outcome && fn());
    tools.append(b);
  }
  const snippet = el('textarea', { readOnly: true, rows: 2 });
  snippet.setAttribute('aria-label', `iframe snippet for ${f.name}`);
  card.snippet = snippet;
  const embed = el('details', { className: 'embed-snippet' }, el('summary', { textContent: 'Embed in course material' }), snippet);
  card.article.dataset.figure = f.name;
  card.article.dataset.state = 'idle';
  card.article.append(
    el('h3', { textContent: f.title }),
    el('p', { className: 'cite', textContent: `${f.name} · ${f.citation}` }),
    el('p', { className: 'claim' }, el('strong', { textContent: 'Paper: ' }), f.claim),
    ours,
    el('div', { className: 'controls' }, run, stopOne, progress, status),
    canvas, tools, numbers, embed,
  );
  run.addEventListener('click', () => runFigure(card));
  updateSnippet(card);
  return card;
}

function updateSnippet(card) {
  card.snippet.value = `<iframe src="${embedUrl(card.f.name)}" width="920" height="640" style="border:0" title="warpscope: ${card.f.title}" loading="lazy"></iframe>`;
}

function setState(card, state, text = '') {
  card.article.dataset.state = state;
  card.status.textContent = text;
  card.run.hidden = state === 'running' || state === 'waiting';
  card.stopOne.hidden = state !== 'running';
}

/** Runs `card`'s figure; in an embed, only once no other embed of the same course page is
 * running one (a Web Lock shared by same-origin frames), so five embedded figures do not
 * start five worker pools at once. */
async function runFigure(card) {
  if (!EMBED || !navigator.locks) return computeFigure(card);
  setState(card, 'waiting', 'Waiting for another figure on this page to finish…');
  return navigator.locks.request('warpscope-gallery-embed', () => computeFigure(card));
}

/** Plans, runs (reusing stored runs) and shows one figure; resolves when it is drawn. */
async function computeFigure(card) {
  const settings = readSettings();
  if (!settings) return;
  const { size, seed } = settings;
  const key = figureKey(card.f.name, size, seed);
  const kept = store.get(key);
  if (kept) {
    show(card, JSON.parse(kept), size);
    return;
  }
  let plan;
  try {
    plan = figure_plan(card.f.name, size === 'paper-sampled' ? 'paper' : size, seed);
    // Sampled like the CLI's `figure --sample`: a run over a cycle window (sound-fig10's
    // first 20 000 cycles) is shorter than one window and is simulated whole.
    for (const r of plan) {
      if (r.max_cycles != null) continue;
      r.size = sizeChoice(size, r.config);
      // A figure's runs that differ only in their DRAM scheduler or ROP skip take one's warming.
      if (size === 'paper-sampled') {
        if (r.warming_scheduler) set(r.config, 'sample.warming_scheduler', r.warming_scheduler);
        if (r.warming_rop_skip) set(r.config, 'sample.warming_rop_skip', r.warming_rop_skip);
      }
    }
  } catch (e) {
    setState(card, 'error', String(e));
    return;
  }
  setState(card, 'running', `0 of ${plan.length} runs`);
  card.progress.hidden = false;
  card.progress.value = 0;
  const fractions = plan.map(() => 0);
  let finished = 0;
  // Runs still reporting after the figure failed or stopped must not overwrite its status.
  let live = true;
  const update = () => {
    if (!live) return;
    card.progress.value = fractions.reduce((a, b) => a + b, 0) / plan.length;
    card.status.textContent = `${finished} of ${plan.length} runs, on ${pool.size} workers`;
  };
  try {
    const metrics = plan.map((r) => store.get(runKey(r)));
    const done = (i, m) => {
      metrics[i] = m;
      store.set(runKey(plan[i]), m);
      fractions[i] = 1;
      finished++;
    };
    plan.forEach((r, i) => metrics[i] !== null && done(i, metrics[i]));
    update();
    const todo = plan.map((_, i) => i).filter((i) => metrics[i] === null);
    await Promise.all(warmingGroups(plan, todo).map(async (group) => {
      const onProgress = (p) => {
        // A sampled run's bar counts its windows; a whole run's, its thread blocks.
        for (const i of group) fractions[i] = p.windows ? p.windows[0] / p.windows[1] : p.fraction;
        update();
      };
      const ms = group.length > 1
        ? await pool.runShared(group.map((i) => plan[i]), card.f.name, onProgress)
        : [await pool.run(plan[group[0]], card.f.name, onProgress)];
      group.forEach((i, j) => done(i, ms[j]));
      update();
    }));
    const outcome = figure_build(card.f.name, `[${metrics.join(',')}]`);
    store.set(key, JSON.stringify(outcome));
    show(card, outcome, size);
  } catch (e) {
    live = false;
    pool.cancel(card.f.name);
    const msg = e && e.message ? e.message : String(e);
    setState(card, msg === 'cancelled' ? 'idle' : 'error', msg === 'cancelled' ? 'Stopped.' : `Failed: ${msg}`);
  } finally {
    card.progress.hidden = true;
  }
}

function show(card, outcome, size) {
  card.outcome = outcome;
  const v = outcome.verdict;
  const words = { agrees: 'agrees', partly: 'partly agrees', differs: 'differs' };
  const badge = el('span', { className: `badge ${v.agreement}`, textContent: words[v.agreement] || v.agreement });
  card.ours.replaceChildren(el('strong', { textContent: `Ours (${SIZE_WORDS[size] || size}): ` }), badge, ` ${v.summary}`);
  if (outcome.figure.series.some((s) => s.low)) card.ours.append(el('em', { className: 'size-note', textContent: ` Whiskers: ${WHISKERS}` }));
  if (size === 'tiny') {
    card.ours.append(el('em', { className: 'size-note', textContent: ' At tiny size the caches stay cold, far from the paper\'s regime: judge the figure at small or paper size.' }));
  }
  for (const b of card.tools.querySelectorAll('button')) b.disabled = false;
  // Shown first: a hidden canvas has no size to draw at.
  setState(card, 'done', '');
  draw(card);
  const fig = outcome.figure;
  card.table.replaceChildren();
  const head = card.table.createTHead().insertRow();
  for (const h of [fig.x_label, ...fig.series.map((s) => s.label)]) head.append(el('th', { scope: 'col', textContent: h }));
  const body = card.table.createTBody();
  fig.categories.forEach((c, i) => {
    const tr = body.insertRow();
    tr.insertCell().textContent = c;
    for (const s of fig.series) tr.insertCell().textContent = numberText(s, i);
  });
  const ranged = fig.series.some((s) => s.low);
  card.table.createCaption().textContent = ranged ? `${fig.y_label}; ≈ an estimate, its whisker's range in brackets` : fig.y_label;
}

/** What a figure's whiskers are, where its runs were sampled. */
const WHISKERS = 'the central 95 % of the bar over the 400 draws within the sampled runs’ intervals that the verdict is judged on. Like the intervals, they show how the sampled windows vary, not a bias that warming leaves in every window.';

/** A series' number at category `i`, with its whisker's range where it has one. */
function numberText(s, i) {
  const v = s.values[i];
  if (v == null) return '';
  const [lo, hi] = [s.low?.[i], s.high?.[i]];
  return lo == null || hi == null ? Number(v).toFixed(3) : `≈${Number(v).toFixed(3)} (${lo.toFixed(3)}–${hi.toFixed(3)})`;
}

/** A card's chart height on a wide page (CSS pixels). */
const CARD_HEIGHT = 340;

function draw(card) {
  if (!card.outcome) return;
  const { canvas } = card;
  const ratio = window.devicePixelRatio || 1;
  try {
    canvas.width = Math.round(canvas.clientWidth * ratio);
    // A narrow card grows taller rather than squeezing the plot under its legend and labels;
    // an embed fills its frame as it is.
    if (!EMBED) {
      const fit = figure_fit_height(card.outcome.figure, canvas, ratio);
      canvas.style.height = `${Math.max(CARD_HEIGHT, fit)}px`;
    }
    canvas.height = Math.round(canvas.clientHeight * ratio);
    figure_draw(card.outcome.figure, canvas, ratio);
  } catch (e) {
    card.status.textContent = `Could not draw: ${e}`;
  }
}

async function runAll() {
  stopping = false;
  $('g-run-all').disabled = true;
  $('g-stop').disabled = false;
  let i = 0;
  for (const card of cards.values()) {
    if (stopping) break;
    $('g-status').textContent = `Figure ${++i} of ${cards.size}: ${card.f.name}`;
    await runFigure(card);
  }
  const done = [...cards.values()].filter((c) => c.article.dataset.state === 'done').length;
  $('g-status').textContent = `${done} of ${cards.size} figures shown.`;
  $('g-run-all').disabled = false;
  $('g-stop').disabled = true;
}

function stop() {
  stopping = true;
  pool.cancel();
}

function setupEmbed() {
  document.body.classList.add('embed');
  const name = params.get('figure') || '';
  const size = params.get('size') || 'small';
  const valid = figures.map((f) => f.name);
  const problem = !valid.includes(name)
    ? `unknown figure "${name}"; valid figures are: ${valid.join(', ')}`
    : !SIZES.includes(size) ? `unknown size "${size}"; valid sizes are: ${SIZES.join(', ')}` : null;
  if (problem) {
    $('cards').append(el('p', { className: 'error', role: 'alert', textContent: problem }));
    return;
  }
  $('g-size').value = size;
  const card = cards.get(name);
  $('cards').append(card.article);
  card.ours.lastChild.textContent = `Press Run to compute this figure in your browser (${card.f.runs} simulations at ${SIZE_WORDS[size] || size} size).`;
}

async function main() {
  await init();
  figures = figure_list();
  $('g-workers').textContent = `Runs are spread over ${pool.size} workers (one per core) and kept for this browser session.`;
  for (const f of figures) {
    const card = makeCard(f);
    cards.set(f.name, card);
  }
  const rules = $('g-rules-text');
  for (const para of verdict_rules().split('\n\n')) rules.append(el('p', { textContent: para }));
  if (EMBED) {
    setupEmbed();
  } else {
    for (const c of cards.values()) $('cards').append(c.article);
    $('g-run-all').addEventListener('click', runAll);
    $('g-stop').addEventListener('click', stop);
    $('g-size').addEventListener('change', () => cards.forEach(updateSnippet));
    $('g-seed').addEventListener('input', readSettings);
  }
  let timer = null;
  window.addEventListener('resize', () => {
    clearTimeout(timer);
    timer = setTimeout(() => cards.forEach(draw), 150);
  });
  $('gallery-app').setAttribute('aria-busy', 'false');
}

if (FROM_FILE) {
  explainFileProtocol($('g-status'), $('g-status').parentElement);
} else {
  main().then(registerServiceWorker, (e) => {
    $('g-status').textContent = `Could not start the gallery: ${e}`;
  });
}
