import { duration, localTime, plural, quantity, unitLabel } from './format';
import type { recallNotice } from '../contract/recalls/schema';
import type { AnswerOf } from '../contract/openapi/schema';
import { $, call, el, reason, show, table, thead, type Answer, type Child, type Page } from './page-kit';
import { checkText, outOfShipped, verdictText, type Issued, type QuantityTotals } from './recall-figures';
import { download, signInForm } from './session';

/**
 * The recalls page's script (GET /recalls): the recalls the account issued, each with its effectiveness,
 * every consignee's progress and figures per lot, its spreadsheets and its close; and the notices it
 * received, each answered per lot shipped to it, a destroyed quantity recorded at one of its own locations
 * when it names one. The key typed in lives in web/session.ts's session only. Everything the API answers
 * goes into the page as text (textContent), never as markup.
 */

/** A recall notice as its holder sees it. */
type Notice = AnswerOf<typeof recallNotice>;
type State = Issued['state'];
type Consignee = Issued['holders'][number];
type Progress = Consignee['progress'];
/** One lot a consignee received: what was shipped to it, and what its answer accounts for. */
type LotFigures = Consignee['quantities'][number];
type Acknowledgement = NonNullable<Notice['acknowledgement']>;
/** What a holder answered of one lot it received, in the lot's unit. */
type LotAnswer = NonNullable<Acknowledgement['lots']>[number];
type ShippedLot = Notice['shipped'][number];

/** A location of the account's (GET /Integration/Locations), as the answer form names it. */
interface Location {
  id: string;
  details: { name: string; tradePartner: { connectionType: string } };
}

/** The lot on the trace page, which traces it once signed in. */
const traceLink = (productId: string, lotSerial: string): HTMLAnchorElement =>
  el('a', {
    class: 'trace-link',
    href: `/trace?${new URLSearchParams({ product: productId, lot: lotSerial })}`,
    text: 'trace',
    title: `Trace lot ${lotSerial} on the trace page`,
  });

const badge = (state: State | Progress): HTMLSpanElement => el('span', { class: `state ${state}`, text: state });

const list = (items: Child[][]): HTMLUListElement =>
  el(
    'ul',
    { class: 'plain' },
    items.map((children) => el('li', {}, children)),
  );

/**
 * An answer in one line: what it holds in total only when it gave no figures per lot (those say it per
 * lot, in each lot's unit: a total over lots of different units would mean nothing).
 */
const answered = (a: Acknowledgement, unit?: string): string =>
  a.lots?.length
    ? `${localTime(a.time)}: ${a.action}`
    : `${localTime(a.time)}: holds ${unit ? quantity(a.quantityOnHand, unit) : a.quantityOnHand}. ${a.action}`;

/** The columns of a consignee's lot, in the order the spreadsheets give them. */
const FIGURES: [heading: string, of: (lot: LotFigures) => number][] = [
  ['Shipped', (l) => l.quantity],
  ['Returned', (l) => l.returned],
  ['Destroyed', (l) => l.destroyed],
  ['On hand', (l) => l.onHand],
  ['Sold on', (l) => l.soldOn],
  ['Accounted for', (l) => l.accountedFor],
  ['Still out', (l) => l.outstanding],
];

/** The figures of one lot (or one unit's totals) as cells; what is still out stands out unless it is none. */
const figureCells = (lot: LotFigures): HTMLTableCellElement[] =>
  FIGURES.map(([heading, of]) =>
    el('td', {
      class: heading === 'Still out' ? (of(lot) > 0 ? 'num out' : 'num none') : 'num',
      text: quantity(of(lot), lot.unit),
    }),
  );

const totalsAsLot = (t: QuantityTotals): LotFigures => ({ ...t, lotSerial: '', quantity: t.shipped });

const time = (iso: string): HTMLSpanElement => el('span', { class: 'when', text: localTime(iso) });

/** Where a consignee stands: its progress, whether it is overdue, and when it was told, reminded and found overdue. */
function progressCell(c: Consignee): Child[] {
  const last = c.reminders.at(-1);
  const count = c.reminders.length;
  return [
    badge(c.progress),
    ...(c.overdueTime ? [' ', el('span', { class: 'state overdue', text: 'overdue' })] : []),
    el('dl', { class: 'follow-up' }, [
      el('dt', { text: 'notified' }),
      el('dd', {}, [time(c.notifiedTime)]),
      el('dt', { text: count ? plural(count, 'reminder') : 'reminders' }),
      el('dd', {}, last ? [count > 1 ? 'last ' : '', time(last)] : ['none sent']),
      ...(c.overdueTime
        ? [
            el('dt', { class: 'overdue-since', text: 'overdue' }),
            el('dd', { class: 'overdue-since' }, [time(c.overdueTime)]),
          ]
        : []),
    ]),
  ];
}

/** Who a consignee is, who told it, and what it answered. */
const consigneeCell = (c: Consignee): Child[] => [
  el('strong', { text: c.account }),
  el('div', { class: 'muted', text: c.tier === 1 ? 'tier 1, from you' : `tier ${c.tier}, passed on by ${c.via}` }),
  c.passedOnTime ? el('div', { class: 'muted' }, ['passed it on ', time(c.passedOnTime)]) : null,
  c.acknowledgement
    ? el('div', { class: 'answer', text: `Answered ${answered(c.acknowledgement, c.quantities[0]?.unit)}` })
    : null,
];

/** A row per consignee and lot it received, and per unit the totals. */
function consigneesTable(recall: Issued): HTMLTableElement {
  const rows = recall.holders.flatMap((c) => {
    const lots = c.quantities.length ? c.quantities : [null];
    const span = { rowspan: String(lots.length) };
    return lots.map((lot, i) =>
      el('tr', { 'data-consignee': c.account }, [
        ...(i === 0
          ? [
              el('td', { class: 'consignee', ...span }, consigneeCell(c)),
              el('td', { class: 'progress', ...span }, progressCell(c)),
            ]
          : []),
        el('td', { class: 'lot', text: lot?.lotSerial ?? c.lots.join(', ') }),
        ...(lot ? figureCells(lot) : FIGURES.map(() => el('td', { class: 'num', text: '-' }))),
      ]),
    );
  });
  const e = recall.effectiveness;
  const totals = e.quantities.map((t) =>
    el('tr', { class: 'total', 'data-unit': t.unit }, [
      el('td', { colspan: '3', text: `Total of ${plural(e.consignees, 'consignee')}` }),
      ...figureCells(totalsAsLot(t)),
    ]),
  );
  return el('table', { class: 'consignees' }, [
    thead(['Consignee', 'Progress', 'Lot', ...FIGURES.map(([heading]): [string, string] => [heading, 'num'])]),
    el('tbody', {}, rows),
    el('tfoot', {}, totals),
  ]);
}

/** The check level and whether it is met, the counts, what is still out, and the rest of the strategy. */
function effectivenessCell(recall: Issued): Child[] {
  const { strategy, effectiveness: e } = recall;
  return [
    el('div', { class: 'level' }, [
      `${checkText(strategy, e)}; `,
      el('span', { class: `verdict ${e.levelMet ? 'met' : 'unmet'}`, text: verdictText(e) }),
    ]),
    el('div', {
      class: 'counts',
      text: `Reached ${e.reached} · acknowledged ${e.acknowledged} · acted ${e.acted} · overdue ${e.overdue}`,
    }),
    e.quantities.length
      ? el('div', { class: 'still-out', text: `Still out: ${outOfShipped(e.quantities)} shipped` })
      : null,
    el('div', {
      class: 'muted',
      text: `Depth ${strategy.depth.toLowerCase()}; a reminder every ${duration(strategy.reminders.everySeconds)}, overdue after ${plural(strategy.reminders.overdueAfter, 'reminder')}`,
    }),
  ];
}

const closedText = (closed: NonNullable<Issued['closed']>): string =>
  `${localTime(closed.time)}, level ${closed.levelMet ? 'met' : 'not met'}${closed.reason ? `: ${closed.reason}` : ''}`;

/** The recall's spreadsheets, and its close while it is open (a reason required while the level is not met). */
function recallActions(recall: Issued): HTMLDivElement {
  const message = el('div', { class: 'form-message' });
  const downloads = (['csv', 'xlsx'] as const).map((format) => {
    const button = el('button', {
      class: 'action download',
      type: 'button',
      'data-format': format,
      text: `Effectiveness ${format.toUpperCase()}`,
      title: `Download the effectiveness per consignee and lot as ${format.toUpperCase()}`,
    });
    button.addEventListener('click', () => void downloadEffectiveness(recall.id, format, message));
    return button;
  });
  const closing: HTMLElement[] = [];
  if (!recall.closed) {
    const met = recall.effectiveness.levelMet;
    const form = el('form', { class: 'close' }, [
      el('input', {
        class: 'close-reason',
        type: 'text',
        maxlength: '2000',
        ...(met ? {} : { required: '' }),
        placeholder: met ? 'Why you close it (optional)' : 'Why you close it: the level is not met',
        'aria-label': 'Why you close the recall',
      }),
      el('button', { class: 'action', type: 'submit', text: 'Close recall' }),
    ]);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void closeRecall(recall.id, form, message);
    });
    closing.push(form);
  }
  return el('div', { class: 'recall-actions' }, [...downloads, ...closing, message]);
}

/** A recall: its row, then beneath it every consignee with its figures, and what the issuer can do. */
function issuedBody(recall: Issued): HTMLTableSectionElement {
  return el('tbody', { class: 'recall', 'data-recall-id': recall.id }, [
    el('tr', {}, [
      el('td', { class: 'time', text: localTime(recall.createdTime) }),
      el('td', {}, [
        el('strong', { text: recall.lotSerial }),
        ' ',
        traceLink(recall.productId, recall.lotSerial),
        el('div', { class: 'muted', text: recall.productId }),
      ]),
      el('td', { text: recall.reason }),
      el('td', { class: 'effectiveness' }, effectivenessCell(recall)),
      el('td', {}, [
        badge(recall.state),
        recall.closed ? el('div', { class: 'muted closed', text: closedText(recall.closed) }) : null,
      ]),
    ]),
    el('tr', { class: 'detail' }, [
      el('td', { colspan: '5' }, [
        recall.holders.length
          ? consigneesTable(recall)
          : el('p', { class: 'muted', text: 'It reached no other account.' }),
        recallActions(recall),
      ]),
    ]),
  ]);
}

/** The figures an answer gives per lot, as the API names them, the form labels them and the notice holds them. */
const ANSWER_FIELDS = [
  ['OnHand', 'On hand', 'onHand'],
  ['Returned', 'Returned', 'returned'],
  ['Destroyed', 'Destroyed', 'destroyed'],
  ['SoldOn', 'Sold on', 'soldOn'],
] as const satisfies readonly (readonly [string, string, Exclude<keyof LotAnswer, 'lotSerial'>])[];

/** A quantity to the millionth, as the service sums them (0.1 + 0.2 is 0.3). */
const round = (n: number): number => Math.round(n * 1e6) / 1e6;

/** What an answer's figures leave out of what was shipped (below 0: how far they go over it). */
const stillOut = (shipped: number, figures: number[]): number =>
  round(shipped - figures.reduce((sum, figure) => sum + figure, 0));

/** The figure typed into a lot's field, or null when it is left empty. */
function typed(row: HTMLTableRowElement, field: string): number | null {
  const value = row.querySelector<HTMLInputElement>(`input[data-field="${field}"]`)!.value.trim();
  return value === '' ? null : Number(value);
}

/** What a lot's fields leave out of what was shipped, or how far they go over it. */
function showStillOut(row: HTMLTableRowElement, lot: ShippedLot): void {
  const out = stillOut(
    lot.quantity,
    ANSWER_FIELDS.map(([field]) => typed(row, field) ?? 0),
  );
  const cell = row.querySelector<HTMLTableCellElement>('td.still-out')!;
  cell.className = `num still-out ${out > 0 ? 'out' : out < 0 ? 'over' : 'none'}`;
  cell.textContent = out < 0 ? `${quantity(-out, lot.unit)} over` : quantity(out, lot.unit);
}

/** Where the lot was destroyed: one of the account's own locations, where the API records it as destroyed. */
const destroyedAtSelect = (lot: ShippedLot, places: Location[]): HTMLSelectElement =>
  el('select', { 'data-field': 'DestroyedAt', 'aria-label': `Where you destroyed ${lot.lotSerial}` }, [
    el('option', { value: '', text: 'Not recorded' }),
    ...places.map((place) => el('option', { value: place.id, text: `${place.details.name} (${place.id})` })),
  ]);

/** A lot shipped to the account: what was shipped, a field per figure in the lot's unit, and what is still out. */
function answerLotRow(lot: ShippedLot, previous: LotAnswer | undefined, places: Location[]): HTMLTableRowElement {
  const unit = unitLabel(lot.unit);
  const row = el('tr', { 'data-lot': lot.lotSerial }, [
    el('td', { class: 'lot', text: lot.lotSerial }),
    el('td', { class: 'num', text: quantity(lot.quantity, lot.unit) }),
    ...ANSWER_FIELDS.map(([field, label, figure]) =>
      el('td', { class: 'figure' }, [
        el('input', {
          type: 'number',
          min: '0',
          step: 'any',
          placeholder: '0',
          'data-field': field,
          'aria-label': `${label} of ${lot.lotSerial}, in ${unit}`,
          ...(previous ? { value: String(previous[figure]) } : {}),
        }),
        el('span', { class: 'unit', text: unit }),
      ]),
    ),
    el('td', {}, [destroyedAtSelect(lot, places)]),
    el('td', { class: 'num still-out' }),
  ]);
  row.addEventListener('input', () => showStillOut(row, lot));
  showStillOut(row, lot);
  return row;
}

/** The lots' table of the answer form: its headings say which figures are numbers. */
const answerLotsTable = (rows: HTMLTableRowElement[]): HTMLTableElement =>
  table(
    { class: 'answer-lots' },
    [
      'Your lot',
      ['Shipped to you', 'num'],
      ...ANSWER_FIELDS.map(([, label]) => label),
      'Destroyed at (recorded there)',
      ['Still out', 'num'],
    ],
    rows,
  );

/**
 * The answer: per lot shipped to the account its figures (a previous answer fills them in) and where it
 * was destroyed, and what it does about it. A notice that names no shipped lot is answered with how much
 * is held.
 */
function acknowledgeForm(notice: Notice, places: Location[]): HTMLFormElement {
  const previous = notice.acknowledgement;
  const lots = notice.shipped.map((lot) =>
    answerLotRow(
      lot,
      previous?.lots?.find((answer) => answer.lotSerial === lot.lotSerial),
      places,
    ),
  );
  const form = el('form', { class: 'acknowledge' }, [
    ...(lots.length
      ? [answerLotsTable(lots)]
      : [
          el('input', {
            class: 'quantity',
            type: 'number',
            min: '0',
            step: 'any',
            required: '',
            placeholder: 'On hand',
            'aria-label': 'How much you still hold',
          }),
        ]),
    el('input', {
      class: 'action-text',
      type: 'text',
      required: '',
      maxlength: '2000',
      placeholder: 'What you do about it',
      'aria-label': 'What you do about it',
      ...(previous ? { value: previous.action } : {}),
    }),
    el('button', {
      class: 'action',
      type: 'submit',
      text: previous ? 'Answer again' : 'Acknowledge',
    }),
    el('div', { class: 'form-message' }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void acknowledge(notice.id, form);
  });
  return form;
}

/** What the account answered per lot, each figure in the lot's unit, and what of the lot it leaves out. */
function lotAnswers(notice: Notice): HTMLUListElement | null {
  const lots = notice.acknowledgement?.lots;
  if (!lots?.length) return null;
  return list(
    lots.map((answer) => {
      const shipped = notice.shipped.find((lot) => lot.lotSerial === answer.lotSerial);
      const unit = shipped?.unit ?? '';
      const figures = ANSWER_FIELDS.map(
        ([, label, figure]) => `${quantity(answer[figure], unit)} ${label.toLowerCase()}`,
      );
      const out = shipped
        ? stillOut(
            shipped.quantity,
            ANSWER_FIELDS.map(([, , figure]) => answer[figure]),
          )
        : 0;
      return [
        el('strong', { text: answer.lotSerial }),
        `: ${figures.join(' · ')}`,
        ...(shipped
          ? [
              '; ',
              el('span', {
                class: out > 0 ? 'out' : 'none',
                text:
                  out > 0
                    ? `${quantity(out, unit)} of ${quantity(shipped.quantity, unit)} shipped still out`
                    : `all ${quantity(shipped.quantity, unit)} shipped accounted for`,
              }),
            ]
          : []),
      ];
    }),
  );
}

function noticeBody(notice: Notice, places: Location[]): HTMLTableSectionElement {
  const holdings = notice.holdings.length
    ? list(
        notice.holdings.map((h) => [
          `${h.product.name} · ${h.lotSerial}: ${quantity(h.quantityOnHand, h.unit)} at ${h.location.name}`,
        ]),
      )
    : el('span', { class: 'muted', text: 'None left, by your records.' });
  const perLot = lotAnswers(notice);
  // A closed recall takes no more answers (409): no form to send one.
  const form = notice.state === 'closed' ? null : acknowledgeForm(notice, places);
  return el('tbody', { class: 'notice', 'data-recall-id': notice.id }, [
    el('tr', {}, [
      el('td', { class: 'time', text: localTime(notice.createdTime) }),
      el('td', { text: notice.issuer }),
      el('td', {}, [
        list(notice.recalled.map((l) => [el('strong', { text: l.lotSerial }), ` ${l.product.name}`])),
        ...(notice.lots.length
          ? [
              el('div', { class: 'muted', text: 'Your lots from it:' }),
              list(
                notice.lots.map((l) => [`${l.product.name} · ${l.lotSerial} `, traceLink(l.product.id, l.lotSerial)]),
              ),
            ]
          : []),
      ]),
      el('td', { text: notice.reason }),
      el('td', {}, [holdings]),
      el('td', {}, [
        badge(notice.state),
        notice.acknowledgement
          ? el('div', { class: 'muted', text: answered(notice.acknowledgement, notice.shipped[0]?.unit) })
          : null,
      ]),
    ]),
    perLot || form
      ? el('tr', { class: 'detail' }, [
          el('td', { colspan: '6' }, [
            perLot ? el('div', { class: 'lot-answers' }, [el('span', { text: 'Your answer per lot:' }), perLot]) : null,
            form,
          ]),
        ])
      : null,
  ]);
}

async function refresh(): Promise<void> {
  const key = session.key;
  if (!key) return;
  show($('lists-message'), 'info', '');
  const [issued, received, locations] = await Promise.all([
    call<Page<Issued>>(key, 'GET', '/Integration/Recalls/issued?PageSize=100'),
    call<Page<Notice>>(key, 'GET', '/Integration/Recalls?PageSize=100'),
    call<Page<Location>>(key, 'GET', '/Integration/Locations?PageSize=100'),
  ]);
  if (issued.status !== 200 || !issued.body) return show($('lists-message'), 'error', reason(issued));
  if (received.status !== 200 || !received.body) return show($('lists-message'), 'error', reason(received));
  $('issued').replaceChildren(
    issued.body.results.length
      ? el('table', { class: 'issued' }, [
          thead(['Issued', 'Lot', 'Reason', 'Effectiveness', 'State']),
          ...issued.body.results.map(issuedBody),
        ])
      : el('p', { class: 'empty', text: 'Your account has issued no recall.' }),
  );
  if (locations.status !== 200 || !locations.body) return show($('lists-message'), 'error', reason(locations));
  // Where the account destroys what it holds: its own locations, not its trade partners'.
  const places = locations.body.results.filter((l) => l.details.tradePartner.connectionType === 'SELF');
  $('received').replaceChildren(
    received.body.results.length
      ? el('table', { class: 'received' }, [
          thead(['Received', 'From', 'Recalled lot', 'Reason', 'Held when notified', 'State']),
          ...received.body.results.map((notice) => noticeBody(notice, places)),
        ])
      : el('p', { class: 'empty', text: 'No recall has reached your account.' }),
  );
}

/**
 * A refused answer as the API says it, each problem under its field (`Lots[0].Destroyed`), which the form
 * marks; a problem of a lot's figures together (`Lots[0]`: more than was shipped) marks them all.
 */
function refusal(form: HTMLFormElement, answer: Answer<unknown>): string {
  const errors = (answer.body as { errors?: unknown } | null)?.errors;
  if (!errors || typeof errors !== 'object') return reason(answer);
  const lots = form.querySelectorAll('tr[data-lot]');
  return Object.entries(errors as Record<string, string[]>)
    .map(([field, problems]) => {
      const [, index, name] = /^Lots\[(\d+)\](?:\.(\w+))?$/.exec(field) ?? [];
      if (index !== undefined)
        for (const marked of name ? [name] : ANSWER_FIELDS.map(([figure]) => figure))
          lots[Number(index)]?.querySelector(`[data-field="${marked}"]`)?.setAttribute('aria-invalid', 'true');
      return `${field}: ${problems.join(' ')}`;
    })
    .join('\n');
}

async function acknowledge(id: string, form: HTMLFormElement): Promise<void> {
  const key = session.key;
  if (!key) return;
  for (const marked of form.querySelectorAll('[aria-invalid]')) marked.removeAttribute('aria-invalid');
  const rows = [...form.querySelectorAll<HTMLTableRowElement>('tr[data-lot]')];
  // The lots in the table's order: the API's refusals name them by it (Lots[0]).
  const lots = rows.map((row) => {
    const where = row.querySelector('select')!.value;
    return {
      LotSerial: row.dataset.lot!,
      ...Object.fromEntries(
        ANSWER_FIELDS.flatMap(([field]) => {
          const figure = typed(row, field);
          return figure === null ? [] : [[field, figure]];
        }),
      ),
      ...(where ? { DestroyedAt: where } : {}),
    };
  });
  const held = rows.length
    ? round(rows.reduce((sum, row) => sum + (typed(row, 'OnHand') ?? 0), 0))
    : Number(form.querySelector<HTMLInputElement>('input.quantity')!.value);
  const answer = await call(key, 'POST', `/Integration/Recalls/${encodeURIComponent(id)}/acknowledge`, {
    QuantityOnHand: held,
    Action: form.querySelector<HTMLInputElement>('input.action-text')!.value.trim(),
    ...(rows.length ? { Lots: lots } : {}),
  });
  if (answer.status !== 200)
    return show(form.querySelector<HTMLElement>('.form-message')!, 'error', refusal(form, answer));
  await refresh();
}

async function downloadEffectiveness(id: string, format: 'csv' | 'xlsx', message: HTMLElement): Promise<void> {
  const key = session.key;
  if (!key) return;
  const path = `/Integration/Recalls/${encodeURIComponent(id)}/effectiveness.${format}`;
  const refused = await download(key, path, `recall-${id}-effectiveness.${format}`);
  show(message, refused ? 'error' : 'info', refused ? `The spreadsheet could not be made: ${reason(refused)}` : '');
}

async function closeRecall(id: string, form: HTMLFormElement, message: HTMLElement): Promise<void> {
  const key = session.key;
  if (!key) return;
  const why = form.querySelector('input')!.value.trim();
  const answer = await call(
    key,
    'POST',
    `/Integration/Recalls/${encodeURIComponent(id)}/close`,
    why ? { Reason: why } : {},
  );
  if (answer.status !== 200) return show(message, 'error', reason(answer));
  await refresh();
}

const session = signInForm(
  () => {
    for (const id of ['issued', 'received', 'lists-message']) $(id).replaceChildren();
  },
  () => void refresh(),
);

$('refresh').addEventListener('click', () => void refresh());
