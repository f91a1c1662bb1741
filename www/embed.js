// An embedded figure (`?embed=1`): the bar that replaces the form, and the iframe snippet the
// page offers for embedding what it shows.

const $ = (id) => document.getElementById(id);

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The iframe snippet that embeds the link `href`, titled `title` for screen readers. */
export function embedSnippet(href, title) {
  return `<iframe src="${href}" width="720" height="480" style="border:0" title="${escapeAttr(title)}" loading="lazy"></iframe>`;
}

/** Turns the page into an embedded figure: a bar with Run, the progress and the status above
 * the results, and a line saying what runs (`what`, in full as `title`); Run calls `onRun`. */
export function setupEmbed({ what, title, onRun }) {
  document.body.classList.add('embed');
  const bar = document.createElement('div');
  bar.className = 'embed-bar';
  const run = document.createElement('button');
  run.type = 'button';
  run.id = 'embed-run';
  run.textContent = 'Run';
  bar.append(run, $('progress'), $('status'), $('busy-note'), $('announce'));
  const line = document.createElement('p');
  line.className = 'embed-what';
  line.textContent = what;
  line.title = title;
  $('results').prepend(bar, line);
  $('results').hidden = false;
  run.addEventListener('click', onRun);
}
