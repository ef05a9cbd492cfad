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

  it('reads GS1’s sensor parameters, a temperature bound in each of CEL, FAH and KEL, a spread without offset', () => {
    const filter = queryFilterOf('account-1', {
      EXISTS_sensorElementList: 'true',
      GE_time: '2024-03-01T01:00:00+01:00',
      EQ_type: 'gs1:Temperature|https://gs1.org/voc/Humidity|example:Smell',
      EQ_hexBinaryValue: 'f0a1',
      EQ_booleanValue: 'false',
      LT_percRank: '50',
      GT_maxValue_cel: '4',
      EQ_value_A93: '1|2.5',
      GE_sDev_FAH: '0.9',
    });
    expect(filter.sensor).toEqual([
      { kind: 'exists' },
      { kind: 'time', field: 'time', comparison: 'GE', at: '2024-03-01T00:00:00.000Z' },
      { kind: 'text', field: 'type', values: ['Temperature', 'Humidity', 'example:Smell'] },
      { kind: 'text', field: 'hexBinaryValue', values: ['F0A1'] },
      { kind: 'boolean', value: false },
      { kind: 'number', field: 'percRank', comparison: 'LT', bounds: [{ uom: null, value: 50 }] },
      {
        kind: 'number',
        field: 'maxValue',
        comparison: 'GT',
        bounds: [
          { uom: 'KEL', value: 277.15 },
          { uom: 'CEL', value: 4 },
          { uom: 'FAH', value: 39.2 },
        ],
      },
      {
        kind: 'number',
        field: 'value',
        comparison: 'EQ',
        bounds: [
          { uom: 'A93', value: 1 },
          { uom: 'A93', value: 2.5 },
        ],
      },
      {
        kind: 'number',
        field: 'sDev',
        comparison: 'GE',
        bounds: [
          { uom: 'KEL', value: 0.5 },
          { uom: 'CEL', value: 0.5 },
          { uom: 'FAH', value: 0.9 },
        ],
      },
    ]);
    expect(queryFilterOf('account-1', {}).sensor).toEqual([]);
  });

  it('reads a quantity in a unit, a mass in every unit of mass', () => {
    const { quantityInUnit } = queryFilterOf('account-1', { GE_quantity_lbr: '100', EQ_quantity_H87: '1|2' });
    expect(quantityInUnit).toEqual([
      {
        comparison: 'GE',
        bounds: expect.arrayContaining([
          { uom: 'LBR', value: 100 },
          { uom: 'KGM', value: 45.359237 },
          { uom: 'GRM', value: 45359.237 },
          { uom: 'ONZ', value: 1600 },
        ]),
      },
      {
        comparison: 'EQ',
        bounds: [
          { uom: 'H87', value: 1 },
          { uom: 'H87', value: 2 },
        ],
      },
    ]);
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
