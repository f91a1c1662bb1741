// Shareable links: what is on screen, in the URL hash, deflated and base64url-encoded behind
// a version tag, e.g. `#s=v2.<data>`. A v2 link holds the form (its run spec, policy bundle
// and sweep) and every run drawn, each a whole spec (preset, config, kernel, size, seed and
// cycle window), so it reopens the same comparison. v1 links (one run) still open.
// A run that replayed a trace folder cannot carry its files: its spec has size `trace`, the
// folder's name as `kernel` and `trace: { kernels, sha256 }` (the kernels chosen and the
// hash of the files it read), with `profile: { name, sha256 }` when its loads were profiled
// on another trace folder, and the page asks for the folders when the link reopens.

const VERSION = 'v2';
const SPEC_KEYS = ['preset', 'config', 'kernel', 'size', 'seed'];
/** A link's data past this many characters is not one this page made (a dozen runs take a
 * few KB); its decompressed JSON is cut off past `MAX_JSON`. */
const MAX_HASH = 200000;
const MAX_JSON = 4000000;

async function pipe(bytes, stream, limit = Infinity) {
  const reader = new Blob([bytes]).stream().pipeThrough(stream).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      reader.cancel();
      throw new Error('too large');
    }
    parts.push(value);
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

function toBase64Url(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** `{ form, runs }` as a hash: `form` a spec with its `bundle` and `sweep`, `runs` specs. */
export async function encodeView(view) {
  const json = new TextEncoder().encode(JSON.stringify(view));
  return `s=${VERSION}.${toBase64Url(await pipe(json, new CompressionStream('deflate-raw')))}`;
}

function checkSpec(spec, what) {
  if (!spec || typeof spec !== 'object') throw new Error(`this link is damaged: ${what} is not a run.`);
  for (const k of SPEC_KEYS) {
    if (!(k in spec)) throw new Error(`this link is damaged: ${what} has no ${k}.`);
  }
}

/** The view in a `#s=...` hash as `{ form, runs }`, or null; throws on a corrupt link or one
 * of an unknown version. */
export async function decodeView(hash) {
  if (!/^#?s=/.test(hash)) return null;
  if (hash.length > MAX_HASH) {
    throw new Error(`this link is too long to be a warpscope link (${Math.round(hash.length / 1000)} KB of data; one made here takes a few KB).`);
  }
  const m = /^#?s=([^.]+)\.(.+)$/.exec(hash);
  if (!m) throw new Error('this link is damaged: after "#s=" it should have a version, a dot and its data.');
  if (m[1] !== VERSION && m[1] !== 'v1') {
    throw new Error(`this link was made by a different version of warpscope (${m[1]}).`);
  }
  let text;
  try {
    text = new TextDecoder().decode(await pipe(fromBase64Url(m[2]), new DecompressionStream('deflate-raw'), MAX_JSON));
  } catch {
    throw new Error('this link is damaged: its data cannot be decompressed.');
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('this link is damaged: its data is not readable.');
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new Error('this link is damaged: its data is not a set of runs.');
  }
  if (m[1] === 'v1') {
    checkSpec(data, 'it');
    return { form: data, runs: data.sweep ? [] : [data] };
  }
  checkSpec(data.form, 'its form');
  if (!Array.isArray(data.runs)) throw new Error('this link is damaged: it has no list of runs.');
  data.runs.forEach((r, i) => checkSpec(r, `run ${i + 1}`));
  return { form: data.form, runs: data.runs };
}

/** Moves the value at dotted path `from` of `config` to `to`, unless `to` is given too (the
 * simulator then names both). */
function moveField(config, from, to) {
  const steps = from.split('.');
  const key = steps.pop();
  const parent = steps.reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), config);
  if (!parent || typeof parent !== 'object' || !(key in parent)) return;
  const path = to.split('.');
  const last = path.pop();
  let node = config;
  for (const k of path) {
    if (node[k] === undefined) node[k] = {};
    node = node[k];
    if (!node || typeof node !== 'object') return;
  }
  if (last in node) return;
  node[last] = parent[key];
  delete parent[key];
}

/** A link's view with the settings renamed since it was made (`renamed`: the simulator's
 * `[old path, new path]` pairs) under their new paths: in every run's and the form's config,
 * sweep and tuned fields. */
function renameFields(view, renamed) {
  const now = (path) => (renamed.find(([old]) => old === path) || [path, path])[1];
  for (const spec of [view.form, ...view.runs]) {
    if (spec.config && typeof spec.config === 'object') {
      for (const [old, to] of renamed) moveField(spec.config, old, to);
    }
    if (typeof spec.sweep === 'string') {
      spec.sweep = spec.sweep.replace(/([^\s=]+)=/g, (_, path) => `${now(path)}=`);
    }
    if (Array.isArray(spec.tuned)) spec.tuned = spec.tuned.map(now);
  }
  return view;
}

/** What a link's run names that this build does not have (a preset of `presets`, a kernel of
 * `kernels`, a size), in words; null when it names nothing unknown. Its config is checked
 * field by field when it runs. */
function unknownNames(spec, presets, kernels) {
  if (!presets.some((p) => p.name === spec.preset)) {
    return `this link names an unknown preset "${spec.preset}"; valid presets are: ${presets.map((p) => p.name).join(', ')}.`;
  }
  if (spec.trace !== undefined) return damagedTrace(spec);
  if (!kernels.some(([k]) => k === spec.kernel)) {
    return `this link names an unknown kernel "${spec.kernel}"; valid kernels are: ${kernels.map(([k]) => k).join(', ')}.`;
  }
  if (!['tiny', 'small', 'paper'].includes(spec.size)) {
    return `this link names an unknown size "${spec.size}"; valid sizes are: tiny, small, paper.`;
  }
  if (!spec.config || typeof spec.config !== 'object') return 'this link is damaged: its config is not a config.';
  return null;
}

/** What is wrong with a trace run's spec in a link, or null. */
function damagedTrace(spec) {
  const t = spec.trace;
  if (!t || typeof t !== 'object' || typeof spec.kernel !== 'string' || spec.size !== 'trace') {
    return 'this link is damaged: a trace run lacks its folder name or size.';
  }
  if (typeof t.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(t.sha256)) return `this link is damaged: the trace "${spec.kernel}" has no SHA-256.`;
  if (typeof t.kernels !== 'string') return `this link is damaged: the trace "${spec.kernel}" has no choice of kernels.`;
  const p = t.profile;
  if (p !== undefined && (!p || typeof p.name !== 'string' || typeof p.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(p.sha256))) {
    return `this link is damaged: the trace "${spec.kernel}" names a profiling trace without its name or SHA-256.`;
  }
  if (!spec.config || typeof spec.config !== 'object') return 'this link is damaged: its config is not a config.';
  return null;
}

/** The view the page link `hash` carries, its old paths renamed by `renamed`, or null if it
 * carries none. Throws, saying why, for a link that cannot be read or that names a preset or
 * kernel the page does not have (`presets`, `kernels`). */
export async function readLink(hash, { renamed, presets, kernels }) {
  const view = await decodeView(hash);
  if (!view) return null;
  renameFields(view, renamed);
  const bad = [view.form, ...view.runs].map((s) => unknownNames(s, presets, kernels)).find(Boolean);
  if (bad) throw new Error(bad);
  return view;
}
