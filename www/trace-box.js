// The page's trace box: opening a trace folder, and the trace coordinated bypassing profiles
// instead of it, with the picker or by dropping them; what the box and the form's kernel
// fields show for them; and the sentence that asks for the folders a share link's trace runs
// need. What a folder then does (the form's workload, a replay) is the app's.

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

/** Makes `button` (with its hidden folder input `input`) and drops on `area` open a folder:
 * `onFolder({ name, files })`; a drop that cannot be read is said in `error`. */
function wireFolder(button, input, area, error, onFolder) {
  button.addEventListener('click', () => input.click());
  input.addEventListener('change', () => {
    const picked = pickedFolder(input.files);
    input.value = '';
    onFolder(picked);
  });
  area.addEventListener('dragover', (e) => {
    e.preventDefault();
    e.stopPropagation();
    area.classList.add('dropping');
  });
  area.addEventListener('dragleave', () => area.classList.remove('dropping'));
  area.addEventListener('drop', (e) => {
    e.preventDefault();
    // The profile row sits in the trace box: a drop on it is the profile's only.
    e.stopPropagation();
    area.classList.remove('dropping');
    // The items are readable only during the event: take their entries and files now.
    const items = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
    droppedFolder(items, [...e.dataTransfer.files]).then(onFolder, (err) => {
      error.textContent = `The dropped folder cannot be read (${err.message || err}); open it with the button instead.`;
    });
  });
}

/** Wires the box: `onFolder({ name, files })` for a trace folder picked or dropped,
 * `onProfile(folder)` for a profiling trace folder, `onClear()` for "Use a built-in
 * kernel" and `onSelf()` for "Profile with the trace itself". */
export function wireTraceBox({ onFolder, onClear, onProfile, onSelf }) {
  wireFolder($('trace-open'), $('f-trace'), $('trace-box'), $('f-trace-error'), onFolder);
  wireFolder($('profile-open'), $('f-profile'), $('profile-box'), $('f-profile-error'), onProfile);
  $('trace-clear').addEventListener('click', onClear);
  $('profile-clear').addEventListener('click', onSelf);
}

/** The sentence asking for the folders of a link's trace runs still waiting (`pending`),
 * by name and hash, with the profiling traces they need; empty when none wait. */
function askForFolders(pending) {
  if (!pending.length) return '';
  const named = (t) => `"${t.name}" (SHA-256 ${t.sha256.slice(0, 12)}…)`;
  const unique = (list) => [...new Map(list.map((t) => [`${t.name} ${t.sha256}`, t])).values()];
  const folders = unique(pending.map((s) => ({ name: s.kernel, sha256: s.trace.sha256 })));
  const profiles = unique(pending.filter((s) => s.trace.profile).map((s) => s.trace.profile));
  const runs = pending.length === 1 ? 'a run' : `${pending.length} runs`;
  const also = profiles.length
    ? ` and, with "Profile with another trace folder", the profiling trace${profiles.length > 1 ? 's' : ''} ${profiles.map(named).join(' and ')}`
    : '';
  return `This link has ${runs} of a trace, whose files a link cannot carry: open the folder${folders.length > 1 ? 's' : ''} ${folders.map(named).join(' and ')}${also} to run ${pending.length === 1 ? 'it' : 'them'}.`;
}

/** Shows the sentence asking for the folders of a link's trace runs still waiting. */
export function showPending(pending) {
  $('trace-ask').hidden = !pending.length;
  $('trace-ask').textContent = askForFolders(pending);
}

/** The trace box and the kernel and size fields as the open folder `trace` (if any) leaves
 * them; without one, `describeKernel()` says the built-in kernel again. */
export function showTrace(trace, describeKernel) {
  $('f-kernel').disabled = Boolean(trace);
  $('f-size').disabled = Boolean(trace);
  $('trace-clear').hidden = !trace;
  $('trace-open').textContent = trace ? `Trace folder: ${trace.name} (open another…)` : 'Open a trace folder…';
  if (trace) $('kernel-about').textContent = `Replaying the trace folder "${trace.name}" (${trace.files.length} files) in place of a built-in kernel, so kernel and size do not apply.`;
  else describeKernel();
}

/** The profiling trace's row: offered while `trace` replays under `policy` (the form's L1
 * bypass if it profiles the loads, else false), or a `pending` link run needs one; without a
 * `profile` folder, the sentence that the trace profiles itself. */
export function showProfile({ trace, profile, pending }, policy) {
  $('profile-box').hidden = !((trace && policy) || pending.some((s) => s.trace.profile));
  $('profile-clear').hidden = !profile;
  $('profile-open').textContent = profile ? `Profiling trace: ${profile.name} (open another…)` : 'Profile with another trace folder…';
  $('profile-about').hidden = !(trace && policy);
  $('profile-about').textContent = profile
    ? `l1d.bypass=${policy} profiles the loads on "${profile.name}" (${profile.files.length} files) before each run, as the CLI's --profile-trace does; trace kernels chooses its kernels too.`
    : `Without a profiling trace, l1d.bypass=${policy} profiles the trace itself, as the CLI does: an oracle, since the tags come from the very input they are measured on.`;
}
