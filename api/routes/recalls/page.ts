import { signInPage } from '../../browser-page';

/**
 * The recalls page (`/recalls`): the recalls the account issued, each with its effectiveness, its
 * consignees' progress and figures, its spreadsheets and its close, and the notices it received, each
 * answered from here per lot shipped to the account. Its script is web/recalls.ts; the key
 * lives in a variable of that script only.
 */
const STYLE = `
main { padding: 14px 20px; max-width: 1400px; }
section { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 12px 14px; margin-bottom: 14px; }
h2 { font-size: 15px; margin: 2px 0 10px; display: flex; gap: 10px; align-items: center; }
form { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
input { padding: 4px 6px; font: inherit; } input[type=password] { width: 24em; }
button { font: inherit; } button.action { padding: 5px 12px; cursor: pointer; }
.message { padding: 8px 10px; border-radius: 4px; margin: 8px 0 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #eceff2; vertical-align: top; }
th { color: #68707a; font-weight: 600; font-size: 13px; }
td.time { white-space: nowrap; font-variant-numeric: tabular-nums; }
.state { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.state.open { background: #eef1f4; color: #3b4652; } .state.notified { background: #fff1d6; color: #7a4b00; } .state.acknowledged { background: #e3f3e6; color: #1e6b30; } .state.closed { background: #e6e6e6; color: #333; }
.state.acted { background: #c9ebd1; color: #0f4f20; } .state.overdue { background: #fde4e1; color: #7a1d16; }
tbody.recall > tr:first-child > td { border-bottom: none; } tbody.recall + tbody.recall > tr:first-child > td { border-top: 2px solid #d8dde3; }
tr.detail > td { padding: 0 8px 14px; border-bottom: none; }
td.effectiveness div + div { margin-top: 2px; }
.level .verdict { font-weight: 600; white-space: nowrap; } .verdict.met { color: #1e6b30; } .verdict.unmet { color: #b3261e; }
.counts, .still-out { font-variant-numeric: tabular-nums; }
table.consignees { font-size: 13px; background: #fafbfc; border: 1px solid #eceff2; }
table.consignees th, table.consignees td { padding: 4px 8px; } table.consignees th { vertical-align: bottom; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; } td.num { white-space: nowrap; }
td.lot, .when { white-space: nowrap; } td.lot { font-variant-numeric: tabular-nums; }
td.num.out { color: #b3261e; font-weight: 600; } td.num.none { color: #68707a; }
tr.total td { font-weight: 600; border-top: 2px solid #d8dde3; border-bottom: none; }
td .answer { color: #3b4652; margin-top: 2px; }
dl.follow-up { display: grid; grid-template-columns: minmax(5.5em, max-content) max-content; gap: 0 8px; margin: 2px 0 0; color: #68707a; } dl.follow-up dt { white-space: nowrap; } dl.follow-up dd { margin: 0; }
dl.follow-up .overdue-since { color: #b3261e; }
.recall-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 8px; }
.recall-actions .form-message { flex-basis: 100%; }
form.close { margin-left: auto; } form.close input.close-reason { width: 26em; }
ul.plain { list-style: none; margin: 0; padding: 0; } ul.plain li + li { margin-top: 4px; }
.muted { color: #68707a; }
form.acknowledge input.quantity { width: 7em; } form.acknowledge input.action-text { flex: 1; min-width: 14em; }
tbody.notice > tr:first-child > td { border-bottom: none; } tbody.notice + tbody.notice > tr:first-child > td { border-top: 2px solid #d8dde3; }
.lot-answers { display: flex; gap: 8px; align-items: baseline; margin-bottom: 8px; } .lot-answers > span { color: #68707a; } .lot-answers .out { color: #b3261e; font-weight: 600; } .lot-answers .none { color: #68707a; }
table.answer-lots { font-size: 13px; background: #fafbfc; border: 1px solid #eceff2; flex-basis: 100%; }
table.answer-lots th, table.answer-lots td { padding: 4px 8px; } table.answer-lots td { vertical-align: middle; }
table.answer-lots td.figure { white-space: nowrap; } table.answer-lots input[type=number] { width: 6.5em; }
table.answer-lots .unit { margin-left: 4px; color: #68707a; } table.answer-lots select { font: inherit; padding: 3px 4px; max-width: 24em; }
td.num.over { color: #b3261e; font-weight: 600; }
form.acknowledge [aria-invalid=true] { outline: 2px solid #b3261e; outline-offset: 1px; }
form.acknowledge .form-message { flex-basis: 100%; } .form-message .message { white-space: pre-line; }
a { color: #0b5cad; }
`;

export const RECALLS_PAGE = signInPage('recalls', {
  title: 'Recalls',
  intro:
    'With an API key: the recalls your account issued and the notices it received, with where each stands. The key stays in this page until you sign out or reload.',
  style: STYLE,
  signedIn: `  <section>
    <h2>Recalls you issued <button class="action" id="refresh" type="button">Refresh</button> <button class="action" id="sign-out" type="button">Sign out</button></h2>
    <p class="muted">Open: it reached no other account (only your own stock). Notified: some holder has not acknowledged yet. Acknowledged: every holder has. Closed: you closed it, and every holder was told. Each consignee is notified, then acknowledged once it answers, and acted once its answer accounts for all that was shipped to it. Issue one with POST /Integration/Recalls.</p>
    <div id="lists-message"></div>
    <div id="issued"></div>
  </section>
  <section>
    <h2>Recall notices you received</h2>
    <p class="muted">Notified: you have not answered yet. Answer for each lot shipped to you how much of it you still hold, returned, destroyed and sold on, and what you do about it: once it accounts for all that was shipped to you, the issuer counts you as having acted. Destroyed is the total so far; name where you destroyed it and the service records what it adds there as a decommission, so your inventory agrees. A later answer replaces the one before, which fills the fields in.</p>
    <div id="received"></div>
  </section>
`,
});
