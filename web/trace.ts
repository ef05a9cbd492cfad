/*! Bundled with elkjs (the Eclipse Layout Kernel), EPL-2.0: https://github.com/kieler/elkjs */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { localParts, localTime, plural, quantity } from './format';
import type { nodeEventsResponse, traceResponse } from '../contract/trace/schema';
import type { AnswerOf } from '../contract/openapi/schema';
import { $, call, el, reason, show, svgEl, table, type Page } from './page-kit';
import { levelText, outOfShipped, type Effectiveness, type Strategy } from './recall-figures';
import { download, signInForm } from './session';

/**
 * The trace page's script (GET /trace): draws what GET /Integration/Trace answers as a layered graph
 * laid out by ELK: lots as nodes sized to their measured text, events as edges whose labels ELK places
 * clear of everything else, one box per account. The key typed in lives in web/session.ts's session
 * only. Everything the API answers goes into the page as text (textContent), never as markup.
 */

type Trace = AnswerOf<typeof traceResponse>;
type TraceNode = Trace['nodes'][number];
type TraceEdge = Trace['edges'][number];
type NodeEvent = AnswerOf<typeof nodeEventsResponse>['events'][number];

interface Lot {
  product: { id: string; name: string };
  lotSerial: string;
}

/** A recall as GET /Integration/Recalls/issued (role issuer) or GET /Integration/Recalls (role holder) answers it. */
interface Recall {
  id: string;
  issuer: string;
  reason: string;
  createdTime: string;
  role: 'issuer' | 'holder';
  state: 'open' | 'notified' | 'acknowledged' | 'closed';
  strategy: Strategy;
  /** The issuer's: the recalled lot, by its own product id, and the recall's effectiveness. */
  productId?: string;
  lotSerial?: string;
  effectiveness?: Effectiveness;
  /** A holder's: the recalled lot as its backward trace shows it, and its own lots made from it. */
  recalled?: Lot[];
  lots?: Lot[];
}

/** Node text: padding inside the box, line height, and the widest a box may grow before its text is cut (with the full text as its tooltip). */
const PAD_X = 10;
const PAD_Y = 8;
const LINE = 17;
const MAX_TEXT = 250;
const MIN_NODE = 150;
/** Below this scale the text is too small to read: the first view zooms to the traced lot instead of fitting everything. */
const READABLE = 0.75;
const ZOOM_STEP = 1.25;
/** Space around the nodes inside an account's band. */
const BAND_PAD = 16;

const elk = new ELK();

let graph: Trace | null = null;
let traced: string | null = null;
/** The recalls that reach each node of the graph drawn: from a recalled lot, down every edge out of it. */
let recalledNodes = new Map<string, Recall[]>();

/** What the graph shows: the layout's size and the current pan and zoom of it. */
const view = { width: 0, height: 0, x: 0, y: 0, scale: 1 };

/** Text widths as the page's own CSS draws them, measured in a hidden SVG. */
function measurer(host: HTMLElement): (text: string, cls: string) => number {
  const probe = svgEl('svg', { class: 'measure', 'aria-hidden': 'true' });
  const text = svgEl('text');
  probe.append(text);
  host.append(probe);
  return (value, cls) => {
    text.setAttribute('class', cls);
    text.textContent = value;
    return Math.ceil(text.getComputedTextLength());
  };
}

/** The text cut with an ellipsis to fit `max` pixels. */
function fitted(value: string, cls: string, max: number, measure: (text: string, cls: string) => number): string {
  if (measure(value, cls) <= max) return value;
  let low = 0;
  let high = value.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (measure(value.slice(0, mid) + '…', cls) <= max) low = mid;
    else high = mid - 1;
  }
  return value.slice(0, low) + '…';
}

const amountOf = (n: TraceNode): string =>
  n.quantityOnHand !== null
    ? `on hand ${quantity(n.quantityOnHand, n.product.unit)}`
    : n.quantityIn !== null
      ? `in ${quantity(n.quantityIn, n.product.unit)}`
      : 'shipment only';

interface NodeText {
  lines: { text: string; cls: string; full: string }[];
  width: number;
  height: number;
}

function nodeText(n: TraceNode, measure: (text: string, cls: string) => number): NodeText {
  const raw = [
    { full: n.product.name, cls: 'title' },
    { full: `Lot ${n.lotSerial}`, cls: 'lot' },
    { full: n.location.name, cls: 'sub' },
    { full: amountOf(n), cls: 'sub' },
    ...(recalledNodes.has(n.id) ? [{ full: 'Under recall', cls: 'recall-mark' }] : []),
  ];
  const lines = raw.map((l) => ({ ...l, text: fitted(l.full, l.cls, MAX_TEXT, measure) }));
  const width = Math.max(MIN_NODE, ...lines.map((l) => measure(l.text, l.cls) + 2 * PAD_X));
  return { lines, width, height: 2 * PAD_Y + lines.length * LINE };
}

const edgeLabel = (e: TraceEdge): string => `${e.type} ${e.quantity}`;

async function layout(
  trace: Trace,
  texts: Map<string, NodeText>,
  measure: (text: string, cls: string) => number,
): Promise<ElkNode> {
  const accounts = [...new Set(trace.nodes.map((n) => n.account))];
  const known = new Set(trace.nodes.map((n) => n.id));
  const root: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.shapeCoords': 'ROOT',
      'elk.json.edgeCoords': 'ROOT',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.layered.crossingMinimization.strategy': 'LAYER_SWEEP',
      'elk.spacing.nodeNode': '18',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.edgeLabel': '4',
      'elk.spacing.edgeNode': '14',
      'elk.layered.spacing.edgeNodeBetweenLayers': '14',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.padding': '[top=8,left=8,bottom=8,right=8]',
    },
    children: accounts.map((account, i) => {
      return {
        id: `account-${i}`,
        layoutOptions: {
          'elk.padding': `[top=40,left=${BAND_PAD},bottom=${BAND_PAD},right=${BAND_PAD}]`,
          'elk.nodeSize.constraints': 'MINIMUM_SIZE',
          'elk.nodeSize.minimum': `(${measure(account, 'band-label') + 2 * BAND_PAD}, 80)`,
        },
        children: trace.nodes
          .filter((n) => n.account === account)
          .map((n) => ({ id: n.id, width: texts.get(n.id)!.width, height: texts.get(n.id)!.height })),
      };
    }),
    edges: trace.edges
      .filter((e) => known.has(e.from) && known.has(e.to))
      .map((e, i): ElkExtendedEdge => ({
        id: `edge-${i}`,
        sources: [e.from],
        targets: [e.to],
        labels: [
          { id: `edge-label-${i}`, text: edgeLabel(e), width: measure(edgeLabel(e), 'edge-label') + 8, height: 16 },
        ],
      })),
  };
  return elk.layout(root);
}

function applyView(): void {
  const layer = document.querySelector<SVGGElement>('#graph-view g.viewport');
  if (layer) layer.setAttribute('transform', `translate(${view.x} ${view.y}) scale(${view.scale})`);
  const zoom = document.getElementById('zoom-level');
  if (zoom) zoom.textContent = `${Math.round(view.scale * 100)}%`;
}

function viewportSize(): { w: number; h: number } {
  const box = $('graph-view').getBoundingClientRect();
  return { w: box.width, h: box.height };
}

function fit(): void {
  const { w, h } = viewportSize();
  view.scale = Math.min(1, (w - 16) / view.width, (h - 16) / view.height);
  view.x = (w - view.width * view.scale) / 2;
  view.y = (h - view.height * view.scale) / 2;
  applyView();
}

type Box = { x: number; y: number; width: number; height: number };

/** A shape as ELK laid it out, what it left unset 0. */
const boxOf = (shape: Partial<Box>): Box => ({
  x: shape.x ?? 0,
  y: shape.y ?? 0,
  width: shape.width ?? 0,
  height: shape.height ?? 0,
});

/**
 * Show the traced lot's nodes at a readable scale (the whole graph when it fits at that scale): of the
 * placements that keep them in view (in the middle, or near an edge of the view), the one that shows
 * whole the most of their neighbours, then of the accounts' names and other nodes, with no empty space
 * beyond the graph's edges where the graph could fill it.
 */
function showTraced(boxes: Map<string, Box>, headers: Box[]): void {
  const { w, h } = viewportSize();
  const whole = Math.min(1, (w - 16) / view.width, (h - 16) / view.height);
  if (whole >= READABLE) return fit();
  const roots = (graph?.root.nodes ?? []).map((id) => boxes.get(id)).filter((b) => b !== undefined);
  if (!roots.length) return fit();
  const left = Math.min(...roots.map((b) => b.x));
  const top = Math.min(...roots.map((b) => b.y));
  const right = Math.max(...roots.map((b) => b.x + b.width));
  const bottom = Math.max(...roots.map((b) => b.y + b.height));
  const scale = Math.max(whole, Math.min(READABLE, (w - 32) / (right - left), (h - 32) / (bottom - top)));
  const clamp = (at: number, size: number, room: number) =>
    size * scale <= room ? (room - size * scale) / 2 : Math.min(8, Math.max(room - size * scale - 8, at));
  // Where the traced nodes' box may start on screen: centred first, then near either edge.
  const along = (from: number, to: number, room: number) =>
    [(room - (to - from) * scale) / 2, 24, room - 24 - (to - from) * scale].map((at) => at - from * scale);
  // The lot's direct neighbours (where it came from, where it went) first, then the rest.
  const rootIds = new Set(graph?.root.nodes ?? []);
  const neighbours = new Set(
    (graph?.edges ?? []).flatMap((e) => (rootIds.has(e.from) ? [e.to] : rootIds.has(e.to) ? [e.from] : [])),
  );
  const visible = (b: Box, x: number, y: number) =>
    b.x * scale + x >= 0 &&
    (b.x + b.width) * scale + x <= w &&
    b.y * scale + y >= 0 &&
    (b.y + b.height) * scale + y <= h;
  const shown = (x: number, y: number) =>
    [...boxes.entries()].reduce((sum, [id, b]) => sum + (visible(b, x, y) ? (neighbours.has(id) ? 1000 : 1) : 0), 0) +
    headers.reduce((sum, b) => sum + (visible(b, x, y) ? 5 : 0), 0);
  let best = { x: 0, y: 0, count: -1 };
  for (const ax of along(left, right, w)) {
    for (const ay of along(top, bottom, h)) {
      const x = clamp(ax, view.width, w);
      const y = clamp(ay, view.height, h);
      const count = shown(x, y);
      if (count > best.count) best = { x, y, count };
    }
  }
  Object.assign(view, { scale, x: best.x, y: best.y });
  applyView();
}

function zoomAt(factor: number, cx: number, cy: number): void {
  const scale = Math.min(3, Math.max(0.05, view.scale * factor));
  view.x = cx - ((cx - view.x) * scale) / view.scale;
  view.y = cy - ((cy - view.y) * scale) / view.scale;
  view.scale = scale;
  applyView();
}

/** Wheel zooms at the pointer, dragging the background pans. */
function panAndZoom(surface: SVGSVGElement): void {
  surface.addEventListener(
    'wheel',
    (event) => {
      event.preventDefault();
      const box = surface.getBoundingClientRect();
      zoomAt(event.deltaY < 0 ? 1.1 : 1 / 1.1, event.clientX - box.left, event.clientY - box.top);
    },
    { passive: false },
  );
  let drag: { x: number; y: number; vx: number; vy: number } | null = null;
  surface.addEventListener('pointerdown', (event) => {
    if ((event.target as Element).closest('g.node')) return;
    drag = { x: event.clientX, y: event.clientY, vx: view.x, vy: view.y };
    surface.setPointerCapture(event.pointerId);
    surface.classList.add('panning');
  });
  surface.addEventListener('pointermove', (event) => {
    if (!drag) return;
    view.x = drag.vx + event.clientX - drag.x;
    view.y = drag.vy + event.clientY - drag.y;
    applyView();
  });
  const stop = () => {
    drag = null;
    surface.classList.remove('panning');
  };
  surface.addEventListener('pointerup', stop);
  surface.addEventListener('pointercancel', stop);
}

async function draw(trace: Trace): Promise<void> {
  const target = $('graph-view');
  target.replaceChildren();
  $('graph-tools').hidden = !trace.nodes.length;
  if (!trace.nodes.length) {
    target.append(el('p', { class: 'empty', text: 'No events of this lot that you may see.' }));
    return;
  }
  const measure = measurer(target);
  const texts = new Map(trace.nodes.map((n) => [n.id, nodeText(n, measure)]));
  const laid = await layout(trace, texts, measure);
  if (graph !== trace) return; // another trace was asked for meanwhile
  target.replaceChildren();
  view.width = laid.width ?? 0;
  view.height = laid.height ?? 0;

  const surface = svgEl('svg', { role: 'img', 'aria-label': 'Trace graph', width: '100%', height: '100%' });
  const defs = svgEl('defs');
  const marker = svgEl('marker', {
    id: 'arrow',
    viewBox: '0 0 10 10',
    refX: 9,
    refY: 5,
    markerWidth: 7,
    markerHeight: 7,
    orient: 'auto-start-reverse',
  });
  marker.append(svgEl('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow' }));
  defs.append(marker);
  const layer = svgEl('g', { class: 'viewport' });
  surface.append(defs, layer);

  const byId = new Map(trace.nodes.map((n) => [n.id, n]));
  const boxes = new Map<string, Box>();
  const headers: Box[] = [];
  const accounts = [...new Set(trace.nodes.map((n) => n.account))];
  for (const band of laid.children ?? []) {
    const account = accounts[Number(band.id.slice('account-'.length))];
    const g = svgEl('g', { class: 'band', 'data-account': account });
    const b = boxOf(band);
    g.append(svgEl('rect', { ...b, rx: 8 }));
    // In the band's top padding, which ELK keeps free of nodes and edges.
    g.append(svgEl('text', { class: 'band-label label', x: b.x + BAND_PAD, y: b.y + 26 }, account));
    headers.push({ ...b, width: Math.min(b.width, 240), height: 34 });
    layer.append(g);
    for (const child of band.children ?? []) boxes.set(child.id, boxOf(child));
  }

  const edges = trace.edges.filter((e) => byId.has(e.from) && byId.has(e.to));
  (laid.edges ?? []).forEach((laidEdge, i) => {
    const e = edges[i];
    const g = svgEl('g', { class: 'edge', 'data-event-id': e.eventId });
    for (const section of laidEdge.sections ?? []) {
      const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
      g.append(
        svgEl('path', {
          class: 'edge',
          d: points.map((p, j) => `${j ? 'L' : 'M'} ${p.x} ${p.y}`).join(' '),
          'marker-end': 'url(#arrow)',
        }),
      );
    }
    if (laidEdge.labels?.[0]) {
      const label = boxOf(laidEdge.labels[0]);
      g.append(svgEl('rect', { class: 'edge-label-box', ...label, rx: 3 }));
      g.append(
        svgEl(
          'text',
          { class: 'edge-label label', x: label.x + label.width / 2, y: label.y + 12, 'text-anchor': 'middle' },
          edgeLabel(e),
        ),
      );
    }
    g.append(svgEl('title', {}, `${e.type} of ${e.quantity} at ${localTime(e.eventTime)}`));
    layer.append(g);
  });

  for (const n of trace.nodes) {
    const box = boxes.get(n.id)!;
    const text = texts.get(n.id)!;
    const isRoot = trace.root.nodes.includes(n.id);
    const g = svgEl('g', {
      class: `node ${n.visibility}${isRoot ? ' root' : ''}${recalledNodes.has(n.id) ? ' recalled' : ''}`,
      'data-node-id': n.id,
      transform: `translate(${box.x} ${box.y})`,
      tabindex: 0,
      role: 'button',
    });
    g.append(svgEl('rect', { width: box.width, height: box.height, rx: 6 }));
    text.lines.forEach((line, i) =>
      g.append(svgEl('text', { class: `${line.cls} label`, x: PAD_X, y: PAD_Y + i * LINE + 13 }, line.text)),
    );
    g.append(svgEl('title', {}, `${text.lines.map((l) => l.full).join('\n')}${isRoot ? '\nThe traced lot' : ''}`));
    g.addEventListener('click', () => void select(n.id));
    g.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') void select(n.id);
    });
    layer.append(g);
  }

  target.append(surface);
  panAndZoom(surface);
  const centre = () => showTraced(boxes, headers);
  $('fit').onclick = fit;
  $('to-traced').onclick = centre;
  $('zoom-in').onclick = () => zoomAt(ZOOM_STEP, viewportSize().w / 2, viewportSize().h / 2);
  $('zoom-out').onclick = () => zoomAt(1 / ZOOM_STEP, viewportSize().w / 2, viewportSize().h / 2);
  centre();
}

/** A time cell: the date over the time and its zone, so the column stays narrow. */
function timeCell(iso: string): HTMLTableCellElement {
  const { date, time } = localParts(iso);
  return el('td', { class: 'time', title: iso }, [el('span', { text: date }), el('span', { text: time })]);
}

/** An event cell: what happened over where it went and its documents, so the panel needs two columns only. */
const what = (event: string, details: string): HTMLTableCellElement =>
  el('td', {}, [
    el('span', { class: 'event', text: event }),
    details ? el('span', { class: 'details', text: details }) : null,
  ]);

async function select(id: string): Promise<void> {
  if (!graph) return;
  const node = graph.nodes.find((n) => n.id === id);
  if (!node) return;
  document
    .querySelectorAll('#graph-view g.node')
    .forEach((g) => g.classList.toggle('selected', g.getAttribute('data-node-id') === id));
  const names = new Map(graph.nodes.map((n) => [n.id, `${n.product.name} ${n.lotSerial} @ ${n.location.name}`]));
  const unit = node.product.unit;
  const facts: [string, string][] = [
    ['Product', `${node.product.name} (${node.product.id})`],
    ['Lot / serial', node.lotSerial],
    ['Account', node.account],
    [
      'Location',
      node.location.name +
        (node.location.gln ? ` (GLN ${node.location.gln})` : '') +
        (node.location.external ? `, ${node.location.tradePartner}` : ''),
    ],
    ['Visibility', node.visibility],
    ['In', quantity(node.quantityIn, unit)],
    ['Out', quantity(node.quantityOut, unit)],
    ['On hand', quantity(node.quantityOnHand, unit)],
    ['Events', plural(node.eventCount, 'event')],
    ['First event', localTime(node.firstEvent)],
    ['Last event', localTime(node.lastEvent)],
  ];
  const dl = el(
    'dl',
    {},
    facts.flatMap(([term, value]) => [el('dt', { text: term }), el('dd', { text: value })]),
  );
  const moves = graph.edges
    .filter((e) => e.from === id || e.to === id)
    .map((e) => {
      const incoming = e.to === id;
      return el('tr', { 'data-event-id': e.eventId }, [
        timeCell(e.eventTime),
        what(
          `${e.type} ${quantity(e.quantity, unit)}`,
          `${incoming ? 'from' : 'to'} ${names.get(incoming ? e.from : e.to)}`,
        ),
      ]);
    });
  const moved = moves.length
    ? table({}, [['Time', 'w-time'], 'Event, lot'], moves)
    : el('p', { class: 'empty', text: 'No event moved this lot to or from another node.' });
  const events = el('div', { id: 'node-events' }, [el('p', { class: 'empty', text: 'Loading its events...' })]);
  $('detail').replaceChildren(
    el('h2', { text: `${node.product.name} · ${node.lotSerial}` }),
    ...recallNotes(recalledNodes.get(id) ?? []),
    dl,
    el('h3', { text: 'Its events' }),
    events,
    el('h3', { text: 'Moved to or from' }),
    moved,
  );
  await loadEvents(id, events);
}

async function loadEvents(id: string, target: HTMLElement): Promise<void> {
  const params = new URLSearchParams(traced ?? '');
  params.set('NodeId', id);
  const answer = await call<{ events: NodeEvent[] }>(session.key ?? '', 'GET', `/Integration/Trace/events?${params}`);
  if (answer.status !== 200 || !answer.body) return show(target, 'error', reason(answer));
  if (!answer.body.events.length)
    return target.replaceChildren(el('p', { class: 'empty', text: 'No event of this lot here that you may see.' }));
  const rows = answer.body.events.map((e) => {
    const where = e.to ? `to ${e.to}` : e.from ? `from ${e.from}` : '';
    const documents = e.documents.map((d) => `${d.type} ${d.number}`).join('; ');
    return el('tr', { 'data-event-id': e.eventId }, [
      timeCell(e.eventTime),
      what(
        `${e.type}${e.role === 'instance' ? '' : ` (${e.role})`} ${quantity(e.quantity, e.unit)}`,
        [where, documents].filter(Boolean).join(' · '),
      ),
    ]);
  });
  target.replaceChildren(table({}, [['Time', 'w-time'], 'Event, where, documents'], rows));
}

function query(): URLSearchParams {
  const params = new URLSearchParams({
    ProductId: $<HTMLInputElement>('product').value.trim(),
    LotSerial: $<HTMLInputElement>('lot').value.trim(),
    Direction: $<HTMLSelectElement>('direction').value,
  });
  const asOf = $<HTMLInputElement>('as-of').value;
  if (asOf) params.set('AsOf', new Date(asOf).toISOString());
  return params;
}

async function trace(event: Event): Promise<void> {
  event.preventDefault();
  show($('trace-message'), 'info', 'Tracing...');
  traced = query().toString();
  const answer = await call<Trace>(session.key ?? '', 'GET', `/Integration/Trace?${traced}`);
  if (answer.status !== 200 || !answer.body) {
    graph = null;
    $('graph-view').replaceChildren();
    $('graph-tools').hidden = true;
    $<HTMLButtonElement>('download').disabled = true;
    return show($('trace-message'), 'error', reason(answer));
  }
  graph = answer.body;
  const recalls = await recallsOf(graph);
  if (graph !== answer.body) return; // another trace was asked for meanwhile
  recalledNodes = recalls;
  const accounts = new Set(graph.nodes.map((n) => n.account));
  show(
    $('trace-message'),
    'info',
    `${plural(graph.nodes.length, 'node')}, ${plural(graph.edges.length, 'event')}, ${plural(accounts.size, 'account')}. Click a node for its events; drag to pan, scroll to zoom.`,
  );
  const onTraced = [...new Set(graph.root.nodes.flatMap((id) => recalls.get(id) ?? []))];
  if (onTraced.length)
    $('trace-message').prepend(
      el('div', { class: 'message recall', role: 'alert', id: 'recall-warning' }, [
        el('strong', {
          text: onTraced.every((r) => r.state === 'closed')
            ? 'This lot was recalled; the recall is closed. '
            : 'This lot is under recall. ',
        }),
        onTraced.map(recallSentence).join(' '),
        ' ',
        el('a', { href: '/recalls', text: 'See recalls' }),
        ...effectivenessLines(onTraced),
      ]),
    );
  $<HTMLButtonElement>('download').disabled = false;
  $('detail').replaceChildren(el('p', { class: 'empty', text: 'Click a node to see its events.' }));
  const drawing = graph;
  await draw(drawing);
  $('graph').setAttribute('data-drawn', traced);
  // The panel opens on the traced lot, as the graph does.
  if (drawing.root.nodes.length) await select(drawing.root.nodes[0]);
}

const STATE_TEXT: Record<Recall['state'], string> = {
  open: 'open: it reached no other account',
  notified: 'holders notified, not all acknowledged',
  acknowledged: 'acknowledged',
  closed: 'closed',
};

const recallSentence = (r: Recall): string =>
  `${r.role === 'issuer' ? 'You' : r.issuer} recalled it on ${localTime(r.createdTime)}: “${r.reason}” (${
    r.role === 'issuer'
      ? STATE_TEXT[r.state]
      : r.state === 'closed'
        ? 'closed'
        : r.state === 'acknowledged'
          ? 'you acknowledged it'
          : 'you have not acknowledged it'
  }).`;

/** The issuer's own recalls that reached a consignee, each in a line: the check level, whether it is met, what is still out. */
function effectivenessLines(recalls: Recall[]): HTMLElement[] {
  const own = recalls.filter((r) => r.effectiveness && r.effectiveness.consignees > 0);
  return own.map((r) => {
    const e = r.effectiveness!;
    const out = e.quantities.length ? ` Still out: ${outOfShipped(e.quantities)} shipped.` : '';
    return el('div', { class: 'effectiveness', 'data-recall-id': r.id }, [
      el('strong', {
        text: own.length === 1 ? 'Your recall’s effectiveness: ' : `Your recall of ${localTime(r.createdTime)}: `,
      }),
      `${levelText(r.strategy, e)}.${out} `,
      el('a', { href: '/recalls', text: 'Figures per consignee' }),
    ]);
  });
}

/** The detail panel's word on a node under recall: each recall that reaches it, and where it stands. */
const recallNotes = (recalls: Recall[]): HTMLElement[] =>
  recalls.map((r) =>
    el('p', { class: 'message recall', 'data-recall-id': r.id }, [
      el('strong', { text: r.state === 'closed' ? 'Recall closed. ' : 'Under recall. ' }),
      recallSentence(r),
    ]),
  );

/** Every page of a recall list the key may read, up to a thousand recalls. */
async function allRecalls(path: string): Promise<Recall[]> {
  const found: Recall[] = [];
  for (let page = 1; page <= 10; page++) {
    const answer = await call<Page<Recall>>(session.key ?? '', 'GET', `${path}?PageSize=100&PageNumber=${page}`);
    if (answer.status !== 200 || !answer.body) break;
    found.push(...answer.body.results);
    if (page >= answer.body.totalPages) break;
  }
  return found;
}

/**
 * The nodes under recall: a recalled lot (the issuer's, by its product id in its account; a holder's
 * notice names it as the holder's trace shows it, and the holder's own lots made from it), and every
 * node the graph's edges lead to from one.
 */
async function recallsOf(trace: Trace): Promise<Map<string, Recall[]>> {
  const [issued, received] = await Promise.all([
    allRecalls('/Integration/Recalls/issued'),
    allRecalls('/Integration/Recalls'),
  ]);
  const reached = new Map<string, Recall[]>();
  const next = new Map<string, string[]>();
  for (const e of trace.edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const lotOf = (account: string, product: string, lotSerial: string) =>
    trace.nodes.filter((n) => n.account === account && n.product.id === product && n.lotSerial === lotSerial);
  for (const recall of [...issued, ...received]) {
    const roots =
      recall.role === 'issuer'
        ? lotOf(recall.issuer, recall.productId ?? '', recall.lotSerial ?? '')
        : [
            ...(recall.recalled ?? []).flatMap((l) => lotOf(recall.issuer, l.product.id, l.lotSerial)),
            ...(recall.lots ?? []).flatMap((l) => lotOf(session.account ?? '', l.product.id, l.lotSerial)),
          ];
    const queue = roots.map((n) => n.id);
    const seen = new Set<string>();
    while (queue.length) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      reached.set(id, [...(reached.get(id) ?? []), recall]);
      queue.push(...(next.get(id) ?? []));
    }
  }
  return reached;
}

async function downloadSpreadsheet(): Promise<void> {
  const params = query();
  const format = $<HTMLSelectElement>('format').value;
  params.set('format', format);
  const lot = $<HTMLInputElement>('lot')
    .value.trim()
    .replace(/[^A-Za-z0-9._-]+/g, '_');
  const refused = await download(session.key ?? '', `/Integration/Trace/fsma204?${params}`, `fsma204-${lot}.${format}`);
  if (refused) show($('trace-message'), 'error', `The spreadsheet could not be made: HTTP ${refused.status}`);
}

/** A link from another page (`/trace?product=…&lot=…`, as /recalls makes them) traces that lot once signed in. */
function traceLinked(): void {
  const linked = new URLSearchParams(location.search);
  const [product, lot] = [linked.get('product'), linked.get('lot')];
  if (!product || !lot) return;
  $<HTMLInputElement>('product').value = product;
  $<HTMLInputElement>('lot').value = lot;
  $<HTMLFormElement>('trace').requestSubmit();
}

const session = signInForm(() => {
  graph = null;
  recalledNodes = new Map();
  for (const id of ['graph-view', 'detail', 'trace-message']) $(id).replaceChildren();
  $('graph-tools').hidden = true;
}, traceLinked);

$('trace').addEventListener('submit', (event) => void trace(event));
$('download').addEventListener('click', () => void downloadSpreadsheet());
