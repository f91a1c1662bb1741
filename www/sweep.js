// The form's sweep: "PATH=V1,V2,... [PATH=V1,...]" runs the experiment once per
// combination of values (the cross product of the axes), as `warpscope sweep --set` does.
// PATH is a config field (a label's tooltip shows it) or one of kernel, size and seed, so
// one sweep can tune a policy's parameter or run a machine over several kernels.
import { numberOrText, set } from './form.js';

/** The most runs one sweep may queue. */
const MAX_SWEEP_RUNS = 64;
/** The run's own axes, beside the config's fields. */
const RUN_AXES = ['kernel', 'size', 'seed'];

/** One value of a run axis (kernel and size from `choices`, seed a number), or an error. */
function runValue(path, text, choices) {
  if (path !== 'seed') {
    const valid = choices[path];
    return valid.includes(text) ? { value: text } : { error: `"${text}" is not a ${path}; choose from ${valid.join(', ')}` };
  }
  const n = Number(text);
  return /^\d+$/.test(text) && Number.isSafeInteger(n) ? { value: n } : { error: `"${text}" is not a whole number from 0 to 2^53 - 1` };
}

/** One value of config field `f` from the schema; numbers parse as in the form. */
function fieldValue(f, text) {
  if (f.kind === 'boolean') {
    return text === 'true' || text === 'false' ? { value: text === 'true' } : { error: `"${text}" is not true or false` };
  }
  if (f.kind === 'choice') {
    return f.choices.includes(text) ? { value: text } : { error: `"${text}" is not one of ${f.choices.join(', ')}` };
  }
  if (f.kind === 'integer' || f.kind === 'number') return { value: numberOrText(text) };
  return { value: text };
}

/** Why `path` names nothing: the fields of its section, or the sections. */
function unknownPath(path, schema) {
  const group = path.split('.')[0];
  const fields = schema.filter((f) => f.path.startsWith(`${group}.`)).map((f) => f.path.slice(group.length + 1));
  if (fields.length) return `"${path}" is not a setting; ${group} has ${fields.join(', ')}`;
  const groups = [...new Set(schema.map((f) => f.path.split('.')[0]))];
  return `"${path}" is not a setting; sweep kernel, size, seed or a field of ${groups.join(', ')}`;
}

/**
 * Parses sweep text against the config schema (`[{ path, kind, choices }]`) and the run's
 * choices (`{ kernel: [...], size: [...] }`). Returns `{ axes: [{ path, values }] }`, no axes for empty text, or
 * `{ error }` naming the bad axis and its valid choices. An old path of a renamed field
 * (`renamed`: the simulator's `[old path, new path]` pairs) sweeps its new one.
 */
export function parseSweep(text, schema, choices, renamed = []) {
  const axes = [];
  for (const part of text.trim().split(/\s+/).filter(Boolean)) {
    const eq = part.indexOf('=');
    const given = part.slice(0, eq);
    const path = (renamed.find(([old]) => old === given) || [given, given])[1];
    const texts = part.slice(eq + 1).split(',');
    if (eq <= 0 || texts.some((t) => t === '')) return { error: `"${part}" is not PATH=V1,V2,...` };
    if (axes.some((a) => a.path === path)) return { error: `${path} is swept twice` };
    const f = schema.find((x) => x.path === path);
    if (!f && !RUN_AXES.includes(path)) return { error: unknownPath(path, schema) };
    const values = [];
    for (const t of texts) {
      const v = f ? fieldValue(f, t) : runValue(path, t, choices);
      if (v.error) return { error: `${path}: ${v.error}` };
      values.push(v.value);
    }
    axes.push({ path, values });
  }
  const runs = axes.reduce((n, a) => n * a.values.length, 1);
  if (runs > MAX_SWEEP_RUNS) return { error: `${runs} runs; a sweep runs at most ${MAX_SWEEP_RUNS}` };
  return { axes };
}

/** What to say beside the sweep box about the old paths of renamed fields it names
 * (`renamed`: the simulator's `[old path, new path]` pairs): they still sweep, for one
 * release, so the note says so and names the new path. Empty when it names none. */
export function oldPathNote(text, renamed) {
  const given = new Set(text.trim().split(/\s+/).map((part) => part.split('=')[0]));
  return renamed
    .filter(([old]) => given.has(old))
    .map(([old, to]) => `${old} is now ${to}; the old name works until the next release.`)
    .join(' ');
}

/** The config fields a sweep's axes vary (its other axes are kernel, size and seed). */
export function sweptFields(axes) {
  return axes.map((a) => a.path).filter((p) => !RUN_AXES.includes(p));
}

/** The runs of a sweep over `spec` (the form's experiment): one spec per combination of
 * values, the last axis varying fastest. Each run names the config fields swept (`tuned`), so
 * the page can keep the best value per workload. */
export function expandSweep(spec, axes) {
  const tuned = sweptFields(axes);
  let specs = [tuned.length ? { ...spec, tuned } : spec];
  for (const { path, values } of axes) {
    specs = specs.flatMap((s) =>
      values.map((v) => {
        const next = { ...s, config: structuredClone(s.config) };
        if (RUN_AXES.includes(path)) next[path] = v;
        else set(next.config, path, v);
        return next;
      }),
    );
  }
  return specs;
}
