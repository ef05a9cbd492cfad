import ExcelJS from 'exceljs';
import { Client, Connection } from '@temporalio/client';
import { commission, instance, uid } from '../factories/events';
import { createAccount, type TestAccount } from '../factories/accounts';
import { sql } from '../helpers/db';
import { apiUrl, client, request } from '../helpers/http';
import { waitFor } from '../../platform/net';
import { chunkBatchKey } from '../../db/repositories/imports';
import type { RowError } from '../../domain/spreadsheet-rows';

interface ImportBody {
  importId: string;
  status: string;
  rowsRead: number;
  eventsStored: number;
  batches: { batchId: string; status: string; events: number; firstRow: number; lastRow: number }[];
  errors: RowError[];
  statusUrl: string;
}

let account: TestAccount;
let place: string;
let fish: string;

beforeAll(async () => {
  account = await createAccount('imp');
  place = uid('LOC');
  fish = uid('COD');
  // The location and product the rows name, made the JSON way.
  const seed = commission({ location: place, time: '2024-01-01T00:00:00Z' }, instance(fish, uid('SEED'), 1));
  const created = await client(account.key).post('/Integration/Events', { Events: [seed] });
  if (created.status !== 200) throw new Error(`seeding failed: ${created.text}`);
});

const upload = (file: Blob, fileName: string, kind: string, headers: Record<string, string> = {}) => {
  const form = new FormData();
  form.set('kind', kind);
  form.set('file', file, fileName);
  return request<ImportBody>('POST', '/Integration/Imports', { key: account.key, body: form, headers });
};

const csv = (text: string) => new Blob([text], { type: 'text/csv' });

/** The import an upload started: a refused upload fails here, with its answer, not after the wait for its end. */
async function uploaded(file: Blob, fileName: string, kind: string): Promise<string> {
  const answer = await upload(file, fileName, kind);
  if (answer.status !== 202) throw new Error(`the upload answered ${answer.status}: ${answer.text}`);
  return answer.body.importId;
}

async function finished(importId: string): Promise<ImportBody> {
  let body: ImportBody | undefined;
  await waitFor(`import ${importId} to finish`, 90_000, async () => {
    body = (await client(account.key).get<ImportBody>(`/Integration/Imports/${importId}`)).body;
    return body.status === 'Completed' || body.status === 'Failed';
  });
  return body!;
}

const storedEvents = async (ids: string[]) =>
  (
    await sql().query<{ external_event_id: string; lines: string }>(
      `SELECT e.external_event_id, (SELECT count(*) FROM event_lines l WHERE l.event_id = e.id) AS lines FROM events e WHERE e.account_id = $1 AND e.external_event_id = ANY($2) ORDER BY 1`,
      [account.id, ids],
    )
  ).rows;

describe('POST /Integration/Imports', () => {
  it('a CSV (BOM, `;` separated, a quoted line break, empty trailing rows) becomes events through the batch pipeline; rows with one Id are one event', async () => {
    const [a, b] = [uid('EV'), uid('EV')];
    const lot = uid('LOT');
    const text =
      '\uFEFFId;Location.Id;EventTime;EventTimeZone;PurchaseOrder;ProductInstances.Quantity;ProductInstances.LotSerial;ProductInstances.Product.Id\r\n' +
      `${a};${place};2024-03-01T10:00:00;+01:00;"PO\nline two";12,5;${lot}-1;${fish}\r\n` +
      `${a};;;;;7;${lot}-2;${fish}\r\n` +
      `${b};${place};2024-03-01T11:00:00;+01:00;;3;${lot}-3;${fish}\r\n` +
      ';;;;;;;\r\n\r\n';
    const accepted = await upload(csv(text), 'commission.csv', 'commission', { 'Idempotency-Key': uid('key') });
    expect(accepted.status).toBe(202);
    expect(accepted.body.statusUrl).toBe(`/Integration/Imports/${accepted.body.importId}`);
    expect(accepted.body.rowsRead).toBe(3);
    const done = await finished(accepted.body.importId);
    expect(done).toMatchObject({ status: 'Completed', rowsRead: 3, eventsStored: 2, errors: [] });
    expect(done.batches).toEqual([
      { batchId: expect.any(String), status: 'Completed', events: 2, firstRow: 2, lastRow: 4 },
    ]);
    expect(await storedEvents([a, b])).toEqual(
      [
        { external_event_id: a, lines: '2' },
        { external_event_id: b, lines: '1' },
      ].sort((x, y) => x.external_event_id.localeCompare(y.external_event_id)),
    );
    const quantity = await sql().query(
      `SELECT l.quantity::float AS q FROM event_lines l JOIN events e ON e.id = l.event_id WHERE e.external_event_id = $1 AND l.lot_serial = $2`,
      [a, `${lot}-1`],
    );
    expect(quantity.rows[0].q).toBe(12.5);
    // In the Temporal UI: the import's workflow, its batch a child of it.
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const temporal = new Client({ connection });
      expect(await temporal.workflow.getHandle(`import-${accepted.body.importId}`).result()).toEqual({
        batches: 1,
        completed: 1,
        failed: 0,
      });
      const batch = await temporal.workflow
        .getHandle(`batch-${account.id}-import-${accepted.body.importId}-0`)
        .describe();
      expect(batch.parentExecution?.workflowId).toBe(`import-${accepted.body.importId}`);
      // Dispatched as an async batch is: its priority, and its account's turn among the accounts.
      expect(batch.priority).toMatchObject({ priorityKey: 3, fairnessKey: account.id });
      expect((await temporal.workflow.getHandle(`import-${accepted.body.importId}`).describe()).priority).toMatchObject(
        { priorityKey: 3, fairnessKey: account.id },
      );
    } finally {
      await connection.close();
    }
    // The batch is an ordinary one: its workflow ran in Temporal like POST /Integration/Events's.
    expect((await client(account.key).get(`/Integration/Batches/${done.batches[0].batchId}`)).body.status).toBe(
      'Completed',
    );
    const listed = await client(account.key).get('/Integration/Imports');
    expect(listed.body.results.map((r: { importId: string }) => r.importId)).toContain(accepted.body.importId);
  });

  it('an XLSX with Excel dates and numbers imports the same way', async () => {
    const id = uid('EV');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('commission');
    sheet.addRow([
      'Id',
      'Location.Id',
      'EventTime',
      'EventTimeZone',
      'ProductInstances.Quantity',
      'ProductInstances.LotSerial',
      'ProductInstances.Product.Id',
    ]);
    sheet.addRow([id, place, new Date(Date.UTC(2024, 2, 1, 10, 30, 0)), '+01:00', 42.25, 20240301, fish]);
    sheet.getCell('C2').numFmt = 'yyyy-mm-dd hh:mm:ss';
    sheet.addRow([]);
    const file = new Blob([new Uint8Array(await workbook.xlsx.writeBuffer())]);
    const accepted = await upload(file, 'catch.xlsx', 'commission');
    expect(accepted.status).toBe(202);
    const done = await finished(accepted.body.importId);
    expect(done).toMatchObject({ status: 'Completed', eventsStored: 1 });
    const stored = await sql().query(
      `SELECT e.event_time AS t, l.lot_serial, l.quantity::float AS q FROM events e JOIN event_lines l ON l.event_id = e.id WHERE e.account_id = $1 AND e.external_event_id = $2`,
      [account.id, id],
    );
    expect(stored.rows[0]).toMatchObject({ lot_serial: '20240301', q: 42.25 });
    expect(new Date(stored.rows[0].t).toISOString()).toBe('2024-03-01T09:30:00.000Z');
  });

  it('rows that fail the checks are all listed with row, column and value; nothing is stored', async () => {
    const [a, b] = [uid('EV'), uid('EV')];
    const text =
      'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id\n' +
      `${a},${place},2024-03-01T10:00:00,+01:00,ten,L1,${fish}\n` +
      `${b},${place},2024-03-01T10:00:00,+01:00,5,,${fish}\n`;
    const accepted = await upload(csv(text), 'bad.csv', 'commission');
    expect(accepted.status).toBe(202);
    expect(accepted.body.status).toBe('Failed');
    expect(accepted.body.errors).toEqual([
      {
        row: 2,
        column: 'ProductInstances.Quantity',
        value: 'ten',
        code: 'InvalidValue',
        message: 'ProductInstances.Quantity must be a number.',
      },
      expect.objectContaining({ row: 3, column: 'ProductInstances.LotSerial', code: 'Required' }),
    ]);
    expect(await storedEvents([a, b])).toEqual([]);
    expect((await client(account.key).get(`/Integration/Imports/${accepted.body.importId}`)).body).toEqual(
      accepted.body,
    );
  });

  it('a bad row after a first full chunk: the chunk stored while reading is undone, only the refused import stays', async () => {
    const run = uid('LATE');
    const lines = [
      'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id',
    ];
    for (let i = 0; i < 1200; i++) lines.push(`${run}-${i},${place},2024-03-01T10:00:00,+00:00,1,${run}-${i},${fish}`);
    lines.push(`${run}-x,${place},2024-03-01T10:00:00,+00:00,ten,${run}-x,${fish}`);
    const accepted = await upload(csv(`${lines.join('\n')}\n`), 'late.csv', 'commission');
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: 'Failed', rowsRead: 1201, batches: [] });
    expect(accepted.body.errors).toEqual([
      expect.objectContaining({ row: 1202, column: 'ProductInstances.Quantity', value: 'ten', code: 'InvalidValue' }),
    ]);
    const { importId } = accepted.body;
    const left = await sql().query<{ batches: string; chunks: string; files: string }>(
      `SELECT (SELECT count(*) FROM batches WHERE account_id = $1 AND idempotency_key LIKE $2) AS batches,
              (SELECT count(*) FROM import_batches WHERE import_id = $3) AS chunks,
              (SELECT count(*) FROM import_chunks WHERE import_id = $3) AS files`,
      [account.id, `import-${importId}-%`, importId],
    );
    expect(left.rows[0]).toEqual({ batches: '0', chunks: '0', files: '0' });
  }, 120_000);

  it('a batch the pipeline refuses shows its errors on the rows and columns they came from, nothing of it stored', async () => {
    const [a, b] = [uid('EV'), uid('EV')];
    const text =
      'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id\n' +
      `${a},${place},2024-03-01T10:00:00,+01:00,1,L1,${fish}\n` +
      `${b},${place},2024-03-01T10:00:00,+01:00,1,L1,${fish}\n` +
      `${b},,,,2,L2,NO-SUCH-PRODUCT\n`;
    const accepted = await upload(csv(text), 'unknown.csv', 'commission');
    expect(accepted.status).toBe(202);
    const done = await finished(accepted.body.importId);
    expect(done.status).toBe('Failed');
    expect(done.eventsStored).toBe(0);
    expect(done.errors).toContainEqual(
      expect.objectContaining({
        row: 4,
        column: 'ProductInstances.Product.Id',
        value: 'NO-SUCH-PRODUCT',
        code: 'UnknownProduct',
      }),
    );
    expect(await storedEvents([a, b])).toEqual([]);
    const listed = await client(account.key).get('/Integration/Imports?PageSize=100');
    expect(listed.body.results.find((r: { importId: string }) => r.importId === done.importId)).toMatchObject({
      status: 'Failed',
      errorCount: done.errors.length,
      batchCount: 1,
    });
  });

  it('an unknown column is a 400 naming it and the column meant; a missing kind a 400; the same key with another file a 422', async () => {
    const misspelt = await upload(csv('Id,Location.Id,EventTme\nX,Y,Z\n'), 'x.csv', 'commission');
    expect(misspelt.status).toBe(400);
    expect(misspelt.body).toMatchObject({ errors: { EventTme: [expect.stringContaining('Did you mean EventTime?')] } });
    const noKind = await upload(csv('Id\nX\n'), 'x.csv', 'shipping');
    expect(noKind.status).toBe(400);
    const key = uid('key');
    const first = await upload(csv('Id,Location.Id\nX,Y\n'), 'x.csv', 'commission', { 'Idempotency-Key': key });
    expect(first.status).toBe(202);
    const again = await upload(csv('Id,Location.Id\nX,Y\n'), 'x.csv', 'commission', { 'Idempotency-Key': key });
    expect(again.body.importId).toBe(first.body.importId);
    const other = await upload(csv('Id,Location.Id\nZ,Y\n'), 'x.csv', 'commission', { 'Idempotency-Key': key });
    expect(other.status).toBe(422);
  });

  it("an import's chunk key sent to POST /Integration/Events with other events is a 422, never that chunk's answer", async () => {
    const id = uid('EV');
    const accepted = await upload(
      csv(
        'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id\n' +
          `${id},${place},2024-03-01T10:00:00,+00:00,1,${uid('LOT')},${fish}\n`,
      ),
      'c.csv',
      'commission',
    );
    expect(accepted.status).toBe(202);
    expect((await finished(accepted.body.importId)).status).toBe('Completed');
    const other = commission({ location: place, time: '2024-03-02T00:00:00Z' }, instance(fish, uid('LOT'), 1));
    const reused = await client(account.key).post(
      '/Integration/Events',
      { Events: [other] },
      { 'Idempotency-Key': chunkBatchKey(accepted.body.importId, 0) },
    );
    expect(reused.status).toBe(422);
    expect(await storedEvents([other.Id])).toEqual([]);
  });

  it('more than 100,000 rows or 20 MB is a 413 naming the limits', async () => {
    const rows = `Id\n${'X\n'.repeat(100_001)}`;
    const many = await upload(csv(rows), 'many.csv', 'commission');
    expect(many.status).toBe(413);
    expect((many.body as unknown as { detail: string }).detail).toContain('20 MB and 100,000 rows');
    expect(many.body).toMatchObject({ maxBytes: 20 * 1024 * 1024, maxRows: 100_000 });
    const big = await upload(csv(`Id\n${'x'.repeat(21 * 1024 * 1024)}\n`), 'big.csv', 'commission');
    expect(big.status).toBe(413);
  });

  it('another account cannot see an import', async () => {
    const accepted = await upload(csv('Id,Location.Id\nX,Y\n'), 'x.csv', 'commission');
    const other = await createAccount('imp-other');
    expect((await client(other.key).get(`/Integration/Imports/${accepted.body.importId}`)).status).toBe(404);
  });
});

describe('POST /Integration/Imports with a file that cannot be read', () => {
  it('is a 400 naming the problem: a quote never closed, an xlsx that is no zip', async () => {
    const quote = await upload(csv('Id,Location.Id\n"X,Y\n'), 'x.csv', 'commission');
    expect(quote.status).toBe(400);
    expect((quote.body as unknown as { detail: string }).detail).toContain('Quote Not Closed');
    const notZip = await upload(csv('not a zip'), 'x.xlsx', 'commission');
    expect(notZip.status).toBe(400);
  });
});

describe('POST /Integration/Imports of master data', () => {
  it('the products template, filled, imports: rows with one Id are one product with several MasterData entries', async () => {
    const template = await client(account.key).get('/Integration/Templates/products');
    const [header, example] = template.text.trim().split('\r\n');
    const cells = example.split(',');
    const [p1, p2] = [uid('SKU'), uid('SKU')];
    const row = (id: string, changes: Record<string, string>) =>
      header
        .split(',')
        .map((name, i) => (name === 'Id' ? id : (changes[name] ?? cells[i])))
        .join(',');
    const text = [
      header,
      row(p1, {}),
      row(p1, { 'Details.MasterData.name': 'catchArea', 'Details.MasterData.value': 'FAO 27' }),
      row(p2, { 'Details.Name': 'Haddock' }),
    ].join('\r\n');
    const accepted = await upload(csv(text), 'products.csv', 'products');
    expect(accepted.status).toBe(202);
    const done = await finished(accepted.body.importId);
    expect(done).toMatchObject({ status: 'Completed', rowsRead: 3, eventsStored: 2, errors: [] });
    expect(done.batches).toEqual([{ batchId: null, status: 'Completed', events: 2, firstRow: 2, lastRow: 4 }]);
    const product = await client(account.key).get(`/Integration/Products/${p1}`);
    expect(product.body.details.masterData).toEqual([
      { name: 'species', namespace: 'custom', value: 'Gadus morhua' },
      { name: 'catchArea', namespace: 'custom', value: 'FAO 27' },
    ]);
  });

  it('a product id the account has already fails its chunk with the row, nothing of the chunk stored', async () => {
    const fresh = uid('SKU');
    const text = `Id,Details.Name,Details.SimpleUnitOfMeasurement,Details.SharingPolicy,Details.ProductIdentifierType\n${fresh},New,KGM,Open,Lot\n${fish},Again,KGM,Open,Lot\n`;
    const done = await finished(await uploaded(csv(text), 'products.csv', 'products'));
    expect(done.status).toBe('Failed');
    expect(done.errors).toEqual([expect.objectContaining({ row: 3, column: 'Id', value: fish, code: 'Conflict' })]);
    expect((await client(account.key).get(`/Integration/Products/${fresh}`)).status).toBe(404);
  });
});

describe('POST /Integration/Imports in chunks and lines', () => {
  it('a transform lists its inputs and outputs on several rows of one Id', async () => {
    const lot = uid('LOT');
    const seed = await client(account.key).post('/Integration/Events', {
      Events: [
        commission(
          { location: place, time: '2024-02-01T00:00:00Z' },
          instance(fish, `${lot}-A`, 10),
          instance(fish, `${lot}-B`, 10),
        ),
      ],
    });
    expect(seed.status).toBe(200);
    const id = uid('EV');
    const text =
      'Id,Location.Id,EventTime,EventTimeZone,InputProducts.Quantity,InputProducts.LotSerial,InputProducts.Product.Id,OutputProducts.Quantity,OutputProducts.LotSerial,OutputProducts.Product.Id\n' +
      `${id},${place},2024-02-02T10:00:00,+00:00,4,${lot}-A,${fish},6,${lot}-F,${fish}\n` +
      `${id},,,,5,${lot}-B,${fish},,,\n`;
    const done = await finished(await uploaded(csv(text), 'transform.csv', 'transform'));
    expect(done).toMatchObject({ status: 'Completed', eventsStored: 1 });
    const lines = await sql().query(
      `SELECT l.lot_serial, l.quantity::float AS q FROM event_lines l JOIN events e ON e.id = l.event_id WHERE e.account_id = $1 AND e.external_event_id = $2 ORDER BY l.lot_serial`,
      [account.id, id],
    );
    expect(lines.rows).toEqual([
      { lot_serial: `${lot}-A`, q: 4 },
      { lot_serial: `${lot}-B`, q: 5 },
      { lot_serial: `${lot}-F`, q: 6 },
    ]);
  });

  it('2,100 rows are three batches of at most 1,000 events, each with its rows', async () => {
    const run = uid('R');
    const lines = [
      'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id',
    ];
    for (let i = 0; i < 2100; i++) lines.push(`${run}-${i},${place},2024-03-01T10:00:00,+00:00,1,${run}-${i},${fish}`);
    const accepted = await upload(csv(`${lines.join('\n')}\n`), 'many.csv', 'commission');
    expect(accepted.status).toBe(202);
    const { importId } = accepted.body;
    // Stored with the upload, in its transaction: when the 202 is sent the chunks' batches are there.
    const stored = await sql().query<{ seq: number; event_count: number }>(
      'SELECT ib.seq, b.event_count FROM import_batches ib JOIN batches b ON b.id = ib.batch_id WHERE ib.import_id = $1 ORDER BY ib.seq',
      [importId],
    );
    expect(stored.rows).toEqual([
      { seq: 0, event_count: 1000 },
      { seq: 1, event_count: 1000 },
      { seq: 2, event_count: 100 },
    ]);
    const done = await finished(importId);
    expect(done).toMatchObject({ status: 'Completed', rowsRead: 2100, eventsStored: 2100 });
    expect(done.batches.map((b) => [b.events, b.firstRow, b.lastRow, b.status])).toEqual([
      [1000, 2, 1001, 'Completed'],
      [1000, 1002, 2001, 'Completed'],
      [100, 2002, 2101, 'Completed'],
    ]);
    // So the import's workflow reads no file: it starts the stored batches, with no split step before them.
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
    try {
      const temporal = new Client({ connection });
      const handle = temporal.workflow.getHandle(`import-${importId}`);
      expect(await handle.result()).toEqual({ batches: 3, completed: 3, failed: 0 });
      const { events } = await handle.fetchHistory();
      const activities = (events ?? []).flatMap(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
      );
      expect(activities).toEqual([]);
      expect((events ?? []).filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toHaveLength(3);
    } finally {
      await connection.close();
    }
  }, 180_000);
});

describe('a downloaded XLSX template, filled in Excel', () => {
  it('imports as it is: its first sheet read, its Notes sheet left alone', async () => {
    const response = await fetch(`${apiUrl()}/Integration/Templates/commission?format=xlsx`, {
      headers: { 'X-API-KEY': account.key },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as ExcelJS.CellValue[])
      .slice(1)
      .map((v) => (typeof v === 'string' ? v : ''));
    const id = uid('EV');
    const fill: Record<string, ExcelJS.CellValue> = {
      Id: id,
      'Location.Id': place,
      'ProductInstances.Product.Id': fish,
      'ProductInstances.Quantity': 3,
      DocumentIds: null,
    };
    header.forEach((name, i) => {
      if (name in fill) sheet.getRow(2).getCell(i + 1).value = fill[name];
    });
    const file = new Blob([new Uint8Array(await workbook.xlsx.writeBuffer())]);
    const done = await finished(await uploaded(file, 'commission-template.xlsx', 'commission'));
    expect(done).toMatchObject({ status: 'Completed', eventsStored: 1, errors: [] });
    expect(await storedEvents([id])).toEqual([{ external_event_id: id, lines: '1' }]);
  });
});
