// The 2-D map of a project's notes (the UMAP coordinates of the last mining run): clustered notes
// coloured by cluster or by promoted pattern, noise in a panel of its own beside them, the note
// under the pointer in a tooltip.

import cytoscape from './vendor/cytoscape.esm.min.mjs';
import { clip, el, fill, mark, painted } from './dom.js';
import { NOISE, colourOf } from './styles.js';
import { swatch } from './graph.js';

const WIDTH = 1000; // drawing units of the clusters' panel; the noise panel is a quarter of it
const GAP = 80;
const TOP_CLUSTERS = 12;

export class MapView {
  constructor({ container, legend, count, tooltip, onSelect, patternText }) {
    this.container = container;
    this.legend = legend;
    this.count = count;
    this.tooltip = tooltip;
    this.onSelect = onSelect;
    this.patternText = patternText; // pattern id -> its statement (from the graph), for the tooltip
    this.cy = null;
    new ResizeObserver(() => this.resize()).observe(container); // the detail panel opens and closes beside it
    this.points = [];
    this.colourBy = 'cluster';
  }

  async render(points) {
    this.points = points;
    if (this.cy) this.cy.destroy();
    this.cy = cytoscape({
      container: this.container, elements: this.elements(points), style: this.style(),
      layout: { name: 'preset', fit: true, padding: 20 }, minZoom: 0.05, maxZoom: 20,
      boxSelectionEnabled: false, autoungrabify: true, motionBlur: false,
      textureOnViewport: points.length > 2000, pixelRatio: points.length > 2000 ? 1 : 'auto',
    });
    this.cy.on('mouseover', 'node[?point]', (event) => this.hover(event));
    this.cy.on('mouseout', 'node[?point]', () => { this.tooltip.hidden = true; });
    this.cy.on('tap', 'node[?point]', (event) => this.onSelect(event.target.data('p')));
    this.drawLegend();
    this.container.dataset.points = String(points.length);
    await painted();
    this.container.dataset.ready = 'true';
    mark('map-drawn');
  }

  elements(points) {
    const clustered = points.filter((p) => p.cluster >= 0);
    const noise = points.filter((p) => p.cluster < 0);
    const main = frame(clustered, WIDTH, 0);
    const apart = frame(noise, WIDTH / 4, WIDTH + GAP);
    const nodes = points.map((p, i) => {
      const at = p.cluster >= 0 ? main(p) : apart(p);
      return {
        group: 'nodes', position: at,
        classes: [p.cluster < 0 ? 'noise' : '', p.pattern_id ? 'promoted' : ''].join(' ').trim(),
        data: { id: `p${i}`, point: true, p, colour: this.colourOf(p) },
      };
    });
    const titles = [
      { group: 'nodes', data: { id: 'title-clusters', title: `clusters (${clustered.length} notes)` }, position: { x: WIDTH / 2, y: -40 }, classes: 'title' },
      { group: 'nodes', data: { id: 'title-noise', title: `noise (${noise.length} notes, no cluster)` }, position: { x: WIDTH + GAP + WIDTH / 8, y: -40 }, classes: 'title' },
    ];
    return [...nodes, ...titles];
  }

  colourOf(point) {
    if (point.cluster < 0) return NOISE;
    if (this.colourBy === 'pattern') return point.pattern_id ? colourOf(point.pattern_id) : '#e9ecef';
    return colourOf(point.cluster);
  }

  style() {
    return [
      { selector: 'node', style: { width: 7, height: 7, 'background-color': 'data(colour)', 'border-width': 0 } },
      { selector: 'node.promoted', style: { width: 10, height: 10, 'border-width': 1, 'border-color': '#212529' } },
      { selector: 'node.noise', style: { shape: 'diamond', width: 6, height: 6, opacity: 0.8 } },
      {
        selector: 'node.title',
        style: { label: 'data(title)', 'background-opacity': 0, width: 1, height: 1, 'font-size': 16, color: '#495057', events: 'no' },
      },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#fab005', width: 14, height: 14 } },
    ];
  }

  recolour(by) {
    this.colourBy = by;
    if (!this.cy) return;
    this.cy.batch(() => this.cy.nodes('[?point]').forEach((node) => node.data('colour', this.colourOf(node.data('p')))));
    this.drawLegend();
  }

  hover(event) {
    const p = event.target.data('p');
    const pattern = p.pattern_id ? this.patternText(p.pattern_id) : null;
    fill(
      this.tooltip,
      el('p', { class: 'statement' }, p.statement ?? 'a personal note (its text is for its agent and admins only)'),
      el('p', { class: 'meta' }, [p.type, p.subject && `subject: ${p.subject}`, p.scope, p.status].filter(Boolean).join(' · ')),
      el('p', { class: 'meta' }, p.cluster < 0 ? 'noise: in no cluster' : `cluster ${p.cluster}`),
      pattern ? el('p', { class: 'meta' }, `pattern: ${clip(pattern, 120)}`) : null,
    );
    const box = this.container.getBoundingClientRect();
    const at = event.renderedPosition;
    this.tooltip.style.left = `${Math.round(box.left + at.x + 12)}px`;
    this.tooltip.style.top = `${Math.round(box.top + at.y + 12)}px`;
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
        el('li', { dataset: { legend: 'noise' } }, swatch('swatch', NOISE, '◆'), ' noise, drawn apart ', el('span', { class: 'count' }, String(noise)))),
      el('h3', {}, this.colourBy === 'pattern' ? 'Largest clusters (colour: their pattern)' : 'Largest clusters'),
      el('ul', { class: 'kinds' }, top.map(([cluster, size]) => {
        const sample = clustered.find((p) => p.cluster === cluster);
        return el('li', {}, swatch('swatch', this.colourOf(sample), '●'), ` cluster ${cluster} `, el('span', { class: 'count' }, String(size)));
      })),
      el('p', { class: 'hint' }, 'Hover a point for its note; click it for the detail.'),
    );
  }

  fit() {
    if (this.cy) this.cy.fit(undefined, 20);
  }

  resize() {
    if (this.cy) this.cy.resize();
  }
}

/** A function placing points of ``points`` (x, y) into a panel ``width`` wide starting at ``left``. */
function frame(points, width, left) {
  if (points.length === 0) return () => ({ x: left, y: 0 });
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const scale = width / Math.max(maxX - minX, maxY - minY, 1e-6);
  return (p) => ({ x: left + (p.x - minX) * scale, y: (maxY - p.y) * scale });
}
