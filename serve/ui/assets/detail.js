// The detail panel: what one node is. For a pattern or a note: its statement, confidence, scope and
// status, its evidence (the masked events themselves), its history and the batches that touched
// it; a pattern headed by its cluster's name, a note of the map with its cluster's name. For a
// subject, agent, session, module or project: its neighbours by edge kind.

import { api } from './api.js';
import { $, clip, el, facts, fill, mark, when } from './dom.js';

const EVIDENCE_PAGE = 10;

export class Detail {
  constructor({ panel, body, onNode, onBatch, batches }) {
    this.panel = panel;
    this.body = body;
    this.onNode = onNode; // (node id) => void: select a node of the graph
    this.onBatch = onBatch; // (batch id) => void: show a batch in the timeline
    this.batches = batches; // () => Promise<Map<batch id, batch>>
    this.shown = 0; // a counter: answers for an older selection are dropped
    $('#detail-close').addEventListener('click', () => this.close());
  }

  close() {
    this.panel.hidden = true;
    this.shown += 1;
  }

  /** Show a graph node (its data) with its neighbours. */
  async node(data, neighbours) {
    if (data.kind === 'pattern' || data.kind === 'note') return this.note(data.key, data, neighbours);
    const ticket = this.open();
    fill(this.body,
      el('h2', {}, el('span', { class: 'tag' }, data.kind), ' ', data.label || data.key),
      facts([['id', data.id], ['since', when(data.valid_from)], ['until', data.invalid_at ? when(data.invalid_at) : null]]),
      this.neighbourList(neighbours));
    if (ticket === this.shown) mark('detail-shown');
  }

  /** Show a note or pattern by id; ``data``/``neighbours`` when it came from the graph (``data.name``:
   * the name of its cluster, from the graph's pattern node or the map's point). */
  async note(noteId, data = null, neighbours = []) {
    const ticket = this.open();
    fill(this.body, el('p', { class: 'loading' }, 'loading…'));
    let note;
    try {
      note = await api.note(noteId);
    } catch (error) {
      if (ticket !== this.shown) return;
      fill(this.body, el('h2', {}, data ? data.kind : 'note', ' ', noteId), el('p', { class: 'error' }, error.message));
      return;
    }
    if (ticket !== this.shown) return;
    const evidence = el('ol', { class: 'evidence', id: 'evidence' });
    const history = el('div', { class: 'history' }, el('p', { class: 'loading' }, 'loading history…'));
    const name = data && data.name ? data.name : null;
    const pattern = note.type === 'pattern';
    fill(this.body,
      el('h2', {}, el('span', { class: 'tag' }, note.type), ' ', pattern && name ? el('span', { id: 'detail-name' }, name) : note.subject),
      el('p', { class: 'statement', id: 'detail-statement' }, note.statement),
      facts([
        pattern && name ? ['subject', note.subject] : null, !pattern && name ? ['cluster', el('span', { id: 'detail-name' }, name)] : null,
        ['confidence', Number(note.confidence).toFixed(2)], ['scope', note.scope], ['status', note.status],
        ['verified', note.verified ? 'yes' : 'no'], ['module', note.module], ['owner', note.owner_agent],
        ['sessions', String(note.source_sessions.length)], ['agents', note.source_agents.join(', ')],
        ['created', when(note.created_at)], ['updated', when(note.updated_at)],
        ['superseded by', note.superseded_by], ['id', note.note_id],
      ]),
      el('h3', {}, `Evidence (${note.evidence.length} events)`), evidence,
      el('h3', {}, 'History and batches'), history,
      neighbours.length ? this.neighbourList(neighbours) : null);
    mark('detail-shown');
    await Promise.all([this.evidence(evidence, note.evidence, 0, ticket), this.history(history, note, ticket)]);
    if (ticket === this.shown) mark('evidence-shown');
  }

  open() {
    this.panel.hidden = false;
    this.shown += 1;
    return this.shown;
  }

  async evidence(list, ids, start, ticket) {
    const page = ids.slice(start, start + EVIDENCE_PAGE);
    const events = await Promise.all(page.map((id) => api.event(id).catch((error) => ({ event_id: id, error }))));
    if (ticket !== this.shown) return;
    for (const event of events) list.append(eventItem(event));
    const rest = ids.length - start - page.length;
    if (rest > 0) {
      const more = el('li', { class: 'more' }, el('button', {
        type: 'button',
        onclick: () => { more.remove(); this.evidence(list, ids, start + EVIDENCE_PAGE, ticket); },
      }, `${rest} more events`));
      list.append(more);
    }
  }

  async history(box, note, ticket) {
    let found;
    let batches;
    try {
      [found, batches] = await Promise.all([api.history(note.note_id), this.batches()]);
    } catch (error) {
      if (ticket === this.shown) fill(box, el('p', { class: 'error' }, error.message));
      return;
    }
    if (ticket !== this.shown) return;
    const touched = [...new Set([...found.audit.map((a) => a.batch_id), ...found.versions.map((v) => v.batch_id), note.batch_id])]
      .filter(Boolean);
    fill(box,
      el('table', { class: 'audit' },
        el('thead', {}, el('tr', {}, ['when', 'action', 'by', 'batch', 'why'].map((h) => el('th', {}, h)))),
        el('tbody', {}, found.audit.map((a) => el('tr', {},
          el('td', {}, when(a.ts)), el('td', {}, a.action), el('td', {}, a.principal),
          el('td', {}, a.batch_id ? this.batchLink(a.batch_id) : '–'), el('td', {}, a.reason || ''))))),
      el('p', { class: 'meta' }, `${found.versions.length} earlier versions`),
      el('h4', {}, `Batches that touched it (${touched.length})`),
      el('ul', { class: 'batches' }, touched.map((id) => {
        const batch = batches.get(id);
        return el('li', {}, this.batchLink(id), batch ? ` ${batch.kind} · ${batch.status} · ${when(batch.committed_at || batch.created_at)}` : '');
      })));
  }

  batchLink(id) {
    return el('button', { type: 'button', class: 'link', onclick: () => this.onBatch(id) }, id);
  }

  neighbourList(neighbours) {
    const byKind = new Map();
    for (const n of neighbours) {
      const name = `${n.outgoing ? '→' : '←'} ${n.kind}`;
      if (!byKind.has(name)) byKind.set(name, []);
      byKind.get(name).push(n.node);
    }
    return el('div', { class: 'neighbours' }, el('h3', {}, `Linked (${neighbours.length})`),
      [...byKind.entries()].map(([name, nodes]) => el('details', { open: nodes.length <= 8 },
        el('summary', {}, `${name} (${nodes.length})`),
        el('ul', {}, nodes.slice(0, 200).map((node) => el('li', {}, el('button', {
          type: 'button', class: `link kind-${node.kind}`, onclick: () => this.onNode(node.id),
        }, `${node.kind}: ${clip(node.statement || node.label || node.id, 80)}`)))))));
  }
}

function eventItem(event) {
  if (event.error) return el('li', { class: 'event missing' }, `${event.event_id}: ${event.error.message}`);
  return el('li', { class: 'event', dataset: { event: event.event_id } },
    el('p', { class: 'meta' }, [event.role, event.kind, event.agent_id, event.session_id, when(event.ts)].join(' · '),
      event.tags && event.tags.length ? ` · ${event.tags.join(', ')}` : ''),
    el('p', { class: 'text' }, event.text));
}
