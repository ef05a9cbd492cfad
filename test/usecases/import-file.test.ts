import fs from 'node:fs/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { importRules } from '../../api/routes/imports/kinds';
import type { ImportRow } from '../../db/repositories/imports';
import { createLogger } from '../../platform/logger';
import { importFile, type ImportFileInput, type ImportServices } from '../../usecases/import-file';
import { createAccount, type TestAccount } from '../factories/accounts';
import { uid } from '../factories/events';
import { models, rowCounts, sql } from '../helpers/db';

/**
 * The import use case, called directly against PostgreSQL with the API's rules (the JSON endpoints'
 * schemas, the pipeline's checks). The workflow's start is the port here: it records the rows it is given.
 */
describe('import a file (use case)', () => {
  let account: TestAccount;
  let dir: string;
  let started: ImportRow[];
  let startFails: boolean;
  const services = (): ImportServices => ({
    sequelize: models(),
    rules: importRules({
      sequelize: models(),
      config: { urnDomain: 'test.example' },
      logger: createLogger('silent', 'test'),
    }),
    start: async (row) => {
      if (startFails) throw new Error('Temporal is away');
      started.push(row);
    },
  });
  const counted = ['imports', 'batches'];
  const HEADER =
    'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id\n';

  async function input(text: string, idempotencyKey: string | null = null): Promise<ImportFileInput> {
    const file = path.join(dir, `${uid('f')}.csv`);
    await fs.writeFile(file, text);
    const sha256 = createHash('sha256').update(text).digest('hex');
    return {
      account,
      kind: 'commission',
      format: 'csv',
      file: { fileName: 'commission.csv', size: Buffer.byteLength(text), sha256, path: file },
      idempotencyKey,
      requestId: null,
    };
  }
  const row = (id: string, time = '2024-03-01T10:00:00', place = 'DOCK') =>
    `${uid(id)},${place},${time},+01:00,5,${uid('LOT')},COD\n`;

  beforeAll(async () => {
    account = await createAccount('usecase-import');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'usecase-import-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));
  beforeEach(() => {
    started = [];
    startFails = false;
  });

  it('stores the import with its chunk as an Accepted batch and starts its workflow; the same key and file answer as it', async () => {
    const key = uid('key');
    const upload = await input(HEADER + row('A') + row('B'), key);
    const outcome = await importFile(services(), upload);
    if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${outcome.kind}`);
    expect(outcome.row).toMatchObject({ refused: false, rows_read: 2, kind: 'commission' });
    expect(started.map((r) => r.id)).toEqual([outcome.row.id]);
    const { rows } = await sql().query(
      'SELECT b.status, b.event_count FROM import_batches i JOIN batches b ON b.id = i.batch_id WHERE i.import_id = $1',
      [outcome.row.id],
    );
    expect(rows).toEqual([{ status: 'Accepted', event_count: 2 }]);

    const before = await rowCounts(account.id, counted);
    const again = await importFile(services(), upload);
    expect(again).toMatchObject({ kind: 'accepted', row: { id: outcome.row.id } });
    const other = await importFile(services(), await input(HEADER + row('C'), key));
    expect(other).toMatchObject({ kind: 'keyReused', existing: { id: outcome.row.id } });
    expect(await rowCounts(account.id, counted)).toEqual(before);
  });

  it('a file with a bad cell is stored refused, with every row’s errors and no batch, and is not started', async () => {
    const before = await rowCounts(account.id, counted);
    const outcome = await importFile(
      services(),
      await input(HEADER + row('A', undefined, 'NOWHERE') + row('B', 'yesterday')),
    );
    if (outcome.kind !== 'accepted') throw new Error(`not accepted: ${outcome.kind}`);
    expect(outcome.row.refused).toBe(true);
    // Row 3's cell, and what the pipeline would refuse in row 2 once row 3 is fixed: one answer lists both.
    expect(outcome.row.errors).toEqual([
      expect.objectContaining({ row: 2, column: 'Location.Id', message: expect.stringContaining('NOWHERE') }),
      expect.objectContaining({ row: 3, column: 'EventTime', value: 'yesterday' }),
    ]);
    expect(started).toEqual([]);
    expect(await rowCounts(account.id, counted)).toEqual({ ...before, imports: String(Number(before.imports) + 1) });
  });

  it('refuses a file whose header does not fit, storing nothing', async () => {
    const before = await rowCounts(account.id, counted);
    const outcome = await importFile(services(), await input('Id,Colour\nA,red\n'));
    expect(outcome).toMatchObject({
      kind: 'badHeader',
      errors: expect.arrayContaining([expect.objectContaining({ column: 'Colour' })]),
    });
    expect(await rowCounts(account.id, counted)).toEqual(before);
  });

  it('an import whose workflow cannot be started now is stored, and said so', async () => {
    startFails = true;
    const outcome = await importFile(services(), await input(HEADER + row('A')));
    expect(outcome).toMatchObject({
      kind: 'notStarted',
      row: { refused: false },
      error: new Error('Temporal is away'),
    });
    if (outcome.kind !== 'notStarted') return;
    expect((await sql().query('SELECT id FROM imports WHERE id = $1', [outcome.row.id])).rows).toHaveLength(1);
  });
});
