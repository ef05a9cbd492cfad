import { SIGN_IN_FORM, headerMarkup, type BrowserPage } from '../../browser-page';

/**
 * The support page (`/support`): failed, closed and stuck batches and failing webhook endpoints, for
 * support staff. Its script is web/support.ts; the key typed in lives in a variable of that script only.
 */

/** An Accepted or Running batch older than this is listed as stuck. */
export const STUCK_AFTER_SECONDS = 300;

const STYLE = `
main { padding: 16px 20px; display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; }
main.single { display: block; }
section { background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 12px 14px; }
h2 { font-size: 15px; margin: 4px 0 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #eceff2; vertical-align: top; }
td.id, td.size { white-space: nowrap; }
td.id button { font-family: ui-monospace, monospace; font-size: 12px; background: none; border: 0; color: #0b5cad; cursor: pointer; padding: 0; text-decoration: underline; }
td.id span.key { display: block; font-size: 12px; color: #4a5561; max-width: 14em; overflow: hidden; text-overflow: ellipsis; }
.Failed { color: #b3261e; font-weight: 600; } .Completed { color: #1e7b34; font-weight: 600; } .Running, .Accepted { color: #8a5a00; font-weight: 600; }
.Replaced, .Abandoned, .Not-run { color: #4a5561; font-weight: 600; }
dd.Abandoned, dd.Not-run { word-break: normal; overflow-wrap: anywhere; }
form.abandon { display: flex; gap: 8px; margin-top: 10px; } form.abandon input { flex: 1; padding: 4px 6px; }
.message { padding: 8px 10px; border-radius: 4px; margin: 8px 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 10px; } dt { color: #68707a; } dd { margin: 0; word-break: break-all; }
ol.errors li { margin-bottom: 6px; }
form#sign-in { display: flex; gap: 8px; } input[type=password] { width: 28em; padding: 4px 6px; }
button.action { padding: 5px 12px; cursor: pointer; }
section + section { margin-top: 16px; }
`;

export const SUPPORT_PAGE: BrowserPage = {
  title: 'Batches: support',
  style: STYLE,
  entry: 'support.ts',
  body: `${headerMarkup('Batches: support', 'support')}
<div id="signed-out">
  <main class="single">
    <section>
      <h2>Sign in</h2>
      <p>With an API key: an account key shows that account's batches, a support key every account's. The key stays in this page until you sign out or reload.</p>
      ${SIGN_IN_FORM}
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
        <h2>Closed failed batches (replaced by a batch that stored their events, abandoned, never run by a failed import, or refused in a sync call's own answer)</h2>
        <div id="closed"></div>
      </section>
      <section>
        <h2>Stuck batches (Accepted or Running for more than ${STUCK_AFTER_SECONDS / 60} minutes)</h2>
        <div id="stuck" data-stuck-after-seconds="${STUCK_AFTER_SECONDS}"></div>
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
