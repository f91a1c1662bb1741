// The page's trace box: opening a trace folder with the picker or by dropping it, and the
// sentence that asks for the folders a share link's trace runs need. What a folder then
// does (the form's workload, a replay) is the app's.

const $ = (id) => document.getElementById(id);

/** The files directly inside a folder the picker gave (`webkitRelativePath` is
 * "folder/name"), as { name, files: [[name, File]] }. */
function pickedFolder(fileList) {
  const files = [...fileList];
  const name = (files[0] && files[0].webkitRelativePath.split('/')[0]) || 'trace';
  return { name, files: files.filter((f) => f.webkitRelativePath.split('/').length <= 2).map((f) => [f.name, f]) };
}

/** What was dropped on the trace box: a folder (its files, by entry) or loose files (a
 * folder named "trace", as the CLI names a trace without one). */
async function droppedFolder(items, loose) {
  const dir = items.length === 1 ? items[0] : null;
  if (!dir || !dir.isDirectory) return { name: 'trace', files: loose.map((f) => [f.name, f]) };
  const reader = dir.createReader();
  const entries = [];
  for (;;) {
    const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
    if (!batch.length) break;
    entries.push(...batch);
  }
  const files = await Promise.all(entries.filter((e) => e.isFile).map((e) => new Promise((ok, fail) => e.file(ok, fail))));
  return { name: dir.name, files: files.map((f) => [f.name, f]) };
}

/** Wires the box: `onFolder({ name, files })` for a folder picked or dropped, `onClear()`
 * for "Use a built-in kernel". */
export function wireTraceBox(onFolder, onClear) {
  $('trace-open').addEventListener('click', () => $('f-trace').click());
  $('f-trace').addEventListener('change', () => {
    const picked = pickedFolder($('f-trace').files);
    $('f-trace').value = '';
    onFolder(picked);
  });
  $('trace-clear').addEventListener('click', onClear);
  const box = $('trace-box');
  box.addEventListener('dragover', (e) => {
    e.preventDefault();
    box.classList.add('dropping');
  });
  box.addEventListener('dragleave', () => box.classList.remove('dropping'));
  box.addEventListener('drop', (e) => {
    e.preventDefault();
    box.classList.remove('dropping');
    // The items are readable only during the event: take their entries and files now.
    const items = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
    droppedFolder(items, [...e.dataTransfer.files]).then(onFolder, (err) => {
      $('f-trace-error').textContent = `The dropped folder cannot be read (${err.message || err}); open it with the button instead.`;
    });
  });
}

/** The sentence asking for the folders of a link's trace runs still waiting (`pending`),
 * by name and hash; empty when none wait. */
export function askForFolders(pending) {
  if (!pending.length) return '';
  const folders = [...new Map(pending.map((s) => [`${s.kernel} ${s.trace.sha256}`, s])).values()];
  const names = folders.map((s) => `"${s.kernel}" (SHA-256 ${s.trace.sha256.slice(0, 12)}…)`).join(' and ');
  const runs = pending.length === 1 ? 'a run' : `${pending.length} runs`;
  return `This link has ${runs} of a trace, whose files a link cannot carry: open the folder${folders.length > 1 ? 's' : ''} ${names} to run ${pending.length === 1 ? 'it' : 'them'}.`;
}
