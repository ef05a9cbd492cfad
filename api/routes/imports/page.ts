import { signInPage } from '../../browser-page';
import { IMPORT_KINDS } from '../../../domain/spreadsheet-rows';

/**
 * The imports page (`/imports`), a sibling of /support and /trace for people without a developer: sign
 * in with a key, download a template, upload a filled one, watch it go through and read every row error
 * in a table. Its script is web/imports.ts; the key lives in a variable of that script only.
 */
const STYLE = `
main { padding: 14px 20px; max-width: 1200px; }
section { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 12px 14px; margin-bottom: 14px; }
h2 { font-size: 15px; margin: 2px 0 10px; }
form { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.field { display: inline-flex; gap: 6px; align-items: center; }
input, select { padding: 4px 6px; font: inherit; } input[type=password] { width: 24em; }
button { font: inherit; } button.action { padding: 5px 12px; cursor: pointer; }
.message { padding: 8px 10px; border-radius: 4px; margin: 8px 0 0; }
table { border-collapse: collapse; width: 100%; margin-top: 8px; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #eceff2; vertical-align: top; }
td.value, td.column { font-family: ui-monospace, monospace; font-size: 12px; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 10px; } dt { color: #68707a; } dd { margin: 0; }
.Failed { color: #b3261e; font-weight: 600; } .Completed { color: #1e7b34; font-weight: 600; } .Running, .Accepted { color: #8a5a00; font-weight: 600; }
`;

const kindOptions = IMPORT_KINDS.map((k) => `<option value="${k}">${k}</option>`).join('');

export const IMPORTS_PAGE = signInPage('imports', {
  title: 'Import a spreadsheet',
  intro: 'With your API key. The key stays in this page until you sign out or reload.',
  style: STYLE,
  signedIn: `  <section>
    <h2>1. Download the template</h2>
    <p>Each column is named after the field it fills; the xlsx has a Notes sheet saying what each column means, whether it is required and its allowed values. Rows with the same Id are one record with several lines.</p>
    <form id="template" autocomplete="off">
      <span class="field"><label for="template-kind">Kind</label> <select id="template-kind">${kindOptions}</select></span>
      <select id="template-format" aria-label="Template format"><option value="xlsx">xlsx</option><option value="csv">csv</option></select>
      <button class="action" type="submit">Download template</button>
    </form>
  </section>
  <section>
    <h2>2. Upload the filled file</h2>
    <form id="upload" autocomplete="off">
      <span class="field"><label for="kind">Kind</label> <select id="kind">${kindOptions}</select></span>
      <span class="field"><label for="file">File (.csv or .xlsx, at most 20 MB and 100,000 rows)</label> <input id="file" type="file" accept=".csv,.xlsx" required></span>
      <span class="field"><label for="idempotency-key">Key (optional)</label> <input id="idempotency-key" placeholder="e.g. march-catch-2024" title="Sending the same file again with the same key imports it once."></span>
      <button class="action" type="submit">Import</button>
      <button class="action" id="sign-out" type="button">Sign out</button>
    </form>
    <div id="upload-message"></div>
  </section>
  <section id="progress" hidden>
    <h2>Import <span id="import-id"></span></h2>
    <dl>
      <dt>Status</dt><dd id="import-status"></dd>
      <dt>Rows read</dt><dd id="import-rows"></dd>
      <dt>Stored</dt><dd id="import-stored"></dd>
      <dt>Batches</dt><dd id="import-batches"></dd>
    </dl>
    <div id="import-errors"></div>
  </section>
  <section>
    <h2>Your imports</h2>
    <button class="action" id="refresh-imports" type="button">Refresh</button>
    <div id="imports-list"></div>
  </section>
`,
});
