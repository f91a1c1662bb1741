// A pool of simulation workers for the gallery: one worker per core, each running one
// simulation at a time from a shared queue. A crashed worker (a panic leaves its wasm
// unusable) is replaced and its run fails; the other runs go on.

export class WorkerPool {
  constructor(size) {
    this.size = Math.max(1, size);
    this.slots = [];
    this.queue = [];
    this.nextId = 1;
  }

  spawn(slot) {
    slot.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    slot.worker.onmessage = (e) => this.receive(slot, e.data);
    slot.worker.onerror = (e) => this.receive(slot, { type: 'crash', id: slot.job && slot.job.id, message: e.message || 'worker error' });
  }

  /**
   * Runs `run` ({config, kernel, size, seed, max_cycles}) for `group` (a figure), calling
   * `onProgress` with the worker's progress ({fraction, windows, ...}); resolves to the
   * metrics JSON text.
   */
  run(run, group, onProgress) {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, run, group, onProgress, resolve, reject });
      this.pump();
    });
  }

  /**
   * Runs `runs`, sampled runs of one kernel that share a warming (their configs differ in
   * `dram.scheduler` and `l2.rop_skip` alone), as one job; resolves to their metrics JSON texts, in order.
   */
  runShared(runs, group, onProgress) {
    return this.run({ ...runs[0], configs: runs.map((r) => r.config) }, group, onProgress);
  }

  pump() {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) {
        slot = { worker: null, job: null };
        this.spawn(slot);
        this.slots.push(slot);
      }
      if (!slot) return;
      const job = this.queue.shift();
      slot.job = job;
      const r = job.run;
      slot.worker.postMessage({
        type: 'run', id: job.id, config: r.config, configs: r.configs, kernel: r.kernel, size: r.size, seed: r.seed,
        maxCycles: r.max_cycles ?? undefined, metrics: true,
      });
    }
  }

  receive(slot, msg) {
    const job = slot.job;
    if (!job || msg.id !== job.id) return;
    if (msg.type === 'progress') {
      if (job.onProgress) job.onProgress(msg.progress);
      return;
    }
    if (!['done', 'invalid', 'cancelled', 'crash'].includes(msg.type)) return;
    slot.job = null;
    if (msg.type === 'done' && !msg.error) job.resolve(msg.report);
    else if (msg.type === 'done') job.reject(new Error(`${job.run.kernel} stopped: ${msg.error}`));
    else if (msg.type === 'invalid') job.reject(new Error(msg.errors.map((e) => `${e.field}: ${e.message}`).join('; ')));
    else if (msg.type === 'cancelled') job.reject(new Error('cancelled'));
    else {
      slot.worker.terminate();
      this.spawn(slot);
      job.reject(new Error(`the simulator crashed: ${msg.message}`));
    }
    this.pump();
  }

  /** Drops the queued runs of `group` (every group when omitted) and stops its running ones. */
  cancel(group) {
    const hit = (job) => group === undefined || job.group === group;
    for (const job of this.queue.filter(hit)) job.reject(new Error('cancelled'));
    this.queue = this.queue.filter((job) => !hit(job));
    for (const s of this.slots) if (s.job && hit(s.job)) s.worker.postMessage({ type: 'cancel' });
  }
}
