import type { NoticeRow } from '../../../db/repositories/recalls';
import { iso, recallEffectiveness, recallSummary, type Issued } from '../../../usecases/recalls';
import { csvField, xlsxWorkbook } from '../../../platform/spreadsheet-writing';
import { EFFECTIVENESS_COLUMNS, EFFECTIVENESS_TOTALS_COLUMNS } from '../../../contract/recalls/schema';

const isoOrNull = (at: Date | string | null): string | null => (at ? iso(at) : null);

const acknowledgementOf = (row: NoticeRow) =>
  row.acknowledged_at
    ? {
        time: iso(row.acknowledged_at),
        quantityOnHand: Number(row.quantity_on_hand),
        action: row.action!,
        lots: row.lot_answers,
      }
    : null;

/** A holder's state: told of the recall, or answered it. */
const noticeState = (row: NoticeRow): 'notified' | 'acknowledged' =>
  row.acknowledged_at ? 'acknowledged' : 'notified';

/**
 * A recall's state as its issuer sees it: closed (by the issuer, whatever its holders answered), open
 * (it reached no other account: only the issuer's own stock), notified (some holder has not answered
 * yet), acknowledged (every holder answered).
 */
const recallState = ({ recall, notices }: Issued): 'closed' | 'open' | 'notified' | 'acknowledged' =>
  recall.closed_at
    ? 'closed'
    : !notices.length
      ? 'open'
      : notices.every((n) => n.acknowledged_at)
        ? 'acknowledged'
        : 'notified';

/** A consignee's follow-up, as both sides see it. */
const followUpOf = (row: NoticeRow) => ({
  tier: row.tier,
  notifiedTime: iso(row.notified_at),
  reminders: row.reminded_at.map(iso),
  overdueTime: isoOrNull(row.overdue_at),
  passedOnTime: isoOrNull(row.passed_on_at),
});

/** What a consignee sees: only what its own traces show. */
export const presentNotice = (row: NoticeRow) => ({
  ...recallSummary(row),
  role: 'holder' as const,
  // Closed for the holder as for the issuer; whether it answered is `acknowledgement`.
  state: row.closed_at ? ('closed' as const) : noticeState(row),
  ...followUpOf(row),
  shipped: row.shipped,
  ...row.notice,
  acknowledgement: acknowledgementOf(row),
});

/** What the issuer sees: the effectiveness, and per consignee its lots, answer, follow-up and figures. */
export function presentIssued(issued: Issued) {
  const { recall } = issued;
  const { consignees, effectiveness } = recallEffectiveness(issued);
  return {
    ...recallSummary(recall),
    role: 'issuer' as const,
    state: recallState(issued),
    productId: recall.product_external_id,
    lotSerial: recall.lot_serial,
    effectiveness,
    holders: consignees.map(({ notice: n, figures }) => ({
      account: n.holder_name,
      lots: n.received_lots,
      state: noticeState(n),
      acknowledgement: acknowledgementOf(n),
      via: n.via_name ?? recall.issuer_name,
      progress: figures.progress,
      ...followUpOf(n),
      quantities: figures.lots,
    })),
  };
}

/** The rows of the effectiveness spreadsheets: one per consignee and lot it received, in the view's order (tier, then name). */
function effectivenessRows(issued: Issued): (string | number)[][] {
  return presentIssued(issued).holders.flatMap((h) =>
    h.quantities.map((lot) => [
      h.account,
      h.tier,
      h.via,
      h.progress,
      h.notifiedTime,
      h.acknowledgement?.time ?? '',
      h.reminders.length,
      h.overdueTime ?? '',
      h.passedOnTime ?? '',
      lot.lotSerial,
      lot.unit,
      lot.quantity,
      lot.onHand,
      lot.returned,
      lot.destroyed,
      lot.soldOn,
      lot.accountedFor,
      lot.outstanding,
    ]),
  );
}

/** The issuer's view as CSV: EFFECTIVENESS_COLUMNS, a row per consignee and lot. */
export const effectivenessCsv = (issued: Issued): string =>
  `${[EFFECTIVENESS_COLUMNS, ...effectivenessRows(issued)].map((row) => row.map(csvField).join(',')).join('\n')}\n`;

/**
 * The issuer's view as XLSX: the CSV's rows on the sheet Consignees, and on the sheet Totals the
 * recall's effectiveness (its counts, whether the level is met) and its quantities per unit.
 */
export function effectivenessXlsx(issued: Issued): Promise<Buffer> {
  const { effectiveness: e } = recallEffectiveness(issued);
  const { recall } = issued;
  return xlsxWorkbook([
    { name: 'Consignees', columns: EFFECTIVENESS_COLUMNS, rows: effectivenessRows(issued) },
    {
      name: 'Totals',
      columns: EFFECTIVENESS_TOTALS_COLUMNS,
      rows: (e.quantities.length ? e.quantities : [null]).map((q) => [
        recall.product_external_id,
        recall.lot_serial,
        recall.check_level,
        e.checkPercent,
        e.consignees,
        e.reached,
        e.acknowledged,
        e.acted,
        e.overdue,
        e.required,
        e.levelMet ? 'yes' : 'no',
        ...(q
          ? [q.unit, q.shipped, q.onHand, q.returned, q.destroyed, q.soldOn, q.accountedFor, q.outstanding]
          : Array<null>(8).fill(null)),
      ]),
    },
  ]);
}
