// What the simulator page and the gallery share about where they are loaded from: over
// http they register the service worker that keeps them working offline; opened as a
// file they cannot start (browsers refuse to fetch the wasm or start module workers from
// file://), so they say how to serve them instead of failing with "Failed to fetch".

export const FROM_FILE = location.protocol === 'file:';

/**
 * Registers sw.js (built from www/sw.js), which precaches the build on the first visit.
 * Called once the page is up, so that download does not compete with the page's own.
 */
export function registerServiceWorker() {
  if (FROM_FILE || !('serviceWorker' in navigator)) return;
  // A browser that refuses (private mode, disabled storage) still runs the page online.
  navigator.serviceWorker.register('sw.js').catch((err) => console.warn(`no offline copy: ${err}`));
}

/** The folder holding this page on disk, as a shell would take it (Windows too). */
function pageFolder() {
  const path = decodeURIComponent(location.pathname.replace(/[^/]*$/, ''));
  const folder = (/^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path).replace(/[/\\]$/, '');
  return /[\s"']/.test(folder) ? `"${folder}"` : folder;
}

/**
 * Puts the "serve it over http" message in `status` and the commands right after
 * `controls`, whose buttons are disabled: nothing can run from here.
 */
export function explainFileProtocol(status, controls) {
  status.textContent = 'This page has to be served over http: opened as a file, the browser will not load the simulator.';
  status.classList.add('from-file');
  for (const button of controls.querySelectorAll('button')) button.disabled = true;
  const page = location.pathname.split('/').pop();
  const url = `http://127.0.0.1:8080/${page === 'index.html' ? '' : page}`;
  const hint = document.createElement('div');
  hint.className = 'serve-hint';
  hint.setAttribute('role', 'alert');
  hint.innerHTML = `<p><strong>To use it, serve it over http</strong>, one of two ways:</p>
    <ol>
      <li>In the warpscope source folder, build the page and serve it (<code>node scripts/serve.mjs dist 8080</code>
        serves a build you already have):<pre><code>bash scripts/start.sh</code></pre></li>
      <li>Serve this folder with any static server that sends <code>.wasm</code> files as
        <code>application/wasm</code>, for example:<pre><code class="this-folder"></code></pre></li>
    </ol>
    <p>Then open <a href="${url}">${url}</a>.</p>`;
  hint.querySelector('.this-folder').textContent = `python3 -m http.server 8080 --bind 127.0.0.1 --directory ${pageFolder()}`;
  controls.after(hint);
}
