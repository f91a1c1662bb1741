// How the page names a run: by what sets it apart from its preset (the settings it changes),
// and in a legend by what sets it apart from the other runs drawn.

/**
 * The naming functions for runs whose presets' configs `presetConfig(name)` gives; `fmt`
 * writes a number with thousands separators; `profiles(spec)` says whether the run's policy
 * profiles the loads before the run (a trace run then names the trace profiled).
 */
export function runNamer(presetConfig, fmt, profiles = () => false) {
  /** Leaf paths where `spec.config` differs from its preset, as `path=value`. */
  function differences(spec) {
    const base = presetConfig(spec.preset);
    const out = [];
    const walk = (a, b, path) => {
      if (a && typeof a === 'object') {
        for (const k of Object.keys(a)) walk(a[k], b ? b[k] : undefined, path ? `${path}.${k}` : k);
      } else if (a !== b) out.push(`${path}=${a}`);
    };
    walk(spec.config, base, '');
    return out;
  }

  /** Size (a trace's: `trace`, its kernels chosen and the trace its loads were profiled
   * on), seed (when not 1) and cycle window: what the run simulates of its kernel. */
  function workload(spec) {
    const t = spec.trace;
    const profiled = t && (t.profile ? `, profiled on ${t.profile.name}` : profiles(spec) ? ', profiled on itself' : '');
    const kernels = `${t && t.kernels ? `, kernels ${t.kernels}` : ''}${profiled || ''}`;
    const seed = spec.seed === 1 ? '' : ` seed ${spec.seed}`;
    const span = spec.maxCycles ? `, first ${fmt(spec.maxCycles)} cycles` : '';
    return `${spec.size}${kernels}${seed}${span}`;
  }

  /** A run's whole name: kernel (a trace's folder), workload, preset and changed settings. */
  function labelFor(spec) {
    const diff = differences(spec);
    return `${spec.kernel} (${workload(spec)}) on ${spec.preset}${diff.length ? `, ${diff.join(', ')}` : ''}`;
  }

  /** The charts' names for `runs` ({id, spec, label}): each run's number and only what tells
   * it apart from the others, so a legend of a dozen runs stays short. */
  function legendLabels(runs) {
    const parts = runs.map(({ spec }) => [spec.kernel, workload(spec), spec.preset, ...differences(spec)]);
    const shared = (p) => runs.length > 1 && parts.every((ps) => ps.includes(p));
    return runs.map((r, i) => {
      const own = parts[i].filter((p) => !shared(p));
      return `#${r.id} ${own.length ? own.join(' · ') : r.label}`;
    });
  }

  return { differences, labelFor, legendLabels };
}
