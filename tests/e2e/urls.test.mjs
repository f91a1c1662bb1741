// A URL never stops the page: an unknown chart, preset, kernel or size, a damaged, foreign or
// oversized share hash each give one message in words, saying what is valid, and the page
// starts with its defaults, ready to run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, finished } from './harness.mjs';

let h;
before(async () => {
  h = await start();
});
after(async () => {
  await h.close();
});

/** A v2 link's hash for `view`, made by the page's own encoder. */
async function hashFor(page, view) {
  return page.evaluate(async (v) => {
    const json = new TextEncoder().encode(JSON.stringify(v));
    const out = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const bytes = new Uint8Array(await new Response(out).arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return `#s=v2.${btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
  }, view);
}

/** Opens `path`, checks that the page started and says `pattern` where the user looks. */
async function opensWith(path, pattern, where = '#form-error') {
  const page = await h.page(path);
  await ready(page);
  assert.match(await page.textContent(where), pattern, path.slice(0, 80));
  assert.equal(await page.isEnabled(path.includes('embed=1') ? '#embed-run' : '#run'), true, 'the page can still run');
  assert.deepEqual(page.errors, [], path.slice(0, 80));
  await page.close();
}

test('an unknown chart in an embed link names the valid charts and shows divergence', async () => {
  await opensWith('?embed=1&chart=nope', /unknown chart "nope"; valid charts are: divergence, hit_ratio, .*tb_bg\. Showing divergence/, '#busy-note');
});

test('share hashes that are damaged, foreign or too long say so, and the page starts with its defaults', async () => {
  await opensWith('#s=garbage', /this link is damaged: after "#s=" it should have a version.*defaults instead/);
  await opensWith('#s=v2.AAAA', /this link is damaged: its data cannot be decompressed/);
  await opensWith('#s=v9.abc', /made by a different version of warpscope \(v9\)/);
  await opensWith(`#s=v2.${'A'.repeat(2000000)}`, /too long to be a warpscope link \(2000 KB/);
});

test('a link naming an unknown preset, kernel or size lists the valid ones', async () => {
  const page = await h.page();
  await ready(page);
  const spec = await page.evaluate(() => ({ preset: 'medic-gtx480', config: window.warpscope.presets[0].config, kernel: 'bfs', size: 'tiny', seed: 1 }));
  const cases = [
    [{ ...spec, preset: 'gtx9000' }, /unknown preset "gtx9000"; valid presets are: .*medic-gtx480/],
    [{ ...spec, kernel: 'bfs2' }, /unknown kernel "bfs2"; valid kernels are: .*bfs/],
    [{ ...spec, size: 'huge' }, /unknown size "huge"; valid sizes are: tiny, small, paper/],
    [{ ...spec, config: null }, /config is not a config/],
  ];
  for (const [form, pattern] of cases) {
    const hash = await hashFor(page, { form, runs: [form] });
    await opensWith(hash, pattern);
    await opensWith(`?embed=1&chart=divergence${hash}`, pattern, '#busy-note');
  }
  // A link whose config has a field this build does not know runs nothing and names it.
  const extra = structuredClone(spec);
  extra.config.l1d.colour = 'blue';
  const unknown = await h.page(await hashFor(page, { form: extra, runs: [extra] }));
  await unknown.waitForFunction(() => /Fix the marked fields/.test(document.getElementById('status').textContent));
  assert.match(await unknown.textContent('#form-error'), /l1d\.colour.*"colour" is not a field here; valid fields are: .*size_kb/);
  assert.deepEqual(unknown.errors, []);
  await unknown.close();
  // A link whose config has a bad value runs nothing and marks the field.
  const bad = structuredClone(spec);
  bad.config.l1d.size_kb = -16;
  const other = await h.page(await hashFor(page, { form: bad, runs: [bad] }));
  await other.waitForFunction(() => /Fix the marked fields/.test(document.getElementById('status').textContent));
  assert.match(await other.textContent('#f-l1d-size_kb-error'), /\S/);
  assert.deepEqual([...page.errors, ...other.errors], []);
  await Promise.all([page.close(), other.close()]);
});

test('a link made before policy parameters moved opens with its values in the renamed fields', async () => {
  const page = await h.page();
  await ready(page);
  // The form and config of an older page: `medic.rand_share` and `core.swl_limit`, not
  // `l2.rand.share` and `core.swl.limit`, in its config, its sweep and its runs' tuned fields.
  const spec = await page.evaluate(() => {
    const config = structuredClone(window.warpscope.presets[0].config);
    delete config.l2.rand;
    delete config.core.swl;
    config.l2.bypass = 'rand';
    config.medic.rand_share = 0.5;
    config.core.swl_limit = 2;
    return { preset: 'medic-gtx480', config, kernel: 'bfs', size: 'tiny', seed: 1, bundle: 'rand' };
  });
  const old = await h.page(await hashFor(page, { form: { ...spec, sweep: 'medic.rand_share=0.5 seed=1' }, runs: [{ ...spec, tuned: ['medic.rand_share'] }] }));
  assert.match(await finished(old, 120000), /^Done/);
  assert.equal(await old.inputValue('#f-l2-rand-share'), '0.5');
  assert.equal(await old.inputValue('#f-core-swl-limit'), '2');
  assert.equal(await old.inputValue('#f-sweep'), 'l2.rand.share=0.5 seed=1', 'the sweep names the new path');
  assert.equal(await old.textContent('#form-error'), '');
  const config = await old.evaluate(() => JSON.parse(window.warpscope.runs[0].report).config);
  assert.deepEqual([config.l2.rand.share, config.core.swl.limit, config.medic.rand_share], [0.5, 2, undefined]);
  assert.deepEqual([...page.errors, ...old.errors], []);
  await Promise.all([page.close(), old.close()]);
});
