import { eventHashId } from '../../domain/epcis/event-hash';
import { HELD_EVENT_HASHES } from '../../db/repositories/epcis-entities';
import { NEGATIVE_LOTS_OF_BATCHES } from '../../db/queries/inventory';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { sql } from '../helpers/db';

/** A plan's nodes, depth first (EXPLAIN (FORMAT JSON)). */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
async function planOf(text: string, bind: unknown[], analyze = false): Promise<PlanNode[]> {
  const { rows } = await sql().query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (FORMAT JSON${analyze ? ', ANALYZE' : ''}) ${text}`,
    bind,
  );
  return nodesOf(rows[0]['QUERY PLAN'][0].Plan);
}

/** What a capture costs PostgreSQL beside the rows it stores: each lookup reads what it needs, not the account. */
describe('EPCIS capture: what a document costs', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  /** The documents of 500 events the account holds (as the bench sends them). */
  const held: ReturnType<typeof objectEvent>[][] = [];
  const captureIds: string[] = [];

  beforeAll(async () => {
    account = await createAccount('epcis-cost');
    // 500 lots commissioned, then each shipped in part: the bench's documents.
    const lots = Array.from({ length: 500 }, () => lotOf());
    for (const [action, bizStep, quantity] of [
      ['ADD', undefined, 10],
      ['OBSERVE', 'shipping', 3],
    ] as const) {
      const events = lots.map((lot) =>
        objectEvent({
          action,
          bizStep,
          quantityList: [{ epcClass: ids.lgtin(lot), quantity, uom: 'KGM' }],
          readPoint: ids.sgln(),
        }),
      );
      const job = await capture(account.key, epcisDocument(events));
      expect(job).toMatchObject({ success: true });
      held.push(events);
      captureIds.push(job.captureID);
    }
    // The statistics autovacuum keeps on a running service: the plans below are the ones it gets.
    await sql().query('ANALYZE events');
  }, 120_000);

  it("a document's hash ids are looked up one index probe each, never by reading the account's events", async () => {
    const fresh = Array.from({ length: 500 }, () =>
      eventHashId(objectEvent({ quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 1 }] })),
    );
    const hashes = [...held[0].slice(0, 250).map((event) => eventHashId(event)), ...fresh.slice(250)];
    const nodes = await planOf(HELD_EVENT_HASHES, [account.id, hashes]);
    // An index scan or a bitmap of it, whichever the statistics favour: never a scan of the table.
    expect(nodes.filter((node) => node['Relation Name'] === 'events').map((node) => node['Node Type'])).not.toContain(
      'Seq Scan',
    );
    expect(nodes.map((node) => node['Index Name'])).toContain('events_epcis_hash');
    const { rows } = await sql().query<{ hash: string }>(HELD_EVENT_HASHES, [account.id, hashes]);
    expect(new Set(rows.map((row) => row.hash))).toEqual(new Set(hashes.slice(0, 250)));
  });

  it("a finished job's poll reads the account's negative lots, not its batch's events and timelines", async () => {
    const nodes = await planOf(NEGATIVE_LOTS_OF_BATCHES, [account.id, captureIds], true);
    const read = (relation: string) =>
      nodes
        .filter((node) => node['Relation Name'] === relation)
        .reduce((sum, node) => sum + (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 0), 0);
    expect({ events: read('events'), inventoryRecords: read('inventory_records') }).toEqual({
      events: 0,
      inventoryRecords: 0,
    });
  });
});
