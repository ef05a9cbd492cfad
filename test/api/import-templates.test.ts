import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { createAccount, type TestAccount } from '../factories/accounts';
import { apiUrl, client } from '../helpers/http';

let account: TestAccount;

beforeAll(async () => {
  account = await createAccount('tmpl');
});

const download = async (path: string): Promise<Response> =>
  fetch(`${apiUrl()}${path}`, { headers: { 'X-API-KEY': account.key } });

const cellText = (value: ExcelJS.CellValue): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

describe('GET /Integration/Templates/{kind}', () => {
  it('a CSV template names each column by its JSON field, with a row of examples from the OpenAPI example of the type', async () => {
    const response = await client(account.key).get('/Integration/Templates/ship');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="ship-template.csv"');
    const [header, example, ...rest] = parse(response.text) as string[][];
    expect(rest).toEqual([]);
    expect(header).toEqual(
      expect.arrayContaining([
        'Id',
        'Location.Id',
        'EventTime',
        'EventTimeZone',
        'ProductInstances.LotSerial',
        'ProductInstances.Quantity',
        'ProductInstances.Product.Id',
        'DestinationLocation.Id',
      ]),
    );
    // Not columns: the kind says $type; locations and products are made with their own templates.
    expect(header.filter((h) => h === '$type' || h.includes('Details'))).toEqual([]);
    const cell = (name: string) => example[header.indexOf(name)];
    expect(cell('Id')).toBe('EV-2024-0002');
    expect(cell('EventTimeZone')).toBe('+01:00');
    expect(cell('ProductInstances.Quantity')).toBe('1000');
    expect(cell('DestinationLocation.Id')).toBe('LOC-PLANT-1');
  });

  it('every kind has a template; a transform names its inputs and outputs, the master data their Details', async () => {
    const headers: Record<string, string[]> = {};
    for (const kind of [
      'commission',
      'receive',
      'ship',
      'transform',
      'aggregation',
      'disaggregation',
      'observe',
      'decommission',
      'locations',
      'products',
    ]) {
      const response = await client(account.key).get(`/Integration/Templates/${kind}`);
      expect(response.status).toBe(200);
      headers[kind] = (parse(response.text) as string[][])[0];
    }
    expect(headers.transform).toEqual(expect.arrayContaining(['InputProducts.LotSerial', 'OutputProducts.LotSerial']));
    expect(headers.aggregation).toEqual(expect.arrayContaining(['ParentLotSerial', 'ChildProductInstances.LotSerial']));
    expect(headers.products).toEqual(
      expect.arrayContaining(['Id', 'Details.Name', 'Details.SharingPolicy', 'Details.MasterData.value']),
    );
    expect(headers.locations).toEqual(
      expect.arrayContaining(['Id', 'Details.Name', 'Details.TradePartner.Id', 'Details.Address.City']),
    );
  });

  it('the XLSX template has the header, the example row and a Notes sheet with meaning, requirement and allowed values from the schema', async () => {
    const response = await download('/Integration/Templates/products?format=xlsx');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const [template, notes] = workbook.worksheets;
    expect(template.name).toBe('products');
    const header = (template.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(cellText);
    expect(header[0]).toBe('Id');
    const example = (template.getRow(2).values as ExcelJS.CellValue[]).slice(1).map(cellText);
    expect(example[header.indexOf('Details.SharingPolicy')]).toBe('Open');
    expect(notes.name).toBe('Notes');
    const noteOf = (column: string) => {
      let found: string[] | undefined;
      notes.eachRow((row) => {
        const cells = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
        if (cells[0] === column) found = cells;
      });
      return found;
    };
    expect(noteOf('Column')).toEqual(['Column', 'Required', 'Type', 'Allowed values', 'Meaning']);
    expect(noteOf('Details.SharingPolicy')).toEqual([
      'Details.SharingPolicy',
      'required',
      'string',
      'Open, Restricted',
      expect.stringContaining('Restricted: only the ship event'),
    ]);
    expect(noteOf('Details.UnitQuantity')?.slice(0, 3)).toEqual(['Details.UnitQuantity', 'optional', 'number']);
    // Every column of the template has its note.
    for (const column of header) expect(noteOf(column)).toBeDefined();
  });

  it('the commission notes say a row per line: ProductInstances fields required, at least one row per Id', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await (await download('/Integration/Templates/commission?format=xlsx')).arrayBuffer());
    const notes = workbook.getWorksheet('Notes')!;
    const rows: string[][] = [];
    notes.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1).map(cellText)));
    expect(rows.find((r) => r[0] === 'ProductInstances.Quantity')?.[1]).toMatch(/^required: at least one row per Id/);
    expect(rows.find((r) => r[0] === 'Location.Id')?.[1]).toBe('required');
    expect(rows.find((r) => r[0] === 'PurchaseOrder')?.[1]).toBe('optional');
  });

  it('an unknown kind is a 404 naming the kinds; an unknown format a 400', async () => {
    const unknown = await client(account.key).get('/Integration/Templates/shipping');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain('commission, receive, ship');
    expect((await client(account.key).get('/Integration/Templates/ship?format=ods')).status).toBe(400);
  });
});
