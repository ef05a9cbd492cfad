import { duration, localTime, plural } from './format';
import type { batchDetail, batchSummary } from '../contract/batches/schema';
import type { webhookEndpoint } from '../contract/webhooks/schema';
import type { AnswerOf } from '../contract/openapi/schema';
import { $, call, el, reason, show, table, type Answer, type Page } from './page-kit';
import { signInForm } from './session';

/**
 * The support page's script (GET /support): lists failed, closed and stuck batches and failing webhook
 * endpoints, opens a batch for every error, retries it and follows the retry, or (a support key)
 * abandons it with a reason. The key typed in lives in web/session.ts's session only. Everything the API
 * answers goes into the page as text (textContent), never as markup.
 */

/** A batch as GET /Integration/Batches lists it; GET .../{id} adds every error. */
type Batch = AnswerOf<typeof batchSummary> & Partial<Pick<AnswerOf<typeof batchDetail>, 'errors'>>;
type Status = Batch['status'];
type BatchError = NonNullable<Batch['firstError']>;
type FailingEndpoint = AnswerOf<typeof webhookEndpoint>;

/** The page names it (api/routes/support/page.ts), so its heading and this filter say the same. */
const STUCK_AFTER_SECONDS = Number($('stuck').dataset.stuckAfterSeconds);

/**
 * How long each ask about a batch on its way waits for its end (`Prefer: wait`; the API caps it), and the
 * least time between two asks, for an API that answers at once (it has no announcements to wait on).
 */
const FOLLOW_WAIT_SECONDS = 20;
const FOLLOW_EVERY_MS = 1000;
/**
 * The ask about the open batch (in flight, or the next one's timer); opening another batch or signing
 * out cancels it.
 */
let following: AbortController | null = null;

function stopFollowing(): void {
  following?.abort();
  following = null;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function errorText(error: BatchError | null): string {
  if (!error) return '';
  return `${error.code}${error.eventId ? ` (event ${error.eventId})` : ''}: ${error.message}`;
}

/**
 * A Failed batch's case is closed once its events are stored by another batch, or support abandons it; a
 * batch its import never ran (the import failed first), and a sync call's batch refused in its own answer,
 * are closed from the start.
 */
function closedAs(batch: Batch): 'Replaced' | 'Not run' | 'Abandoned' | 'Answered' | null {
  if (batch.replacedBy) return 'Replaced';
  if (batch.failedImport) return 'Not run';
  if (batch.abandoned) return 'Abandoned';
  if (batch.refusalAnswered) return 'Answered';
  return null;
}

function closedText(batch: Batch): string {
  if (batch.replacedBy) return `replaced by ${batch.replacedBy} (its events are stored)`;
  if (batch.failedImport) return `not run: import ${batch.failedImport.importId} failed; upload the file again`;
  if (batch.abandoned) return `abandoned: ${batch.abandoned.reason}`;
  return 'answered: refused in its call’s 400, which holds every error';
}

/** A button that opens a batch in the detail panel. */
function opener(attrs: Record<string, string>, batchId: string): HTMLButtonElement {
  const button = el('button', { type: 'button', ...attrs });
  button.addEventListener('click', () => void open(batchId));
  return button;
}

/**
 * A batch's cell: the start of its id on one line (the whole id is its tooltip, and the detail panel's
 * heading), and under it the name its sender gave it (Idempotency-Key), if any.
 */
const idCell = (batch: Batch): HTMLTableCellElement =>
  el('td', { class: 'id' }, [
    opener(
      {
        text: `${batch.batchId.slice(0, 8)}…`,
        title: `Open batch ${batch.batchId}`,
        'aria-label': `Open batch ${batch.batchId}`,
      },
      batch.batchId,
    ),
    batch.idempotencyKey
      ? el('span', { class: 'key', title: 'Its Idempotency-Key', text: batch.idempotencyKey })
      : null,
  ]);

function row(batch: Batch): HTMLTableRowElement {
  const retried = batch.retriedBy ? `retried: ${batch.retriedBy.status}` : '';
  const closed = closedAs(batch);
  return el('tr', { 'data-batch-id': batch.batchId }, [
    idCell(batch),
    el('td', { text: batch.account }),
    el('td', { class: (closed ?? batch.status).replace(' ', '-'), text: closed ?? batch.status }),
    el('td', { class: 'size', text: `${batch.mode}, ${plural(batch.eventCount, 'event')}` }),
    el('td', { text: `${duration(batch.ageSeconds)} ago` }),
    closed
      ? el('td', { class: 'case', text: closedText(batch) })
      : el('td', { class: 'first-error', text: errorText(batch.firstError) || retried }),
  ]);
}

function batches(target: HTMLElement, found: Batch[], emptyText: string, last = 'Error'): void {
  target.replaceChildren(
    found.length
      ? table({}, ['Batch', 'Account', 'Status', 'Size', 'Submitted', last], found.map(row))
      : el('p', { class: 'empty', text: emptyText }),
  );
}

function failingTable(target: HTMLElement, endpoints: FailingEndpoint[]): void {
  if (!endpoints.length)
    return target.replaceChildren(el('p', { class: 'empty', text: 'No webhook endpoint is failing.' }));
  const rows = endpoints.map((e) =>
    el('tr', { 'data-endpoint-id': e.id }, [
      el('td', { class: 'url', text: e.url }),
      el('td', { text: e.account }),
      el('td', { text: localTime(e.failingSince) }),
      el('td', { class: 'pending', text: plural(e.pendingDeliveries, 'delivery', 'deliveries') }),
      el('td', { class: 'first-error', text: e.failingReason ?? '' }),
    ]),
  );
  target.replaceChildren(table({}, ['Endpoint', 'Account', 'Failing since', 'Waiting', 'Last error'], rows));
}

async function list(signedIn: string, status: Status): Promise<Batch[]> {
  const answer = await call<Page<Batch>>(signedIn, 'GET', `/Integration/Batches?PageSize=100&Status=${status}`);
  if (answer.status !== 200 || !answer.body) throw new Error(reason(answer));
  return answer.body.results;
}

async function refresh(): Promise<void> {
  const signedIn = session.key;
  if (!signedIn) return;
  show($('lists-message'), 'info', '');
  try {
    const failed = await list(signedIn, 'Failed');
    const pending = [...(await list(signedIn, 'Accepted')), ...(await list(signedIn, 'Running'))];
    // A replaced or abandoned batch needs nobody: it is listed apart, without a retry.
    batches(
      $('failed'),
      failed.filter((b) => !closedAs(b)),
      'No failed batches waiting for a retry.',
    );
    batches($('closed'), failed.filter(closedAs), 'No failed batch was replaced, abandoned or answered.', 'Case');
    batches(
      $('stuck'),
      pending.filter((b) => b.ageSeconds >= STUCK_AFTER_SECONDS),
      `No batch has been Accepted or Running for more than ${duration(STUCK_AFTER_SECONDS)}.`,
    );
    const failing = await call<Page<FailingEndpoint>>(
      signedIn,
      'GET',
      '/Integration/Webhooks?PageSize=100&Status=Failing',
    );
    if (failing.status !== 200 || !failing.body) throw new Error(reason(failing));
    failingTable($('failing-webhooks'), failing.body.results);
  } catch (error) {
    show($('lists-message'), 'error', message(error));
  }
}

function detailList(batch: Batch): HTMLDListElement {
  const items: [string, string][] = [
    ['Batch', batch.batchId],
    ['Idempotency-Key', batch.idempotencyKey ?? '-'],
    ['Account', batch.account],
    ['Status', batch.status],
    ['Mode', batch.mode],
    ['Events', String(batch.eventCount)],
    ['Submitted', localTime(batch.submittedAt)],
    ['Started', localTime(batch.startedAt)],
    ['Completed', localTime(batch.completedAt)],
    ['Request id', batch.requestId ?? '-'],
  ];
  const dl = el('dl');
  const item = (label: string, value: string, cls?: string): void =>
    dl.append(
      el('dt', { text: label }),
      el('dd', { ...(cls === undefined ? {} : { class: cls }), 'data-field': label, text: value }),
    );
  for (const [label, value] of items) item(label, value, label === 'Status' ? batch.status : '');
  const link = (label: string, batchId: string, status?: Status): void => {
    const text = batchId + (status ? ` (${status})` : '');
    dl.append(
      el('dt', { text: label }),
      el('dd', {}, [opener({ class: 'action', 'data-field': label, text }, batchId)]),
    );
  };
  if (batch.retryOf) link('Retry of', batch.retryOf);
  if (batch.retriedBy) link('Retried by', batch.retriedBy.batchId, batch.retriedBy.status);
  if (batch.replacedBy) link('Replaced by', batch.replacedBy);
  if (batch.failedImport) {
    item('Import', batch.failedImport.importId);
    item('Import failed', batch.failedImport.reason, 'Not-run');
  }
  if (batch.abandoned) {
    const { reason: why, keyId, at } = batch.abandoned;
    item('Abandoned', why, 'Abandoned');
    item('Abandoned by', `${keyId ? `key ${keyId}` : 'the CLI'}, ${localTime(at)}`);
  }
  if (batch.workflowUrl) {
    dl.append(
      el('dt', { text: 'Workflow' }),
      el('dd', {}, [
        el('a', { href: batch.workflowUrl, target: '_blank', rel: 'noopener', text: 'open in the Temporal UI' }),
      ]),
    );
  }
  return dl;
}

const retriedOnItsWay = (batch: Batch): boolean =>
  batch.retriedBy !== null && ['Completed', 'Running', 'Accepted'].includes(batch.retriedBy.status);

/** Opens a batch in the detail panel; `waitForEnd` asks the API to answer once the batch on its way ends. */
async function open(batchId: string, waitForEnd = false): Promise<void> {
  stopFollowing();
  const key = session.key;
  if (!key) return;
  const ask = new AbortController();
  following = ask;
  const askedAt = performance.now();
  const target = $('detail');
  let answer: Answer<Batch>;
  try {
    answer = await call<Batch>(key, 'GET', `/Integration/Batches/${encodeURIComponent(batchId)}`, undefined, {
      headers: waitForEnd ? { Prefer: `wait=${FOLLOW_WAIT_SECONDS}` } : {},
      signal: ask.signal,
    });
  } catch (error) {
    // A waiting ask cut off on its way (a proxy's idle timeout) says so; the batch can be opened again.
    if (!ask.signal.aborted) show(target, 'error', `Could not ask about batch ${batchId}: ${message(error)}`);
    return;
  }
  if (ask.signal.aborted) return;
  if (answer.status !== 200 || !answer.body) return show(target, 'error', reason(answer));
  const batch = answer.body;
  const parts: HTMLElement[] = [el('h2', { text: `Batch ${batch.batchId}` }), detailList(batch)];
  if (batch.errors?.length) {
    parts.push(
      el('h2', { text: 'Errors' }),
      el(
        'ol',
        { class: 'errors' },
        batch.errors.map((e) => el('li', { text: (e.field ? `${e.field}: ` : '') + errorText(e) })),
      ),
    );
  }
  // An answered refusal may still be retried (once the stock is there); the other closed cases may not.
  const closed = closedAs(batch);
  const canRetry = batch.status === 'Failed' && (!closed || closed === 'Answered') && !retriedOnItsWay(batch);
  if (batch.replacedBy) {
    parts.push(
      el('p', {
        class: 'message info',
        text: `Replaced: its events are stored, by batch ${batch.replacedBy}. Nothing to retry.`,
      }),
    );
  }
  if (batch.failedImport) {
    parts.push(
      el('p', {
        class: 'message info',
        text: 'Not run: its import failed before its batches were started, and nothing of the import is stored. Nothing to retry here: upload the file again.',
      }),
    );
  }
  if (canRetry) {
    const retryButton = el('button', { type: 'button', class: 'action', id: 'retry', text: 'Retry this batch' });
    retryButton.addEventListener('click', () => void retry(batch.batchId));
    // Support gives up on a batch nobody will send again; the reason is kept with it.
    const form = el('form', { class: 'abandon', id: 'abandon-form' }, [
      el('input', {
        id: 'abandon-reason',
        type: 'text',
        maxlength: '2000',
        placeholder: 'Why give it up (support key)',
        'aria-label': 'Reason to abandon this batch',
      }),
      el('button', { type: 'submit', class: 'action', id: 'abandon', text: 'Abandon' }),
    ]);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void abandon(batch.batchId);
    });
    parts.push(
      el('p', {
        text: 'Fix the cause first (send the missing events, create the product), then run the same events again as a new batch.',
      }),
      retryButton,
      // An answered refusal is closed already: nothing to abandon.
      ...(closed === 'Answered' ? [] : [form]),
    );
  }
  parts.push(el('div', { id: 'detail-message' }));
  target.replaceChildren(...parts);
  // A batch on its way is followed until it ends: each ask waits for the end.
  if (batch.status === 'Accepted' || batch.status === 'Running') {
    const next = setTimeout(() => void open(batch.batchId, true), FOLLOW_EVERY_MS - (performance.now() - askedAt));
    ask.signal.addEventListener('abort', () => clearTimeout(next));
  } else if (batch.retryOf) await refresh();
}

async function retry(batchId: string): Promise<void> {
  const key = session.key;
  if (!key) return;
  const button = $<HTMLButtonElement>('retry');
  button.disabled = true;
  const answer = await call<{ batchId: string }>(
    key,
    'POST',
    `/Integration/Batches/${encodeURIComponent(batchId)}/retry`,
  );
  if (answer.status !== 202 || !answer.body) {
    button.disabled = false;
    return show($('detail-message'), 'error', reason(answer));
  }
  await open(answer.body.batchId);
}

async function abandon(batchId: string): Promise<void> {
  const key = session.key;
  if (!key) return;
  const reasonText = $<HTMLInputElement>('abandon-reason').value.trim();
  if (!reasonText)
    return show($('detail-message'), 'error', 'Say why the batch is abandoned: the reason is kept with it.');
  const button = $<HTMLButtonElement>('abandon');
  button.disabled = true;
  const answer = await call(key, 'POST', `/Integration/Batches/${encodeURIComponent(batchId)}/abandon`, {
    Reason: reasonText,
  });
  if (answer.status !== 200) {
    button.disabled = false;
    return show($('detail-message'), 'error', reason(answer));
  }
  await open(batchId);
  await refresh();
}

const session = signInForm(
  () => {
    stopFollowing();
    for (const id of ['failed', 'closed', 'stuck', 'failing-webhooks', 'detail', 'lists-message'])
      $(id).replaceChildren();
  },
  () => void refresh(),
);

$('refresh').addEventListener('click', () => void refresh());
