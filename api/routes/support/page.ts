import { PAGE_SCRIPT_HELPERS, type InlinePage } from '../../inline-page';

/**
 * The support page: one HTML document with its style and script inline, so it needs nothing but the
 * API it is served by (works offline, behind any proxy). It calls the documented operations with the
 * key typed in, which lives in a variable of the page only: never stored, gone on reload or sign-out.
 * Everything the API answers is put in the page as text (textContent), never as markup.
 */

/** An Accepted or Running batch older than this is listed as stuck. */
export const STUCK_AFTER_SECONDS = 300;

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #f6f7f9; }
header { background: #22313f; color: #fff; padding: 10px 20px; display: flex; gap: 16px; align-items: center; }
header h1 { font-size: 17px; margin: 0; flex: 1; }
main { padding: 16px 20px; display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; }
main.single { display: block; }
section { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 12px 14px; }
h2 { font-size: 15px; margin: 4px 0 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #eceff2; vertical-align: top; }
td.id button { font-family: ui-monospace, monospace; font-size: 12px; background: none; border: 0; color: #0b5cad; cursor: pointer; padding: 0; text-decoration: underline; }
.Failed { color: #b3261e; font-weight: 600; } .Completed { color: #1e7b34; font-weight: 600; } .Running, .Accepted { color: #8a5a00; font-weight: 600; }
.Replaced, .Abandoned { color: #4a5561; font-weight: 600; }
dd.Abandoned { word-break: normal; overflow-wrap: anywhere; }
form.abandon { display: flex; gap: 8px; margin-top: 10px; } form.abandon input { flex: 1; padding: 4px 6px; }
.empty { color: #68707a; font-style: italic; }
.message { padding: 8px 10px; border-radius: 4px; margin: 8px 0; }
.message.error { background: #fdecea; color: #7a1d16; } .message.info { background: #e8f1fb; color: #0b3d6b; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 10px; } dt { color: #68707a; } dd { margin: 0; word-break: break-all; }
ol.errors li { margin-bottom: 6px; }
form.sign-in { display: flex; gap: 8px; } input[type=password] { width: 28em; padding: 4px 6px; }
button.action { padding: 5px 12px; cursor: pointer; }
section + section { margin-top: 16px; }
[hidden] { display: none !important; }
`;

const SCRIPT = `
'use strict';
(function () {
  var STUCK_AFTER_SECONDS = ${STUCK_AFTER_SECONDS};
  var key = null;
  var following = null;
${PAGE_SCRIPT_HELPERS}
  /** call() with a JSON body. */
  async function send(method, path, json) {
    var response = await fetch(path, { method: method, headers: { 'X-API-KEY': key, Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(json) });
    var body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    return { status: response.status, body: body };
  }

  /** What went wrong, in the API's own words (a problem's title, or its field errors). */
  function reason(response) {
    var body = response.body || {};
    if (body.errors && !Array.isArray(body.errors)) return Object.keys(body.errors).map(function (f) { return body.errors[f].join(' '); }).join(' ');
    return body.title || body.message || ('HTTP ' + response.status);
  }

  function age(seconds) {
    if (seconds < 120) return seconds + ' s';
    if (seconds < 7200) return Math.round(seconds / 60) + ' min';
    return Math.round(seconds / 3600) + ' h';
  }

  function errorText(error) {
    if (!error) return '';
    return error.code + (error.eventId ? ' (event ' + error.eventId + ')' : '') + ': ' + error.message;
  }

  /** A Failed batch's case is closed once its events are stored by another batch, or support abandons it. */
  function closedAs(batch) {
    if (batch.replacedBy) return 'Replaced';
    if (batch.abandoned) return 'Abandoned';
    return null;
  }

  function closedText(batch) {
    if (batch.replacedBy) return 'replaced by ' + batch.replacedBy + ' (its events are stored)';
    return 'abandoned: ' + batch.abandoned.reason;
  }

  function row(batch) {
    var retried = batch.retriedBy ? 'retried: ' + batch.retriedBy.status : '';
    var closed = closedAs(batch);
    return el('tr', { 'data-batch-id': batch.batchId }, [
      el('td', { class: 'id' }, [el('button', { type: 'button', text: batch.batchId, title: 'Open this batch', onclick: function () { open(batch.batchId); } })]),
      el('td', { text: batch.account }),
      el('td', { class: closed || batch.status, text: closed || batch.status }),
      el('td', { text: batch.mode + ', ' + batch.eventCount + ' event' + (batch.eventCount === 1 ? '' : 's') }),
      el('td', { text: age(batch.ageSeconds) + ' ago' }),
      closed ? el('td', { class: 'case', text: closedText(batch) }) : el('td', { class: 'first-error', text: errorText(batch.firstError) || retried }),
    ]);
  }

  function table(target, batches, emptyText, last) {
    if (!batches.length) return target.replaceChildren(el('p', { class: 'empty', text: emptyText }));
    var head = el('tr', {}, ['Batch', 'Account', 'Status', 'Size', 'Submitted', last || 'Error'].map(function (h) { return el('th', { text: h }); }));
    target.replaceChildren(el('table', {}, [el('thead', {}, [head]), el('tbody', {}, batches.map(row))]));
  }

  function failingTable(target, endpoints) {
    if (!endpoints.length) return target.replaceChildren(el('p', { class: 'empty', text: 'No webhook endpoint is failing.' }));
    var head = el('tr', {}, ['Endpoint', 'Account', 'Failing since', 'Waiting', 'Last error'].map(function (h) { return el('th', { text: h }); }));
    var rows = endpoints.map(function (e) {
      return el('tr', { 'data-endpoint-id': e.id }, [
        el('td', { class: 'url', text: e.url }),
        el('td', { text: e.account }),
        el('td', { text: e.failingSince }),
        el('td', { class: 'pending', text: e.pendingDeliveries + ' deliver' + (e.pendingDeliveries === 1 ? 'y' : 'ies') }),
        el('td', { class: 'first-error', text: e.failingReason || '' }),
      ]);
    });
    target.replaceChildren(el('table', {}, [el('thead', {}, [head]), el('tbody', {}, rows)]));
  }

  async function list(status) {
    var response = await call('GET', '/Integration/Batches?PageSize=100&Status=' + status);
    if (response.status !== 200) throw new Error(reason(response));
    return response.body.results;
  }

  async function refresh() {
    show($('lists-message'), 'info', '');
    try {
      var failed = await list('Failed');
      var pending = (await list('Accepted')).concat(await list('Running'));
      // A replaced or abandoned batch needs nobody: it is listed apart, without a retry.
      table($('failed'), failed.filter(function (b) { return !closedAs(b); }), 'No failed batches waiting for a retry.');
      table($('closed'), failed.filter(closedAs), 'No failed batch was replaced or abandoned.', 'Case');
      table($('stuck'), pending.filter(function (b) { return b.ageSeconds >= STUCK_AFTER_SECONDS; }), 'No batch has been Accepted or Running for more than ' + age(STUCK_AFTER_SECONDS) + '.');
      var failing = await call('GET', '/Integration/Webhooks?PageSize=100&Status=Failing');
      if (failing.status !== 200) throw new Error(reason(failing));
      failingTable($('failing-webhooks'), failing.body.results);
    } catch (error) {
      show($('lists-message'), 'error', error.message);
    }
  }

  function detailList(batch) {
    var items = [
      ['Batch', batch.batchId], ['Account', batch.account], ['Status', batch.status], ['Mode', batch.mode], ['Events', String(batch.eventCount)],
      ['Submitted', batch.submittedAt], ['Started', batch.startedAt || '-'], ['Completed', batch.completedAt || '-'], ['Request id', batch.requestId || '-'],
    ];
    var dl = el('dl', {}, []);
    items.forEach(function (item) {
      dl.appendChild(el('dt', { text: item[0] }));
      dl.appendChild(el('dd', { class: item[0] === 'Status' ? batch.status : '', 'data-field': item[0], text: item[1] }));
    });
    var link = function (label, id) {
      dl.appendChild(el('dt', { text: label }));
      dl.appendChild(el('dd', {}, [el('button', { type: 'button', class: 'action', 'data-field': label, text: id.batchId + (id.status ? ' (' + id.status + ')' : ''), onclick: function () { open(id.batchId); } })]));
    };
    if (batch.retryOf) link('Retry of', { batchId: batch.retryOf });
    if (batch.retriedBy) link('Retried by', batch.retriedBy);
    if (batch.replacedBy) link('Replaced by', { batchId: batch.replacedBy });
    if (batch.abandoned) {
      dl.appendChild(el('dt', { text: 'Abandoned' }));
      dl.appendChild(el('dd', { class: 'Abandoned', 'data-field': 'Abandoned', text: batch.abandoned.reason }));
      dl.appendChild(el('dt', { text: 'Abandoned by' }));
      dl.appendChild(el('dd', { 'data-field': 'Abandoned by', text: (batch.abandoned.keyId ? 'key ' + batch.abandoned.keyId : 'the CLI') + ', ' + batch.abandoned.at }));
    }
    if (batch.workflowUrl) {
      dl.appendChild(el('dt', { text: 'Workflow' }));
      dl.appendChild(el('dd', {}, [el('a', { href: batch.workflowUrl, target: '_blank', rel: 'noopener', text: 'open in the Temporal UI' })]));
    }
    return dl;
  }

  async function open(batchId) {
    if (following) clearTimeout(following);
    following = null;
    var target = $('detail');
    var response = await call('GET', '/Integration/Batches/' + encodeURIComponent(batchId));
    if (response.status !== 200) return show(target, 'error', reason(response));
    var batch = response.body;
    var parts = [el('h2', { text: 'Batch ' + batch.batchId }), detailList(batch)];
    if (batch.errors && batch.errors.length) {
      parts.push(el('h2', { text: 'Errors' }));
      parts.push(el('ol', { class: 'errors' }, batch.errors.map(function (e) { return el('li', { text: (e.field ? e.field + ': ' : '') + errorText(e) }); })));
    }
    var canRetry = batch.status === 'Failed' && !closedAs(batch) && !(batch.retriedBy && (batch.retriedBy.status === 'Completed' || batch.retriedBy.status === 'Running' || batch.retriedBy.status === 'Accepted'));
    if (batch.replacedBy) parts.push(el('p', { class: 'message info', text: 'Replaced: its events are stored, by batch ' + batch.replacedBy + '. Nothing to retry.' }));
    if (canRetry) {
      parts.push(el('p', { text: 'Fix the cause first (send the missing events, create the product), then run the same events again as a new batch.' }));
      parts.push(el('button', { type: 'button', class: 'action', id: 'retry', text: 'Retry this batch', onclick: function () { retry(batch.batchId); } }));
      // Support gives up on a batch nobody will send again; the reason is kept with it.
      var form = el('form', { class: 'abandon', id: 'abandon-form' }, [
        el('input', { id: 'abandon-reason', type: 'text', maxlength: '2000', placeholder: 'Why give it up (support key)', 'aria-label': 'Reason to abandon this batch' }),
        el('button', { type: 'submit', class: 'action', id: 'abandon', text: 'Abandon' }),
      ]);
      form.addEventListener('submit', function (event) { event.preventDefault(); abandon(batch.batchId); });
      parts.push(form);
    }
    parts.push(el('div', { id: 'detail-message' }));
    target.replaceChildren.apply(target, parts);
    // A batch on its way is followed until it ends.
    if (batch.status === 'Accepted' || batch.status === 'Running') following = setTimeout(function () { open(batch.batchId); }, 1000);
    else if (batch.retryOf) refresh();
  }

  async function retry(batchId) {
    $('retry').disabled = true;
    var response = await call('POST', '/Integration/Batches/' + encodeURIComponent(batchId) + '/retry');
    if (response.status !== 202) {
      $('retry').disabled = false;
      return show($('detail-message'), 'error', reason(response));
    }
    await open(response.body.batchId);
  }

  async function abandon(batchId) {
    var reasonText = $('abandon-reason').value.trim();
    if (!reasonText) return show($('detail-message'), 'error', 'Say why the batch is abandoned: the reason is kept with it.');
    $('abandon').disabled = true;
    var response = await send('POST', '/Integration/Batches/' + encodeURIComponent(batchId) + '/abandon', { Reason: reasonText });
    if (response.status !== 200) {
      $('abandon').disabled = false;
      return show($('detail-message'), 'error', reason(response));
    }
    await open(batchId);
    await refresh();
  }

  async function signIn(event) {
    event.preventDefault();
    var presented = $('key').value.trim();
    if (!presented) return show($('sign-in-message'), 'error', 'Type an API key.');
    key = presented;
    var me = await call('GET', '/Integration/Account');
    if (me.status !== 200) {
      key = null;
      return show($('sign-in-message'), 'error', reason(me));
    }
    $('key').value = '';
    show($('sign-in-message'), 'info', '');
    $('who').textContent = 'Signed in: ' + me.body.name;
    $('signed-out').hidden = true;
    $('signed-in').hidden = false;
    await refresh();
  }

  function signOut() {
    key = null;
    if (following) clearTimeout(following);
    ['failed', 'closed', 'stuck', 'failing-webhooks', 'detail', 'lists-message'].forEach(function (id) { $(id).replaceChildren(); });
    $('who').textContent = '';
    $('signed-in').hidden = true;
    $('signed-out').hidden = false;
  }

  $('sign-in').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', signOut);
  $('refresh').addEventListener('click', refresh);
})();
`;

export const SUPPORT_PAGE: InlinePage = {
  title: 'Batches: support',
  style: STYLE,
  script: SCRIPT,
  body: `<header>
  <h1>Batches: support</h1>
  <span id="who"></span>
</header>
<div id="signed-out">
  <main class="single">
    <section>
      <h2>Sign in</h2>
      <p>With an API key: an account key shows that account's batches, a support key every account's. The key stays in this page until you sign out or reload.</p>
      <form id="sign-in" class="sign-in" autocomplete="off">
        <label for="key">API key</label>
        <input id="key" type="password" name="key" spellcheck="false">
        <button class="action" type="submit">Sign in</button>
      </form>
      <div id="sign-in-message"></div>
    </section>
  </main>
</div>
<div id="signed-in" hidden>
  <main>
    <div>
      <section>
        <h2>Failed batches <button class="action" id="refresh" type="button">Refresh</button> <button class="action" id="sign-out" type="button">Sign out</button></h2>
        <div id="lists-message"></div>
        <div id="failed"></div>
      </section>
      <section>
        <h2>Closed failed batches (replaced by a batch that stored their events, or abandoned)</h2>
        <div id="closed"></div>
      </section>
      <section>
        <h2>Stuck batches (Accepted or Running for more than ${STUCK_AFTER_SECONDS / 60} minutes)</h2>
        <div id="stuck"></div>
      </section>
      <section>
        <h2>Failing webhook endpoints (deliveries ran out of retries; the account redelivers to resume)</h2>
        <div id="failing-webhooks"></div>
      </section>
    </div>
    <section id="detail"><p class="empty">Open a batch to see every error and retry it.</p></section>
  </main>
</div>`,
};
