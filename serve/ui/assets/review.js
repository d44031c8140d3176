// The review queue: patterns that wait for a human. Reviewers (and admins) approve or reject each,
// a rejection with its reason; the decision goes through the API and the card shows what it says.

import { api } from './api.js';
import { el, facts, fill, when } from './dom.js';

const REASONS = {
  single_agent: 'supported by a single agent',
  team: 'a team-wide pattern',
  project_constraint: 'a project-wide constraint',
  conflict: 'its notes conflict',
};

export class ReviewView {
  constructor({ list, status, onNode, onChange, say, mayDecide }) {
    this.list = list;
    this.status = status; // the <select> of which items to show
    this.onNode = onNode;
    this.onChange = onChange; // a decision changed a pattern: the graph is stale
    this.say = say;
    this.mayDecide = mayDecide;
  }

  async load(project) {
    this.project = project;
    fill(this.list, el('li', { class: 'loading' }, 'loading…'));
    const found = await api.review(project, this.status.value);
    fill(this.list, found.items.length ? found.items.map((item) => this.card(item)) : el('li', { class: 'empty' }, 'Nothing to review.'));
    this.list.dataset.items = String(found.items.length);
  }

  card(item) {
    const pattern = item.pattern;
    const details = item.details || {};
    const card = el('li', { class: `card review ${item.status}`, dataset: { item: item.item_id, status: item.status } },
      el('h3', {}, el('span', { class: `badge ${item.status}` }, item.status), ' ',
        pattern ? pattern.subject : item.pattern_id),
      el('p', { class: 'statement' }, pattern ? pattern.statement : 'this pattern is not visible to this key'),
      el('ul', { class: 'chips' }, item.reasons.map((r) => el('li', {}, REASONS[r] || r))),
      facts([
        ['pattern', el('button', { type: 'button', class: 'link', onclick: () => this.onNode(`pattern:${item.pattern_id}`) }, item.pattern_id)],
        ['scope', pattern && pattern.scope], ['confidence', pattern && Number(pattern.confidence).toFixed(2)],
        ['notes', count(details.notes)], ['cohesion', details.cohesion === undefined ? null : Number(details.cohesion).toFixed(2)], ['sessions', count(details.sessions)], ['agents', count(details.agents)],
        ['conflicting pairs', count(details.conflicts)], ['opened', when(item.created_at)],
        ['decided', item.decided_at ? `${when(item.decided_at)} by ${item.reviewer}` : null],
        ['reason given', item.decision_reason], ['decision batch', item.batch_id],
      ]));
    if (item.status === 'pending' && this.mayDecide()) card.append(this.decision(item));
    return card;
  }

  decision(item) {
    const reason = el('input', { type: 'text', class: 'reason', maxlength: 500, placeholder: 'reason (needed to reject)', 'aria-label': 'reason' });
    const buttons = [];
    const decide = async (decision) => {
      const why = reason.value.trim() || (decision === 'approve' ? 'approved in the explorer' : '');
      if (!why) {
        this.say('A rejection needs a reason: say why the pattern is wrong.', true);
        reason.focus();
        return;
      }
      buttons.forEach((b) => { b.disabled = true; });
      try {
        const decided = await api.decide(item.item_id, decision, why);
        this.list.querySelector(`[data-item="${CSS.escape(item.item_id)}"]`).replaceWith(this.card(decided));
        this.say(`Review item ${decided.item_id}: ${decided.status}.`);
        this.onChange();
      } catch (error) {
        buttons.forEach((b) => { b.disabled = false; });
        this.say(error.message, true);
      }
    };
    buttons.push(
      el('button', { type: 'button', class: 'approve', onclick: () => decide('approve') }, 'Approve'),
      el('button', { type: 'button', class: 'reject', onclick: () => decide('reject') }, 'Reject'),
    );
    return el('div', { class: 'decide' }, reason, ...buttons);
  }
}

function count(values) {
  return Array.isArray(values) ? String(values.length) : null;
}


