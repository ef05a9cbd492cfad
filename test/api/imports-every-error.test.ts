import { commission, instance, uid } from '../factories/events';
import { createAccount, type TestAccount } from '../factories/accounts';
import { rowCounts } from '../helpers/db';
import { client, request } from '../helpers/http';
import type { RowError } from '../../domain/spreadsheet-rows';

/**
 * Issue 23's "every error of a batch in one answer", for spreadsheets (issue 29): a file refused at
 * upload for a bad cell also lists what the pipeline would refuse in its other rows (unknown products,
 * event ids already stored, overdraws), each on its row, column and value; nothing is stored.
 */
interface ImportBody {
  importId: string;
  status: string;
  batches: unknown[];
  errors: RowError[];
}

const STORED = ['events', 'products', 'locations', 'inventory_records', 'batches'] as const;

let account: TestAccount;
let fish: string;
let lot: string;
let storedId: string;

beforeAll(async () => {
  account = await createAccount('imp-every');
  fish = uid('COD');
  lot = uid('LOT');
  const seed = commission({ location: 'DOCK', time: '2024-01-01T00:00:00Z' }, instance(fish, lot, 50));
  storedId = seed.Id;
  const created = await client(account.key).post('/Integration/Events', {
    Events: [
      seed,
      commission({ location: 'CUSTOMER-DOCK', time: '2024-01-01T00:00:00Z' }, instance(fish, uid('L'), 1)),
    ],
  });
  if (created.status !== 200) throw new Error(`seeding failed: ${created.text}`);
});

async function refusedUpload(text: string, kind: string): Promise<RowError[]> {
  const before = await rowCounts(account.id, STORED);
  const form = new FormData();
  form.set('kind', kind);
  form.set('file', new Blob([text], { type: 'text/csv' }), `${kind}.csv`);
  const answer = await request<ImportBody>('POST', '/Integration/Imports', { key: account.key, body: form });
  expect(answer.status).toBe(202);
  expect(answer.body.status).toBe('Failed');
  expect(answer.body.batches).toEqual([]);
  expect(await rowCounts(account.id, STORED)).toEqual(before);
  // The import's own page answers the same list.
  expect((await client(account.key).get(`/Integration/Imports/${answer.body.importId}`)).body.errors).toEqual(
    answer.body.errors,
  );
  return answer.body.errors;
}

const placed = (errors: RowError[]) => errors.map((e) => [e.row, e.column, e.value, e.code]);

describe('an import refused for a bad cell lists the other rows’ problems too', () => {
  it('commission: a bad quantity, an unknown product on the second row of an event, an event id already stored', async () => {
    const [a, b] = [uid('EV'), uid('EV')];
    const ghost = uid('GHOST');
    const text =
      'Id,Location.Id,EventTime,EventTimeZone,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id\n' +
      `${a},DOCK,2024-03-01T10:00:00,+01:00,ten,${uid('L')},${fish}\n` +
      `${b},DOCK,2024-03-01T10:00:00,+01:00,1,${uid('L')},${fish}\n` +
      `${b},,,,2,${uid('L')},${ghost}\n` +
      `${storedId},DOCK,2024-03-01T10:00:00,+01:00,3,${uid('L')},${fish}\n`;
    const errors = await refusedUpload(text, 'commission');
    expect(placed(errors)).toEqual([
      [2, 'ProductInstances.Quantity', 'ten', 'InvalidValue'],
      [4, 'ProductInstances.Product.Id', ghost, 'UnknownProduct'],
      [5, 'Id', storedId, 'DuplicateEventId'],
    ]);
    expect(errors[1].message).toContain(ghost);
  });

  it('ship: a bad time on one row and an overdraw on another; an overdraw a refused row could explain is left out and said', async () => {
    const other = uid('LOT');
    const [bad, over, dependent] = [uid('EV'), uid('EV'), uid('EV')];
    const text =
      'Id,Location.Id,EventTime,EventTimeZone,DestinationLocation.Id,ProductInstances.Quantity,ProductInstances.LotSerial,ProductInstances.Product.Id\n' +
      `${bad},DOCK,2024-13-45T10:00:00,+01:00,CUSTOMER-DOCK,1,${other},${fish}\n` +
      `${over},DOCK,2024-03-02T10:00:00,+01:00,CUSTOMER-DOCK,70,${lot},${fish}\n` +
      `${dependent},DOCK,2024-03-02T11:00:00,+01:00,CUSTOMER-DOCK,5,${other},${fish}\n`;
    const errors = await refusedUpload(text, 'ship');
    expect(placed(errors)).toEqual([
      [2, 'EventTime', '2024-13-45T10:00:00', 'InvalidValue'],
      [3, 'ProductInstances.Quantity', '70', 'InsufficientInventory'],
    ]);
    expect(errors[1].message).toContain('requested 70, available 50');
    // Row 4 ships the lot of row 2, which was not checked: its overdraw may be row 2's, so it is not listed.
    expect(errors[0].message).toContain(
      'Row 4 names a product, location or lot that this row names: its checks that depend on this row were not made.',
    );
  });
});
