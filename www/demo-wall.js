// The demo wall: a section per paper or topic, a button per demo with its run count and
// time, and its sentence on what to see behind a disclosure (also the button's description).

/** Fills `wall` with the demos of `groups`; pressing one calls `onDemo(demo)`. */
export function buildDemoWall(wall, groups, onDemo) {
  for (const [gi, g] of groups.entries()) {
    const section = document.createElement('section');
    section.className = 'demo-group';
    const h = document.createElement('h3');
    h.id = `demo-group-${gi}`;
    h.textContent = g.title;
    section.setAttribute('aria-labelledby', h.id);
    const ul = document.createElement('ul');
    ul.className = 'demo-list';
    for (const d of g.demos) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.demo = d.id;
      const strong = document.createElement('strong');
      strong.textContent = d.title;
      const time = document.createElement('span');
      time.className = 'demo-time';
      const runs = d.runs.length === 1 ? '1 run' : `${d.runs.length} runs`;
      time.textContent = `${runs}, about ${d.seconds} s`;
      b.append(strong, time);
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      summary.textContent = 'What to see';
      const p = document.createElement('p');
      p.id = `demo-text-${d.id}`;
      p.textContent = d.text;
      details.append(summary, p);
      b.setAttribute('aria-describedby', p.id);
      b.addEventListener('click', () => onDemo(d));
      li.append(b, details);
      ul.append(li);
    }
    section.append(h, ul);
    wall.append(section);
  }
}
