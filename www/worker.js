// The worker owns the simulator. It steps it in chunks of about 30 ms, posts small
// progress messages at least every 100 ms, obeys pause / resume / cancel between
// chunks, and posts the final report as JSON text (the same bytes as the CLI's), or for
// the gallery just the figure metrics of the run.
import init, { WasmSim } from '../pkg/warpscope.js';

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

async function start({ id, config, kernel, size, seed, maxCycles, metrics }) {
  if (current) current.cancelled = true;
  let sim;
  try {
    sim = new WasmSim(JSON.stringify(config), kernel, size, seed);
  } catch (errors) {
    self.postMessage({ type: 'invalid', id, errors: Array.isArray(errors) ? errors : [{ field: 'config', message: String(errors) }] });
    return;
  }
  const run = { id, sim, paused: false, cancelled: false };
  current = run;
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
        const report = metrics ? sim.metrics_json() : sim.report_json();
        self.postMessage({ type: 'done', id, report, error: sim.error() ?? null });
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
