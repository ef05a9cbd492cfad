import { signInPage } from '../../browser-page';

/**
 * The trace page: its markup and style here, its script in web/trace.ts (bundled with elkjs, which lays
 * the graph out). The key typed in lives in a variable of the script only.
 */

const STYLE = `
main { padding: 14px 20px; }
section { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 12px 14px; margin-bottom: 14px; min-width: 0; }
h2 { font-size: 15px; margin: 2px 0 10px; overflow-wrap: anywhere; } h3 { font-size: 13px; margin: 14px 0 6px; color: #22313f; text-transform: uppercase; letter-spacing: .03em; }
form { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
input, select { padding: 4px 6px; font: inherit; } input[type=password] { width: 24em; }
button { font: inherit; } button.action { padding: 5px 12px; cursor: pointer; }
.message { padding: 8px 10px; border-radius: 4px; margin: 8px 0 0; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 380px; gap: 14px; align-items: start; }
@media (max-width: 1600px) { .layout { grid-template-columns: minmax(0, 1fr) 340px; } }
#graph { padding: 0; overflow: hidden; }
#graph-tools { display: flex; gap: 6px; align-items: center; padding: 6px 10px; border-bottom: 1px solid #d8dde3; }
#graph-tools .legend { margin-left: auto; display: flex; gap: 12px; font-size: 12px; color: #4a525c; }
#graph-tools .legend span::before { content: ''; display: inline-block; width: 12px; height: 10px; margin-right: 4px; vertical-align: -1px; border: 1.5px solid #5b6b7b; border-radius: 2px; background: #fff; }
#graph-tools .legend .shared::before { background: #eef6e6; } #graph-tools .legend .shipment::before { background: #f4f4f4; border-style: dashed; }
#graph-tools .legend .root::before { background: #fff4cc; border: 2.5px solid #0b5cad; }
#graph-tools .legend .recalled::before { background: #fde4e1; border-color: #b3261e; }
.message.recall { background: #fde4e1; color: #7a1d16; border-left: 4px solid #b3261e; } .message.recall a { color: #7a1d16; }
.message.recall .effectiveness { margin-top: 4px; font-variant-numeric: tabular-nums; }
#zoom-level { min-width: 3.5em; text-align: right; font-size: 12px; color: #4a525c; }
#graph-view { height: calc(100vh - 236px); min-height: 420px; position: relative; }
#graph-view > p { padding: 12px 14px; margin: 0; }
#graph-view svg { display: block; cursor: grab; touch-action: none; user-select: none; } #graph-view svg.panning { cursor: grabbing; }
svg.measure { position: absolute; visibility: hidden; width: 0; height: 0; }
svg text { font-size: 12px; fill: #1b1f24; }
svg text.title { font-weight: 600; font-size: 12.5px; } svg text.lot { font-size: 12px; font-variant-numeric: tabular-nums; } svg text.sub { font-size: 12px; fill: #4a525c; }
svg g.band rect { fill: #f1f4f7; stroke: #c9d1da; } svg text.band-label { font-weight: 700; font-size: 14px; fill: #22313f; }
svg g.node { cursor: pointer; } svg g.node rect { fill: #fff; stroke: #5b6b7b; stroke-width: 1.2; }
svg g.node.shared rect { fill: #eef6e6; } svg g.node.shipment rect { fill: #f4f4f4; stroke-dasharray: 4 3; }
svg g.node.root rect { fill: #fff4cc; stroke: #0b5cad; stroke-width: 3; }
svg g.node.recalled rect { fill: #fde4e1; stroke: #b3261e; } svg g.node.root.recalled rect { fill: #fde4e1; stroke: #0b5cad; }
svg text.recall-mark { font-size: 12px; font-weight: 700; fill: #b3261e; }
svg g.node.selected rect { stroke: #b3261e; stroke-width: 3; } svg g.node.root.selected rect { stroke: #0b5cad; stroke-width: 4.5; } svg g.node:focus { outline: none; } svg g.node:focus-visible rect { stroke: #b3261e; }
svg path.edge { fill: none; stroke: #7d8995; stroke-width: 1.4; } svg path.arrow { fill: #7d8995; }
svg rect.edge-label-box { fill: #fff; stroke: #d8dde3; } svg text.edge-label { font-size: 11.5px; fill: #0b3d6b; }
#side .export { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding-bottom: 10px; margin-bottom: 10px; border-bottom: 1px solid #eceff2; }
#side .export strong { flex-basis: 100%; font-size: 13px; }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 0 0 6px; font-size: 13px; } dt { color: #68707a; } dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; } th, td { text-align: left; vertical-align: top; padding: 3px 5px; border-bottom: 1px solid #eceff2; font-size: 12.5px; overflow-wrap: anywhere; }
th { color: #68707a; font-weight: 600; } td.time span { display: block; white-space: nowrap; font-variant-numeric: tabular-nums; }
th.w-time { width: 7.6em; } td span.event { display: block; font-weight: 600; } td span.details { display: block; color: #4a525c; }
`;

export const TRACE_PAGE = signInPage('trace', {
  title: 'Trace a lot',
  intro:
    'With an API key: the graph shows your records and what other accounts shared with you by shipping toward you. The key stays in this page until you sign out or reload.',
  style: STYLE,
  signedIn: `  <section>
    <form id="trace" autocomplete="off">
      <label for="product">Product</label> <input id="product" name="product" required placeholder="your product id">
      <label for="lot">Lot / serial</label> <input id="lot" name="lot" required>
      <label for="direction">Direction</label>
      <select id="direction"><option value="both">both</option><option value="backward">backward</option><option value="forward">forward</option></select>
      <label for="as-of">As of</label> <input id="as-of" type="datetime-local">
      <button class="action" type="submit">Trace</button>
      <button class="action" id="sign-out" type="button">Sign out</button>
    </form>
    <div id="trace-message"></div>
  </section>
  <div class="layout">
    <section id="graph">
      <div id="graph-tools" hidden>
        <button type="button" id="fit" title="Show the whole graph">Fit</button>
        <button type="button" id="zoom-out" title="Zoom out" aria-label="Zoom out">−</button>
        <button type="button" id="zoom-in" title="Zoom in" aria-label="Zoom in">+</button>
        <button type="button" id="to-traced" title="Centre the traced lot">Traced lot</button>
        <span id="zoom-level"></span>
        <span class="legend"><span class="root">traced lot</span><span class="own">your records</span><span class="shared">shared with you</span><span class="shipment">shipment only</span><span class="recalled">under recall</span></span>
      </div>
      <div id="graph-view"></div>
    </section>
    <section id="side">
      <div class="export">
        <strong>FSMA 204 sortable spreadsheet of this trace</strong>
        <select id="format" aria-label="Spreadsheet format"><option value="csv">csv</option><option value="xlsx">xlsx</option></select>
        <button class="action" id="download" type="button" disabled>Download</button>
      </div>
      <div id="detail"><p class="empty">Trace a lot, then click a node to see its events. Times are in your time zone.</p></div>
    </section>
  </div>
`,
});
