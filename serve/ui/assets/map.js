// The 2-D map of a project's notes (the UMAP coordinates of the last mining run): clustered notes
// coloured by cluster or by promoted pattern, noise in a panel of its own beside them, the note
// under the pointer in a tooltip. Thousands of points are a scatter plot, so they are drawn on a
// plain canvas (batched by colour) with a grid index for the pointer: wheel to zoom, drag to pan.

import { clip, el, fill, mark, painted } from './dom.js';
import { NOISE, colourOf } from './styles.js';
import { swatch } from './graph.js';

const WIDTH = 1000; // world units of the clusters' panel; the noise panel is a quarter of it
const GAP = 80;
const CELL = 10; // world units of a cell of the pointer's grid index
const HIT = 7; // screen pixels within which the pointer is over a point
const TOP_CLUSTERS = 12;

export class MapView {
  constructor({ container, legend, count, tooltip, onSelect, patternText }) {
    this.container = container;
    this.legend = legend;
    this.count = count;
    this.tooltip = tooltip;
    this.onSelect = onSelect;
    this.patternText = patternText; // pattern id -> its statement (from the graph), for the tooltip
    this.canvas = el('canvas', { class: 'scatter', 'aria-label': 'map of the notes' });
    container.append(this.canvas);
    this.points = [];
    this.colourBy = 'cluster';
    this.view = { scale: 1, x: 0, y: 0 };
    this.selected = -1;
    this.bind();
    new ResizeObserver(() => this.resize()).observe(container); // the detail panel opens and closes beside it
  }

  async render(points) {
    this.points = points;
    this.place(points);
    this.paint();
    this.resize();
    this.fit();
    this.drawLegend();
    this.container.dataset.points = String(points.length);
    await painted();
    this.container.dataset.ready = 'true';
    mark('map-drawn');
  }

  /** World coordinates: clustered notes in the main panel, noise in its own panel to the right. */
  place(points) {
    const clustered = points.filter((p) => p.cluster >= 0);
    const noise = points.filter((p) => p.cluster < 0);
    const main = frame(clustered, WIDTH, 0);
    const apart = frame(noise, WIDTH / 4, WIDTH + GAP);
    this.xs = new Float64Array(points.length);
    this.ys = new Float64Array(points.length);
    points.forEach((p, i) => {
      const at = p.cluster >= 0 ? main(p) : apart(p);
      this.xs[i] = at.x;
      this.ys[i] = at.y;
    });
    this.titles = [
      { x: 0, y: -24, text: `clusters (${clustered.length} notes)` },
      { x: WIDTH + GAP, y: -24, text: `noise (${noise.length} notes, in no cluster)` },
    ];
    this.grid = new Map();
    points.forEach((_, i) => {
      const key = cellKey(Math.floor(this.xs[i] / CELL), Math.floor(this.ys[i] / CELL));
      if (!this.grid.has(key)) this.grid.set(key, []);
      this.grid.get(key).push(i);
    });
  }

  /** The colour of every point, grouped: one path per colour when drawing. */
  paint() {
    this.byColour = new Map();
    this.points.forEach((p, i) => {
      const colour = this.colourOf(p);
      if (!this.byColour.has(colour)) this.byColour.set(colour, []);
      this.byColour.get(colour).push(i);
    });
  }

  colourOf(point) {
    if (point.cluster < 0) return NOISE;
    if (this.colourBy === 'pattern') return point.pattern_id ? colourOf(point.pattern_id) : '#dee2e6';
    return colourOf(point.cluster);
  }

  recolour(by) {
    this.colourBy = by;
    this.paint();
    this.draw();
    this.drawLegend();
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    const ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const { scale } = this.view;
    const radius = Math.max(2, Math.min(6, 3 * Math.sqrt(scale)));
    ctx.fillStyle = '#495057';
    ctx.font = '13px system-ui, sans-serif';
    for (const title of this.titles) ctx.fillText(title.text, ...this.toScreen(title.x, title.y));
    for (const [colour, members] of this.byColour) {
      ctx.beginPath();
      for (const i of members) this.dot(ctx, i, this.points[i].cluster < 0 ? radius * 0.8 : radius);
      ctx.fillStyle = colour;
      ctx.fill();
    }
    ctx.beginPath();
    this.points.forEach((p, i) => { if (p.pattern_id) this.dot(ctx, i, radius); });
    ctx.strokeStyle = 'rgba(33, 37, 41, 0.7)';
    ctx.lineWidth = 0.8;
    ctx.stroke();
    if (this.selected >= 0) {
      ctx.beginPath();
      this.dot(ctx, this.selected, radius + 4);
      ctx.strokeStyle = '#fab005';
      ctx.lineWidth = 3;
      ctx.stroke();
    }
  }

  dot(ctx, i, radius) {
    const [x, y] = this.toScreen(this.xs[i], this.ys[i]);
    ctx.moveTo(x + radius, y);
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
  }

  toScreen(x, y) {
    return [x * this.view.scale + this.view.x, y * this.view.scale + this.view.y];
  }

  toWorld(x, y) {
    return [(x - this.view.x) / this.view.scale, (y - this.view.y) / this.view.scale];
  }

  /** The point nearest the canvas position (x, y) within HIT pixels, or -1. */
  pointAt(x, y) {
    const [wx, wy] = this.toWorld(x, y);
    const reach = HIT / this.view.scale;
    let best = -1;
    let bestDistance = reach * reach;
    for (let cx = Math.floor((wx - reach) / CELL); cx <= Math.floor((wx + reach) / CELL); cx++) {
      for (let cy = Math.floor((wy - reach) / CELL); cy <= Math.floor((wy + reach) / CELL); cy++) {
        for (const i of this.grid.get(cellKey(cx, cy)) || []) {
          const distance = (this.xs[i] - wx) ** 2 + (this.ys[i] - wy) ** 2;
          if (distance <= bestDistance) [best, bestDistance] = [i, distance];
        }
      }
    }
    return best;
  }

  /** Where point ``i`` is on the screen (client coordinates). */
  screenPoint(i) {
    const box = this.canvas.getBoundingClientRect();
    const [x, y] = this.toScreen(this.xs[i], this.ys[i]);
    return [box.left + x, box.top + y];
  }

  bind() {
    let drag = null;
    this.canvas.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, moved: false, view: { ...this.view } };
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener('pointermove', (e) => {
      if (drag && (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3 || drag.moved)) {
        drag.moved = true;
        this.view = { ...drag.view, x: drag.view.x + e.clientX - drag.x, y: drag.view.y + e.clientY - drag.y };
        this.tooltip.hidden = true;
        this.draw();
        return;
      }
      this.hover(e);
    });
    this.canvas.addEventListener('pointerup', (e) => {
      const wasDrag = drag && drag.moved;
      drag = null;
      if (!wasDrag) this.click(e);
    });
    this.canvas.addEventListener('pointerleave', () => { this.tooltip.hidden = true; });
    this.canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      const [x, y] = this.local(e);
      const factor = Math.exp(-e.deltaY * 0.0015);
      this.view = { scale: this.view.scale * factor, x: x - (x - this.view.x) * factor, y: y - (y - this.view.y) * factor };
      this.draw();
    }, { passive: false });
  }

  local(event) {
    const box = this.canvas.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }

  click(event) {
    const i = this.pointAt(...this.local(event));
    if (i < 0) return;
    this.selected = i;
    this.draw();
    this.onSelect(this.points[i]);
  }

  hover(event) {
    const i = this.pointAt(...this.local(event));
    if (i < 0) {
      this.tooltip.hidden = true;
      return;
    }
    const p = this.points[i];
    const pattern = p.pattern_id ? this.patternText(p.pattern_id) : null;
    fill(
      this.tooltip,
      el('p', { class: 'statement' }, p.statement ?? 'a personal note (its text is for its agent and admins only)'),
      el('p', { class: 'meta' }, [p.type, p.subject && `subject: ${p.subject}`, p.scope, p.status].filter(Boolean).join(' · ')),
      el('p', { class: 'meta' }, p.cluster < 0 ? 'noise: in no cluster' : `cluster ${p.cluster}${p.name ? `: ${p.name}` : ''}`),
      pattern ? el('p', { class: 'meta' }, `pattern: ${clip(pattern, 120)}`) : null,
    );
    this.tooltip.style.left = `${Math.round(event.clientX + 14)}px`;
    this.tooltip.style.top = `${Math.round(event.clientY + 14)}px`;
    this.tooltip.hidden = false;
  }

  drawLegend() {
    const clustered = this.points.filter((p) => p.cluster >= 0);
    const sizes = new Map();
    for (const p of clustered) sizes.set(p.cluster, (sizes.get(p.cluster) || 0) + 1);
    const promoted = clustered.filter((p) => p.pattern_id).length;
    const noise = this.points.length - clustered.length;
    this.count.textContent = `${this.points.length} notes`;
    const top = [...sizes.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP_CLUSTERS);
    fill(
      this.legend,
      el('h3', {}, 'Map'),
      el('ul', { class: 'kinds' },
        el('li', { dataset: { legend: 'points' } }, 'notes ', el('span', { class: 'count' }, String(this.points.length))),
        el('li', { dataset: { legend: 'clusters' } }, 'clusters ', el('span', { class: 'count' }, String(sizes.size))),
        el('li', { dataset: { legend: 'promoted' } }, 'in a promoted pattern (outlined) ', el('span', { class: 'count' }, String(promoted))),
        el('li', { dataset: { legend: 'noise' } }, swatch('swatch', NOISE, '●'), ' noise, drawn apart ', el('span', { class: 'count' }, String(noise)))),
      el('h3', {}, this.colourBy === 'pattern' ? 'Largest clusters (colour: their pattern)' : 'Largest clusters'),
      el('ul', { class: 'kinds' }, top.map(([cluster, size]) => {
        const sample = clustered.find((p) => p.cluster === cluster);
        return el('li', {}, swatch('swatch', this.colourOf(sample), '●'), ` ${sample.name || `cluster ${cluster}`} `, el('span', { class: 'count' }, String(size)));
      })),
      el('p', { class: 'hint' }, 'Hover a point for its note; click it for the detail. Wheel to zoom, drag to pan.'),
    );
  }

  /** The whole map in view. */
  fit() {
    const width = this.canvas.clientWidth || 1;
    const height = this.canvas.clientHeight || 1;
    const world = { left: -10, top: -40, right: WIDTH + GAP + WIDTH / 4 + 10, bottom: WIDTH + 10 };
    const scale = Math.min(width / (world.right - world.left), height / (world.bottom - world.top));
    this.view = { scale, x: (width - (world.right + world.left) * scale) / 2, y: (height - (world.bottom + world.top) * scale) / 2 };
    this.draw();
  }

  resize() {
    const ratio = window.devicePixelRatio || 1;
    const width = this.container.clientWidth;
    const height = this.container.clientHeight;
    if (!width || !height) return;
    const changed = this.canvas.width !== Math.round(width * ratio) || this.canvas.height !== Math.round(height * ratio);
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    if (changed && this.points.length) this.fit();
  }
}

function cellKey(cx, cy) {
  return `${cx},${cy}`;
}

/** A function placing points (x, y) into a panel ``width`` wide starting at ``left`` (y downwards). */
function frame(points, width, left) {
  if (points.length === 0) return () => ({ x: left, y: 0 });
  let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const p of points) {
    minX = Math.min(minX, p.x); maxX = Math.max(maxX, p.x);
    minY = Math.min(minY, p.y); maxY = Math.max(maxY, p.y);
  }
  const scale = width / Math.max(maxX - minX, maxY - minY, 1e-6);
  return (p) => ({ x: left + (p.x - minX) * scale, y: (maxY - p.y) * scale });
}
