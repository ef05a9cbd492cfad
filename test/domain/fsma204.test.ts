import { parse } from 'csv-parse/sync';
import { fsmaCsv } from '../../platform/spreadsheet-writing';
import { CTE_COLUMNS, FSMA_COLUMNS, fsmaRows, type CteLine, type PlaceFacts } from '../../domain/fsma204';

const place = (id: string, name: string, gln: string | null = null): PlaceFacts => ({
  id,
  tradePartner: 'Acme',
  name,
  gln,
  address: { addressLine1: 'Kai 1', city: 'Bergen', postalCode: '5003', country: 'NO' },
  phone: '+47 55 00 00 00',
  vessel: null,
});

const vessel: PlaceFacts = {
  ...place('v', 'FV Nordkapp'),
  vessel: { name: 'FV Nordkapp', identifier: 'IMO 9876543', flagState: 'NO' },
};

const line = (over: Partial<CteLine>): CteLine => ({
  eventId: 'e',
  account: 'acme',
  type: 'Commission',
  role: 'instance',
  eventTime: new Date('2024-07-01T06:00:00Z'),
  lotSerial: 'L1',
  productName: 'Cod',
  quantity: '10',
  unit: 'KGM',
  location: place('p1', 'Plant', '7038010000010'),
  source: null,
  destination: null,
  documents: [],
  inputLots: [],
  harvestAreas: [],
  ...over,
});

describe('FSMA 204 rows', () => {
  it('one row per CTE line, inputs folded into their output, the lot code source where it was assigned', () => {
    const rows = fsmaRows([
      line({
        eventId: 't',
        type: 'Transform',
        role: 'output',
        lotSerial: 'F1',
        eventTime: new Date('2024-07-02T06:00:00Z'),
        inputLots: ['L1'],
      }),
      line({ eventId: 't', type: 'Transform', role: 'input', eventTime: new Date('2024-07-02T06:00:00Z') }),
      line({ eventId: 'c' }),
      line({ eventId: 'o', type: 'Observe' }),
      line({
        eventId: 's',
        type: 'Ship',
        lotSerial: 'F1',
        eventTime: new Date('2024-07-03T06:00:00Z'),
        destination: place('b', 'Buyer'),
        documents: [{ type: 'BOL', number: 'B-1' }],
      }),
    ]);
    expect(
      rows.map((r) => [r['Critical Tracking Event'], r['Traceability Lot Code'], r['Input Traceability Lot Codes']]),
    ).toEqual([
      ['Initial Packing', 'L1', ''],
      ['Transformation', 'F1', 'L1'],
      ['Shipping', 'F1', ''],
    ]);
    expect(rows[2]).toMatchObject({
      'Traceability Lot Code Source Location Description':
        'Acme, Plant, Kai 1, Bergen, 5003, NO, phone +47 55 00 00 00',
      'Traceability Lot Code Source Reference': 'GLN 7038010000010',
      'Immediate Subsequent Recipient Location Description':
        'Acme, Buyer, Kai 1, Bergen, 5003, NO, phone +47 55 00 00 00',
      'Reference Document Type': 'BOL',
      'Reference Document Number': 'B-1',
      'Event Time (UTC)': '2024-07-03T06:00:00Z',
    });
  });

  it('the CSV keeps a cell that a spreadsheet would run as a formula as text', () => {
    const lines = [
      line({ lotSerial: '=HYPERLINK("http://x")', productName: 'Cod, "fresh"' }),
      line({ productName: 'Cod\r\nloins', quantity: '2.5' }),
    ];
    const [header, row, second] = parse(fsmaCsv(fsmaRows(lines))) as string[][];
    expect(header).toEqual([...FSMA_COLUMNS]);
    expect(second[FSMA_COLUMNS.indexOf('Product Description')]).toBe('Cod\r\nloins');
    expect(second[FSMA_COLUMNS.indexOf('Quantity')]).toBe('2.5');
    expect(row[FSMA_COLUMNS.indexOf('Traceability Lot Code')]).toBe(`'=HYPERLINK("http://x")`);
    expect(row[FSMA_COLUMNS.indexOf('Product Description')]).toBe('Cod, "fresh"');
  });

  describe('seafood from a fishing vessel (21 CFR 1.1335)', () => {
    const dock = place('d', 'Landing dock', '7038010000027');
    const at = (day: string) => new Date(`2024-08-${day}T06:00:00Z`);
    const trip = [
      line({
        eventId: 'catch-1',
        location: vessel,
        lotSerial: 'C1',
        eventTime: at('01'),
        harvestAreas: ['FAO 27'],
        documents: [{ type: 'Certification', number: 'CATCH-CERT' }],
      }),
      line({
        eventId: 'catch-2',
        location: vessel,
        lotSerial: 'C1',
        eventTime: at('03'),
        harvestAreas: ['FAO 27', 'FAO 21'],
      }),
      line({
        eventId: 'unload',
        type: 'Ship',
        location: vessel,
        destination: dock,
        lotSerial: 'C1',
        eventTime: at('04'),
      }),
    ];

    it('the first receipt on land is the First Land-Based Receiving CTE with the trip’s harvest dates and areas, the vessel and the landing date; the receiver is the lot code source', () => {
      const rows = fsmaRows([
        line({ eventId: 'packed' }),
        ...trip,
        line({
          eventId: 'landed',
          type: 'Receive',
          location: dock,
          source: vessel,
          lotSerial: 'C1',
          eventTime: at('05'),
          documents: [{ type: 'Certification', number: 'CC-1' }],
        }),
        line({
          eventId: 'sold',
          type: 'Ship',
          location: dock,
          destination: place('b', 'Buyer'),
          lotSerial: 'C1',
          eventTime: at('06'),
        }),
      ]);
      // The catches and the unloading happened at sea: no CTE rows of their own.
      expect(rows.map((r) => [r['Critical Tracking Event'], r['Event Id']])).toEqual([
        ['Initial Packing', 'packed'],
        ['First Land-Based Receiving', 'landed'],
        ['Shipping', 'sold'],
      ]);
      const dockDescription = 'Acme, Landing dock, Kai 1, Bergen, 5003, NO, phone +47 55 00 00 00';
      expect(rows[1]).toMatchObject({
        'Traceability Lot Code': 'C1',
        'Traceability Lot Code Source Location Description': dockDescription,
        'Traceability Lot Code Source Reference': 'GLN 7038010000027',
        'Harvest Start Date': '2024-08-01',
        'Harvest End Date': '2024-08-03',
        'Harvest Location': 'FAO 27; FAO 21',
        'Landing Date': '2024-08-05',
        'Vessel Name': 'FV Nordkapp',
        'Vessel Identifier': 'IMO 9876543',
        'Vessel Flag State': 'NO',
        'Immediate Previous Source Location Description': '',
        // The landing's own documents, then the catch certificate recorded at sea.
        'Reference Document Number': 'CC-1; CATCH-CERT',
      });
      expect(rows[2]).toMatchObject({
        'Traceability Lot Code Source Location Description': dockDescription,
        'Harvest Location': '',
        'Landing Date': '',
        'Vessel Name': '',
      });
      // A lot packed on land keeps its initial packing, with no seafood columns.
      expect(rows[0]).toMatchObject({
        'Harvest Start Date': '',
        'Vessel Name': '',
        'Traceability Lot Code Source Reference': 'GLN 7038010000010',
      });
    });

    it('a catch never seen on land, or first moved on land by something other than a receipt, has no landing row and is never initial packing', () => {
      expect(fsmaRows(trip)).toEqual([]);
      const transformed = fsmaRows([
        ...trip,
        line({ eventId: 't', type: 'Transform', role: 'output', location: dock, lotSerial: 'C1', eventTime: at('05') }),
      ]);
      expect(transformed.map((r) => r['Critical Tracking Event'])).toEqual(['Transformation']);
    });
  });

  it('each CTE’s sheet has the KDE columns of that CTE', () => {
    const common = [
      'Traceability Lot Code',
      'Traceability Lot Code Source Location Description',
      'Traceability Lot Code Source Reference',
      'Product Description',
      'Quantity',
      'Unit of Measure',
    ];
    for (const columns of Object.values(CTE_COLUMNS)) {
      expect(columns).toEqual(
        expect.arrayContaining([
          ...common,
          'Event Time (UTC)',
          'Location Description',
          'Reference Document Type',
          'Reference Document Number',
        ]),
      );
      expect(columns).not.toContain('Critical Tracking Event');
    }
    expect(CTE_COLUMNS['First Land-Based Receiving']).toEqual(
      expect.arrayContaining([
        'Harvest Start Date',
        'Harvest End Date',
        'Harvest Location',
        'Landing Date',
        'Vessel Name',
        'Vessel Identifier',
        'Vessel Flag State',
      ]),
    );
    expect(CTE_COLUMNS['First Land-Based Receiving']).not.toContain('Event Date');
    expect(CTE_COLUMNS.Shipping).toContain('Immediate Subsequent Recipient Location Description');
    expect(CTE_COLUMNS.Shipping).not.toContain('Immediate Previous Source Location Description');
    expect(CTE_COLUMNS.Receiving).toContain('Immediate Previous Source Location Description');
    expect(CTE_COLUMNS.Transformation).toContain('Input Traceability Lot Codes');
    for (const cte of ['Initial Packing', 'Shipping', 'Receiving', 'Transformation'] as const)
      expect(CTE_COLUMNS[cte]).not.toContain('Landing Date');
  });
});
