// The page's handle on the simulation worker: starts runs, forwards pause / resume /
// cancel, and replaces the worker when it crashes (a panic leaves wasm unusable).

export class SimClient {
  constructor(handlers) {
    this.handlers = handlers; // { reading, progress, done, invalid, cancelled, paused, resumed, crash }
    this.nextId = 1;
    this.activeId = null;
    this.spawn();
  }

  spawn() {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => this.receive({ type: 'crash', id: this.activeId, message: e.message || 'worker error' });
  }

  receive(msg) {
    if (msg.id !== undefined && msg.id !== this.activeId) return;
    if (['done', 'invalid', 'cancelled', 'crash'].includes(msg.type)) this.activeId = null;
    if (msg.type === 'crash') {
      this.worker.terminate();
      this.spawn();
    }
    const h = this.handlers[msg.type];
    if (h) h(msg);
  }

  get busy() {
    return this.activeId !== null;
  }

  /** Starts a run; `trace` ({ folder, files, name, kernels, expect }) makes it replay a trace
   * folder's files (File objects, read in the worker) instead of the built-in `kernel`. */
  run({ config, kernel, size, seed, maxCycles, trace }) {
    const id = this.nextId++;
    this.activeId = id;
    this.worker.postMessage({ type: 'run', id, config, kernel, size, seed, maxCycles, trace });
    return id;
  }

  pause() {
    this.worker.postMessage({ type: 'pause' });
  }

  resume() {
    this.worker.postMessage({ type: 'resume' });
  }

  cancel() {
    this.worker.postMessage({ type: 'cancel' });
  }
}
