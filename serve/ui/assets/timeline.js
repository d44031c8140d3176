// The timeline of a project's batches (newest first): consolidation and mining runs by default,
// edits, rollbacks, purges and imports on demand, each with its stats; a rollback button where the
// key may roll the batch back (admins: any batch; reviewers: mining batches), after a confirmation.

import { api } from './api.js';
import { el, fill, when } from './dom.js';

const KIND_NAMES = { local: 'consolidation', mining: 'mining', edit: 'edit', feedback: 'retrieval feedback', rollback: 'rollback', purge: 'purge', import: 'import' };
const SHOWN = new Set(['local', 'mining']);

export class TimelineView {
  constructor({ list, kinds, say, me, onChange }) {
    this.list = list;
    this.kinds = kinds;
    this.say = say;
    this.me = me; // () => the key's principal (whoami)
    this.onChange = onChange;
    this.shown = new Set(SHOWN);
    this.batches = [];
  }

  async load(project) {
    this.project = project;
    fill(this.list, el('li', { class: 'loading' }, 'loading…'));
    const found = await api.batches(project);
    this.batches = found.batches.slice().reverse();
    this.drawKinds();
    this.draw();
    return this.batches;
  }

  drawKinds() {
    const present = [...new Set(this.batches.map((b) => b.kind))].sort();
    fill(this.kinds, 'show ', present.map((kind) => {
      const box = el('input', { type: 'checkbox', checked: this.shown.has(kind), dataset: { kind } });
      box.addEventListener('change', () => {
        if (box.checked) this.shown.add(kind); else this.shown.delete(kind);
        this.draw();
      });
      const total = this.batches.filter((b) => b.kind === kind).length;
      return el('label', { class: 'kind' }, box, ` ${KIND_NAMES[kind] || kind} (${total})`);
    }));
  }

  draw() {
    const shown = this.batches.filter((b) => this.shown.has(b.kind));
    fill(this.list, shown.length ? shown.map((b) => this.item(b)) : el('li', { class: 'empty' }, 'No batches of these kinds.'));
    this.list.dataset.batches = String(shown.length);
  }

  item(batch) {
    const stats = flat(batch.stats || {}).map(([name, value]) => el('li', {}, `${name}: ${short(value)}`));
    const row = el('li', { class: `batch ${batch.kind} ${batch.status}`, dataset: { batch: batch.batch_id } },
      el('div', { class: 'when' }, when(batch.committed_at || batch.created_at)),
      el('div', { class: 'what' },
        el('h3', {}, el('span', { class: `badge ${batch.kind}` }, KIND_NAMES[batch.kind] || batch.kind), ' ',
          el('span', { class: `badge ${batch.status}` }, batch.status), ' ', batch.batch_id),
        el('p', { class: 'meta' }, [
          batch.agent_id && `agent ${batch.agent_id}`, `by ${batch.principal}`, `${batch.note_ids.length} notes`,
          `${batch.session_ids.length} sessions`, batch.rolls_back && `undoes ${batch.rolls_back}`,
          batch.rolled_back_by && `undone by ${batch.rolled_back_by}`,
        ].filter(Boolean).join(' · ')),
        stats.length ? el('ul', { class: 'chips stats' }, stats) : null));
    if (this.mayRollBack(batch)) {
      row.querySelector('.what').append(el('button', { type: 'button', class: 'rollback', onclick: () => this.rollback(batch) }, 'Roll back'));
    }
    return row;
  }

  mayRollBack(batch) {
    const me = this.me();
    if (!me || batch.status !== 'committed' || batch.rolled_back_by) return false;
    if (me.role === 'admin') return true;
    return me.role === 'reviewer' && batch.kind === 'mining';
  }

  async rollback(batch) {
    const what = `${KIND_NAMES[batch.kind] || batch.kind} batch ${batch.batch_id} (${batch.note_ids.length} notes)`;
    if (!window.confirm(`Roll back the ${what}?\n\nThis writes a compensating batch that restores every note it changed.`)) return;
    try {
      const undone = await api.rollback(batch.batch_id);
      this.say(`Rolled back ${batch.batch_id} with batch ${undone.batch_id}.`);
      await this.load(this.project);
      this.onChange();
    } catch (error) {
      this.say(error.message, true);
    }
  }

  /** Scroll to one batch and mark it (from a link in the detail panel). */
  reveal(batchId) {
    const batch = this.batches.find((b) => b.batch_id === batchId);
    if (batch && !this.shown.has(batch.kind)) {
      this.shown.add(batch.kind);
      this.drawKinds();
      this.draw();
    }
    this.list.querySelectorAll('.revealed').forEach((node) => node.classList.remove('revealed'));
    const row = this.list.querySelector(`[data-batch="${CSS.escape(batchId)}"]`);
    if (row) {
      row.classList.add('revealed');
      row.scrollIntoView({ block: 'center' });
    }
  }
}

/** Nested stats as [dotted name, value] pairs; a list stands for how many it holds. */
function flat(stats, prefix = '') {
  return Object.entries(stats).flatMap(([name, value]) => {
    const key = prefix ? `${prefix}.${name}` : name;
    if (Array.isArray(value)) return [[key, value.length]];
    if (value && typeof value === 'object') return flat(value, key);
    return [[key, value]];
  });
}

function short(value) {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  if (typeof value === 'string') return value.length > 60 ? `${value.slice(0, 59)}…` : value;
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
