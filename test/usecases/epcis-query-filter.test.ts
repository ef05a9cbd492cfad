import { EpcisQueryRefused, queryFilterOf } from '../../usecases/epcis-query-filter';

/** An EPCIS query's parameters read as a filter, with no HTTP: what GET /epcis/events and a named query share. */
describe('an EPCIS query as a filter of the account’s events (use case)', () => {
  const refusal = (run: () => unknown): EpcisQueryRefused => {
    try {
      run();
    } catch (error) {
      if (error instanceof EpcisQueryRefused) return error;
      throw error;
    }
    throw new Error('the query was not refused');
  };

  it('reads lists separated by |, times, quantities and EPC patterns', () => {
    const filter = queryFilterOf('account-1', {
      eventType: 'ObjectEvent| TransformationEvent |',
      GE_eventTime: '2024-03-01T00:00:00Z',
      EQ_bizStep: 'shipping',
      GT_quantity: '10',
      MATCH_epc: 'urn:epc:idpat:sgtin:4012345.*.*',
      EXISTS_errorDeclaration: 'true',
    });
    expect(filter).toMatchObject({
      accountId: 'account-1',
      eventType: ['ObjectEvent', 'TransformationEvent'],
      GE_eventTime: new Date('2024-03-01T00:00:00Z'),
      LT_eventTime: undefined,
      EQ_bizStep: ['shipping'],
      EQ_action: undefined,
      quantity: { GT: 10 },
      match: { epc: ['urn:epc:idpat:sgtin:4012345.*.*'] },
      EXISTS_errorDeclaration: true,
    });
    expect(filter).not.toHaveProperty('limit');
    expect(filter).not.toHaveProperty('afterSeq');
  });

  it('refuses an EPC pattern it cannot read, naming the parameter', () => {
    const refused = refusal(() => queryFilterOf('account-1', { MATCH_anyEPC: 'urn:epc:idpat:sgtin:nonsense' }));
    expect(refused.code).toBe('epcis-unreadable-epc-pattern');
    expect(refused.issues).toEqual([{ pointer: '/MATCH_anyEPC', message: expect.stringContaining('MATCH_anyEPC') }]);
  });

  it('refuses a date-time a Date cannot hold (a leap second), naming the parameter', () => {
    const refused = refusal(() => queryFilterOf('account-1', { LT_recordTime: '2016-12-31T23:59:60Z' }));
    expect(refused.code).toBe('epcis-invalid-query-time');
    expect(refused.issues).toEqual([
      { pointer: '/LT_recordTime', message: 'LT_recordTime "2016-12-31T23:59:60Z" is not a valid date-time.' },
    ]);
  });
});
