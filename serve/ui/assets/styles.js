// How each kind of node and edge is drawn: one table shared by the graph, its legend and the map.

import { LABEL_FONT } from './labels.js';

export const NODE_KINDS = {
  pattern: { colour: '#e8590c', shape: 'star', size: 30, label: true, mark: '★' },
  note: { colour: '#1c7ed6', shape: 'ellipse', size: 9, label: false, mark: '●' },
  subject: { colour: '#7048e8', shape: 'hexagon', size: 16, label: true, mark: '⬢' },
  agent: { colour: '#2f9e44', shape: 'diamond', size: 22, label: true, mark: '◆' },
  session: { colour: '#868e96', shape: 'round-rectangle', size: 8, label: false, mark: '▪' },
  module: { colour: '#0c8599', shape: 'pentagon', size: 24, label: true, mark: '⬟' },
  project: { colour: '#343a40', shape: 'octagon', size: 30, label: true, mark: '■' },
};

export const EDGE_KINDS = {
  supports: { colour: '#f08c00', meaning: 'note → pattern it is evidence of' },
  derived_from: { colour: '#adb5bd', meaning: 'note → session it came from' },
  observed_in: { colour: '#66d9e8', meaning: 'pattern → session, module, project' },
  contributed_by: { colour: '#8ce99a', meaning: '→ agent' },
  about: { colour: '#b197fc', meaning: '→ subject' },
  conflicts_with: { colour: '#e03131', meaning: 'the two disagree' },
  supersedes: { colour: '#495057', meaning: 'newer → replaced' },
  part_of: { colour: '#ced4da', meaning: 'module → project' },
};

export const CONFLICT = '#e03131';
export const NOISE = '#adb5bd';

// 20 colours that tell clusters apart (matplotlib's tab20, as the PNG map uses).
export const PALETTE = [
  '#1f77b4', '#aec7e8', '#ff7f0e', '#ffbb78', '#2ca02c', '#98df8a', '#d62728', '#ff9896', '#9467bd', '#c5b0d5',
  '#8c564b', '#c49c94', '#e377c2', '#f7b6d2', '#7f7f7f', '#c7c7c7', '#bcbd22', '#dbdb8d', '#17becf', '#9edae5',
];

/** A palette colour that depends only on ``value`` (a cluster number or an id). */
export function colourOf(value) {
  if (typeof value === 'number') return PALETTE[((value % PALETTE.length) + PALETTE.length) % PALETTE.length];
  let h = 0;
  for (const ch of String(value)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length];
}

/** The cytoscape stylesheet of the graph. Labels are drawn only on nodes given the class
 * ``labelled`` (the graph picks nodes whose labels do not overlap: ``GraphView.placeLabels``), at a
 * size that does not change on the screen: ``label`` holds functions of the zoom (``size``,
 * ``margin``, ``outline``: model units for ``LABEL_PX``, ``LABEL_MARGIN``, ``LABEL_OUTLINE`` pixels). */
export function graphStyle(label) {
  const rules = [
    {
      selector: 'node',
      style: {
        'background-color': '#adb5bd', width: 10, height: 10, 'border-width': 0, label: '',
        'font-size': 10, color: '#212529', 'text-valign': 'bottom', 'text-margin-y': 3,
      },
    },
    { selector: 'edge', style: { width: 0.7, 'line-color': '#dee2e6', opacity: 0.55, 'curve-style': 'haystack' } },
  ];
  for (const [kind, look] of Object.entries(NODE_KINDS)) {
    const style = { 'background-color': look.colour, shape: look.shape, width: look.size, height: look.size };
    if (kind === 'pattern') style['z-index'] = 5; // patterns on top: they are what the graph is about
    rules.push({ selector: `node[kind = "${kind}"]`, style });
  }
  for (const [kind, look] of Object.entries(EDGE_KINDS)) {
    rules.push({ selector: `edge[kind = "${kind}"]`, style: { 'line-color': look.colour } });
  }
  rules.push(
    {
      selector: 'edge[kind = "conflicts_with"]',
      style: { width: 3, opacity: 1, 'curve-style': 'straight', 'line-style': 'dashed', 'z-index': 10 },
    },
    {
      selector: 'edge[kind = "supersedes"]',
      style: { width: 1.5, 'curve-style': 'straight', 'target-arrow-shape': 'triangle', 'target-arrow-color': '#495057' },
    },
    { selector: 'node.conflict', style: { 'border-width': 3, 'border-color': CONFLICT } },
    { selector: 'node.invalid', style: { opacity: 0.45 } },
    { selector: 'node.faded', style: { opacity: 0.12 } },
    { selector: 'node.match', style: { 'border-width': 3, 'border-color': '#fab005', 'z-index': 20 } },
    { selector: 'edge.near', style: { width: 1.8, opacity: 1, 'curve-style': 'straight' } }, // no label: labels never overlap
    { selector: 'node:selected', style: { 'border-width': 4, 'border-color': '#212529', 'z-index': 30 } },
    {
      selector: 'node.labelled',
      style: {
        label: 'data(short)', 'font-family': LABEL_FONT, 'font-size': label.size, 'text-margin-y': label.margin,
        'min-zoomed-font-size': 0, 'text-outline-color': '#ffffff', 'text-outline-width': label.outline, 'text-outline-opacity': 0.9,
      },
    },
    { selector: 'node.labelled.above', style: { 'text-valign': 'top', 'text-margin-y': (node) => -label.margin(node) } },
    { selector: '.hidden', style: { display: 'none' } },
  );
  return rules;
}
