// The share-link decoder fed random and mangled hashes (a fixed number of cases per run):
// it returns a view, returns null for a hash that is not a share link, or throws an Error
// whose message says what is wrong with the link in words. It never throws anything else,
// never hangs, and never returns a view without its runs' fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeView, decodeView } from '../../www/share.js';

const CASES = 300;

/** A small deterministic generator, so a failing case can be re-made from its number. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

const spec = { preset: 'medic-gtx480', config: { l1d: { size_kb: 16 } }, kernel: 'bfs', size: 'tiny', seed: 1 };
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

async function outcome(hash) {
  try {
    return { view: await decodeView(hash) };
  } catch (e) {
    return { error: e };
  }
}

function checkOutcome(hash, { view, error }) {
  if (error) {
    assert.ok(error instanceof Error, `${hash.slice(0, 60)}: threw ${error}`);
    assert.match(error.message, /^this link /, `${hash.slice(0, 60)}: ${error.message}`);
    return;
  }
  if (view === null) {
    assert.ok(!/^#?s=/.test(hash), `${hash.slice(0, 60)}: a share link came back as no link`);
    return;
  }
  for (const r of [view.form, ...view.runs]) {
    for (const k of ['preset', 'config', 'kernel', 'size', 'seed']) assert.ok(k in r, `${hash.slice(0, 60)}: a run without ${k}`);
  }
}

test('random hashes decode to a view, to nothing, or to a message about the link', async () => {
  const next = rng(20261125);
  const good = `#${await encodeView({ form: spec, runs: [spec, spec] })}`;
  for (let i = 0; i < CASES; i++) {
    let hash;
    const kind = i % 4;
    if (kind === 0) {
      // Random base64url data behind a valid or invalid version tag.
      const n = Math.floor(next() * 200);
      hash = `#s=${next() < 0.5 ? 'v2' : 'v1'}.${Array.from({ length: n }, () => B64[Math.floor(next() * 64)]).join('')}`;
    } else if (kind === 1) {
      // A real link with one character changed.
      const at = 6 + Math.floor(next() * (good.length - 6));
      hash = good.slice(0, at) + B64[Math.floor(next() * 64)] + good.slice(at + 1);
    } else if (kind === 2) {
      // A real link cut short.
      hash = good.slice(0, Math.floor(next() * good.length));
    } else {
      // Any printable text.
      hash = `#${Array.from({ length: Math.floor(next() * 40) }, () => String.fromCharCode(32 + Math.floor(next() * 95))).join('')}`;
    }
    checkOutcome(hash, await outcome(hash));
  }
});

test('well-formed links whose data is the wrong shape are refused in words', async () => {
  for (const view of [null, 1, 'x', [], { form: null, runs: [] }, { form: spec }, { form: spec, runs: [null] }, { form: spec, runs: [{ ...spec, kernel: undefined }] }]) {
    const hash = `#${await encodeView(view)}`;
    const { error } = await outcome(hash);
    assert.ok(error instanceof Error && /^this link /.test(error.message), `${JSON.stringify(view)}: ${error}`);
  }
  const round = await decodeView(`#${await encodeView({ form: spec, runs: [spec] })}`);
  assert.deepEqual(round, { form: spec, runs: [spec] });
});
