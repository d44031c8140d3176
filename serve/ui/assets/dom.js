// Building the page from data without ever parsing data as HTML: every text goes in as a text node
// (textContent), every attribute through setAttribute with a fixed name. Note text is untrusted.

/** An element with attributes, event handlers (on*: functions) and children (strings become text). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/** Append children: nodes as they are, anything else as text. */
export function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace every child of ``node``. */
export function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

export const $ = (selector) => document.querySelector(selector);

/** A short, readable time (local), or a dash. */
export function when(iso) {
  if (!iso) return '–';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? String(iso) : at.toLocaleString();
}

/** ``text`` cut to ``most`` characters. */
export function clip(text, most = 160) {
  const value = String(text ?? '');
  return value.length > most ? `${value.slice(0, most - 1)}…` : value;
}

/** A definition list of [term, value] pairs (values: strings or nodes; a pair may be null: left out). */
export function facts(pairs) {
  const list = el('dl', { class: 'facts' });
  for (const pair of pairs) {
    if (!pair) continue;
    const [term, value] = pair;
    if (value === null || value === undefined || value === '') continue;
    list.append(el('dt', {}, term), el('dd', {}, value));
  }
  return list;
}

/** Mark a moment for anyone timing the page (the Performance API; the benchmark reads these). */
export function mark(name) {
  performance.mark(`reverie:${name}`);
}

/** After the browser has painted what was just drawn (two animation frames). */
export function painted() {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}
