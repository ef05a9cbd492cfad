import type { NoticeRow } from '../../../db/repositories/recalls';
import { iso, recallEffectiveness, recallSummary, type Issued } from '../../../usecases/recalls';
import { csvField } from '../../../platform/spreadsheet-writing';
import { EFFECTIVENESS_COLUMNS } from './schema';

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
 * A recall's state as its issuer sees it: open (it reached no other account: only the issuer's own
 * stock), notified (some holder has not answered yet), acknowledged (every holder answered).
 */
const recallState = (notices: NoticeRow[]): 'open' | 'notified' | 'acknowledged' =>
  !notices.length ? 'open' : notices.every((n) => n.acknowledged_at) ? 'acknowledged' : 'notified';

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
  state: noticeState(row),
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
    state: recallState(issued.notices),
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

/** The issuer's view as CSV: one row per consignee and lot it received, in the view's order (tier, then name). */
export function effectivenessCsv(issued: Issued): string {
  const lines = [EFFECTIVENESS_COLUMNS.join(',')];
  for (const h of presentIssued(issued).holders)
    for (const lot of h.quantities)
      lines.push(
        [
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
        ]
          .map(csvField)
          .join(','),
      );
  return `${lines.join('\n')}\n`;
}
