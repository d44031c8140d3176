// The team graph of a project: cytoscape.js at the layout the service computed (anchored on the map
// of the notes, so a graph of thousands of notes needs no force layout in the browser), nodes drawn
// by kind, edges coloured by kind, conflicts in red, a legend with counts, and search.
//
// Level of detail: a graph small enough is drawn whole. A larger one is drawn as its overview first
// (its patterns, at their clusters' place on the map); a node's whole neighbourhood (its notes,
// subject, sessions, agents, modules) is added when it is selected, every node of a kind when its
// box is ticked, and search looks through everything, drawn or not.
//
// Labels never overlap: after every change of zoom or of what is drawn, the nodes that matter most
// (the selected one, search matches, its neighbours, patterns — by their cluster's name — then
// projects, modules, agents, subjects) take a label where it meets no label placed before them, and
// the rest go without. Labels keep one size on the screen whatever the zoom.

import cytoscape from './vendor/cytoscape-3.35.0.esm.min.mjs';
import { clip, el, fill, mark, painted } from './dom.js';
import { EDGE_KINDS, NODE_KINDS, CONFLICT, graphStyle } from './styles.js';
import { Taken, boxAt, textWidth } from './labels.js';

const WHOLE_MOST = 1500; // elements drawn at once; a larger graph starts with its overview
const LARGE = 300; // drawn elements above which cytoscape draws a cached texture while panning and zooming
const LABEL_PX = 11; // the labels' size on the screen
const LABEL_MARGIN = 3; // pixels between a node and its label
const LABEL_OUTLINE = 2; // the white outline around a label's letters
const LABELS_MOST = 120; // labels drawn at once (text is what costs most to draw)
const LABEL_WAIT = 80; // ms after a change of zoom before labels are placed again
const FORCE_MOST = 1500; // nodes a force layout may take in a browser
const RESULTS = 50;
const OVERVIEW = new Set(['pattern']);
const KIND_ORDER = ['pattern', 'subject', 'agent', 'module', 'project', 'note', 'session'];
const LABEL_ORDER = ['pattern', 'project', 'module', 'agent', 'subject', 'note', 'session']; // who gets a label first

export class GraphView {
  constructor({ container, legend, results, count, onSelect, onDetail }) {
    this.container = container;
    this.legend = legend;
    this.results = results;
    this.count = count;
    this.onSelect = onSelect;
    this.onDetail = onDetail; // (whole: bool) => void: tell the page which level of detail is drawn
    this.cy = null;
    this.detail = 'auto'; // or 'overview' / 'whole': the level of detail to start from, whatever the size
    this.nodes = new Map(); // node id -> its cytoscape definition (all of the graph, drawn or not)
    this.edges = new Map(); // node id -> the definitions of its edges
    this.text = new Map(); // node id -> lower-case text searched
    this.labels = []; // the labels placed last: { id, text, left, top, right, bottom } (rendered pixels)
    this.labelZoom = 1; // the zoom the labels were sized for
    this.labelTimer = null;
    this.fitPending = false; // drawn while hidden: fit it when it is shown
    new ResizeObserver(() => this.resize()).observe(container); // the detail panel opens and closes beside it
  }

  /** Draw ``graph`` (node-link JSON with x, y); ``statements`` maps note ids to their text. */
  async render(graph, statements) {
    this.graph = graph;
    this.index(graph, statements);
    this.whole = this.detail === 'whole' || (this.detail !== 'overview' && graph.nodes.length + graph.edges.length <= WHOLE_MOST);
    const elements = this.whole ? [...this.nodes.values(), ...this.edgeDefs] : this.overview();
    mark('graph-indexed');
    if (this.cy) this.cy.destroy();
    const large = elements.length > LARGE;
    const px = (pixels) => () => pixels / this.labelZoom;
    const label = { size: px(LABEL_PX), margin: px(LABEL_MARGIN), outline: px(LABEL_OUTLINE) };
    this.fitPending = !this.shown();
    this.cy = cytoscape({
      container: this.container, elements, style: graphStyle(label), layout: { name: 'preset', fit: !this.fitPending, padding: 20 },
      minZoom: 0.02, maxZoom: 8, boxSelectionEnabled: false, selectionType: 'single',
      hideEdgesOnViewport: large, textureOnViewport: large, motionBlur: false, pixelRatio: 1,
    });
    mark('graph-created');
    this.cy.on('tap', 'node', (event) => this.select(event.target));
    this.cy.on('tap', (event) => { if (event.target === this.cy) this.clearNear(); });
    this.cy.on('zoom', () => this.laterLabels());
    this.onDetail(this.whole);
    this.placeLabels();
    this.drawLegend();
    this.container.dataset.nodes = String(graph.nodes.length);
    this.container.dataset.edges = String(graph.edges.length);
    this.container.dataset.drawn = String(elements.length);
    await painted();
    this.container.dataset.ready = 'true';
    mark('graph-drawn');
  }

  index(graph, statements) {
    const conflicted = new Set();
    for (const edge of graph.edges) {
      if (edge.kind === 'conflicts_with') conflicted.add(edge.source).add(edge.target);
    }
    this.nodes.clear();
    this.edges.clear();
    this.text.clear();
    for (const node of graph.nodes) {
      const key = node.id.slice(node.id.indexOf(':') + 1);
      const statement = node.statement || (node.kind === 'note' ? statements.get(key) : '') || '';
      this.text.set(node.id, `${node.label || ''} ${node.name || ''} ${statement} ${key}`.toLowerCase());
      const classes = [conflicted.has(node.id) ? 'conflict' : '', node.invalid_at ? 'invalid' : ''].join(' ').trim();
      this.nodes.set(node.id, {
        group: 'nodes', classes,
        data: { ...node, key, short: shortLabel(node, key, statement), statement },
        position: { x: node.x ?? 0, y: node.y ?? 0 },
      });
      this.edges.set(node.id, []);
    }
    this.edgeDefs = graph.edges.map((edge, i) => ({
      group: 'edges', data: { id: `e${i}`, source: edge.source, target: edge.target, kind: edge.kind, key: edge.key },
    }));
    for (const edge of this.edgeDefs) {
      this.edges.get(edge.data.source).push(edge);
      if (edge.data.target !== edge.data.source) this.edges.get(edge.data.target).push(edge);
    }
  }

  /** The patterns and the edges among them (team patterns and the project patterns they rest on,
   * conflicts between patterns). */
  overview() {
    const shown = new Set([...this.nodes.keys()].filter((id) => OVERVIEW.has(this.nodes.get(id).data.kind)));
    const edges = new Set();
    for (const id of shown) {
      for (const edge of this.edges.get(id)) if (shown.has(edge.data.source) && shown.has(edge.data.target)) edges.add(edge);
    }
    return [...[...shown].map((id) => this.nodes.get(id)), ...edges];
  }

  /** Add nodes (ids) to the drawing, with their edges to what is drawn already; returns them. */
  bring(ids) {
    const fresh = ids.filter((id) => this.nodes.has(id) && this.cy.getElementById(id).empty());
    if (fresh.length === 0) return this.cy.collection(ids.map((id) => this.cy.getElementById(id)));
    this.cy.batch(() => {
      this.cy.add(fresh.map((id) => this.nodes.get(id)));
      const edges = new Set();
      for (const id of fresh) {
        for (const edge of this.edges.get(id)) {
          const other = edge.data.source === id ? edge.data.target : edge.data.source;
          if (this.cy.getElementById(edge.data.id).empty() && this.cy.getElementById(other).nonempty()) edges.add(edge);
        }
      }
      this.cy.add([...edges]);
    });
    this.drawLegend();
    this.laterLabels();
    return this.cy.collection(ids.map((id) => this.cy.getElementById(id)));
  }

  /** Draw the whole neighbourhood of a node (all of it visible). */
  expand(node) {
    const near = this.edges.get(node.id()).map((e) => (e.data.source === node.id() ? e.data.target : e.data.source));
    this.bring(near);
    node.closedNeighborhood().removeClass('hidden');
  }

  drawLegend() {
    const graph = this.graph;
    const kinds = count(graph.nodes, (n) => n.kind);
    const edgeKinds = count(graph.edges, (e) => e.kind);
    const drawn = count(this.cy.nodes().map((n) => n.data()), (n) => n.kind);
    const conflicts = [...this.nodes.values()].filter((n) => n.classes.includes('conflict')).length;
    const nodeRows = Object.entries(NODE_KINDS).filter(([kind]) => kinds.get(kind)).map(([kind, look]) => el(
      'li', { dataset: { kind } }, swatch('swatch', look.colour, look.mark), ` ${kind} `,
      el('span', { class: 'count' }, String(kinds.get(kind))),
      (drawn.get(kind) || 0) < kinds.get(kind) ? el('span', { class: 'drawn' }, ` (${drawn.get(kind) || 0} drawn)`) : null,
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
      el('p', { class: 'hint' }, this.whole
        ? 'Click a node for its statement, evidence, history and batches; its edges are drawn bold in their colours (above).'
        : 'A large graph: its patterns are drawn first. Click a node to draw its neighbourhood (notes, subject, '
          + 'sessions, agents, modules); tick a kind to draw all of it. Search looks through everything.'),
    );
  }

  /** Highlight the drawn nodes whose text holds every word of ``query``; list the first of all. */
  async search(query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!this.cy) return;
    const matches = words.length ? [...this.text.entries()].filter(([, text]) => words.every((w) => text.includes(w))).map(([id]) => id) : [];
    const hits = new Set(matches);
    this.cy.batch(() => {
      this.cy.nodes().forEach((node) => {
        const hit = hits.has(node.id());
        node.toggleClass('match', hit);
        node.toggleClass('faded', words.length > 0 && !hit);
      });
    });
    const rank = (id) => KIND_ORDER.indexOf(this.nodes.get(id).data.kind);
    matches.sort((a, b) => rank(a) - rank(b));
    const drawn = matches.filter((id) => this.cy.getElementById(id).nonempty()).length;
    this.count.textContent = words.length ? `${matches.length} found${drawn < matches.length ? ` (${drawn} drawn)` : ''}` : '';
    fill(this.results, matches.slice(0, RESULTS).map((id) => {
      const data = this.nodes.get(id).data;
      return el('li', {}, el('button', { type: 'button', class: `result kind-${data.kind}`, onclick: () => this.show(id) },
        el('span', { class: 'tag' }, data.kind), ' ', clip(data.statement || data.label || data.key, 90)));
    }));
    this.placeLabels();
    await painted();
    mark('search-done');
  }

  focus(node) {
    this.cy.animate({ center: { eles: node }, zoom: Math.max(this.cy.zoom(), 1.2) }, { duration: 200 });
    this.select(node);
  }

  select(node) {
    this.clearNear();
    if (!this.whole) this.expand(node);
    this.cy.elements(':selected').unselect();
    node.select();
    node.closedNeighborhood().addClass('near');
    this.placeLabels();
    this.onSelect(node.data(), this.neighbours(node));
  }

  clearNear() {
    if (!this.cy) return;
    this.cy.elements('.near').removeClass('near');
    this.laterLabels();
  }

  /** Place labels again once the zoom has settled. */
  laterLabels() {
    clearTimeout(this.labelTimer);
    this.labelTimer = setTimeout(() => this.placeLabels(), LABEL_WAIT);
  }

  /** Give labels to the drawn nodes that matter most, each where it overlaps no label placed before
   * it (below its node, else above), and take them from the others. */
  placeLabels() {
    clearTimeout(this.labelTimer);
    this.labelTimer = null;
    if (!this.cy) return;
    this.labelZoom = this.cy.zoom();
    const taken = new Taken();
    const placed = [];
    const above = new Set();
    for (const node of this.labelCandidates()) {
      if (placed.length >= LABELS_MOST) break;
      const box = taken.first(labelPlaces(node, this.labelZoom));
      if (!box) continue;
      placed.push({ id: node.id(), text: node.data('short'), ...box });
      if (box.above) above.add(node.id());
    }
    const chosen = this.cy.collection(placed.map((p) => this.cy.getElementById(p.id)));
    this.cy.batch(() => {
      this.cy.nodes('.labelled').difference(chosen).removeClass('labelled above');
      chosen.addClass('labelled');
      chosen.forEach((node) => { node.toggleClass('above', above.has(node.id())); });
      chosen.updateStyle();
    });
    this.labels = placed.map(({ id, text, left, top, right, bottom }) => ({ id, text, left, top, right, bottom }));
    this.container.dataset.labels = String(placed.length);
  }

  /** The drawn nodes that may have a label, the most important first. */
  labelCandidates() {
    const rank = (node) => {
      if (node.selected()) return 0;
      if (node.hasClass('match')) return 1;
      if (node.hasClass('near')) return 2;
      return NODE_KINDS[node.data('kind')]?.label ? 3 + LABEL_ORDER.indexOf(node.data('kind')) : -1;
    };
    const degree = (node) => (this.edges.get(node.id()) || []).length;
    return this.cy.nodes(':visible').filter((node) => node.data('short') && rank(node) >= 0 && !node.hasClass('faded'))
      .sort((a, b) => rank(a) - rank(b) || degree(b) - degree(a) || (a.id() < b.id() ? -1 : 1));
  }

  /** The neighbours of ``node`` by edge kind (all of them, drawn or not), for the detail panel. */
  neighbours(node) {
    return this.edges.get(node.id()).map((edge) => {
      const outgoing = edge.data.source === node.id();
      return { kind: edge.data.kind, outgoing, node: this.nodes.get(outgoing ? edge.data.target : edge.data.source).data };
    });
  }

  /** Select a node by its id (from search, the map or a link in the detail panel), drawing it if needed. */
  show(id) {
    if (!this.cy || !this.nodes.has(id)) return false;
    const node = this.bring([id]).removeClass('hidden');
    this.focus(node);
    return true;
  }

  /** Tick a box: draw every node of these kinds; untick: hide them. */
  setVisible(kinds, visible) {
    if (!this.cy) return;
    const wanted = new Set(kinds);
    if (visible) this.bring([...this.nodes.keys()].filter((id) => wanted.has(this.nodes.get(id).data.kind)));
    this.cy.nodes().filter((node) => wanted.has(node.data('kind'))).toggleClass('hidden', !visible);
  }

  fit() {
    if (this.cy) this.cy.fit(this.cy.elements(':visible'), 20);
  }

  /** Whether the graph's box is on the screen (a hidden tab has none). */
  shown() {
    return Boolean(this.container.clientWidth && this.container.clientHeight);
  }

  /** Follow the size of the box (cytoscape draws again); a graph drawn while hidden is fitted once shown. */
  resize() {
    if (!this.cy || !this.shown()) return;
    this.cy.resize();
    if (this.fitPending) {
      this.fitPending = false;
      this.fit();
    }
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

/** A node's label: a pattern by its cluster's name (else its statement), anything else by its label. */
function shortLabel(node, key, statement) {
  if (node.kind === 'pattern') return clip(node.name || statement || node.label || key, 40);
  return clip(node.label || key, 40);
}

/** Where a node's label may go: below the node, else above it (rendered pixels). Each box holds the
 * box cytoscape gives the label (its letters and, around them, the outline and 2 model units: at
 * ``zoom``, 2 × zoom pixels), with a pixel or so to spare. */
function labelPlaces(node, zoom) {
  const text = node.data('short');
  const at = node.renderedPosition();
  const half = node.renderedHeight() / 2; // cytoscape sets labels off the node's body, its border left out
  const pad = LABEL_OUTLINE + 2 * zoom + 0.5;
  const width = textWidth(text, LABEL_PX) * 1.04 + 2 * pad + 2; // small type (zoomed in) is set a little wider
  const height = LABEL_PX * 1.25 + 2 * pad;
  const below = boxAt(at.x, at.y + half + LABEL_MARGIN - pad, width, height);
  const above = { ...boxAt(at.x, at.y - half - LABEL_MARGIN + pad - height, width, height), above: true };
  return [below, above];
}

function count(items, keyOf) {
  const found = new Map();
  for (const item of items) found.set(keyOf(item), (found.get(keyOf(item)) || 0) + 1);
  return found;
}

export { FORCE_MOST };
