// The 2-D map of a project's notes (the UMAP coordinates of the last mining run): clustered notes
// coloured by cluster or by promoted pattern, noise in a panel of its own beside them, each cluster
// named at its centroid (names that would overlap are left out), the note under the pointer in a
// tooltip and its cluster highlighted. Thousands of points are a scatter plot, so they are drawn on
// a plain canvas (batched by colour) with a grid index for the pointer: wheel to zoom, drag to pan.
//
// The canvas is drawn again whenever it is sized (shown, resized, the detail panel opened) — setting
// a canvas's size clears it — and while it is hidden (no size) nothing is drawn.

import { clip, el, fill, mark, painted } from './dom.js';
import { NOISE, colourOf } from './styles.js';
import { swatch } from './graph.js';
import { LABEL_FONT, Taken, boxAt, textWidth } from './labels.js';

const WIDTH = 1000; // world units of the clusters' panel; the noise panel is a quarter of it
const GAP = 80;
const CELL = 10; // world units of a cell of the pointer's grid index
const HIT = 7; // screen pixels within which the pointer is over a point
const TOP_CLUSTERS = 12; // clusters listed in the legend
const LABELS_MOST = 40; // cluster names drawn at most (the largest first, then as many as fit)
const LABEL_PX = 12;
const TITLE_PX = 13;
const FADED = 0.18; // opacity of the points outside the highlighted cluster
const INK = '#212529';

/** The radius (CSS pixels, at the fitted zoom) of a point when ``count`` points share a panel of
 * ``area`` square pixels: a third of their spacing if spread evenly, between 1.5 and 6. */
export function pointRadius(count, area) {
  if (count <= 0 || area <= 0) return 4;
  return Math.max(1.5, Math.min(6, 0.3 * Math.sqrt(area / count)));
}

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
    this.clusters = new Map();
    this.bySize = [];
    this.colourBy = 'cluster';
    this.view = { scale: 1, x: 0, y: 0 };
    this.fitScale = 1;
    this.fitted = true; // the whole map in view: kept so on resize, until one zooms or pans
    this.selected = -1;
    this.hovered = null; // the cluster under the pointer (a point or its legend row)
    this.labels = []; // the labels drawn last: { text, cluster, left, top, right, bottom } (canvas pixels)
    this.frame = 0;
    this.bind();
    new ResizeObserver(() => this.resize()).observe(container); // shown, hidden, the detail panel beside it
  }

  async render(points) {
    this.points = points;
    this.selected = -1;
    this.hovered = null;
    this.place(points);
    this.summarise();
    this.paint();
    this.fitted = true;
    this.resize();
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
      { x: 0, y: -22, text: `clusters (${clustered.length} notes)` },
      { x: WIDTH + GAP, y: -22, text: `noise (${noise.length} notes, in no cluster)` },
    ];
    this.grid = new Map();
    points.forEach((_, i) => {
      const key = cellKey(Math.floor(this.xs[i] / CELL), Math.floor(this.ys[i] / CELL));
      if (!this.grid.has(key)) this.grid.set(key, []);
      this.grid.get(key).push(i);
    });
  }

  /** Each cluster's size, name (the one the reader may see: the service chose it), centroid and how
   * many of its notes the reader may read (a name is built from those only). */
  summarise() {
    this.clusters = new Map();
    this.points.forEach((p, i) => {
      if (p.cluster < 0) return;
      if (!this.clusters.has(p.cluster)) {
        this.clusters.set(p.cluster, { id: p.cluster, size: 0, readable: 0, name: null, x: 0, y: 0, members: [] });
      }
      const cluster = this.clusters.get(p.cluster);
      cluster.size += 1;
      if (p.statement !== null && p.statement !== undefined) cluster.readable += 1;
      cluster.x += this.xs[i];
      cluster.y += this.ys[i];
      cluster.members.push(i);
      cluster.name = cluster.name || p.name || null;
    });
    for (const cluster of this.clusters.values()) {
      cluster.x /= cluster.size;
      cluster.y /= cluster.size;
    }
    this.bySize = [...this.clusters.values()].sort((a, b) => b.size - a.size || a.id - b.id);
    this.named = this.bySize.some((c) => c.name);
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

  /** The cluster shown highlighted: the one under the pointer, else the selected point's; or null. */
  focus() {
    if (this.hovered !== null) return this.hovered;
    const chosen = this.points[this.selected];
    return chosen && chosen.cluster >= 0 ? chosen.cluster : null;
  }

  /** The radius of a point now: sized for the number of points, growing slowly as one zooms in. */
  radius() {
    const side = WIDTH * this.fitScale;
    const zoom = Math.sqrt(this.view.scale / this.fitScale);
    return pointRadius(this.points.length, side * side) * Math.max(0.6, Math.min(3, zoom));
  }

  /** Draw at the next frame (pointer moves and wheel turns come faster than frames). */
  schedule() {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  draw() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (!this.canvas.width || !this.canvas.clientWidth) return; // hidden: drawn when it is sized again
    const ctx = this.canvas.getContext('2d');
    const ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, this.canvas.clientWidth, this.canvas.clientHeight);
    if (this.points.length === 0) return this.drawEmpty(ctx);
    const focus = this.focus();
    const radius = this.radius();
    this.drawPoints(ctx, radius, focus);
    if (this.selected >= 0) {
      ctx.beginPath();
      this.dot(ctx, this.selected, radius + 4);
      ctx.strokeStyle = '#fab005';
      ctx.lineWidth = 3;
      ctx.stroke();
    }
    this.drawLabels(ctx, focus, radius);
    this.container.dataset.highlight = focus === null ? '' : String(focus);
    return null;
  }

  drawEmpty(ctx) {
    ctx.fillStyle = '#6c757d';
    ctx.font = `${TITLE_PX}px ${LABEL_FONT}`;
    ctx.fillText('No map yet: the project has not been mined.', 16, 28);
    this.labels = [];
  }

  /** Every point, one path per colour; outside a highlighted cluster faded, inside it outlined. */
  drawPoints(ctx, radius, focus) {
    const inFocus = (i) => focus !== null && this.points[i].cluster === focus;
    ctx.globalAlpha = focus === null ? 1 : FADED;
    for (const [colour, members] of this.byColour) {
      ctx.beginPath();
      for (const i of members) if (!inFocus(i)) this.dot(ctx, i, this.points[i].cluster < 0 ? radius * 0.8 : radius);
      ctx.fillStyle = colour;
      ctx.fill();
    }
    ctx.beginPath();
    this.points.forEach((p, i) => { if (p.pattern_id && !inFocus(i)) this.dot(ctx, i, radius); });
    ctx.strokeStyle = 'rgba(33, 37, 41, 0.7)';
    ctx.lineWidth = 0.8;
    ctx.stroke();
    ctx.globalAlpha = 1;
    if (focus === null || !this.clusters.has(focus)) return;
    const members = this.clusters.get(focus).members;
    for (const i of members) {
      ctx.beginPath();
      this.dot(ctx, i, radius * 1.25);
      ctx.fillStyle = this.colourOf(this.points[i]);
      ctx.fill();
    }
    ctx.beginPath();
    for (const i of members) this.dot(ctx, i, radius * 1.25);
    ctx.strokeStyle = INK;
    ctx.lineWidth = 1.2;
    ctx.stroke();
  }

  /** The panels' titles, then cluster names at their centroids (the highlighted cluster's first, then
   * the largest), each where it meets no label drawn before it, or not at all. */
  drawLabels(ctx, focus, radius) {
    const bounds = { left: 0, top: 0, right: this.canvas.clientWidth, bottom: this.canvas.clientHeight };
    const taken = new Taken(bounds);
    const drawn = [];
    for (const title of this.titles) {
      const [x, y] = this.toScreen(title.x, title.y);
      const width = textWidth(title.text, TITLE_PX) + 4;
      const box = taken.first([{ left: x - 2, top: y - TITLE_PX / 2 - 2, right: x - 2 + width, bottom: y + TITLE_PX / 2 + 2 }]);
      if (box) drawn.push({ text: title.text, cluster: null, px: TITLE_PX, weight: 'normal', colour: '#495057', ...box });
    }
    const order = focus !== null && this.clusters.has(focus)
      ? [this.clusters.get(focus), ...this.bySize.filter((c) => c.id !== focus)] : this.bySize;
    for (const cluster of order) {
      if (drawn.length - this.titles.length >= LABELS_MOST) break;
      const label = this.clusterLabel(cluster, cluster.id === focus, radius, taken);
      if (label) drawn.push(label);
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'round';
    for (const label of drawn) {
      ctx.font = `${label.weight} ${label.px}px ${LABEL_FONT}`;
      const [x, y] = [(label.left + label.right) / 2, (label.top + label.bottom) / 2];
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
      ctx.lineWidth = 3;
      ctx.strokeText(label.text, x, y);
      ctx.fillStyle = label.colour;
      ctx.fillText(label.text, x, y);
    }
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
    this.labels = drawn.map(({ text, cluster, left, top, right, bottom }) => ({ text, cluster, left, top, right, bottom }));
    this.container.dataset.labels = String(drawn.length);
  }

  /** A cluster's name on its centroid, else just above or below it; null where neither is free. */
  clusterLabel(cluster, focused, radius, taken) {
    const [x, y] = this.toScreen(cluster.x, cluster.y);
    const text = cluster.name || `cluster ${cluster.id}`;
    const weight = focused ? 'bold' : 'normal';
    const width = textWidth(text, LABEL_PX, weight) + 6;
    const height = LABEL_PX + 6;
    const box = taken.first([
      boxAt(x, y - height / 2, width, height),
      boxAt(x, y - height - 2 * radius, width, height),
      boxAt(x, y + 2 * radius, width, height),
    ]);
    return box && { text, cluster: cluster.id, px: LABEL_PX, weight, colour: cluster.name ? INK : '#6c757d', ...box };
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
    const reach = Math.max(HIT, this.radius()) / this.view.scale;
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
        this.fitted = false;
        this.view = { ...drag.view, x: drag.view.x + e.clientX - drag.x, y: drag.view.y + e.clientY - drag.y };
        this.tooltip.hidden = true;
        this.schedule();
        return;
      }
      this.hover(e);
    });
    this.canvas.addEventListener('pointerup', (e) => {
      const wasDrag = drag && drag.moved;
      drag = null;
      if (!wasDrag) this.click(e);
    });
    this.canvas.addEventListener('pointerleave', () => {
      this.tooltip.hidden = true;
      this.highlight(null);
    });
    this.canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      const [x, y] = this.local(e);
      const factor = Math.exp(-e.deltaY * 0.0015);
      this.fitted = false;
      this.view = { scale: this.view.scale * factor, x: x - (x - this.view.x) * factor, y: y - (y - this.view.y) * factor };
      this.schedule();
    }, { passive: false });
  }

  local(event) {
    const box = this.canvas.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }

  click(event) {
    const i = this.pointAt(...this.local(event));
    this.selected = i;
    this.draw();
    if (i >= 0) this.onSelect(this.points[i]);
  }

  /** Highlight a cluster (a number), or none (null): on the map and in the legend. */
  highlight(cluster) {
    if (cluster === this.hovered) return;
    this.hovered = cluster;
    for (const row of this.legend.querySelectorAll('li[data-cluster]')) {
      row.classList.toggle('active', row.dataset.cluster === String(cluster));
    }
    this.schedule();
  }

  hover(event) {
    const i = this.pointAt(...this.local(event));
    if (i < 0) {
      this.tooltip.hidden = true;
      this.highlight(null);
      return;
    }
    const p = this.points[i];
    this.highlight(p.cluster >= 0 ? p.cluster : null);
    const pattern = p.pattern_id ? this.patternText(p.pattern_id) : null;
    fill(
      this.tooltip,
      el('p', { class: 'statement' }, p.statement ?? 'a personal note (its text is for its agent and admins only)'),
      el('p', { class: 'meta' }, [p.type, p.subject && `subject: ${p.subject}`, p.scope, p.status].filter(Boolean).join(' · ')),
      el('p', { class: 'meta' }, clusterLine(p)),
      pattern ? el('p', { class: 'meta' }, `pattern: ${clip(pattern, 120)}`) : null,
    );
    this.tooltip.style.left = `${Math.round(event.clientX + 14)}px`;
    this.tooltip.style.top = `${Math.round(event.clientY + 14)}px`;
    this.tooltip.hidden = false;
  }

  drawLegend() {
    const promoted = this.points.filter((p) => p.cluster >= 0 && p.pattern_id).length;
    const clustered = this.bySize.reduce((sum, c) => sum + c.size, 0);
    const noise = this.points.length - clustered;
    this.count.textContent = `${this.points.length} notes`;
    fill(
      this.legend,
      el('h3', {}, 'Map'),
      el('ul', { class: 'kinds' },
        el('li', { dataset: { legend: 'points' } }, 'notes ', el('span', { class: 'count' }, String(this.points.length))),
        el('li', { dataset: { legend: 'clusters' } }, 'clusters ', el('span', { class: 'count' }, String(this.clusters.size))),
        el('li', { dataset: { legend: 'promoted' } }, 'in a promoted pattern (outlined) ', el('span', { class: 'count' }, String(promoted))),
        el('li', { dataset: { legend: 'noise' } }, swatch('swatch', NOISE, '●'), ' noise, drawn apart ', el('span', { class: 'count' }, String(noise)))),
      this.points.length === 0 ? el('p', { class: 'hint', dataset: { legend: 'empty' } }, 'No map yet: the project has not been mined.') : null,
      this.clusters.size ? this.clusterList() : null,
      el('p', { class: 'hint' }, 'Hover a point or a cluster for its notes; click a point for the detail. Wheel to zoom, drag to pan.'),
    );
  }

  /** The largest clusters by name (hover a row to highlight its cluster); a cluster without a name says
   * why: not named yet (the fit is older than names), or only personal notes the reader may not read. */
  clusterList() {
    const rows = this.bySize.slice(0, TOP_CLUSTERS).map((c) => el('li', {
      dataset: { cluster: String(c.id) }, title: `cluster ${c.id}`,
      onmouseenter: () => this.highlight(c.id), onmouseleave: () => this.highlight(null),
    },
    swatch('swatch', this.colourOf(this.points[c.members[0]]), '●'), ' ',
    c.name ? el('span', { class: 'name' }, c.name) : el('span', { class: 'unnamed' }, `cluster ${c.id} ${unnamed(c)}`), ' ',
    el('span', { class: 'count' }, String(c.size))));
    return [
      el('h3', {}, this.colourBy === 'pattern' ? 'Largest clusters (colour: their pattern)' : 'Largest clusters'),
      this.named ? null : el('p', { class: 'hint', dataset: { legend: 'unnamed' } }, this.unnamedHint()),
      el('ul', { class: 'kinds clusters' }, rows),
    ];
  }

  unnamedHint() {
    if (this.bySize.some((c) => c.readable > 0)) {
      return 'These clusters have no names yet: mining names each by its most distinctive words on its next run.';
    }
    return 'These clusters hold only personal notes, which you may not read: a name is built from the notes you may read only.';
  }

  /** The whole map in view. */
  fit() {
    const width = this.canvas.clientWidth || 1;
    const height = this.canvas.clientHeight || 1;
    const world = { left: -10, top: -50, right: WIDTH + GAP + WIDTH / 4 + 10, bottom: WIDTH + 10 };
    const scale = Math.min(width / (world.right - world.left), height / (world.bottom - world.top));
    this.view = { scale, x: (width - (world.right + world.left) * scale) / 2, y: (height - (world.bottom + world.top) * scale) / 2 };
    this.fitScale = scale;
    this.fitted = true;
    this.draw();
  }

  /** Match the canvas to its box (device pixels); false while it is hidden (no box to draw in). */
  size() {
    const ratio = window.devicePixelRatio || 1;
    const width = this.container.clientWidth;
    const height = this.container.clientHeight;
    if (!width || !height) return false;
    const [w, h] = [Math.round(width * ratio), Math.round(height * ratio)];
    if (this.canvas.width !== w) this.canvas.width = w; // setting a size clears the canvas, even the same size
    if (this.canvas.height !== h) this.canvas.height = h;
    return true;
  }

  /** Size the canvas and draw it again: the whole map if it was in view, else the same view. */
  resize() {
    if (!this.size()) return;
    if (this.fitted) this.fit();
    else this.draw();
  }
}

function unnamed(cluster) {
  return cluster.readable > 0 ? '(no name yet)' : '(personal notes only)';
}

function clusterLine(point) {
  if (point.cluster < 0) return 'noise: in no cluster';
  return point.name ? `cluster: ${point.name}` : `cluster ${point.cluster} (no name)`;
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
