// Shareable links: the whole run (preset, config, kernel, size, seed) in the URL hash,
// deflated and base64url-encoded behind a version tag, e.g. `#s=v1.<data>`.

const VERSION = 'v1';

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
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

export async function encodeRun(run) {
  const json = new TextEncoder().encode(JSON.stringify(run));
  return `s=${VERSION}.${toBase64Url(await pipe(json, new CompressionStream('deflate-raw')))}`;
}

/** The run in a `#s=v1....` hash, or null; throws on a corrupt or unknown-version link. */
export async function decodeRun(hash) {
  const m = /^#?s=([^.]+)\.(.+)$/.exec(hash);
  if (!m) return null;
  if (m[1] !== VERSION) throw new Error(`this link was made by a different version of warpscope (${m[1]})`);
  let text;
  try {
    text = new TextDecoder().decode(await pipe(fromBase64Url(m[2]), new DecompressionStream('deflate-raw')));
  } catch {
    throw new Error('this link is damaged: its data cannot be decompressed');
  }
  const run = JSON.parse(text);
  for (const k of ['config', 'kernel', 'size', 'seed']) {
    if (!(k in run)) throw new Error(`this link is damaged: it has no ${k}`);
  }
  return run;
}
