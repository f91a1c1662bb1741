// The worker owns the simulator. It steps it in chunks of about 30 ms, posts small
// progress messages at least every 100 ms, obeys pause / resume / cancel between
// chunks, and posts the final report as JSON text (the same bytes as the CLI's), or for
// the gallery just the figure metrics of the run. A trace run first reads the folder's
// files here, in chunks with progress, inflating gzip ones with the browser's
// DecompressionStream, and hashes what it read so a share link can name the trace; so
// is the trace a policy that profiles the loads reads instead of it (`--profile-trace`).
import init, { WasmSim, TraceFolder } from '../pkg/warpscope.js';

const ready = init();
const CHUNK_MS = 30;
const PROGRESS_MS = 100;

let current = null; // { id, sim, paused, cancelled }

// Registered synchronously so no message is lost while the wasm loads.
self.onmessage = async (event) => {
  const msg = event.data;
  try {
    await ready;
  } catch (err) {
    self.postMessage({ type: 'crash', message: `could not load the simulator: ${err}` });
    return;
  }
  if (msg.type === 'run') start(msg);
  else if (msg.type === 'pause' && current) current.paused = true;
  else if (msg.type === 'resume' && current) {
    current.paused = false;
    self.postMessage({ type: 'resumed', id: current.id });
  } else if (msg.type === 'cancel' && current) current.cancelled = true;
};

/** Yields to the event loop so pending messages (pause, cancel) are handled. */
function yieldToEvents() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(0);
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const LIST = 'kernelslist.g';
/** The most a trace may hold once inflated: the page keeps every file it replays in memory. */
const MAX_TRACE_BYTES = 1 << 30;
/** Thrown out of reading when the run is cancelled. */
const CANCELLED = Symbol('cancelled');

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
const refuse = (field, message) => [{ field, message }];

/** `file`'s bytes, read a chunk at a time (`onBytes` counts them as they come), gzip
 * inflated; throws `[{field, message}]` in words for a damaged or unreadable file. */
async function readFile(run, name, file, field, onBytes) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  let stream = file.stream().pipeThrough(new TransformStream({ transform(chunk, out) { onBytes(chunk.length); out.enqueue(chunk); } }));
  if (gzip) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const parts = [];
  let size = 0;
  try {
    for (;;) {
      if (run.cancelled) throw CANCELLED;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_TRACE_BYTES) {
        throw refuse(field, `${name} is over 1 GB of text; the page holds a trace in memory, so replay one this large with the CLI (warpscope run --trace).`);
      }
      parts.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    if (err === CANCELLED || Array.isArray(err)) throw err;
    throw refuse(field, gzip
      ? `${name} is gzip data that is cut short or damaged, so it cannot be inflated (${err.message || err}).`
      : `${name} cannot be read (${err.message || err}); open the folder again.`);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}

/**
 * Reads trace `t` ({ folder, files: [[name, File]], kernels, expect }) for run `run`:
 * kernelslist.g, then the kernel files it names that `kernels` keeps, posting progress
 * (`profile`: the name of the profiling trace being read). Returns { traceFolder, sha256 }:
 * the SHA-256 of the lines "HASH  NAME" of each file read (its text, as sha256sum prints
 * them), in reading order. Throws `[{field, message}]`, the field `trace` or, for a
 * profiling trace, `profile`.
 */
async function readTrace(run, t, profile) {
  const field = profile === undefined ? 'trace' : 'profile';
  const what = profile === undefined ? 'trace' : 'profiling trace';
  const files = new Map(t.files);
  const find = (name) => (files.has(name) ? [name, files.get(name)] : files.has(`${name}.gz`) ? [`${name}.gz`, files.get(`${name}.gz`)] : null);
  if (!find(LIST)) {
    throw refuse(field, `the folder "${t.folder}" has no ${LIST}; open the folder that holds ${LIST} and its kernel-N.traceg files.`);
  }
  const folder = new TraceFolder(t.kernels);
  try {
    const lines = [];
    const add = async (name, [stored, file], index, count, base, total) => {
      let got = 0;
      let posted = 0;
      const bytes = await readFile(run, stored, file, field, (n) => {
        got += n;
        const now = performance.now();
        if (now - posted >= PROGRESS_MS) {
          posted = now;
          self.postMessage({ type: 'reading', id: run.id, file: stored, index, count, fraction: got / Math.max(1, file.size), overall: (base + got) / Math.max(1, total), profile });
        }
      });
      lines.push(`${hex(await crypto.subtle.digest('SHA-256', bytes))}  ${name}\n`);
      folder.add(name, bytes);
    };
    await add(LIST, find(LIST), 0, 1, 0, Infinity);
    let names;
    try {
      names = folder.kernel_files();
    } catch (errors) {
      // The trace kernels choice applies to a profiling trace too, as --kernels does.
      if (!profile || !Array.isArray(errors)) throw errors;
      throw errors.map((e) => ({ field, message: e.field === 'kernels' ? `trace kernels chooses the profiling trace's kernels too: ${e.message}` : e.message }));
    }
    const missing = names.filter((n) => !find(n));
    if (missing.length) {
      const which = missing.length === 1 ? `${missing[0]}, which is` : `${missing.join(', ')}, which are`;
      throw refuse(field, `${LIST} names ${which} not in the folder "${t.folder}" (nor as .gz); open the whole trace folder.`);
    }
    const total = names.reduce((n, name) => n + find(name)[1].size, 0);
    let base = 0;
    for (const [i, name] of names.entries()) {
      await add(name, find(name), i + 1, names.length, base, total);
      base += find(name)[1].size;
    }
    const sha256 = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(lines.join(''))));
    if (t.expect && t.expect !== sha256) {
      throw refuse(field, `"${t.folder}" is not the ${what} this link was made with: its files hash to SHA-256 ${sha256.slice(0, 12)}…, and the link needs the folder "${t.name}" with SHA-256 ${t.expect.slice(0, 12)}…, as it was when the link was made.`);
    }
    return { traceFolder: folder, sha256 };
  } catch (err) {
    folder.free();
    throw err;
  }
}

/** The simulator of a run message: a built-in kernel, runs of one that share a warming
 * (`configs`), or a trace read first, with the trace that profiles its loads
 * (`trace.profile`; without one, when `trace.profiled`, itself). */
async function open(run, { config, configs, kernel, size, seed, trace }) {
  if (configs) return { sim: WasmSim.shared(JSON.stringify(configs), kernel, size, seed) };
  if (!trace) return { sim: new WasmSim(JSON.stringify(config), kernel, size, seed) };
  const { traceFolder, sha256 } = await readTrace(run, trace);
  const p = trace.profile;
  let profile;
  try {
    profile = p && (await readTrace(run, { ...p, kernels: trace.kernels }, p.name));
  } catch (err) {
    traceFolder.free();
    throw err;
  }
  if (trace.profiled) self.postMessage({ type: 'reading', id: run.id, profiling: p ? p.name : trace.name, overall: 1 });
  try {
    const sim = WasmSim.trace(JSON.stringify(config), traceFolder, trace.name, seed, profile && profile.traceFolder, p ? p.name : '');
    return { sim, sha256, ...(profile ? { profileSha256: profile.sha256 } : {}) };
  } catch (errors) {
    // The profiling pass's problems (the CLI's `l1d.bypass: the profiling pass cannot read
    // ...`) are the profiling trace's: said beside it.
    if (!Array.isArray(errors)) throw errors;
    throw errors.map((e) => (e.field === 'l1d.bypass' && /^the profiling/.test(e.message) ? { field: p ? 'profile' : 'trace', message: e.message } : e));
  }
}

async function start(msg) {
  const { id, maxCycles, metrics } = msg;
  if (current) current.cancelled = true;
  const run = { id, paused: false, cancelled: false };
  current = run;
  let sim;
  let hashes;
  try {
    ({ sim, ...hashes } = await open(run, msg));
  } catch (errors) {
    if (current === run) current = null;
    if (errors === CANCELLED) self.postMessage({ type: 'cancelled', id });
    else self.postMessage({ type: 'invalid', id, errors: Array.isArray(errors) ? errors : [{ field: 'config', message: String(errors) }] });
    return;
  }
  let cycles = 2000;
  let lastPost = 0;
  // A run may stop at a cycle limit, like the CLI's --max-cycles (its report then says completed: false).
  const limit = Number.isSafeInteger(maxCycles) && maxCycles > 0 ? maxCycles : Infinity;
  try {
    for (;;) {
      if (run.cancelled) {
        self.postMessage({ type: 'cancelled', id, progress: sim.progress() });
        break;
      }
      if (run.paused) {
        self.postMessage({ type: 'paused', id, progress: sim.progress() });
        while (run.paused && !run.cancelled) await sleep(20);
        continue;
      }
      const t0 = performance.now();
      const left = limit - sim.progress().cycle;
      const done = sim.step(Math.max(1, Math.min(cycles, left))) || left <= cycles;
      const dt = performance.now() - t0;
      cycles = Math.max(100, Math.min(5_000_000, Math.round(cycles * Math.min(4, CHUNK_MS / Math.max(dt, 0.5)))));
      const now = performance.now();
      if (done || now - lastPost >= PROGRESS_MS || lastPost === 0) {
        self.postMessage({ type: 'progress', id, progress: sim.progress() });
        lastPost = now;
      }
      if (done) {
        const unread = sim.trace_error();
        if (unread) {
          self.postMessage({ type: 'invalid', id, errors: refuse('trace', unread) });
          break;
        }
        // Runs sharing a warming report a list of figure metrics, one per config.
        const report = msg.configs
          ? Array.from({ length: sim.run_count() }, (_, i) => sim.metrics_json_of(i))
          : metrics ? sim.metrics_json() : sim.report_json();
        self.postMessage({ type: 'done', id, report, error: sim.error() ?? null, ...hashes });
        break;
      }
      await yieldToEvents();
    }
  } catch (err) {
    self.postMessage({ type: 'crash', id, message: `${err && err.message ? err.message : err}` });
  } finally {
    if (current === run) current = null;
    try {
      sim.free();
    } catch {
      // After a panic the instance is unusable; the page replaces this worker.
    }
  }
}
