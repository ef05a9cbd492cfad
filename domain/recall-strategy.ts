/**
 * A recall's strategy and how its effectiveness is judged (21 CFR 7.42(b), 7.46): the depth the
 * recall extends to, and the effectiveness check level, the share of consignees whose answer must
 * show they received the notice and acted on it. Pure: the figures come from the stored notices.
 */
export const RECALL_DEPTHS = ['Consumer', 'Retail', 'Wholesale'] as const;
export type RecallDepth = (typeof RECALL_DEPTHS)[number];

export const CHECK_LEVELS = ['A', 'B', 'C', 'D', 'E'] as const;
export type CheckLevel = (typeof CHECK_LEVELS)[number];

/** The share of consignees each level checks; B's lies between C's and A's and is the issuer's to give. */
export const LEVEL_PERCENT: Record<Exclude<CheckLevel, 'B'>, number> = { A: 100, C: 10, D: 2, E: 0 };

/** What an unanswered consignee gets, unless the issuer says otherwise: a reminder a day, overdue after the third. */
export const DEFAULT_REMINDERS = { everySeconds: 86_400, overdueAfter: 3 } as const;

/** The percentage a level checks, or what is wrong with the pair (B needs its percentage, the others take none). */
export function checkPercentOf(level: CheckLevel, percent: number | undefined): number | string {
  if (level === 'B') {
    if (percent === undefined) return `Level B needs Percent, between ${LEVEL_PERCENT.C} and 100 (exclusive).`;
    if (!(percent > LEVEL_PERCENT.C && percent < 100))
      return `Percent of level B lies between ${LEVEL_PERCENT.C} and 100 (exclusive); use level A for 100 and C for ${LEVEL_PERCENT.C}.`;
    return percent;
  }
  if (percent !== undefined)
    return `Percent is given with level B only; level ${level} checks ${LEVEL_PERCENT[level]}%.`;
  return LEVEL_PERCENT[level];
}

/** What was shipped to a consignee of one lot: the shipper's ship events of it to the consignee's GLN. */
export interface ShippedLot {
  lotSerial: string;
  quantity: number;
  unit: string;
}

/** What a consignee says became of one lot it received, in the lot's unit. */
export interface LotAnswer {
  lotSerial: string;
  onHand: number;
  returned: number;
  destroyed: number;
  soldOn: number;
}

/** An answer's figures, summed up against what was shipped. */
interface Accounted extends Omit<LotAnswer, 'lotSerial'> {
  /** onHand + returned + destroyed + soldOn. */
  accountedFor: number;
  /** What is still out: shipped less what is accounted for, never below 0. */
  outstanding: number;
}

export type LotFigures = ShippedLot & Accounted;

/** notified: the notice is in its list; acknowledged: it answered; acted: its answer accounts for everything shipped to it. */
export type ConsigneeProgress = 'notified' | 'acknowledged' | 'acted';

export interface ConsigneeFacts {
  shipped: ShippedLot[];
  answers: LotAnswer[] | null;
  acknowledged: boolean;
  overdue: boolean;
}

/** Quantities to the millionth: sums of decimals without binary noise (0.1 + 0.2 is 0.3). */
export const round = (n: number): number => Math.round(n * 1e6) / 1e6;

export function consigneeFigures(facts: ConsigneeFacts): { progress: ConsigneeProgress; lots: LotFigures[] } {
  const lots = facts.shipped.map((lot): LotFigures => {
    const answer = facts.answers?.find((a) => a.lotSerial === lot.lotSerial);
    const { onHand = 0, returned = 0, destroyed = 0, soldOn = 0 } = answer ?? {};
    const accountedFor = round(onHand + returned + destroyed + soldOn);
    return {
      ...lot,
      onHand,
      returned,
      destroyed,
      soldOn,
      accountedFor,
      outstanding: round(Math.max(0, lot.quantity - accountedFor)),
    };
  });
  const progress: ConsigneeProgress = !facts.acknowledged
    ? 'notified'
    : facts.answers && lots.every((l) => l.outstanding === 0)
      ? 'acted'
      : 'acknowledged';
  return { progress, lots };
}

export interface QuantityTotals extends Accounted {
  unit: string;
  shipped: number;
}

/** The figures effectivenessTotals sums per unit besides the shipped quantity, in the order it answers them. */
const SUMMED = ['onHand', 'returned', 'destroyed', 'soldOn', 'accountedFor', 'outstanding'] as const;

export function effectivenessTotals(
  consignees: { facts: ConsigneeFacts; figures: ReturnType<typeof consigneeFigures> }[],
  checkPercent: number,
) {
  const count = (progress: ConsigneeProgress[]) =>
    consignees.filter((c) => progress.includes(c.figures.progress)).length;
  const acknowledged = count(['acknowledged', 'acted']);
  const required = Math.ceil(round((consignees.length * checkPercent) / 100));
  const byUnit = new Map<string, QuantityTotals>();
  for (const lot of consignees.flatMap((c) => c.figures.lots)) {
    const t = byUnit.get(lot.unit);
    const sum = { unit: lot.unit, shipped: round((t?.shipped ?? 0) + lot.quantity) } as QuantityTotals;
    for (const key of SUMMED) sum[key] = round((t?.[key] ?? 0) + lot[key]);
    byUnit.set(lot.unit, sum);
  }
  return {
    consignees: consignees.length,
    // Consignees whose notice is stored (in their notice list, and owed to their webhooks).
    reached: consignees.length,
    acknowledged,
    acted: count(['acted']),
    overdue: consignees.filter((c) => c.facts.overdue).length,
    // The level's percentage of the consignees, and how many answers that takes (rounded up).
    checkPercent,
    required,
    levelMet: acknowledged >= required,
    // Per unit, summed over every consignee: a quantity sold on to another consignee counts at both.
    quantities: [...byUnit.values()],
  };
}
