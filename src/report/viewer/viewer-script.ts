/**
 * The viewer page's only script, as browser JavaScript text. It is inlined into the page (the page
 * loads nothing: no network in file mode, and only JSON from its own origin when served), and
 * its SHA-256 is the one script the page's Content-Security-Policy allows. It is text rather than
 * compiled TypeScript because the project compiles for Node (no DOM types) and the page must
 * stay one file; src/report/viewer/viewer-page.test.ts runs it in Chromium.
 *
 * Safety: every text from the database (questions, plan texts, model outputs, documents) reaches
 * the page through `textContent` or `createTextNode`, never `innerHTML`, and attributes are set
 * only to values this script builds (classes, ids, internal `#` links). Written without template
 * literals, so no `${` or backtick appears in this file's text.
 */
export const VIEWER_SCRIPT = String.raw`
(function () {
  'use strict';
  var boot = JSON.parse(document.getElementById('viewer-boot').textContent);
  var snapshot = boot.snapshot || null;
  var PAGE_SIZE = 50;
  var BLOCK_COLORS = { cot: '#dbeafe', sc: '#dcfce7', reflexion: '#fef3c7', debate: '#fce7f3', search: '#e0e7ff' };
  var state = { family: '', split: '', outcome: '', search: '', offset: 0, task: '', plan: '', node: '' };
  var current = { task: null, listing: null };
  var requestCounter = 0;

  // ---------- DOM helpers: text only ever goes through textContent ----------
  function h(tag, props, children) {
    var element = document.createElement(tag);
    setProps(element, props);
    append(element, children);
    return element;
  }
  function svg(tag, props, children) {
    var element = document.createElementNS('http://www.w3.org/2000/svg', tag);
    setProps(element, props);
    append(element, children);
    return element;
  }
  function setProps(element, props) {
    if (!props) return;
    Object.keys(props).forEach(function (key) {
      var value = props[key];
      if (value === null || value === undefined || value === false) return;
      if (key === 'text') element.textContent = String(value);
      else if (key.slice(0, 2) === 'on' && typeof value === 'function') element.addEventListener(key.slice(2), value);
      else element.setAttribute(key, value === true ? '' : String(value));
    });
  }
  function append(parent, children) {
    if (children === null || children === undefined || children === false) return;
    if (!Array.isArray(children)) children = [children];
    children.forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
    });
  }
  function clear(element) {
    while (element.firstChild) element.removeChild(element.firstChild);
    return element;
  }
  function byId(id) {
    return document.getElementById(id);
  }
  function number(value) {
    return Number(value).toLocaleString('en-US');
  }
  function tokens(value) {
    if (value === null || value === undefined) return '';
    if (value >= 1000000) return (value / 1000000).toFixed(2) + 'M';
    if (value >= 10000) return (value / 1000).toFixed(1) + 'k';
    return number(Math.round(value));
  }
  function signed(value, digits) {
    var text = Number(value).toFixed(digits === undefined ? 3 : digits);
    return value >= 0 ? '+' + text : text;
  }
  function pre(text, className) {
    return h('pre', { class: className || 'text' }, text === null || text === undefined ? '' : String(text));
  }
  function badge(text, kind) {
    return h('span', { class: 'badge ' + (kind || '') }, text);
  }
  function outcomeBadge(plan) {
    if (plan.status !== 'ok' && plan.correct !== true) return badge(plan.status.replace('_', ' '), 'bad');
    if (plan.correct === true) return badge('correct', 'good');
    if (plan.correct === false) return badge('incorrect', 'bad');
    return badge('ungraded', 'muted');
  }
  var OUTCOME_LABELS = { 'all-correct': 'all correct', 'some-correct': 'some correct', 'none-correct': 'none correct', ungraded: 'ungraded', 'no-episodes': 'no plans stored' };

  // ---------- Data: JSON pages from the server, or the snapshot in this file ----------
  function api(path, params) {
    if (snapshot) return Promise.resolve().then(function () { return fromSnapshot(path, params); });
    var query = new URLSearchParams();
    Object.keys(params || {}).forEach(function (key) {
      if (params[key] !== '' && params[key] !== null && params[key] !== undefined) query.set(key, String(params[key]));
    });
    return fetch('api/' + path + '?' + query.toString(), { headers: { accept: 'application/json' } }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body && body.error ? body.error : 'HTTP ' + response.status);
        return body;
      });
    });
  }
  function fromSnapshot(path, params) {
    if (path === 'facets') return snapshot.facets;
    if (path === 'tasks') {
      var search = (params.search || '').toLowerCase();
      var matches = snapshot.listing.filter(function (task) {
        return (!params.family || task.family === params.family) && (!params.split || task.split === params.split) && (!params.outcome || task.outcome === params.outcome) &&
          (!search || task.question.toLowerCase().indexOf(search) !== -1 || task.id.toLowerCase().indexOf(search) !== -1);
      });
      var offset = Number(params.offset) || 0;
      return { total: matches.length, tasks: matches.slice(offset, offset + PAGE_SIZE) };
    }
    if (path === 'task') {
      if (!Object.prototype.hasOwnProperty.call(snapshot.tasks, params.id)) throw new Error('task ' + params.id + ' is not in this file; serve the database (orchrm view --db ...) to see every task');
      return snapshot.tasks[params.id];
    }
    if (path === 'node') {
      var key = params.episode + '#' + params.position;
      if (!Object.prototype.hasOwnProperty.call(snapshot.nodes, key)) throw new Error('this node is not in this file');
      return snapshot.nodes[key];
    }
    throw new Error('comparing two plans needs the served viewer: orchrm view --db ... --model ...');
  }

  // ---------- Location: the state lives in the hash, so views can be linked and Back works ----------
  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    Object.keys(state).forEach(function (key) {
      var value = params.get(key);
      state[key] = key === 'offset' ? Math.max(0, Number(value) || 0) : value || '';
    });
  }
  function hrefFor(changes) {
    var next = {};
    Object.keys(state).forEach(function (key) { next[key] = state[key]; });
    Object.keys(changes).forEach(function (key) { next[key] = changes[key]; });
    var params = new URLSearchParams();
    Object.keys(next).forEach(function (key) {
      if (next[key] !== '' && next[key] !== 0 && next[key] !== null && next[key] !== undefined) params.set(key, String(next[key]));
    });
    return '#' + params.toString();
  }
  function go(changes) {
    var href = hrefFor(changes);
    if (href === location.hash || (href === '#' && location.hash === '')) render();
    else location.hash = href;
  }

  // ---------- Task list ----------
  function renderFilters(facets) {
    var form = clear(byId('filters'));
    function select(name, label, options) {
      var element = h('select', { id: 'filter-' + name, name: name, 'aria-label': label, onchange: function () {
        var change = { offset: 0, task: '', plan: '', node: '' };
        change[name] = element.value;
        go(change);
      } }, [h('option', { value: '' }, 'any ' + label)].concat(options.map(function (option) {
        return h('option', { value: option.value }, (OUTCOME_LABELS[option.value] || option.value) + ' (' + number(option.tasks) + ')');
      })));
      element.value = state[name];
      return h('label', { class: 'filter' }, [h('span', { class: 'filter-label' }, label), element]);
    }
    var searchBox = h('input', { id: 'filter-search', type: 'search', name: 'search', placeholder: 'question or id contains…', 'aria-label': 'search the question text' });
    searchBox.value = state.search;
    var timer = null;
    searchBox.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { go({ search: searchBox.value.trim(), offset: 0, task: '', plan: '', node: '' }); }, 250);
    });
    append(form, [select('family', 'family', facets.families), select('split', 'split', facets.splits), select('outcome', 'outcome', facets.outcomes), h('label', { class: 'filter search' }, [h('span', { class: 'filter-label' }, 'search'), searchBox])]);
  }

  function renderTaskList(listing) {
    var list = clear(byId('task-list'));
    var pager = clear(byId('pager'));
    current.listing = listing;
    if (listing.tasks.length === 0) {
      append(list, h('li', { class: 'empty' }, 'No task matches these filters.'));
    }
    listing.tasks.forEach(function (task) {
      var selected = task.id === state.task;
      var item = h('li', null, h('a', { class: 'task-item' + (selected ? ' selected' : ''), href: hrefFor({ task: task.id, plan: '', node: '' }), 'data-task-id': task.id, 'aria-current': selected ? 'true' : null }, [
        h('div', { class: 'task-item-head' }, [h('span', { class: 'task-id' }, task.id), badge(OUTCOME_LABELS[task.outcome] || task.outcome, task.outcome)]),
        h('div', { class: 'task-item-meta' }, [task.family, task.split ? ' · ' + task.split : '', ' · ', number(task.episodes) + ' plans', task.graded ? ', ' + task.correct + '/' + task.graded + ' correct' : '', task.failed ? ', ' + task.failed + ' failed' : '', task.bestOfN ? ' · Best-of-N' : '']),
        task.questionChars ? h('div', { class: 'task-question' }, task.question + (task.questionChars > task.question.length ? '…' : '')) : null,
      ]));
      append(list, item);
    });
    var from = listing.total === 0 ? 0 : state.offset + 1;
    var to = state.offset + listing.tasks.length;
    append(pager, [
      h('button', { type: 'button', id: 'page-previous', disabled: state.offset === 0, onclick: function () { go({ offset: Math.max(0, state.offset - PAGE_SIZE) }); } }, '‹ previous'),
      h('span', { id: 'page-position' }, number(from) + '–' + number(to) + ' of ' + number(listing.total)),
      h('button', { type: 'button', id: 'page-next', disabled: to >= listing.total, onclick: function () { go({ offset: state.offset + PAGE_SIZE }); } }, 'next ›'),
    ]);
  }

  // ---------- One task ----------
  function planLabel(task, episodeId) {
    for (var index = 0; index < task.plans.length; index++) if (task.plans[index].episodeId === episodeId) return 'plan ' + (index + 1);
    return episodeId || 'plan text';
  }

  function renderTask(task) {
    var main = clear(byId('task'));
    current.task = task;
    var rankByScore = {};
    var scored = task.plans.filter(function (plan) { return plan.score !== null; }).slice().sort(function (a, b) { return b.score - a.score; });
    scored.forEach(function (plan, index) { rankByScore[plan.episodeId] = index + 1; });
    append(main, [
      h('h2', { id: 'task-title' }, ['Task ', h('code', null, task.task.id)]),
      h('div', { class: 'task-meta' }, [task.task.suite, task.model ? ' · scored by ' + task.model.name : '']),
      task.task.question === null
        ? h('p', { class: 'note' }, 'Only Best-of-N results name this task: bon keeps each strategy’s outcome and pick, not the task’s text or its plans.')
        : h('section', { class: 'question', 'aria-label': 'question' }, [h('h3', null, 'Question'), pre(task.task.question, 'text question-text')]),
      task.task.answer === null ? null : h('p', { class: 'gold' }, ['Gold answer: ', h('strong', { id: 'gold-answer' }, task.task.answer), task.task.aliases.length ? ' (also accepted: ' + task.task.aliases.join('; ') + ')' : '']),
      task.task.metadata === null ? null : h('details', { class: 'metadata' }, [h('summary', null, 'Task metadata'), pre(task.task.metadata)]),
      task.bestOfN.length ? renderBestOfN(task) : null,
      task.task.question === null ? null : h('h3', null, number(task.plans.length) + ' plans'),
      task.plans.length === 0 && task.task.question !== null ? h('p', { class: 'note' }, 'No episode of this task is stored.') : null,
      explainedNote(task),
      h('div', { class: 'plans', id: 'plans' }, task.plans.map(function (plan, index) { return renderPlan(task, plan, index, rankByScore[plan.episodeId]); })),
      h('section', { id: 'node-panel', class: 'node-panel', 'aria-live': 'polite' }),
      task.model && task.model.explains && task.plans.length > 1 && !snapshot ? renderCompare(task, scored) : null,
      task.task.question === null ? null : renderPairs(task),
    ]);
    if (state.node !== '' && state.plan !== '') loadNode(state.plan, Number(state.node));
  }

  function explainedNote(task) {
    if (!task.model) return null;
    var explained = task.plans.filter(function (plan) { return plan.explanation; })[0];
    return h('p', { class: 'note', id: 'model-note' }, 'Scores by ' + task.model.name + '; the highest is marked as the model’s pick.' + (explained ? ' Why: ' + explained.explanation.note + '.' : ' This model does not explain its scores (only models trained by orchrm do).'));
  }

  function renderPlan(task, plan, index, rank) {
    var selected = plan.episodeId === state.plan;
    var card = h('article', { class: 'plan' + (selected ? ' selected' : ''), id: 'plan-' + index, 'data-episode-id': plan.episodeId, 'aria-label': 'plan ' + (index + 1) }, [
      h('header', { class: 'plan-head' }, [
        h('a', { class: 'plan-title', href: hrefFor({ plan: plan.episodeId, node: '' }) }, 'Plan ' + (index + 1)),
        outcomeBadge(plan),
        rank === 1 ? badge('model’s pick', 'pick') : null,
      ]),
      h('div', { class: 'plan-meta' }, [plan.orchestrator + ' · sample ' + plan.sampleIndex + ' · ' + plan.planFormat]),
      plan.score === null ? null : h('div', { class: 'score' }, ['score ', h('strong', { class: 'score-value' }, plan.score.toFixed(3)), rank ? ' (rank ' + rank + ')' : '']),
      h('div', { class: 'plan-tokens' }, 'tokens: plan ' + number(plan.tokens.orchestrator) + ' · execution ' + number(plan.tokens.execution) + (plan.tokens.verification ? ' · verification ' + number(plan.tokens.verification) : '')),
      renderGraph(plan, index),
      h('div', { class: 'final' }, ['Final answer: ', h('strong', { class: 'final-answer' }, plan.finalAnswer === null ? '–' : plan.finalAnswer)]),
      // A plan that did not parse or validate: its diagnostics below say what its reason says.
      plan.reason && plan.diagnostics.length === 0 ? h('div', { class: 'reason' }, plan.reason) : null,
      plan.diagnostics.length ? h('ul', { class: 'diagnostics' }, plan.diagnostics.map(function (diagnostic) { return h('li', null, [h('code', null, diagnostic.code), ' ', diagnostic.message]); })) : null,
      plan.warnings.length ? h('div', { class: 'note' }, 'warnings: ' + plan.warnings.join(', ')) : null,
      plan.explanation ? renderExplanation(plan.explanation, plan.score) : null,
      h('details', { class: 'plan-text' }, [h('summary', null, 'Plan text as written'), pre(plan.planText, 'text plan-source')]),
      plan.orchestratorReasoning ? h('details', null, [h('summary', null, 'Orchestrator reasoning'), pre(plan.orchestratorReasoning)]) : null,
      plan.orchestratorError ? h('div', { class: 'error' }, ['Orchestrator call failed: ', plan.orchestratorError]) : null,
    ]);
    return card;
  }

  function renderExplanation(explanation, score) {
    var largest = explanation.top.reduce(function (max, entry) { return Math.max(max, Math.abs(entry.contribution)); }, 1e-9);
    var row = function (entry) {
      var width = Math.max(2, Math.round((Math.abs(entry.contribution) / largest) * 100));
      return h('li', { class: entry.contribution >= 0 ? 'up' : 'down', title: entry.encoder }, [
        h('span', { class: 'bar', style: 'width:' + width + '%' }),
        h('span', { class: 'contribution' }, signed(entry.contribution)),
        h('span', { class: 'feature' }, entry.feature),
      ]);
    };
    var shown = explanation.top.slice(0, 5);
    var more = explanation.top.slice(5);
    return h('section', { class: 'explanation', 'aria-label': 'why this score' }, [
      h('div', { class: 'explain-sum', title: explanation.note }, ['Why: ' + (explanation.method === 'exact' ? 'bias ' : 'empty input ') + explanation.baseline.toFixed(3) + ' plus the features below = ', h('strong', null, score.toFixed(3))]),
      h('ol', { class: 'contributions' }, shown.map(row)),
      more.length ? h('details', null, [h('summary', null, number(more.length) + ' more'), h('ol', { class: 'contributions' }, more.map(row))]) : null,
      explanation.rest.features ? h('div', { class: 'note' }, signed(explanation.rest.contribution) + ' from ' + number(explanation.rest.features) + ' other features') : null,
    ]);
  }

  // ---------- The plan's DAG as SVG ----------
  var NODE_WIDTH = 128, NODE_HEIGHT = 50, GAP_X = 36, GAP_Y = 14, PAD = 8;
  function layout(graph) {
    var depth = {}, incoming = {};
    graph.nodes.forEach(function (node) { depth[node.id] = 0; incoming[node.id] = []; });
    graph.edges.forEach(function (edge) { if (incoming[edge.to]) incoming[edge.to].push(edge.from); });
    // Longest path from a source; plans are validated DAGs, and the bound keeps a bad one finite.
    for (var round = 0; round < graph.nodes.length; round++) {
      var changed = false;
      graph.edges.forEach(function (edge) {
        if (depth[edge.from] === undefined || depth[edge.to] === undefined) return;
        if (depth[edge.to] < depth[edge.from] + 1) { depth[edge.to] = depth[edge.from] + 1; changed = true; }
      });
      if (!changed) break;
    }
    var columns = [];
    graph.nodes.forEach(function (node) { (columns[depth[node.id]] = columns[depth[node.id]] || []).push(node); });
    var position = {};
    var rows = 0;
    columns.forEach(function (column, columnIndex) {
      (column || []).forEach(function (node, rowIndex) {
        position[node.id] = { x: PAD + columnIndex * (NODE_WIDTH + GAP_X), y: PAD + rowIndex * (NODE_HEIGHT + GAP_Y) };
      });
      rows = Math.max(rows, (column || []).length);
    });
    return { position: position, width: PAD * 2 + columns.length * (NODE_WIDTH + GAP_X) - GAP_X, height: PAD * 2 + rows * (NODE_HEIGHT + GAP_Y) - GAP_Y };
  }

  function renderGraph(plan, planIndex) {
    var graph = plan.graph;
    if (graph === null) return h('div', { class: 'graph invalid' }, 'No graph: the plan did not parse or validate.');
    if (graph.nodes.length === 0) return h('div', { class: 'graph direct' }, ['Direct answer, no sub-agents: ', h('strong', null, graph.directAnswer === null ? '–' : graph.directAnswer)]);
    var placed = layout(graph);
    var markerId = 'arrow-' + planIndex;
    // Graphs a little wider than their card shrink to fit (to 85% at most, to stay readable); wider ones scroll.
    var shown = Math.min(placed.width, Math.max(300, placed.width * 0.85));
    var picture = svg('svg', { class: 'dag', width: Math.round(shown), height: Math.round(placed.height * shown / placed.width), viewBox: '0 0 ' + placed.width + ' ' + placed.height, role: 'group', 'aria-label': 'graph of plan ' + (planIndex + 1) }, [
      svg('defs', null, svg('marker', { id: markerId, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#6b7280' }))),
    ]);
    graph.edges.forEach(function (edge) {
      var from = placed.position[edge.from], to = placed.position[edge.to];
      if (!from || !to) return;
      var x1 = from.x + NODE_WIDTH, y1 = from.y + NODE_HEIGHT / 2, x2 = to.x, y2 = to.y + NODE_HEIGHT / 2, middle = (x1 + x2) / 2;
      append(picture, svg('path', { class: 'edge', d: 'M ' + x1 + ' ' + y1 + ' C ' + middle + ' ' + y1 + ', ' + middle + ' ' + y2 + ', ' + x2 + ' ' + y2, 'marker-end': 'url(#' + markerId + ')' }));
    });
    graph.nodes.forEach(function (node) {
      var at = placed.position[node.id];
      var ran = node.position !== null;
      var failed = ran && node.status !== 'ok';
      var isAnswer = node.id === graph.answer;
      var selected = plan.episodeId === state.plan && ran && String(node.position) === state.node;
      var classes = 'node' + (failed ? ' failed' : '') + (ran ? '' : ' not-run') + (isAnswer ? ' answer' : '') + (selected ? ' selected' : '');
      var group = svg('g', { class: classes, transform: 'translate(' + at.x + ' ' + at.y + ')', 'data-node-id': node.id, 'data-agent': node.agent, tabindex: ran ? 0 : null, role: ran ? 'button' : null,
        'aria-label': 'node ' + node.id + ', ' + node.agent + (ran ? ', ' + node.status + ', ' + number(node.tokens) + ' tokens' : ', did not run') + (isAnswer ? ', answer node' : '') }, [
        svg('title', null, node.agent + ' ' + node.id + ': ' + node.input + (node.answer !== null ? '\nanswer: ' + node.answer : '')),
        svg('rect', { width: NODE_WIDTH, height: NODE_HEIGHT, rx: 7, fill: BLOCK_COLORS[node.agent] || '#f3f4f6' }),
        svg('text', { x: 8, y: 19, class: 'node-name' }, node.id.length > 10 ? node.id.slice(0, 9) + '…' : node.id),
        svg('text', { x: NODE_WIDTH - 8, y: 19, class: 'node-agent', 'text-anchor': 'end' }, node.agent.length > 10 ? node.agent.slice(0, 9) + '…' : node.agent),
        svg('text', { x: 8, y: 39, class: 'node-tokens' }, ran ? tokens(node.tokens) + ' tok' + (failed ? ' · ' + node.status : '') : 'not run'),
        isAnswer ? svg('text', { x: NODE_WIDTH - 8, y: 39, class: 'node-answer-mark', 'text-anchor': 'end' }, 'answer') : null,
      ]);
      if (ran) {
        var open = function () { go({ plan: plan.episodeId, node: String(node.position) }); };
        group.addEventListener('click', open);
        group.addEventListener('keydown', function (event) { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); open(); } });
      }
      append(picture, group);
    });
    return h('div', { class: 'graph' }, picture);
  }

  // ---------- One node ----------
  function loadNode(episodeId, position) {
    var panel = byId('node-panel');
    if (!panel) return;
    var ticket = ++requestCounter;
    clear(panel);
    append(panel, h('p', { class: 'note' }, 'Loading the node…'));
    api('node', { episode: episodeId, position: position }).then(function (node) {
      if (ticket !== requestCounter) return;
      renderNode(node);
    }).catch(function (error) {
      if (ticket !== requestCounter) return;
      clear(panel);
      append(panel, h('p', { class: 'error' }, error.message));
    });
  }

  function renderNode(node) {
    var panel = clear(byId('node-panel'));
    var task = current.task;
    append(panel, [
      h('h3', { id: 'node-title' }, ['Node ', h('code', null, node.nodeId), ' (' + node.agent + ') of ' + planLabel(task, node.episodeId)]),
      h('div', { class: 'node-meta' }, [badge(node.status, node.status === 'ok' ? 'good' : 'bad'), ' ' + number(node.tokens.total) + ' tokens (' + number(node.tokens.prompt) + ' in, ' + number(node.tokens.completion) + ' out) · ' + Math.round(node.latencyMs) + ' ms']),
      node.reason ? h('p', { class: 'error' }, ['Why it failed: ', node.reason]) : null,
      h('h4', null, 'Sub-task'),
      pre(node.input, 'text node-input'),
      h('h4', null, 'Answer'),
      pre(node.answer === null ? '(none)' : node.answer, 'text node-answer'),
      renderArtifacts(node),
      node.output === null ? null : h('details', null, [h('summary', null, 'Full output'), pre(node.output)]),
      h('details', null, [h('summary', null, 'Parameters'), pre(node.params)]),
      h('h4', null, number(node.calls.length) + ' model calls'),
      h('ol', { class: 'calls' }, node.calls.map(renderCall)),
    ]);
    panel.scrollIntoView({ block: 'nearest' });
  }

  function renderCall(call) {
    return h('li', { class: 'call' + (call.error ? ' failed' : '') }, h('details', { open: call.error ? true : null }, [
      h('summary', null, ['call ' + (call.index + 1) + ' · ' + call.role + ' · ' + call.model + ' · ' + number(call.tokens.total) + ' tokens · ' + Math.round(call.latencyMs) + ' ms' + (call.attempts > 1 ? ' · ' + call.attempts + ' attempts' : '') + (call.cached ? ' · cached' : ''), call.error ? badge('failed', 'bad') : null]),
      call.error ? h('p', { class: 'error call-error' }, ['Error: ', call.error]) : null,
      call.attemptErrors.length ? h('ul', { class: 'attempt-errors' }, call.attemptErrors.map(function (error, index) { return h('li', null, 'attempt ' + (index + 1) + ': ' + error); })) : null,
      call.messages ? h('div', { class: 'messages' }, call.messages.map(function (message) { return h('div', { class: 'message' }, [h('div', { class: 'message-role' }, message.role), pre(message.content)]); })) : h('p', { class: 'note' }, 'Prompt not kept (collect with --keep-prompts to keep prompts).'),
      call.reasoning ? h('details', null, [h('summary', null, 'Reasoning'), pre(call.reasoning)]) : null,
      h('div', { class: 'message-role' }, 'response'),
      pre(call.response, 'text call-response'),
    ]));
  }

  function table(columns, rows, className) {
    return h('div', { class: 'table-wrap' }, h('table', { class: className || '' }, [
      h('thead', null, h('tr', null, columns.map(function (column) { return h('th', null, column); }))),
      h('tbody', null, rows.map(function (row) { return h('tr', null, row.map(function (cell) { return h('td', null, cell); })); })),
    ]));
  }

  function renderArtifacts(node) {
    var artifacts = node.artifacts;
    if (!artifacts || typeof artifacts !== 'object') return null;
    var body;
    if (artifacts.kind === 'sc' && Array.isArray(artifacts.votes)) {
      body = [
        h('p', null, ['Samples: ', (artifacts.samples || []).map(function (sample) { return sample === '' ? '(none)' : sample; }).join(' · ')]),
        table(['Answer', 'Votes'], artifacts.votes.map(function (vote) { return [vote.answer, String(vote.count)]; }), 'votes'),
        h('p', null, ['Winner ', h('strong', null, String(artifacts.winner)), ' with ' + Math.round(artifacts.voteShare * 100) + '% of the votes']),
      ];
    } else if (artifacts.kind === 'reflexion' && Array.isArray(artifacts.rounds)) {
      body = [
        h('p', null, ['Initial answer: ', h('strong', null, String(artifacts.initialAnswer))]),
        h('ol', { class: 'critiques' }, artifacts.rounds.map(function (round) {
          return h('li', null, [badge(round.verdict, round.verdict === 'correct' ? 'good' : round.verdict === 'incorrect' ? 'bad' : 'muted'), pre(round.critique, 'text critique'), round.revisedAnswer !== undefined ? h('p', null, ['Revised answer: ', h('strong', null, round.revisedAnswer)]) : null]);
        })),
        artifacts.acceptedAtRound !== undefined ? h('p', { class: 'note' }, 'Accepted at round ' + (artifacts.acceptedAtRound + 1) + '.') : h('p', { class: 'note' }, 'The critic never accepted.'),
      ];
    } else if (artifacts.kind === 'debate' && Array.isArray(artifacts.rounds)) {
      var roles = artifacts.roles || [];
      body = [
        table(['Round'].concat(roles), artifacts.rounds.map(function (round, index) {
          return [String(index + 1)].concat(roles.map(function (role) {
            var turn = (round.turns || []).filter(function (item) { return item.role === role; })[0];
            return turn ? turn.answer : '';
          }));
        }), 'debate'),
        h('p', null, ['Final answer ', h('strong', null, String(artifacts.finalAnswer)), artifacts.converged ? ' (the roles converged)' : ' (the roles did not converge)']),
      ];
    } else if (artifacts.kind === 'search' && Array.isArray(artifacts.steps)) {
      var documents = {};
      (node.documents || []).forEach(function (document) { documents[document.id] = document; });
      body = [
        artifacts.steps.length === 0 ? h('p', { class: 'note' }, 'No search was made.') : null,
        h('ol', { class: 'search-steps' }, artifacts.steps.map(function (step) {
          return h('li', null, [
            h('div', null, ['Query: ', h('q', { class: 'search-query' }, step.query)]),
            step.error ? h('p', { class: 'error' }, ['Search failed: ', step.error]) : null,
            h('ul', { class: 'documents' }, (step.docIds || []).map(function (id) {
              var document = documents[id];
              return h('li', null, document ? h('details', null, [h('summary', null, [h('code', null, id), ' ', document.title]), pre(document.text, 'text document-text')]) : h('code', null, id));
            })),
          ]);
        })),
        h('p', { class: 'note' }, number(artifacts.documentsFound) + ' distinct documents' + (artifacts.answerInDocuments === true ? '; the answer occurs in them' : artifacts.answerInDocuments === false ? '; the answer does not occur in them' : '') + (node.documents && node.documents.length ? '' : '. Document texts are not in the database; pass --corpus (or --scenario for the simulator) to see them.')),
      ];
    } else if (artifacts.kind === 'cot') {
      return null;
    } else {
      body = [pre(JSON.stringify(artifacts, null, 2))];
    }
    return h('section', { class: 'artifacts' }, [h('h4', null, 'Artifacts (' + artifacts.kind + ')')].concat(body));
  }

  // ---------- Two plans compared, and the pairs ----------
  function renderCompare(task, scored) {
    var options = task.plans.map(function (plan, index) { return h('option', { value: plan.episodeId }, 'Plan ' + (index + 1) + (plan.score !== null ? ' (' + plan.score.toFixed(3) + ')' : '')); });
    var first = h('select', { id: 'compare-a', 'aria-label': 'first plan' }, options);
    var second = h('select', { id: 'compare-b', 'aria-label': 'second plan' }, options.map(function (option) { return option.cloneNode(true); }));
    first.value = scored.length ? scored[0].episodeId : task.plans[0].episodeId;
    second.value = scored.length ? scored[scored.length - 1].episodeId : task.plans[1].episodeId;
    var result = h('div', { id: 'compare-result' });
    var run = function () {
      clear(result);
      append(result, h('p', { class: 'note' }, 'Comparing…'));
      api('compare', { task: task.task.id, a: first.value, b: second.value }).then(function (comparison) {
        clear(result);
        append(result, [
          h('p', null, [planLabel(task, comparison.a) + ' ' + comparison.scoreA.toFixed(3) + ' vs ' + planLabel(task, comparison.b) + ' ' + comparison.scoreB.toFixed(3) + ': difference ', h('strong', { id: 'compare-difference' }, signed(comparison.difference))]),
          table(['Feature', 'First', 'Second', 'Difference'], comparison.top.map(function (entry) { return [entry.feature, signed(entry.a), signed(entry.b), signed(entry.difference)]; }), 'compare'),
          comparison.rest.features ? h('p', { class: 'note' }, signed(comparison.rest.difference) + ' from ' + number(comparison.rest.features) + ' other features. ' + comparison.note + '.') : h('p', { class: 'note' }, comparison.note + '.'),
        ]);
      }).catch(function (error) { clear(result); append(result, h('p', { class: 'error' }, error.message)); });
    };
    return h('section', { class: 'compare-panel' }, [
      h('h3', null, 'What separates two plans'),
      h('div', { class: 'compare-controls' }, [first, ' vs ', second, h('button', { type: 'button', id: 'compare-run', onclick: run }, 'Compare')]),
      result,
    ]);
  }

  function pickLabel(row) {
    if (!row.pick) return row.strategy === 'oracle' ? 'no plan was right' : 'no pick recorded';
    return row.pick.source === 'template' ? 'template ' + row.pick.kind : 'sample ' + (row.pick.index + 1) + ' (' + row.pick.kind.replace(/^sample:/, '') + ')';
  }

  function renderBestOfN(task) {
    var section = h('section', { class: 'best-of-n', id: 'best-of-n' }, [h('h3', null, 'Best-of-N on this task')]);
    append(section, h('p', { class: 'note' }, 'Which candidate each strategy settled on, and whether it was right. Samples are the plans bon drew for this task (numbered from 1; bon does not store them, so the kind names their shape); templates are the template pool’s plans; fixed:… rows run one template on every task.'));
    task.bestOfN.forEach(function (run) {
      var ns = [];
      var strategies = [];
      var fixed = {};
      run.rows.forEach(function (row) {
        if (row.strategy.indexOf('fixed:') === 0) { fixed[row.strategy.slice(6)] = row; return; }
        if (ns.indexOf(row.n) === -1) ns.push(row.n);
        if (strategies.indexOf(row.strategy) === -1) strategies.push(row.strategy);
      });
      ns.sort(function (a, b) { return b - a; });
      var cell = function (strategy, n) {
        var row = run.rows.filter(function (item) { return item.strategy === strategy && item.n === n; })[0];
        if (!row) return '';
        return h('span', { class: 'pick', title: (row.pick && row.pick.score !== null ? 'score ' + row.pick.score.toFixed(3) + '; ' : '') + (row.tokens !== null ? number(row.tokens) + ' tokens' : '') }, [badge(row.correct ? 'right' : 'wrong', row.correct ? 'good' : 'bad'), ' ', pickLabel(row), row.pick && row.pick.score !== null ? ' · ' + row.pick.score.toFixed(2) : '']);
      };
      var fixedNames = Object.keys(fixed);
      append(section, [
        h('div', { class: 'note' }, ['Run ', h('code', null, run.runId || 'unknown'), ' · ' + run.createdAt + (run.rewardModel ? ' · model ' + run.rewardModel : '') + (run.pool ? ' · pool ' + run.pool : '')]),
        table(['Strategy'].concat(ns.map(function (n) { return 'N = ' + n; })), strategies.map(function (strategy) {
          return [h('span', { class: 'strategy' }, strategy)].concat(ns.map(function (n) { return cell(strategy, n); }));
        }), 'picks'),
        fixedNames.length ? h('p', { class: 'fixed-plans' }, ['Each template run on this task as a fixed plan: '].concat(fixedNames.map(function (name) {
          return h('span', { class: 'fixed-plan', 'data-template': name }, [badge(fixed[name].correct ? 'right' : 'wrong', fixed[name].correct ? 'good' : 'bad'), ' ' + name + ' ']);
        }))) : null,
      ]);
    });
    return section;
  }

  function renderPairs(task) {
    var section = h('section', { class: 'pairs', id: 'pairs' }, [h('h3', null, number(task.pairs.length + task.morePairs) + ' pairs mined from this task')]);
    if (task.pairs.length === 0) {
      append(section, h('p', { class: 'note' }, 'No pairs were mined from this task (orchrm pairs mine).'));
      return section;
    }
    append(section, h('p', { class: 'note' }, 'Outcome and efficiency pairs are decided by reading grades; checkpoint and process pairs never read them. A label-free dataset holds only pairs mined with no grade read anywhere.'));
    var planCell = function (episodeId, text) {
      if (episodeId === null) return h('details', null, [h('summary', null, 'plan text'), pre(text)]);
      var plan = current.task.plans.filter(function (item) { return item.episodeId === episodeId; })[0];
      return h('a', { href: hrefFor({ plan: episodeId, node: '' }), class: 'pair-plan' }, [planLabel(task, episodeId), plan ? ' ' : '', plan ? outcomeBadge(plan) : null]);
    };
    append(section, table(['Source', 'Winner', 'Loser', 'Weight', 'Margin', 'Split', 'Dataset', 'Evidence'], task.pairs.map(function (pair) {
      return [
        h('span', null, [pair.source + (pair.signal ? ': ' + pair.signal : ''), ' ', pair.readsGrades ? badge('reads grades', 'muted') : badge('no grades', 'good')]),
        planCell(pair.winnerEpisodeId, pair.winnerText),
        planCell(pair.loserEpisodeId, pair.loserText),
        pair.weight.toFixed(3),
        pair.margin === null ? '' : pair.margin.toFixed(3),
        pair.split || '',
        h('span', null, [h('code', null, pair.datasetId), pair.labelFree ? ' (label-free)' : '']),
        h('code', { class: 'evidence' }, JSON.stringify(pair.evidence)),
      ];
    }), 'pair-table'));
    if (task.morePairs) append(section, h('p', { class: 'note' }, number(task.morePairs) + ' more pairs are not listed.'));
    return section;
  }

  // ---------- Putting it together ----------
  var lastListKey = null;
  function loadTask(id) {
    if (current.task && current.task.task.id === id) return Promise.resolve(current.task);
    return api('task', { id: id });
  }

  function render() {
    readHash();
    var listKey = [state.family, state.split, state.outcome, state.search, state.offset].join('\u0000');
    var listed;
    if (listKey === lastListKey && current.listing) listed = Promise.resolve(current.listing);
    // The server sends the first page of the unfiltered list with the page itself.
    else if (boot.firstPage && listKey === ['', '', '', '', 0].join('\u0000')) listed = Promise.resolve(boot.firstPage);
    else listed = api('tasks', { family: state.family, split: state.split, outcome: state.outcome, search: state.search, offset: state.offset, limit: PAGE_SIZE });
    lastListKey = listKey;
    var ticket = ++requestCounter;
    // A task named in the address is fetched beside the list, not after it.
    var taskLoaded = state.task === '' ? null : loadTask(state.task);
    listed.then(function (listing) {
      renderTaskList(listing);
      if (state.task === '' && listing.tasks.length > 0) {
        // Open the first task of the page, without adding a history entry.
        history.replaceState(null, '', hrefFor({ task: listing.tasks[0].id }));
        readHash();
        renderTaskList(listing);
        taskLoaded = loadTask(state.task);
      }
      if (state.task === '') { clear(byId('task')); return; }
      if (!(current.task && current.task.task.id === state.task)) {
        var main = clear(byId('task'));
        append(main, h('p', { class: 'note' }, 'Loading task ' + state.task + '…'));
      }
      return taskLoaded.then(function (task) {
        if (ticket !== requestCounter) return;
        renderTask(task);
      });
    }).catch(function (error) {
      if (ticket !== requestCounter) return;
      var main = clear(byId('task'));
      append(main, h('p', { class: 'error', id: 'viewer-error' }, error.message));
    });
  }

  var facetsLoaded = boot.facets ? Promise.resolve(boot.facets) : api('facets', {});
  facetsLoaded.then(function (facets) {
    byId('task-count').textContent = number(facets.tasks) + ' tasks';
    readHash();
    renderFilters(facets);
    render();
  }).catch(function (error) {
    append(byId('task'), h('p', { class: 'error', id: 'viewer-error' }, error.message));
  });
  window.addEventListener('hashchange', render);
})();
`;
