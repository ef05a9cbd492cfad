import { PAGE_SCRIPT_HELPERS, type InlinePage } from '../../inline-page';

/**
 * The trace page: one HTML document with its style and script inline (like /support), drawing the graph
 * GET /Integration/Trace answers as SVG: lots as nodes, events as edges with their quantities, one band
 * per account. The key typed in lives in a variable of the page only. Everything the API answers goes
 * into the page as text (textContent), never as markup.
 */

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
header { background: #22313f; color: #fff; padding: 10px 20px; display: flex; gap: 16px; align-items: center; }
header h1 { font-size: 17px; margin: 0; flex: 1; }
main { padding: 16px 20px; }
section { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 12px 14px; margin-bottom: 16px; }
h2 { font-size: 15px; margin: 4px 0 10px; }
form { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
input, select { padding: 4px 6px; } input[type=password] { width: 24em; }
button.action { padding: 5px 12px; cursor: pointer; }
.message { padding: 8px 10px; border-radius: 4px; margin: 8px 0; }
.message.error { background: #fdecea; color: #7a1d16; } .message.info { background: #e8f1fb; color: #0b3d6b; }
.layout { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 1fr); gap: 16px; }
#graph { overflow: auto; }
svg text { font-size: 12px; fill: #1b1f24; } svg text.small { font-size: 11px; fill: #4a525c; }
svg .band { fill: #eef2f6; stroke: #d8dde3; } svg .band-label { font-weight: 600; fill: #22313f; }
svg g.node { cursor: pointer; } svg g.node rect { fill: #fff; stroke: #5b6b7b; stroke-width: 1.2; rx: 5; }
svg g.node.root rect { stroke: #0b5cad; stroke-width: 2.5; } svg g.node.shared rect { fill: #f3f8ee; } svg g.node.shipment rect { fill: #f4f4f4; stroke-dasharray: 4 3; }
svg g.node.selected rect { stroke: #b3261e; stroke-width: 2.5; }
svg path.edge { fill: none; stroke: #7d8995; stroke-width: 1.5; } svg text.edge-label { font-size: 11px; fill: #0b3d6b; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 10px; } dt { color: #68707a; } dd { margin: 0; word-break: break-word; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 3px 5px; border-bottom: 1px solid #eceff2; font-size: 13px; }
.empty { color: #68707a; font-style: italic; }
[hidden] { display: none !important; }
`;

const SCRIPT = `
'use strict';
(function () {
  var SVG = 'http://www.w3.org/2000/svg';
  var W = 190, H = 50, COL = 300, ROW = 64, BAND_PAD = 26, LEFT = 120;
  var key = null;
  var graph = null;
  var traced = null;
${PAGE_SCRIPT_HELPERS}
  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function reason(response) {
    var body = response.body || {};
    var errors = body.errors && typeof body.errors === 'object' ? Object.keys(body.errors).map(function (k) { return body.errors[k].join(' '); }).join(' ') : '';
    return (body.title || body.message || ('HTTP ' + response.status)) + (errors ? ': ' + errors : '');
  }
  function query() {
    var params = new URLSearchParams({ ProductId: $('product').value.trim(), LotSerial: $('lot').value.trim(), Direction: $('direction').value });
    if ($('as-of').value) params.set('AsOf', new Date($('as-of').value).toISOString());
    return params;
  }

  /* Columns: the longest path from a node without incoming edges (a cycle, such as a return, stops growing after n rounds). */
  function columns(nodes, edges) {
    var col = {};
    nodes.forEach(function (n) { col[n.id] = 0; });
    for (var round = 0; round < nodes.length; round++) {
      var moved = false;
      edges.forEach(function (e) { if (col[e.to] < col[e.from] + 1) { col[e.to] = col[e.from] + 1; moved = true; } });
      if (!moved) break;
    }
    return col;
  }

  function draw() {
    var nodes = graph.nodes, edges = graph.edges;
    var target = $('graph');
    target.replaceChildren();
    if (!nodes.length) return target.appendChild(el('p', { class: 'empty', text: 'No events of this lot that you may see.' }));
    var col = columns(nodes, edges);
    var accounts = [];
    nodes.slice().sort(function (a, b) { return col[a.id] - col[b.id]; }).forEach(function (n) { if (accounts.indexOf(n.account) < 0) accounts.push(n.account); });
    var pos = {}, top = 0, maxCol = 0, bands = [];
    accounts.forEach(function (account) {
      var perCol = {};
      nodes.filter(function (n) { return n.account === account; }).forEach(function (n) {
        var c = col[n.id];
        perCol[c] = (perCol[c] || 0) + 1;
        pos[n.id] = { x: LEFT + c * COL, y: top + BAND_PAD + (perCol[c] - 1) * ROW };
        maxCol = Math.max(maxCol, c);
      });
      var rows = Math.max.apply(null, Object.keys(perCol).map(function (k) { return perCol[k]; }));
      bands.push({ account: account, top: top, height: BAND_PAD + rows * ROW });
      top += BAND_PAD + rows * ROW + 10;
    });
    var width = LEFT + (maxCol + 1) * COL;
    var root = svg('svg', { width: width, height: top, viewBox: '0 0 ' + width + ' ' + top, role: 'img', 'aria-label': 'Trace graph' });
    var defs = svg('defs');
    var marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '10', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' });
    marker.appendChild(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#7d8995' }));
    defs.appendChild(marker);
    root.appendChild(defs);
    bands.forEach(function (b) {
      var g = svg('g', { 'data-account': b.account });
      g.appendChild(svg('rect', { class: 'band', x: 4, y: b.top, width: width - 8, height: b.height, rx: 6 }));
      g.appendChild(svg('text', { class: 'band-label', x: 12, y: b.top + 18 }, b.account));
      root.appendChild(g);
    });
    edges.forEach(function (e) {
      var a = pos[e.from], b = pos[e.to];
      if (!a || !b) return;
      var x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2, mid = (x1 + x2) / 2;
      var g = svg('g', { class: 'edge', 'data-event-id': e.eventId });
      g.appendChild(svg('path', { class: 'edge', d: 'M ' + x1 + ' ' + y1 + ' C ' + mid + ' ' + y1 + ', ' + mid + ' ' + y2 + ', ' + x2 + ' ' + y2, 'marker-end': 'url(#arrow)' }));
      g.appendChild(svg('text', { class: 'edge-label', x: mid, y: (y1 + y2) / 2 - 4, 'text-anchor': 'middle' }, e.type + ' ' + e.quantity));
      g.appendChild(svg('title', {}, e.type + ' of ' + e.quantity + ' at ' + e.eventTime));
      root.appendChild(g);
    });
    nodes.forEach(function (n) {
      var p = pos[n.id];
      var classes = 'node ' + n.visibility + (graph.root.nodes.indexOf(n.id) >= 0 ? ' root' : '');
      var g = svg('g', { class: classes, 'data-node-id': n.id, transform: 'translate(' + p.x + ',' + p.y + ')', tabindex: '0' });
      g.appendChild(svg('rect', { width: W, height: H }));
      g.appendChild(svg('text', { x: 8, y: 16 }, n.product.name + ' · ' + n.lotSerial));
      g.appendChild(svg('text', { class: 'small', x: 8, y: 31 }, n.location.name));
      var amount = n.quantityOnHand !== null ? 'on hand ' + n.quantityOnHand + ' ' + n.product.unit : n.quantityIn !== null ? 'in ' + n.quantityIn + ' ' + n.product.unit : 'shipment only';
      g.appendChild(svg('text', { class: 'small', x: 8, y: 45 }, amount));
      g.addEventListener('click', function () { select(n.id); });
      g.addEventListener('keydown', function (event) { if (event.key === 'Enter') select(n.id); });
      root.appendChild(g);
    });
    target.appendChild(root);
  }

  function select(id) {
    var node = graph.nodes.filter(function (n) { return n.id === id; })[0];
    document.querySelectorAll('g.node.selected').forEach(function (g) { g.classList.remove('selected'); });
    document.querySelectorAll('g.node').forEach(function (g) { if (g.getAttribute('data-node-id') === id) g.classList.add('selected'); });
    var names = {};
    graph.nodes.forEach(function (n) { names[n.id] = n.product.name + ' ' + n.lotSerial + ' @ ' + n.location.name; });
    var facts = [
      ['Product', node.product.name + ' (' + node.product.id + ')'], ['Lot / serial', node.lotSerial], ['Account', node.account],
      ['Location', node.location.name + (node.location.gln ? ' (GLN ' + node.location.gln + ')' : '') + (node.location.external ? ', ' + node.location.tradePartner : '')],
      ['Visibility', node.visibility], ['In', node.quantityIn === null ? '-' : node.quantityIn + ' ' + node.product.unit],
      ['Out', node.quantityOut === null ? '-' : node.quantityOut + ' ' + node.product.unit],
      ['On hand', node.quantityOnHand === null ? '-' : node.quantityOnHand + ' ' + node.product.unit],
      ['Events', String(node.eventCount)], ['First event', node.firstEvent || '-'], ['Last event', node.lastEvent || '-'],
    ];
    var dl = el('dl');
    facts.forEach(function (f) { dl.appendChild(el('dt', { text: f[0] })); dl.appendChild(el('dd', { text: f[1] })); });
    var rows = graph.edges.filter(function (e) { return e.from === id || e.to === id; }).map(function (e) {
      var incoming = e.to === id;
      return el('tr', { 'data-event-id': e.eventId }, [
        el('td', { text: e.eventTime.replace('T', ' ').replace('.000Z', 'Z') }), el('td', { text: e.type }), el('td', { text: String(e.quantity) }),
        el('td', { text: (incoming ? 'from ' : 'to ') + names[incoming ? e.from : e.to] }),
      ]);
    });
    var table = rows.length
      ? el('table', {}, [el('thead', {}, [el('tr', {}, ['Time', 'Event', 'Quantity', 'Lot'].map(function (h) { return el('th', { text: h }); }))]), el('tbody', {}, rows)])
      : el('p', { class: 'empty', text: 'No event moved this lot to or from another node.' });
    var events = el('div', { id: 'node-events' }, [el('p', { class: 'empty', text: 'Loading its events...' })]);
    $('detail').replaceChildren(el('h2', { text: 'Node' }), dl, el('h2', { text: 'Its events' }), events, el('h2', { text: 'Moved to or from' }), table);
    loadEvents(id, events);
  }

  async function loadEvents(id, target) {
    var params = new URLSearchParams(traced);
    params.set('NodeId', id);
    var response = await call('GET', '/Integration/Trace/events?' + params.toString());
    if (response.status !== 200) return show(target, 'error', reason(response));
    if (!response.body.events.length) return target.replaceChildren(el('p', { class: 'empty', text: 'No event of this lot here that you may see.' }));
    var rows = response.body.events.map(function (e) {
      var where = e.to ? 'to ' + e.to : e.from ? 'from ' + e.from : '';
      var documents = e.documents.map(function (d) { return d.type + ' ' + d.number; }).join('; ');
      return el('tr', { 'data-event-id': e.eventId }, [
        el('td', { text: e.eventTime.replace('T', ' ').replace('.000Z', 'Z') }), el('td', { text: e.type + (e.role === 'instance' ? '' : ' (' + e.role + ')') }),
        el('td', { text: e.quantity + ' ' + e.unit }), el('td', { text: [where, documents].filter(Boolean).join(' · ') }),
      ]);
    });
    target.replaceChildren(el('table', {}, [
      el('thead', {}, [el('tr', {}, ['Time', 'Event', 'Quantity', 'Where, documents'].map(function (h) { return el('th', { text: h }); }))]),
      el('tbody', {}, rows),
    ]));
  }

  async function trace(event) {
    event.preventDefault();
    show($('trace-message'), 'info', 'Tracing...');
    traced = query().toString();
    var response = await call('GET', '/Integration/Trace?' + traced);
    if (response.status !== 200) { graph = null; $('graph').replaceChildren(); $('download').disabled = true; return show($('trace-message'), 'error', reason(response)); }
    graph = response.body;
    var accounts = {};
    graph.nodes.forEach(function (n) { accounts[n.account] = true; });
    show($('trace-message'), 'info', graph.nodes.length + ' nodes, ' + graph.edges.length + ' events, ' + Object.keys(accounts).length + ' accounts. Click a node for its events.');
    $('download').disabled = false;
    $('detail').replaceChildren(el('p', { class: 'empty', text: 'Click a node to see its events.' }));
    draw();
  }

  async function download() {
    var params = query();
    params.set('format', $('format').value);
    var response = await fetch('/Integration/Trace/fsma204?' + params.toString(), { headers: { 'X-API-KEY': key } });
    if (response.status !== 200) return show($('trace-message'), 'error', 'The spreadsheet could not be made: HTTP ' + response.status);
    var url = URL.createObjectURL(await response.blob());
    var link = el('a', { href: url, download: 'fsma204-' + $('lot').value.trim().replace(/[^A-Za-z0-9._-]+/g, '_') + '.' + $('format').value });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  async function signIn(event) {
    event.preventDefault();
    var presented = $('key').value.trim();
    if (!presented) return show($('sign-in-message'), 'error', 'Type an API key.');
    key = presented;
    var me = await call('GET', '/Integration/Account');
    if (me.status !== 200) { key = null; return show($('sign-in-message'), 'error', reason(me)); }
    $('key').value = '';
    show($('sign-in-message'), 'info', '');
    $('who').textContent = 'Signed in: ' + me.body.name;
    $('signed-out').hidden = true;
    $('signed-in').hidden = false;
  }

  function signOut() {
    key = null;
    graph = null;
    ['graph', 'detail', 'trace-message'].forEach(function (id) { $(id).replaceChildren(); });
    $('who').textContent = '';
    $('signed-in').hidden = true;
    $('signed-out').hidden = false;
  }

  $('sign-in').addEventListener('submit', signIn);
  $('trace').addEventListener('submit', trace);
  $('download').addEventListener('click', download);
  $('sign-out').addEventListener('click', signOut);
})();
`;

export const TRACE_PAGE: InlinePage = {
  title: 'Trace a lot',
  style: STYLE,
  script: SCRIPT,
  body: `<header>
  <h1>Trace a lot</h1>
  <span id="who"></span>
</header>
<main>
<div id="signed-out">
  <section>
    <h2>Sign in</h2>
    <p>With an API key: the graph shows your records and what other accounts shared with you by shipping toward you. The key stays in this page until you sign out or reload.</p>
    <form id="sign-in" autocomplete="off">
      <label for="key">API key</label>
      <input id="key" type="password" name="key" spellcheck="false">
      <button class="action" type="submit">Sign in</button>
    </form>
    <div id="sign-in-message"></div>
  </section>
</div>
<div id="signed-in" hidden>
  <section>
    <form id="trace" autocomplete="off">
      <label for="product">Product</label> <input id="product" name="product" required placeholder="your product id">
      <label for="lot">Lot / serial</label> <input id="lot" name="lot" required>
      <label for="direction">Direction</label>
      <select id="direction"><option value="both">both</option><option value="backward">backward</option><option value="forward">forward</option></select>
      <label for="as-of">As of</label> <input id="as-of" type="datetime-local">
      <button class="action" type="submit">Trace</button>
      <select id="format" aria-label="Spreadsheet format"><option value="csv">csv</option><option value="xlsx">xlsx</option></select>
      <button class="action" id="download" type="button" disabled>Download FSMA 204 spreadsheet</button>
      <button class="action" id="sign-out" type="button">Sign out</button>
    </form>
    <div id="trace-message"></div>
  </section>
  <div class="layout">
    <section id="graph"></section>
    <section id="detail"></section>
  </div>
</div>
</main>`,
};
