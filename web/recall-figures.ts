import type { issuedRecall } from '../contract/recalls/schema';
import type { AnswerOf } from '../contract/openapi/schema';
import { plural, quantity } from './format';

/**
 * A recall's effectiveness as its issuer sees it (GET /Integration/Recalls/issued and /{id}), and the
 * words both the recalls page and the trace page say it in.
 */

/** A recall as its issuer sees it. */
export type Issued = AnswerOf<typeof issuedRecall>;
export type Strategy = Issued['strategy'];
export type Effectiveness = Issued['effectiveness'];
/** The quantities of one unit, summed over every consignee. */
export type QuantityTotals = Effectiveness['quantities'][number];

/** `Level A: 100% of 3 consignees, 3 answers needed`: what the check level asks for. */
export const checkText = (strategy: Strategy, e: Effectiveness): string =>
  `Level ${strategy.effectivenessCheck.level}: ${e.checkPercent}% of ${plural(e.consignees, 'consignee')}, ` +
  `${plural(e.required, 'answer')} needed`;

/** `2 acknowledged: not met`: whether the answers meet it (met by no answer when the recall reached no one). */
export const verdictText = (e: Effectiveness): string =>
  e.consignees === 0
    ? 'it reached no other account: no answer to wait for'
    : `${e.acknowledged} acknowledged: ${e.levelMet ? 'met' : 'not met'}`;

/** `Level A: 100% of 3 consignees, 3 answers needed; 2 acknowledged: not met`. */
export const levelText = (strategy: Strategy, e: Effectiveness): string =>
  `${checkText(strategy, e)}; ${verdictText(e)}`;

/** Per unit, what is still out of what was shipped: `22 kg of 110 kg, 2 cases of 5 cases`. */
export const outOfShipped = (quantities: QuantityTotals[]): string =>
  quantities.map((q) => `${quantity(q.outstanding, q.unit)} of ${quantity(q.shipped, q.unit)}`).join(', ');
