// The team graph of a project: cytoscape.js at the layout the service computed (anchored on the map
// of the notes, so a graph of thousands of notes needs no force layout in the browser), nodes drawn
// by kind, edges coloured by kind, conflicts in red, a legend with counts, and search.

import cytoscape from './vendor/cytoscape.esm.min.mjs';
import { clip, el, fill, mark, painted } from './dom.js';
import { EDGE_KINDS, NODE_KINDS, CONFLICT, graphStyle } from './styles.js';

const LARGE = 2000; // elements above which cytoscape draws a cached texture while panning and zooming
const FORCE_MOST = 1500; // nodes a force layout may take in a browser
const RESULTS = 50;
const KIND_ORDER = ['pattern', 'subject', 'agent', 'module', 'project', 'note', 'session'];

export class GraphView {
  constructor({ container, legend, results, count, onSelect }) {
    this.container = container;
    this.legend = legend;
    this.results = results;
    this.count = count;
    this.onSelect = onSelect;
    this.cy = null;
    new ResizeObserver(() => this.resize()).observe(container); // the detail panel opens and closes beside it
    this.text = new Map(); // node id -> lower-case text searched
  }

  /** Draw ``graph`` (node-link JSON with x, y); ``statements`` maps note ids to their text. */
  async render(graph, statements) {
    const elements = this.elements(graph, statements);
    if (this.cy) this.cy.destroy();
    const large = elements.length > LARGE;
    this.cy = cytoscape({
      container: this.container, elements, style: graphStyle(), layout: { name: 'preset', fit: true, padding: 20 },
      minZoom: 0.02, maxZoom: 8, boxSelectionEnabled: false, selectionType: 'single',
      hideEdgesOnViewport: large, textureOnViewport: large, motionBlur: false, pixelRatio: large ? 1 : 'auto',
    });
    this.cy.on('tap', 'node', (event) => this.select(event.target));
    this.cy.on('tap', (event) => { if (event.target === this.cy) this.clearNear(); });
    this.drawLegend(graph);
    this.container.dataset.nodes = String(this.cy.nodes().length);
    this.container.dataset.edges = String(this.cy.edges().length);
    await painted();
    this.container.dataset.ready = 'true';
    mark('graph-drawn');
  }

  elements(graph, statements) {
    const conflicted = new Set();
    for (const edge of graph.edges) {
      if (edge.kind === 'conflicts_with') conflicted.add(edge.source).add(edge.target);
    }
    this.text.clear();
    const nodes = graph.nodes.map((node) => {
      const key = node.id.slice(node.id.indexOf(':') + 1);
      const statement = node.statement || (node.kind === 'note' ? statements.get(key) : '') || '';
      this.text.set(node.id, `${node.label || ''} ${statement} ${key}`.toLowerCase());
      const classes = [conflicted.has(node.id) ? 'conflict' : '', node.invalid_at ? 'invalid' : ''].join(' ').trim();
      return {
        group: 'nodes', classes,
        data: { ...node, key, short: clip(node.kind === 'pattern' && statement ? statement : node.label || key, 48), statement },
        position: { x: node.x ?? 0, y: node.y ?? 0 },
      };
    });
    const edges = graph.edges.map((edge, i) => ({
      group: 'edges', data: { id: `e${i}`, source: edge.source, target: edge.target, kind: edge.kind, key: edge.key },
    }));
    return [...nodes, ...edges];
  }

  drawLegend(graph) {
    const kinds = count(graph.nodes, (n) => n.kind);
    const edgeKinds = count(graph.edges, (e) => e.kind);
    const conflicts = this.cy.nodes('.conflict').length;
    const nodeRows = Object.entries(NODE_KINDS).filter(([kind]) => kinds.get(kind)).map(([kind, look]) => el(
      'li', { dataset: { kind } }, swatch('swatch', look.colour, look.mark), ` ${kind} `,
      el('span', { class: 'count' }, String(kinds.get(kind))),
    ));
    const edgeRows = Object.entries(EDGE_KINDS).filter(([kind]) => edgeKinds.get(kind)).map(([kind, look]) => el(
      'li', { dataset: { edge: kind }, title: look.meaning }, swatch('line', look.colour, ''), ` ${kind} `,
      el('span', { class: 'count' }, String(edgeKinds.get(kind))),
    ));
    fill(
      this.legend,
      el('h3', {}, 'Nodes'), el('ul', { class: 'kinds' }, nodeRows),
      el('h3', {}, 'Edges'), el('ul', { class: 'kinds' }, edgeRows),
      el('p', { class: 'conflicts', dataset: { conflicts: String(conflicts) } },
        swatch('ring', CONFLICT, ''), ` ${conflicts} notes in a conflict`),
      el('p', { class: 'hint' }, 'Click a node for its statement, evidence, history and batches. Edges of the selected node are labelled.'),
    );
  }

  /** Highlight the nodes whose text holds every word of ``query``; list the first of them. */
  async search(query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!this.cy) return;
    const matches = [];
    this.cy.batch(() => {
      this.cy.nodes().forEach((node) => {
        const hit = words.length > 0 && words.every((w) => this.text.get(node.id()).includes(w));
        node.toggleClass('match', hit);
        node.toggleClass('faded', words.length > 0 && !hit);
        if (hit) matches.push(node);
      });
    });
    matches.sort((a, b) => KIND_ORDER.indexOf(a.data('kind')) - KIND_ORDER.indexOf(b.data('kind')));
    this.count.textContent = words.length ? `${matches.length} found` : '';
    fill(this.results, matches.slice(0, RESULTS).map((node) => el('li', {},
      el('button', { type: 'button', class: `result kind-${node.data('kind')}`, onclick: () => this.focus(node) },
        el('span', { class: 'tag' }, node.data('kind')), ' ', clip(node.data('statement') || node.data('label') || node.data('key'), 90)),
    )));
    await painted();
    mark('search-done');
  }

  focus(node) {
    this.cy.animate({ center: { eles: node }, zoom: Math.max(this.cy.zoom(), 1.2) }, { duration: 200 });
    this.select(node);
  }

  select(node) {
    this.clearNear();
    this.cy.elements(':selected').unselect();
    node.select();
    node.closedNeighborhood().addClass('near');
    this.onSelect(node.data(), this.neighbours(node));
  }

  clearNear() {
    if (this.cy) this.cy.elements('.near').removeClass('near');
  }

  /** The neighbours of ``node`` by edge kind, for the detail panel. */
  neighbours(node) {
    const found = [];
    node.connectedEdges().forEach((edge) => {
      const other = edge.source().id() === node.id() ? edge.target() : edge.source();
      found.push({ kind: edge.data('kind'), outgoing: edge.source().id() === node.id(), node: other.data() });
    });
    return found;
  }

  /** Select a node by its id (from the map or a link in the detail panel). */
  show(id) {
    const node = this.cy && this.cy.getElementById(id);
    if (node && node.nonempty()) this.focus(node);
    return Boolean(node && node.nonempty());
  }

  setVisible(kind, visible) {
    if (this.cy) this.cy.nodes(`[kind = "${kind}"]`).toggleClass('hidden', !visible);
  }

  fit() {
    if (this.cy) this.cy.fit(this.cy.elements(':visible'), 20);
  }

  resize() {
    if (this.cy) this.cy.resize();
  }

  /** A force layout (cose), for graphs small enough to take one in a browser. */
  relayout() {
    if (!this.cy) return false;
    if (this.cy.nodes().length > FORCE_MOST) return false;
    this.cy.layout({ name: 'cose', animate: false, randomize: false, nodeDimensionsIncludeLabels: false, numIter: 600 }).run();
    return true;
  }
}

/** A legend mark in ``colour`` (set through the style object: no style attribute, which the CSP forbids). */
export function swatch(kind, colour, text) {
  const node = el('span', { class: kind }, text);
  if (kind === 'line') node.style.backgroundColor = colour;
  else if (kind === 'ring') node.style.borderColor = colour;
  else node.style.color = colour;
  return node;
}

function count(items, keyOf) {
  const found = new Map();
  for (const item of items) found.set(keyOf(item), (found.get(keyOf(item)) || 0) + 1);
  return found;
}

export { FORCE_MOST };
