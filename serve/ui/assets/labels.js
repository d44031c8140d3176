// Labels that never overlap: each candidate, most important first, takes the first of its places
// whose box is inside the drawing and meets no box taken before it; one with no free place is not
// drawn. The map draws what this places on its canvas; the graph gives the placed nodes a label.
// Boxes are in screen pixels: { left, top, right, bottom }.

export const LABEL_FONT = 'system-ui, sans-serif';
const CELL = 64; // pixels of a cell of the index of taken boxes

/** Whether boxes ``a`` and ``b`` share any area (touching edges do not count). */
export function intersects(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** The width of ``text`` in ``px``-pixel type of the labels' font (a shared scratch canvas). */
export function textWidth(text, px, weight = 'normal') {
  const ctx = scratch();
  ctx.font = `${weight} ${px}px ${LABEL_FONT}`;
  return ctx.measureText(text).width;
}

let scratchContext = null;
function scratch() {
  if (!scratchContext) scratchContext = document.createElement('canvas').getContext('2d');
  return scratchContext;
}

/** The boxes taken so far, indexed by grid cell so that a check looks at near boxes only. */
export class Taken {
  constructor(bounds = null) {
    this.bounds = bounds; // a box every label must lie in, or null
    this.boxes = [];
    this.cells = new Map();
  }

  /** Whether ``box`` is inside the bounds and meets no taken box. */
  free(box) {
    const b = this.bounds;
    if (b && (box.left < b.left || box.top < b.top || box.right > b.right || box.bottom > b.bottom)) return false;
    for (const key of cellsOf(box)) {
      for (const other of this.cells.get(key) || []) if (intersects(box, other)) return false;
    }
    return true;
  }

  take(box) {
    this.boxes.push(box);
    for (const key of cellsOf(box)) {
      if (!this.cells.has(key)) this.cells.set(key, []);
      this.cells.get(key).push(box);
    }
  }

  /** Take the first free box of ``places``; returns it, or null when none is free. */
  first(places) {
    for (const box of places) {
      if (this.free(box)) {
        this.take(box);
        return box;
      }
    }
    return null;
  }
}

function* cellsOf(box) {
  for (let cx = Math.floor(box.left / CELL); cx <= Math.floor(box.right / CELL); cx++) {
    for (let cy = Math.floor(box.top / CELL); cy <= Math.floor(box.bottom / CELL); cy++) yield `${cx},${cy}`;
  }
}

/** A box ``width`` × ``height`` centred horizontally on ``x``, its top at ``top``. */
export function boxAt(x, top, width, height) {
  return { left: x - width / 2, top, right: x + width / 2, bottom: top + height };
}
