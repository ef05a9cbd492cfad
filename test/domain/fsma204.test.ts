import { parse } from 'csv-parse/sync';
import { fsmaCsv } from '../../api/routes/trace/spreadsheet';
import { FSMA_COLUMNS, fsmaRows, type CteLine, type PlaceFacts } from '../../domain/fsma204';

const place = (id: string, name: string, gln: string | null = null): PlaceFacts => ({
  id,
  tradePartner: 'Acme',
  name,
  gln,
  address: { addressLine1: 'Kai 1', city: 'Bergen', postalCode: '5003', country: 'NO' },
  phone: '+47 55 00 00 00',
});

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
  ...over,
});

describe('FSMA 204 rows', () => {
  it('one row per CTE line, inputs folded into their output, the lot code source where it was assigned', () => {
    const rows = fsmaRows([
      line({ eventId: 't', type: 'Transform', role: 'output', lotSerial: 'F1', eventTime: new Date('2024-07-02T06:00:00Z'), inputLots: ['L1'] }),
      line({ eventId: 't', type: 'Transform', role: 'input', eventTime: new Date('2024-07-02T06:00:00Z') }),
      line({ eventId: 'c' }),
      line({ eventId: 'o', type: 'Observe' }),
      line({ eventId: 's', type: 'Ship', lotSerial: 'F1', eventTime: new Date('2024-07-03T06:00:00Z'), destination: place('b', 'Buyer'), documents: [{ type: 'BOL', number: 'B-1' }] }),
    ]);
    expect(rows.map((r) => [r['Critical Tracking Event'], r['Traceability Lot Code'], r['Input Traceability Lot Codes']])).toEqual([
      ['Initial Packing', 'L1', ''],
      ['Transformation', 'F1', 'L1'],
      ['Shipping', 'F1', ''],
    ]);
    expect(rows[2]).toMatchObject({
      'Traceability Lot Code Source Location Description': 'Acme, Plant, Kai 1, Bergen, 5003, NO, phone +47 55 00 00 00',
      'Traceability Lot Code Source Reference': 'GLN 7038010000010',
      'Immediate Subsequent Recipient Location Description': 'Acme, Buyer, Kai 1, Bergen, 5003, NO, phone +47 55 00 00 00',
      'Reference Document Type': 'BOL',
      'Reference Document Number': 'B-1',
      'Event Time (UTC)': '2024-07-03T06:00:00Z',
    });
  });

  it('the CSV keeps a cell that a spreadsheet would run as a formula as text', () => {
    const lines = [line({ lotSerial: '=HYPERLINK("http://x")', productName: 'Cod, "fresh"' }), line({ productName: 'Cod\r\nloins', quantity: '2.5' })];
    const [header, row, second] = parse(fsmaCsv(fsmaRows(lines))) as string[][];
    expect(header).toEqual([...FSMA_COLUMNS]);
    expect(second[FSMA_COLUMNS.indexOf('Product Description')]).toBe('Cod\r\nloins');
    expect(second[FSMA_COLUMNS.indexOf('Quantity')]).toBe('2.5');
    expect(row[FSMA_COLUMNS.indexOf('Traceability Lot Code')]).toBe(`'=HYPERLINK("http://x")`);
    expect(row[FSMA_COLUMNS.indexOf('Product Description')]).toBe('Cod, "fresh"');
  });
});
