import { localTime, plural, quantity } from './format';
import { $, call, el, reason, show } from './page-kit';
import { signInForm } from './session';

/**
 * The recalls page's script (GET /recalls): lists the recalls the account issued
 * (GET /Integration/Recalls/issued) with every holder and where it stands, and the notices it received
 * (GET /Integration/Recalls), each acknowledged from the page (POST .../{id}/acknowledge). The key typed
 * in lives in web/session.ts's session only. Everything the API answers goes into the page as text
 * (textContent), never as markup.
 */

type State = 'open' | 'notified' | 'acknowledged' | 'closed';

interface Acknowledgement {
  time: string;
  quantityOnHand: number;
  action: string;
}

interface Product {
  id: string;
  name: string;
  unit: string;
}

interface Issued {
  id: string;
  reason: string;
  createdTime: string;
  state: State;
  productId: string;
  lotSerial: string;
  holders: { account: string; lots: string[]; state: State; acknowledgement: Acknowledgement | null }[];
}

interface Notice {
  id: string;
  issuer: string;
  reason: string;
  createdTime: string;
  state: State;
  recalled: { product: Product; lotSerial: string }[];
  lots: { product: Product; lotSerial: string }[];
  holdings: { product: Product; lotSerial: string; location: { name: string }; quantityOnHand: number; unit: string }[];
  acknowledgement: Acknowledgement | null;
}

interface Page<T> {
  results: T[];
  totalItems: number;
}

/** The lot on the trace page, which traces it once signed in. */
const traceLink = (productId: string, lotSerial: string): HTMLAnchorElement =>
  el('a', {
    class: 'trace-link',
    href: `/trace?${new URLSearchParams({ product: productId, lot: lotSerial })}`,
    text: 'trace',
    title: `Trace lot ${lotSerial} on the trace page`,
  });

const STATE_TEXT: Record<State, string> = {
  open: 'open',
  notified: 'notified',
  acknowledged: 'acknowledged',
  closed: 'closed',
};

const badge = (state: State): HTMLSpanElement => el('span', { class: `state ${state}`, text: STATE_TEXT[state] });

function table(headings: string[], rows: HTMLTableRowElement[]): HTMLTableElement {
  return el('table', {}, [
    el('thead', {}, [
      el(
        'tr',
        {},
        headings.map((text) => el('th', { text })),
      ),
    ]),
    el('tbody', {}, rows),
  ]);
}

const list = (items: (string | Node)[][]): HTMLUListElement =>
  el(
    'ul',
    { class: 'plain' },
    items.map((children) => el('li', {}, children)),
  );

const answered = (a: Acknowledgement, unit?: string): string =>
  `${localTime(a.time)}: holds ${unit ? quantity(a.quantityOnHand, unit) : a.quantityOnHand}. ${a.action}`;

function issuedRow(recall: Issued): HTMLTableRowElement {
  const acknowledged = recall.holders.filter((h) => h.state === 'acknowledged').length;
  const holders = recall.holders.length
    ? list(
        recall.holders.map((h) => [
          el('strong', { text: h.account }),
          ` (${plural(h.lots.length, 'lot')}: ${h.lots.join(', ')}) `,
          badge(h.state),
          ...(h.acknowledgement ? [el('div', { class: 'muted', text: answered(h.acknowledgement) })] : []),
        ]),
      )
    : el('span', { class: 'muted', text: 'It reached no other account.' });
  return el('tr', { 'data-recall-id': recall.id }, [
    el('td', { class: 'time', text: localTime(recall.createdTime) }),
    el('td', {}, [
      el('strong', { text: recall.lotSerial }),
      ' ',
      traceLink(recall.productId, recall.lotSerial),
      el('div', { class: 'muted', text: recall.productId }),
    ]),
    el('td', { text: recall.reason }),
    el('td', {}, [
      badge(recall.state),
      ...(recall.holders.length
        ? [el('div', { class: 'muted', text: `${acknowledged} of ${plural(recall.holders.length, 'holder')}` })]
        : []),
    ]),
    el('td', {}, [holders]),
  ]);
}

function acknowledgeForm(notice: Notice): HTMLFormElement {
  const form = el('form', { class: 'acknowledge' }, [
    el('input', {
      class: 'quantity',
      type: 'number',
      min: '0',
      step: 'any',
      required: '',
      placeholder: 'On hand',
      'aria-label': 'How much you still hold',
    }),
    el('input', {
      class: 'action-text',
      type: 'text',
      required: '',
      maxlength: '2000',
      placeholder: 'What you do about it',
      'aria-label': 'What you do about it',
    }),
    el('button', {
      class: 'action',
      type: 'submit',
      text: notice.acknowledgement ? 'Answer again' : 'Acknowledge',
    }),
    el('div', { class: 'form-message' }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void acknowledge(notice.id, form);
  });
  return form;
}

function noticeRow(notice: Notice): HTMLTableRowElement {
  const holdings = notice.holdings.length
    ? list(
        notice.holdings.map((h) => [
          `${h.product.name} · ${h.lotSerial}: ${quantity(h.quantityOnHand, h.unit)} at ${h.location.name}`,
        ]),
      )
    : el('span', { class: 'muted', text: 'None left, by your records.' });
  return el('tr', { 'data-recall-id': notice.id }, [
    el('td', { class: 'time', text: localTime(notice.createdTime) }),
    el('td', { text: notice.issuer }),
    el('td', {}, [
      list(notice.recalled.map((l) => [el('strong', { text: l.lotSerial }), ` ${l.product.name}`])),
      ...(notice.lots.length
        ? [
            el('div', { class: 'muted', text: 'Your lots from it:' }),
            list(notice.lots.map((l) => [`${l.product.name} · ${l.lotSerial} `, traceLink(l.product.id, l.lotSerial)])),
          ]
        : []),
    ]),
    el('td', { text: notice.reason }),
    el('td', {}, [holdings]),
    el('td', {}, [
      badge(notice.state),
      ...(notice.acknowledgement
        ? [el('div', { class: 'muted', text: answered(notice.acknowledgement, notice.holdings[0]?.unit) })]
        : []),
      // A closed recall takes no more answers (409): no form to send one.
      ...(notice.state === 'closed' ? [] : [acknowledgeForm(notice)]),
    ]),
  ]);
}

async function refresh(): Promise<void> {
  const key = session.key;
  if (!key) return;
  show($('lists-message'), 'info', '');
  const [issued, received] = await Promise.all([
    call<Page<Issued>>(key, 'GET', '/Integration/Recalls/issued?PageSize=100'),
    call<Page<Notice>>(key, 'GET', '/Integration/Recalls?PageSize=100'),
  ]);
  if (issued.status !== 200 || !issued.body) return show($('lists-message'), 'error', reason(issued));
  if (received.status !== 200 || !received.body) return show($('lists-message'), 'error', reason(received));
  $('issued').replaceChildren(
    issued.body.results.length
      ? table(['Issued', 'Lot', 'Reason', 'State', 'Holders'], issued.body.results.map(issuedRow))
      : el('p', { class: 'empty', text: 'Your account has issued no recall.' }),
  );
  $('received').replaceChildren(
    received.body.results.length
      ? table(
          ['Received', 'From', 'Recalled lot', 'Reason', 'What you hold', 'State'],
          received.body.results.map(noticeRow),
        )
      : el('p', { class: 'empty', text: 'No recall has reached your account.' }),
  );
}

async function acknowledge(id: string, form: HTMLFormElement): Promise<void> {
  const key = session.key;
  if (!key) return;
  const [held, action] = [...form.querySelectorAll('input')].map((input) => input.value.trim());
  const answer = await call(key, 'POST', `/Integration/Recalls/${encodeURIComponent(id)}/acknowledge`, {
    QuantityOnHand: Number(held),
    Action: action,
  });
  if (answer.status !== 200) return show(form.querySelector<HTMLElement>('.form-message')!, 'error', reason(answer));
  await refresh();
}

const session = signInForm(
  () => {
    for (const id of ['issued', 'received', 'lists-message']) $(id).replaceChildren();
  },
  () => void refresh(),
);

$('refresh').addEventListener('click', () => void refresh());
