// The explorer page: the key, the project, the four views (graph, map, review, timeline) and the
// detail panel they share. No data is in the page: everything comes from the API with the key.

import { ApiError, api, key } from './api.js';
import { $, el, fill, mark } from './dom.js';
import { Detail } from './detail.js';
import { FORCE_MOST, GraphView } from './graph.js';
import { MapView } from './map.js';
import { ReviewView } from './review.js';
import { TimelineView } from './timeline.js';

const TABS = ['graph', 'map', 'review', 'timeline'];

class Explorer {
  constructor() {
    this.me = null;
    this.project = null;
    this.tab = 'graph';
    this.data = null; // a promise of {graph, points, statements, patterns, names} of the project
    this.loaded = null; // what it gave
    this.stale = new Set(TABS); // views to (re)load when shown
    this.batchIndex = null;
    this.graph = new GraphView({
      container: $('#graph'), legend: $('#legend'), results: $('#search-results'), count: $('#search-count'),
      onSelect: (data, neighbours) => this.detail.node(data, neighbours),
      onDetail: (whole) => { for (const box of document.querySelectorAll('.show-kind')) box.checked = whole; },
    });
    this.map = new MapView({
      container: $('#map'), legend: $('#map-legend'), count: $('#map-count'), tooltip: $('#tooltip'),
      onSelect: (point) => this.pointSelected(point),
      patternText: (id) => (this.loaded && this.loaded.patterns.get(id)) || null,
    });
    this.detail = new Detail({
      panel: $('#detail'), body: $('#detail-body'),
      onNode: (id) => this.showNode(id), onBatch: (id) => this.showBatch(id), batches: () => this.batchesById(),
    });
    this.review = new ReviewView({
      list: $('#review-list'), status: $('#review-status'), onNode: (id) => this.showNode(id),
      onChange: () => this.changed(), say: (text, bad) => this.say(text, bad),
      mayDecide: () => Boolean(this.me && this.me.actions.includes('review')),
    });
    this.timeline = new TimelineView({
      list: $('#timeline'), kinds: $('#timeline-kinds'), say: (text, bad) => this.say(text, bad),
      me: () => this.me, onChange: () => this.changed(),
    });
  }

  bind() {
    $('#key-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const value = $('#key-input').value.trim();
      $('#key-input').value = '';
      if (value) {
        key.set(value);
        this.start();
      }
    });
    $('#forget').addEventListener('click', () => this.signOut('The key was removed from this tab.'));
    $('#project').addEventListener('change', () => this.choose($('#project').value));
    for (const button of document.querySelectorAll('#tabs button')) {
      button.addEventListener('click', () => this.showTab(button.dataset.tab));
    }
    let pending = null;
    $('#search').addEventListener('input', () => {
      clearTimeout(pending);
      pending = setTimeout(() => this.graph.search($('#search').value), 120);
    });
    for (const box of document.querySelectorAll('.show-kind')) {
      box.addEventListener('change', () => this.graph.setVisible(box.dataset.kinds.split(' '), box.checked));
    }
    $('#fit').addEventListener('click', () => this.graph.fit());
    $('#relayout').addEventListener('click', () => {
      if (!this.graph.relayout()) this.say(`A force layout is offered for graphs of at most ${FORCE_MOST} nodes.`, true);
    });
    $('#map-colour').addEventListener('change', (e) => this.map.recolour(e.target.value));
    $('#map-fit').addEventListener('click', () => this.map.fit());
    $('#review-status').addEventListener('change', () => this.load('review'));
    $('#review-refresh').addEventListener('click', () => this.load('review'));
    window.addEventListener('resize', () => { this.graph.resize(); this.map.resize(); });
  }

  async start() {
    if (!key.get()) return this.signedOut();
    this.say('checking the key…');
    const wanted = new URLSearchParams(location.hash.slice(1));
    const named = wanted.get('project');
    if (named) this.prefetch(named); // beside the key's check: it fails the same way if the key is bad
    try {
      this.me = await api.whoami();
    } catch (error) {
      return this.signOut(error instanceof ApiError && error.status === 401 ? 'That key was refused; paste another.' : error.message, true);
    }
    mark('key-accepted');
    $('#key-form').hidden = true;
    $('#session').hidden = false;
    $('#tabs').hidden = false;
    $('#views').hidden = false;
    fill($('#who'), el('strong', {}, this.me.principal), ` (${this.me.role})`);
    this.tab = TABS.includes(wanted.get('tab')) ? wanted.get('tab') : 'graph';
    this.detailLevel = ['overview', 'whole'].includes(wanted.get('detail')) ? wanted.get('detail') : null;
    if (this.detailLevel) this.graph.detail = this.detailLevel;
    const projects = await this.projects();
    fill($('#project'), projects.map((p) => el('option', { value: p }, p)));
    const project = projects.includes(named) ? named : projects[0];
    if (!project) return this.say('This key covers no project with data yet.', true);
    $('#project').value = project;
    return this.choose(project);
  }

  async projects() {
    if (!this.me.projects.includes('*')) return this.me.projects.slice().sort();
    const found = await api.agents().catch(() => ({ agents: [] }));
    return [...new Set(found.agents.flatMap((a) => a.projects))].sort();
  }

  signOut(message, bad = false) {
    key.forget();
    this.me = null;
    this.data = null;
    this.signedOut();
    this.say(message, bad);
  }

  signedOut() {
    $('#key-form').hidden = false;
    $('#session').hidden = true;
    $('#tabs').hidden = true;
    $('#views').hidden = true;
    $('#detail').hidden = true;
    this.say('Paste an API key to explore (it stays in this tab only).');
  }

  async choose(project) {
    if (project !== this.project) this.data = null;
    for (const view of [this.graph, this.map]) view.container.dataset.ready = 'false'; // until drawn for this project
    this.project = project;
    this.batchIndex = null;
    this.stale = new Set(TABS);
    this.detail.close();
    return this.showTab(this.tab);
  }

  async showTab(tab) {
    this.tab = tab;
    const detail = this.detailLevel ? `&detail=${this.detailLevel}` : '';
    history.replaceState(null, '', `#project=${encodeURIComponent(this.project)}&tab=${tab}${detail}`);
    for (const button of document.querySelectorAll('#tabs button')) {
      button.setAttribute('aria-selected', String(button.dataset.tab === tab));
    }
    for (const name of TABS) $(`#view-${name}`).hidden = name !== tab;
    if (this.stale.has(tab)) return this.load(tab);
    if (tab === 'graph') this.graph.resize();
    if (tab === 'map') this.map.resize();
    return null;
  }

  async load(tab) {
    this.stale.delete(tab);
    try {
      if (tab === 'graph') await this.loadGraph();
      else if (tab === 'map') await this.map.render((await this.projectData()).points);
      else if (tab === 'review') await this.review.load(this.project);
      else if (tab === 'timeline') this.indexBatches(await this.timeline.load(this.project));
      if (tab !== 'review' && tab !== 'timeline') this.say('');
    } catch (error) {
      this.stale.add(tab);
      if (error instanceof ApiError && error.status === 401) return this.signOut('The key is no longer valid; paste another.', true);
      this.say(error.message, true);
    }
    return null;
  }

  async loadGraph() {
    this.say('loading the graph…');
    const data = await this.projectData();
    this.say('drawing the graph…');
    await this.graph.render(data.graph, data.statements);
    if ($('#search').value) await this.graph.search($('#search').value);
  }

  prefetch(project) {
    this.project = project;
    this.data = this.fetchData(project);
    this.data.catch(() => {}); // a failure is reported when the data is used, or never if it is not
  }

  /** The graph and the map of the project, fetched together once per project. */
  async projectData() {
    if (!this.data) this.data = this.fetchData(this.project);
    try {
      this.loaded = await this.data;
      return this.loaded;
    } catch (error) {
      this.data = null;
      throw error;
    }
  }

  async fetchData(project) {
    mark('data-requested');
    const [graph, map] = await Promise.all([api.graph(project), api.map(project)]);
    mark('data-loaded');
    const statements = new Map(map.points.filter((p) => p.note_id).map((p) => [p.note_id, p.statement]));
    const patternNodes = graph.nodes.filter((n) => n.kind === 'pattern');
    const patterns = new Map(patternNodes.map((n) => [n.id.slice(8), n.statement]));
    const names = new Map(patternNodes.map((n) => [n.id.slice(8), n.name || null]));
    return { graph, points: map.points, statements, patterns, names };
  }

  /** A point of the map clicked: its note with its cluster's name, or (a personal note, for anyone
   * but an admin) the pattern it supports, with the pattern's name. */
  pointSelected(point) {
    if (point.note_id) this.detail.note(point.note_id, { kind: 'note', name: point.name });
    else if (point.pattern_id) this.detail.note(point.pattern_id, { kind: 'pattern', name: this.loaded?.names.get(point.pattern_id) });
  }

  async showNode(id) {
    if (this.tab !== 'graph') await this.showTab('graph');
    if (!this.graph.show(id) && id.startsWith('pattern:')) this.detail.note(id.slice(8));
  }

  async showBatch(id) {
    await this.showTab('timeline');
    this.timeline.reveal(id);
  }

  async batchesById() {
    if (!this.batchIndex) this.indexBatches((await api.batches(this.project)).batches);
    return this.batchIndex;
  }

  indexBatches(batches) {
    this.batchIndex = new Map(batches.map((b) => [b.batch_id, b]));
  }

  /** A decision or a rollback changed notes: reload the views that show them when next shown. */
  changed() {
    this.data = null;
    this.batchIndex = null;
    for (const tab of TABS) if (tab !== this.tab) this.stale.add(tab);
  }

  say(text, bad = false) {
    const line = $('#status');
    line.textContent = text;
    line.classList.toggle('bad', bad);
  }
}

const explorer = new Explorer();
explorer.bind();
explorer.start();
// The views and their cytoscape instances, for the browser's console (and the page's tests).
window.reverieExplorer = explorer;
