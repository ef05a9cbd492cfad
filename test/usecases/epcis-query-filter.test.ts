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

  it('reads GS1’s sensor parameters: types as bare words, hex binary in capitals, numbers in their unit', () => {
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
      { kind: 'number', field: 'percRank', comparison: 'LT', values: ['50'], unit: null },
      { kind: 'number', field: 'maxValue', comparison: 'GT', values: ['4'], unit: 'CEL' },
      { kind: 'number', field: 'value', comparison: 'EQ', values: ['1', '2.5'], unit: 'A93' },
      { kind: 'number', field: 'sDev', comparison: 'GE', values: ['0.9'], unit: 'FAH' },
    ]);
    expect(queryFilterOf('account-1', {}).sensor).toEqual([]);
  });

  it('reads GS1’s extension parameters: the part, INNER_, the field by its declared namespace or as written', () => {
    const { extension } = queryFilterOf(
      'account-1',
      {
        'EQ_ILMD_cbvmda:countryOfOrigin': 'GB|KR',
        'GT_INNER_SENSORREPORT_ex:weight': '1.5e2',
        'LE_ext:caught': '2024-03-01T10:00:00 01:00',
        'EXISTS_readPoint_other:gate': 'true',
        'EXISTS_other:absent': 'false',
      },
      { ex: 'https://ns.example.com/epcis/' },
    );
    expect(extension).toEqual([
      {
        area: 'ILMD',
        inner: false,
        field: { namespaces: ['urn:epcglobal:cbv:mda', 'urn:epcglobal:cbv:mda#'], local: 'countryOfOrigin' },
        test: { kind: 'equals', texts: ['GB', 'KR'], numbers: [], times: [] },
      },
      {
        area: 'SENSORREPORT',
        inner: true,
        field: { namespaces: ['https://ns.example.com/epcis/'], local: 'weight' },
        test: { kind: 'number', comparison: 'GT', value: '1.5e2' },
      },
      // An undeclared prefix is matched as written; a + sent unencoded is read as one.
      {
        area: 'event',
        inner: false,
        field: { name: 'ext:caught' },
        test: { kind: 'time', comparison: 'LE', at: '2024-03-01T09:00:00.000Z' },
      },
      { area: 'readPoint', inner: false, field: { name: 'other:gate' }, test: { kind: 'exists' } },
    ]);
    const refused = refusal(() => queryFilterOf('account-1', { 'GE_ext:weight': 'heavy' }));
    expect(refused.issues).toEqual([
      { pointer: '/GE_ext:weight', message: expect.stringContaining('neither a number') },
    ]);
  });

  it('reads a quantity in a unit, the values as sent', () => {
    const { quantityInUnit } = queryFilterOf('account-1', { GE_quantity_lbr: '100', EQ_quantity_H87: '1|2' });
    expect(quantityInUnit).toEqual([
      { comparison: 'GE', unit: 'LBR', values: ['100'] },
      { comparison: 'EQ', unit: 'H87', values: ['1', '2'] },
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
