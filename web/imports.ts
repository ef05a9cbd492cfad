import { localTime, plural } from './format';
import type { importResponse, importSummary } from '../contract/imports/schema';
import type { AnswerOf } from '../contract/openapi/schema';
import { $, call, el, reason, show, table, type Page } from './page-kit';
import { download, signInForm } from './session';

/**
 * The imports page's script (GET /imports): downloads a template, uploads a file to
 * POST /Integration/Imports and follows GET /Integration/Imports/{id} until it is Completed or Failed,
 * showing every row error in a table; lists the account's imports (GET /Integration/Imports), any of which
 * opens the same way. The key typed in lives in web/session.ts's session only. Everything the API
 * answers goes into the page as text (textContent), never as markup.
 */

type ImportView = AnswerOf<typeof importResponse>;
type ImportSummary = AnswerOf<typeof importSummary>;

/** The import being followed; a newer upload stops the polling of the one before. */
let following: string | null = null;

const POLL_MS = 1000;

/** So many records of this import: events, or the master data it imports (`1 location`, `3 products`). */
const recordsOf = (view: ImportView, count: number): string =>
  view.kind === 'locations'
    ? plural(count, 'location')
    : view.kind === 'products'
      ? plural(count, 'product')
      : plural(count, 'event');

/** How a Failed import ended, said after its file's name. */
function failure(view: ImportView): string {
  const stored = view.eventsStored
    ? `failed after ${recordsOf(view, view.eventsStored)} ${view.eventsStored === 1 ? 'was' : 'were'} stored`
    : 'was refused: nothing was stored';
  return `${stored}. ${view.errors.length ? 'Its errors are listed below.' : 'See its batches below.'}`;
}

function render(view: ImportView): void {
  $('progress').hidden = false;
  $('import-id').textContent = view.importId;
  const status = $('import-status');
  status.textContent = view.status;
  status.className = view.status;
  $('import-rows').textContent = String(view.rowsRead);
  $('import-stored').textContent = recordsOf(view, view.eventsStored);
  const done = view.batches.filter((b) => b.status === 'Completed' || b.status === 'Failed').length;
  $('import-batches').textContent = view.batches.length
    ? `${done} of ${view.batches.length} finished (rows ${view.batches.map((b) => `${b.firstRow}–${b.lastRow}: ${b.status}`).join(', ')})`
    : '-';
  const target = $('import-errors');
  if (!view.errors.length) {
    target.replaceChildren(
      view.status === 'Failed' ? el('p', { class: 'empty', text: 'Failed without row errors: see the batches.' }) : '',
    );
    return;
  }
  const rows = view.errors.map((e) =>
    el('tr', {}, [
      el('td', { text: e.row === null ? '-' : String(e.row) }),
      el('td', { class: 'column', text: e.column ?? '-' }),
      el('td', { class: 'value', text: e.value ?? '' }),
      el('td', { text: e.code }),
      el('td', { text: e.message }),
    ]),
  );
  target.replaceChildren(
    el('p', {
      text: `${plural(view.errors.length, 'error')}. Nothing of a failed batch was stored; fix the rows and import the file again.`,
    }),
    table({ id: 'errors-table' }, ['Row', 'Column', 'Value', 'Code', 'Message'], rows),
  );
}

async function follow(importId: string): Promise<void> {
  following = importId;
  while (following === importId) {
    const key = session.key;
    if (!key) return;
    const answer = await call<ImportView>(key, 'GET', `/Integration/Imports/${importId}`);
    if (answer.status !== 200 || !answer.body) return show($('upload-message'), 'error', reason(answer));
    render(answer.body);
    if (answer.body.status === 'Completed' || answer.body.status === 'Failed') {
      await listImports();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The account's latest imports, newest first: each opens above with its progress and errors. */
async function listImports(): Promise<void> {
  const key = session.key;
  if (!key) return;
  const answer = await call<Page<ImportSummary>>(key, 'GET', '/Integration/Imports?PageSize=20');
  const target = $('imports-list');
  if (answer.status !== 200 || !answer.body) return show(target, 'error', reason(answer));
  if (!answer.body.results.length) {
    target.replaceChildren(el('p', { class: 'empty', text: 'No imports yet.' }));
    return;
  }
  const rows = answer.body.results.map((i) => {
    const open = el('button', { type: 'button', class: 'open-import', text: 'Open' });
    open.addEventListener('click', () => void follow(i.importId));
    return el('tr', { 'data-import-id': i.importId }, [
      el('td', { text: localTime(i.submittedAt) }),
      el('td', { class: 'value', text: i.fileName }),
      el('td', { text: i.kind }),
      el('td', { class: i.status, text: i.status }),
      el('td', { text: String(i.rowsRead) }),
      el('td', { text: String(i.eventsStored) }),
      el('td', { text: String(i.errorCount) }),
      el('td', {}, [open]),
    ]);
  });
  target.replaceChildren(
    table({ id: 'imports-table' }, ['Submitted', 'File', 'Kind', 'Status', 'Rows', 'Stored', 'Errors', ''], rows),
  );
}

async function upload(event: Event): Promise<void> {
  event.preventDefault();
  const key = session.key;
  if (!key) return;
  const file = $<HTMLInputElement>('file').files?.[0];
  if (!file) return show($('upload-message'), 'error', 'Choose a file.');
  const form = new FormData();
  form.set('kind', $<HTMLSelectElement>('kind').value);
  form.set('file', file, file.name);
  const idempotencyKey = $<HTMLInputElement>('idempotency-key').value.trim();
  show($('upload-message'), 'info', `Uploading ${file.name}…`);
  const answer = await call<ImportView>(key, 'POST', '/Integration/Imports', form, {
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
  });
  if (answer.status !== 202 || !answer.body) {
    $('progress').hidden = true;
    return show($('upload-message'), 'error', reason(answer));
  }
  // A file with a bad cell is answered 202 too, already Failed with its errors (as is the replay of an
  // import that failed later, with a known Idempotency-Key).
  if (answer.body.status !== 'Failed') show($('upload-message'), 'info', `${file.name} was accepted.`);
  else show($('upload-message'), 'error', `${file.name} ${failure(answer.body)}`);
  render(answer.body);
  await follow(answer.body.importId);
}

async function downloadTemplate(event: Event): Promise<void> {
  event.preventDefault();
  const key = session.key;
  if (!key) return;
  const kind = $<HTMLSelectElement>('template-kind').value;
  const format = $<HTMLSelectElement>('template-format').value;
  const path = `/Integration/Templates/${encodeURIComponent(kind)}?format=${format}`;
  const refused = await download(key, path, `${kind}-template.${format}`);
  if (refused) show($('upload-message'), 'error', `The template could not be downloaded (HTTP ${refused.status}).`);
}

const session = signInForm(
  () => {
    following = null;
    for (const id of ['upload-message', 'import-errors', 'imports-list']) $(id).replaceChildren();
    $('progress').hidden = true;
  },
  () => void listImports(),
);

$('upload').addEventListener('submit', (event) => void upload(event));
$('template').addEventListener('submit', (event) => void downloadTemplate(event));
$('refresh-imports').addEventListener('click', () => void listImports());
