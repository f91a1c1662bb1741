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

/** A chart's height with one run on a wide page (CSS pixels). */
const CHART_HEIGHT = 300;

export class Charts {
  constructor(container, { only } = {}) {
    this.container = container;
    this.charts = chart_list().filter((c) => !only || c.name === only);
    this.set = null;
    // Only charts on (or near) the screen are drawn; the others when they scroll into view, so
    // a finished run of a dozen does not redraw eleven charts nobody is looking at.
    this.visible = new Set();
    this.observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const p = this.panels.find((x) => x.fig === e.target);
        if (e.isIntersecting) {
          this.visible.add(p);
          if (p.stale && this.set) this.schedule(p);
        } else this.visible.delete(p);
      }
    }, { rootMargin: '300px 0px' });
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
      ['SVG', () => download(`${c.name}.svg`, this.set.svg(c.name, 900, 0), 'image/svg+xml')],
      ['PNG', () => canvas.toBlob((b) => download(`${c.name}.png`, b))],
    ]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.setAttribute('aria-label', `Export ${c.title} as ${label}`);
      b.addEventListener('click', () => this.set && fn());
      tools.append(b);
    }
    const error = document.createElement('p');
    error.className = 'error chart-error';
    fig.append(cap, canvas, error, tools, details);
    this.container.append(fig);
    const panel = { chart: c, fig, canvas, error, table, details, tableStale: true, stale: true, queued: false };
    this.observer.observe(fig);
    // A timeline's table has a row per window and run (thousands of rows): it is built when
    // "Numbers" is opened, not on every redraw.
    details.addEventListener('toggle', () => details.open && this.fillTable(panel));
    return panel;
  }

  /** Replaces the runs drawn: `[{label, report}]` with report as JSON text. */
  show(runs) {
    if (this.set) this.set.free();
    this.set = new ChartSet();
    for (const r of runs) this.set.add(r.label, r.report);
    this.drawAll();
  }

  /** Marks every chart out of date and draws those in view, one per task. */
  drawAll() {
    if (!this.set) return;
    for (const p of this.panels) {
      p.stale = true;
      if (this.visible.has(p)) this.schedule(p);
    }
  }

  /** Draws `p` in a task of its own after the next frame: the frame lays out what changed
   * (a finished run rewrites the tables), so the draw does not have to, and the two stay short. */
  schedule(p) {
    if (p.queued) return;
    p.queued = true;
    requestAnimationFrame(() => setTimeout(() => {
      p.queued = false;
      if (p.stale && this.set) this.draw(p);
    }, 0));
  }

  draw(panel) {
    try {
      this.paint(panel);
      panel.error.textContent = '';
    } catch (e) {
      panel.error.textContent = `This chart could not be drawn here: ${e.message || e}`;
    }
  }

  paint(panel) {
    const { chart, canvas } = panel;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(canvas.clientWidth * ratio);
    // The chart grows taller with its legend instead of shrinking its plot; an embed fills
    // its frame as it is.
    if (!document.body.classList.contains('embed')) {
      canvas.style.height = `${Math.max(CHART_HEIGHT, this.set.height(canvas, chart.name, ratio))}px`;
    }
    canvas.height = Math.round(canvas.clientHeight * ratio);
    this.set.draw(canvas, chart.name, ratio);
    panel.stale = false;
    panel.tableStale = true;
    if (panel.details.open) this.fillTable(panel);
  }

  fillTable(panel) {
    if (!this.set || !panel.tableStale) return;
    panel.tableStale = false;
    const { chart, table } = panel;
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
