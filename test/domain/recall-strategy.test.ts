import {
  checkPercentOf,
  consigneeFigures,
  effectivenessTotals,
  type ConsigneeFacts,
} from '../../domain/recall-strategy';
import { destroyedEvent } from '../../domain/recall-decommission';

const consignee = (facts: ConsigneeFacts) => ({ facts, figures: consigneeFigures(facts) });
const shipped = (lotSerial: string, quantity: number, unit = 'kg') => ({ lotSerial, quantity, unit });

describe('a recall’s effectiveness check', () => {
  it('checks the level’s share: A all, B the issuer’s percentage, C 10%, D 2%, E none', () => {
    expect(checkPercentOf('A', undefined)).toBe(100);
    expect(checkPercentOf('B', 37.5)).toBe(37.5);
    expect(checkPercentOf('C', undefined)).toBe(10);
    expect(checkPercentOf('D', undefined)).toBe(2);
    expect(checkPercentOf('E', undefined)).toBe(0);
    expect(checkPercentOf('B', undefined)).toMatch(/needs Percent/);
    expect(checkPercentOf('B', 10)).toMatch(/between 10 and 100/);
    expect(checkPercentOf('B', 100)).toMatch(/use level A/);
    expect(checkPercentOf('D', 2)).toMatch(/level B only/);
  });

  it('rounds the answers a level takes up: 2% of 120 consignees is 3 answers, 10% of 3 is one', () => {
    const quiet = consignee({ shipped: [shipped('L', 1)], answers: null, acknowledged: false, overdue: false });
    const answered = consignee({ shipped: [shipped('L', 1)], answers: null, acknowledged: true, overdue: false });
    const many = [...Array<typeof quiet>(118).fill(quiet), answered, answered];
    expect(effectivenessTotals(many, 2)).toMatchObject({
      consignees: 120,
      required: 3,
      acknowledged: 2,
      levelMet: false,
    });
    expect(effectivenessTotals([quiet, quiet, answered], 10)).toMatchObject({ required: 1, levelMet: true });
    // Level E checks nobody; a recall that reached nobody meets any level.
    expect(effectivenessTotals([quiet], 0)).toMatchObject({ required: 0, levelMet: true });
    expect(effectivenessTotals([], 100)).toMatchObject({ consignees: 0, required: 0, levelMet: true, quantities: [] });
  });

  it('counts what is still out per lot, never below 0, and acted only when everything shipped is accounted for', () => {
    const over = consigneeFigures({
      shipped: [shipped('L', 10), shipped('M', 4)],
      answers: [{ lotSerial: 'L', onHand: 3, returned: 4, destroyed: 2, soldOn: 3 }],
      acknowledged: true,
      overdue: false,
    });
    expect(over.lots.map((l) => [l.lotSerial, l.accountedFor, l.outstanding])).toEqual([
      ['L', 12, 0],
      ['M', 0, 4],
    ]);
    expect(over.progress).toBe('acknowledged');
    const all = consigneeFigures({
      shipped: [shipped('L', 0.3)],
      answers: [{ lotSerial: 'L', onHand: 0.1, returned: 0.2, destroyed: 0, soldOn: 0 }],
      acknowledged: true,
      overdue: false,
    });
    expect(all).toMatchObject({ progress: 'acted', lots: [{ accountedFor: 0.3, outstanding: 0 }] });
    // Acknowledged without per-lot answers: it answered, nothing is accounted for.
    expect(
      consigneeFigures({ shipped: [shipped('L', 5)], answers: null, acknowledged: true, overdue: false }).progress,
    ).toBe('acknowledged');
  });

  it('sums quantities per unit, never across units', () => {
    const totals = effectivenessTotals(
      [
        consignee({
          shipped: [shipped('L', 10, 'kg'), shipped('P', 3, 'each')],
          answers: null,
          acknowledged: false,
          overdue: true,
        }),
        consignee({
          shipped: [shipped('L', 5, 'kg')],
          answers: [{ lotSerial: 'L', onHand: 0, returned: 5, destroyed: 0, soldOn: 0 }],
          acknowledged: true,
          overdue: false,
        }),
      ],
      100,
    );
    expect(totals).toMatchObject({ overdue: 1, acknowledged: 1, acted: 1, required: 2, levelMet: false });
    expect(totals.quantities).toEqual([
      { unit: 'kg', shipped: 15, onHand: 0, returned: 5, destroyed: 0, soldOn: 0, accountedFor: 5, outstanding: 10 },
      { unit: 'each', shipped: 3, onHand: 0, returned: 0, destroyed: 0, soldOn: 0, accountedFor: 0, outstanding: 3 },
    ]);
  });
});

describe('a recall’s decommission event', () => {
  const lot = {
    recallId: 'r-1',
    productId: 'COD',
    locationId: 'PLANT',
    lotSerial: 'L-1',
    quantity: 4,
    recorded: 0,
    at: new Date('2026-12-06T10:00:00Z'),
  };

  it('is one event per starting point: an answer sent again while the first one ran, with another total or place, is its duplicate', () => {
    const first = destroyedEvent(lot);
    expect(destroyedEvent({ ...lot, quantity: 6, locationId: 'STORE' }).Id).toBe(first.Id);
    expect(destroyedEvent({ ...lot, recorded: 4, quantity: 2 }).Id).not.toBe(first.Id);
    expect(destroyedEvent({ ...lot, lotSerial: 'L-2' }).Id).not.toBe(first.Id);
    expect(first.ProductInstances).toEqual([{ Quantity: 4, LotSerial: 'L-1', Product: { Id: 'COD' } }]);
  });
});
