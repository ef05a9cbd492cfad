import { eventHashId } from '../../domain/epcis/event-hash';
import {
  ANY_PENDING_DECLARATION,
  DECLARED_EVENTS,
  HELD_EVENT_HASHES,
  ourEventIds,
} from '../../db/repositories/epcis-entities';
import { epcisEventsQuery } from '../../db/queries/epcis-events';
import { ANY_NEGATIVE_RECORD, NEGATIVE_LOTS_OF_BATCHES } from '../../db/queries/inventory';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { sql } from '../helpers/db';
import { client } from '../helpers/http';
import { commission, instance, uid } from '../factories/events';

/** A plan's nodes, depth first (EXPLAIN (FORMAT JSON)). */
interface PlanNode {
  'Node Type': string;
  'Rows Removed by Filter'?: number;
  Alias?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
/** The plan of `text`, run (`analyze`) or not, under the planner `settings` given (SET LOCAL). */
async function planOf(text: string, bind: unknown[], analyze = false, settings: string[] = []): Promise<PlanNode[]> {
  const db = await sql().connect();
  try {
    await db.query('BEGIN');
    for (const setting of settings) await db.query(`SET LOCAL ${setting}`);
    const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON${analyze ? ', ANALYZE' : ''}) ${text}`,
      bind,
    );
    return nodesOf(rows[0]['QUERY PLAN'][0].Plan);
  } finally {
    await db.query('ROLLBACK');
    db.release();
  }
}

/**
 * What a plan (EXPLAIN ANALYZE) read of `events`, kept and removed by filters, every loop: the rows of the
 * query's own scan (alias e), and each lookup of other events (a subquery's alias) with its rows.
 */
function eventsRead(nodes: PlanNode[]): { own: number; lookups: [string, number][] } {
  const events = nodes.filter((node) => node['Relation Name'] === 'events');
  const read = (node: PlanNode) =>
    ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1);
  return {
    own: events.filter((node) => node.Alias === 'e').reduce((sum, node) => sum + read(node), 0),
    lookups: events.filter((node) => node.Alias !== 'e').map((node) => [node.Alias ?? '', read(node)]),
  };
}

/** The lookups that read as many rows as the account holds events (1,000 captured): a scan, not a probe. */
const scans = (read: ReturnType<typeof eventsRead>) => read.lookups.filter(([, rows]) => rows >= 1000);

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
    expect(nodes.map((node) => node['Index Name'])).toContain('events_account_epcis_hash');
    const { rows } = await sql().query<{ hash: string }>(HELD_EVENT_HASHES, [account.id, hashes]);
    expect(new Set(rows.map((row) => row.hash))).toEqual(new Set(hashes.slice(0, 250)));
  });

  it("the events a capture's error declarations name are found by index, never by reading the account's events", async () => {
    // One event of ours (named by its urn:uuid, as /epcis/events serves it), one captured (its eventID).
    const sent = await client(account.key).post('/Integration/Events', {
      Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', uid('LOT'), 1))],
    });
    expect(sent.status).toBe(200);
    const ours = `urn:uuid:${sent.body.result[0].id}`;
    const declared = [
      ours,
      held[0][7].eventID!,
      'urn:uuid:00000000-0000-4000-8000-000000000000',
      'ni:///sha-256;0?ver=CBV2.0',
    ];
    const nodes = await planOf(DECLARED_EVENTS, [account.id, declared, ourEventIds(declared)], true);
    const read = eventsRead(nodes);
    expect(read.own).toBeLessThanOrEqual(declared.length);
    expect(scans(read)).toEqual([]);
    const { rows } = await sql().query<{ event_id: string }>(DECLARED_EVENTS, [
      account.id,
      declared,
      ourEventIds(declared),
    ]);
    expect(new Set(rows.map((row) => row.event_id))).toEqual(new Set([ours, held[0][7].eventID]));
  });

  it("a page of /epcis/events finds each event's error declaration with one probe, not a read of the events table", async () => {
    const page = epcisEventsQuery({ accountId: account.id, limit: 100 });
    const read = eventsRead(await planOf(page.sql, page.bind, true));
    // Whichever way the page itself is read, its events' lookups probe an index.
    expect(read.lookups.length).toBeGreaterThan(0);
    expect(scans(read)).toEqual([]);
  });

  it('a poll for what was recorded since its last one reads the new events, not the account', async () => {
    const since = new Date();
    const fresh = [1, 2, 3].map(() =>
      objectEvent({ quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 1, uom: 'KGM' }], readPoint: ids.sgln() }),
    );
    expect(await capture(account.key, epcisDocument(fresh))).toMatchObject({ success: true });
    const polled = await client(account.key).get(
      `/epcis/events?GE_recordTime=${encodeURIComponent(since.toISOString())}&perPage=100`,
    );
    expect(polled.status).toBe(200);
    const { eventList } = (
      polled.body as { epcisBody: { queryResults: { resultsBody: { eventList: { eventID: string }[] } } } }
    ).epcisBody.queryResults.resultsBody;
    expect(eventList.map((event) => event.eventID)).toEqual(fresh.map((event) => event.eventID));
    for (const GE_recordTime of [since, new Date(Date.now() + 1000)]) {
      const page = epcisEventsQuery({ accountId: account.id, GE_recordTime, limit: 100 });
      // Both as the statistics plan it, and as at 1,000,000 events, where walking the events in seq order
      // for the page's LIMIT looks cheaper than sorting the new ones: neither reads the 1,000 recorded
      // before (a walk from the first read them all). Other tests' events stored meanwhile may be read.
      for (const settings of [[], ['enable_sort = off']])
        expect(eventsRead(await planOf(page.sql, page.bind, true, settings)).own).toBeLessThan(1000);
    }
  });

  it('whether the account holds a pending declaration or a negative record is one probe of a partial index each', async () => {
    for (const [text, relation, index] of [
      [ANY_PENDING_DECLARATION, 'events', 'events_epcis_pending_declaration'],
      [ANY_NEGATIVE_RECORD, 'inventory_records', 'inventory_records_negative'],
    ]) {
      const nodes = await planOf(text, [account.id], true);
      const scanned = nodes.filter((node) => node['Relation Name'] === relation);
      expect([text, scanned.map((node) => node['Index Name'])]).toEqual([text, [index]]);
      const read = scanned.reduce(
        (sum, node) =>
          sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1),
        0,
      );
      expect([text, read]).toEqual([text, 0]);
    }
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
