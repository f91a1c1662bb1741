// Chart panels: plotters (in wasm) draws each chart on a canvas on the page, sized for
// the screen's pixel ratio; beside it a table of the same numbers (what a screen reader
// reads) and exports (CSV, SVG, PNG).
import { ChartSet, chart_list } from '../pkg/warpscope.js';

function download(name, data, type) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export { download };

export class Charts {
  constructor(container, { only } = {}) {
    this.container = container;
    this.charts = chart_list().filter((c) => !only || c.name === only);
    this.set = null;
    this.panels = this.charts.map((c) => this.panel(c));
    this.resizeTimer = null;
    window.addEventListener('resize', () => {
      clearTimeout(this.resizeTimer);
      this.resizeTimer = setTimeout(() => this.drawAll(), 150);
    });
  }

  panel(c) {
    const fig = document.createElement('figure');
    fig.className = 'chart';
    fig.dataset.chart = c.name;
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', c.title);
    const cap = document.createElement('figcaption');
    cap.textContent = c.title;
    cap.className = 'visually-hidden';
    const details = document.createElement('details');
    const sum = document.createElement('summary');
    sum.textContent = 'Numbers';
    const table = document.createElement('table');
    details.append(sum, table);
    const tools = document.createElement('div');
    tools.className = 'chart-tools';
    for (const [label, fn] of [
      ['CSV', () => download(`${c.name}.csv`, this.set.csv(c.name), 'text/csv')],
      ['SVG', () => download(`${c.name}.svg`, this.set.svg(c.name, 900, 560), 'image/svg+xml')],
      ['PNG', () => canvas.toBlob((b) => download(`${c.name}.png`, b))],
    ]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.setAttribute('aria-label', `Export ${c.title} as ${label}`);
      b.addEventListener('click', () => this.set && fn());
      tools.append(b);
    }
    fig.append(cap, canvas, tools, details);
    this.container.append(fig);
    return { chart: c, canvas, table };
  }

  /** Replaces the runs drawn: `[{label, report}]` with report as JSON text. */
  show(runs) {
    if (this.set) this.set.free();
    this.set = new ChartSet();
    for (const r of runs) this.set.add(r.label, r.report);
    this.drawAll();
  }

  /** Draws one chart per task, so the page stays responsive. */
  drawAll() {
    if (!this.set) return;
    this.panels.forEach((p, i) => setTimeout(() => this.draw(p), i));
  }

  draw({ chart, canvas, table }) {
    const ratio = window.devicePixelRatio || 1;
    const w = Math.max(200, Math.round(canvas.clientWidth * ratio));
    const h = Math.max(150, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    this.set.draw(canvas, chart.name, ratio);
    const t = this.set.table(chart.name);
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const h of t.headers) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      head.append(th);
    }
    const body = table.createTBody();
    for (const r of t.rows) {
      const tr = body.insertRow();
      for (const cell of r) tr.insertCell().textContent = cell;
    }
  }
}
