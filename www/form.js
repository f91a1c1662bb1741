// The config form, generated from the wasm schema: one input per config field (main
// fields up front, every other field under "All settings"), plus kernel, size, seed.
// Values are never discarded: an invalid entry stays in its field beside its error.

const fieldId = (path) => `f-${path.replace(/\./g, '-')}`;

function get(obj, path) {
  return path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

function set(obj, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  let o = obj;
  for (const k of keys) o = o[k] ??= {};
  o[last] = value;
}

/** A number field's text as a number, or as the text itself when it is not one, so the
 * config's validation names the field. */
function numberOrText(text) {
  const t = text.trim();
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
}

/** A field's label: the section is named in the main form, implied by the fieldset elsewhere. */
function label(path, withGroup) {
  const parts = path.split('.');
  return (withGroup ? parts : parts.slice(1)).join(' ').replace(/_/g, ' ');
}

function input(field) {
  let el;
  if (field.kind === 'choice') {
    el = document.createElement('select');
    for (const c of field.choices) el.append(new Option(c, c));
  } else if (field.kind === 'boolean') {
    el = document.createElement('input');
    el.type = 'checkbox';
  } else {
    el = document.createElement('input');
    el.type = 'text';
    el.inputMode = field.kind === 'string' ? 'text' : 'decimal';
    el.spellcheck = false;
  }
  el.id = fieldId(field.path);
  el.dataset.path = field.path;
  el.dataset.kind = field.kind;
  return el;
}

function row(field, withGroup) {
  const wrap = document.createElement('div');
  wrap.className = 'field';
  const lab = document.createElement('label');
  lab.htmlFor = fieldId(field.path);
  lab.textContent = label(field.path, withGroup);
  lab.title = field.path;
  const err = document.createElement('span');
  err.className = 'error';
  err.id = `${fieldId(field.path)}-error`;
  err.setAttribute('role', 'alert');
  const el = input(field);
  el.setAttribute('aria-describedby', err.id);
  wrap.append(lab, el, err);
  return wrap;
}

export class ConfigForm {
  constructor({ main, all, schema }) {
    this.schema = schema;
    const groups = new Map();
    for (const f of schema) {
      if (f.main) {
        main.append(row(f, true));
        continue;
      }
      if (!groups.has(f.group)) {
        const fs = document.createElement('fieldset');
        const lg = document.createElement('legend');
        lg.textContent = f.group;
        fs.append(lg);
        groups.set(f.group, fs);
        all.append(fs);
      }
      groups.get(f.group).append(row(f, false));
    }
  }

  element(path) {
    return document.getElementById(fieldId(path));
  }

  /** Fills every field from a config object. */
  fill(config) {
    for (const f of this.schema) {
      const el = this.element(f.path);
      const v = get(config, f.path);
      if (f.kind === 'boolean') el.checked = Boolean(v);
      // A choice a config leaves out while it has its default (sample.warming_scheduler's
      // `own`) shows that default, its first choice.
      else if (f.kind === 'choice' && v === undefined) el.selectedIndex = 0;
      else el.value = v === undefined ? '' : String(v);
    }
  }

  /** The config the form describes, on top of `base` (the preset): numbers where the
   * text is a number, the raw text otherwise, so validation names the bad field. */
  read(base) {
    const config = structuredClone(base);
    for (const f of this.schema) {
      const el = this.element(f.path);
      let v;
      if (f.kind === 'boolean') v = el.checked;
      else if (f.kind === 'integer' || f.kind === 'number') v = numberOrText(el.value);
      else v = el.value;
      set(config, f.path, v);
    }
    return config;
  }

  clearErrors(root = document) {
    for (const e of root.querySelectorAll('.error')) e.textContent = '';
    for (const e of root.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
  }

  /** Shows each error next to its field (or in `fallback`); opens "All settings" if needed. */
  showErrors(errors, fallback) {
    const unplaced = [];
    for (const { field, message } of errors) {
      const target = document.getElementById(`${fieldId(field)}-error`);
      if (!target) {
        unplaced.push(`${field}: ${message}`);
        continue;
      }
      target.textContent = message;
      const el = this.element(field);
      if (el) el.setAttribute('aria-invalid', 'true');
      const details = target.closest('details');
      if (details) details.open = true;
    }
    fallback.textContent = unplaced.join('; ');
  }
}

/** `over` laid on a copy of `base`, object by object: a config from an older link lacks
 * sections added since (such as `sample`), which keep the preset's values. */
function overlay(base, over) {
  const out = structuredClone(base ?? {});
  for (const [k, v] of Object.entries(over ?? {})) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && out[k] && typeof out[k] === 'object' ? overlay(out[k], v) : v;
  }
  return out;
}

/** Detailed windows of a "paper (sampled)" run when the form's sample.windows is 0
 * (docs/sampling.md). */
const SAMPLED_WINDOWS = 30;

/** The run's size for the size field's choice: "paper (sampled)" is size paper with the
 * config's `sample` section turned on (in `config`). */
function sizeChoice(choice, config) {
  if (choice !== 'paper-sampled') return choice;
  if (!(Number(config.sample?.windows) > 0)) set(config, 'sample.windows', SAMPLED_WINDOWS);
  return 'paper';
}

export { fieldId, get, set, numberOrText, overlay, sizeChoice };
