import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import {
  epcisEventsQuery,
  withMatchCandidates,
  type EpcisEventFilter,
  type MatchKind,
} from '../../db/queries/epcis-events';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture, EPCIS_CONTEXT, epcisDocument, gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import { commission, uid } from '../factories/events';
import { client } from '../helpers/http';
import { models, sql } from '../helpers/db';
import { eventsNameParty } from '../../db/queries/resolver';
import { canonicalIdentifier } from '../../domain/epcis/identifiers';
import { matchKey } from '../../domain/epcis/match-keys';

/**
 * MATCH_ finds its events through indexes (db/queries/epcis-events.ts withMatchCandidates): captured
 * events by their identifiers, in their original or (captured before originals were stored apart) in
 * their payload, ours by their lines. The events found so are the ones the match answers, and the
 * answer is the one reading every event of the account gives.
 */
describe('EPCIS MATCH_ parameters through indexes', () => {
  let account: TestAccount;
  const ids = gs1Ids();
  // A logistic unit names no product: no line of the event's finds it.
  const legacyUnit = gs1Ids().sscc;
  const [lotA, lotB] = [lotOf(), lotOf()];
  const serial = `S-${lotOf()}`;
  const [shipper, carrier] = ['shipper', 'carrier'].map((role) => uid(`urn:gdst:example.org:party:${role}`));
  // Past 512 bytes a key is the identifier's MD5: PostgreSQL refuses a GIN key of over 2,712 bytes.
  const owner = uid(`urn:gdst:example.org:party:${randomBytes(1500).toString('hex')}`);
  const eventIds: Record<string, string> = {};

  const filterOf = (kind: MatchKind, values: string[]): EpcisEventFilter => ({
    accountId: account.id,
    match: { [kind]: values },
    limit: 100,
  });

  /** The ids of the events a filter answers, as the query reads them. */
  const answered = async (filter: EpcisEventFilter): Promise<string[]> => {
    const { sql: text, bind } = epcisEventsQuery(filter);
    const rows = await models().query<{ id: string }>(text, { bind, type: QueryTypes.SELECT });
    return rows.map((row) => row.id);
  };

  const idOf = async (externalId: string): Promise<string> => {
    const { rows } = await sql().query<{ id: string }>(
      'SELECT id FROM events WHERE account_id = $1 AND external_event_id = $2',
      [account.id, externalId],
    );
    return rows[0].id;
  };

  beforeAll(async () => {
    account = await createAccount('epcis-match');
    const events = {
      lotA: objectEvent({ quantityList: [{ epcClass: ids.lgtin(lotA), quantity: 5, uom: 'KGM' }] }),
      lotB: objectEvent({
        quantityList: [{ epcClass: ids.lgtin(lotB), quantity: 5, uom: 'KGM' }],
        extra: { 'gdst:productOwner': owner },
      }),
      serial: objectEvent({ epcList: [ids.sgtin(serial)] }),
      unit: objectEvent({
        action: 'OBSERVE',
        epcList: [ids.sscc],
        extra: { sourceList: [{ type: 'owning_party', source: shipper }] },
      }),
      legacy: objectEvent({
        action: 'OBSERVE',
        epcList: [legacyUnit],
        extra: { destinationList: [{ type: 'possessing_party', destination: carrier }] },
      }),
    };
    const job = await capture(account.key, {
      ...epcisDocument(Object.values(events)),
      '@context': [...EPCIS_CONTEXT, { gdst: 'https://traceability-dialogue.org/epcis/' }],
    });
    expect(job.success).toBe(true);
    for (const [name, event] of Object.entries(events)) eventIds[name] = await idOf(event.eventID!);
    // An event captured before originals were stored apart holds its original in its payload.
    await sql().query(
      `UPDATE events e SET payload = (e.payload - 'EpcisOriginal') || jsonb_build_object('Epcis', o.epcis, 'EpcisIndex', o.epcis_index)
         FROM epcis_originals o WHERE e.id = $1 AND o.id = (e.payload ->> 'EpcisOriginal')::uuid`,
      [eventIds.legacy],
    );
    const native = commission(
      { location: uid('PLANT'), time: '2024-03-02T10:00:00Z' },
      {
        Quantity: 10,
        LotSerial: lotA,
        Product: {
          Id: uid('COD'),
          Details: {
            Name: 'Cod',
            SimpleUnitOfMeasurement: 'kg',
            SharingPolicy: 'Open',
            ProductIdentifierType: 'Lot',
            GTIN: ids.gtin,
          },
        },
      },
    );
    const stored = await client(account.key).post('/Integration/Events', { Events: [native] });
    expect(stored.status).toBe(200);
    eventIds.native = stored.body.result[0].id;
  });

  it('finds the events a lot, a serial or a logistic unit names, captured, captured long ago and ours alike', async () => {
    const candidates = async (kind: MatchKind, values: string[]) =>
      new Set((await withMatchCandidates(models(), filterOf(kind, values))).candidates);
    // A captured event also has lines of its own (its translation): found both ways, once in the set.
    expect(await candidates('epcClass', [ids.lgtin(lotA)])).toEqual(new Set([eventIds.lotA, eventIds.native]));
    expect(await candidates('anyEPC', [legacyUnit])).toEqual(new Set([eventIds.legacy]));
    expect(await candidates('epc', [ids.sgtin(serial)])).toEqual(new Set([eventIds.serial]));
    expect(await candidates('anyEPC', [ids.sscc])).toEqual(new Set([eventIds.unit]));
    expect(await candidates('epcClass', [ids.lgtin(lotOf())])).toEqual(new Set());
  });

  it('reads the account’s events in order for an EPC pattern, or for a match of more events than it looks up', async () => {
    const pattern = filterOf('epc', [ids.gtinClass]);
    expect(await withMatchCandidates(models(), pattern)).toBe(pattern);
    const common = filterOf('epcClass', [ids.lgtin(lotA)]);
    expect(await withMatchCandidates(models(), common, 1)).toBe(common);
  });

  it('answers what reading every event of the account answers', async () => {
    const filters: [MatchKind, string[]][] = [
      ['epcClass', [ids.lgtin(lotA)]],
      ['anyEPCClass', [ids.lgtin(lotA), ids.lgtin(lotB)]],
      ['epc', [legacyUnit, ids.sscc]],
      ['epcClass', [`https://id.gs1.org/01/${ids.gtin}`]],
      ['epc', [ids.sgtin(serial)]],
      ['parentID', [ids.sscc]],
      ['anyEPC', [ids.sscc, ids.sgtin(serial)]],
    ];
    for (const [kind, values] of filters) {
      const everyEvent = await answered(filterOf(kind, values));
      expect({
        kind,
        values,
        answer: await answered(await withMatchCandidates(models(), filterOf(kind, values))),
      }).toEqual({ kind, values, answer: everyEvent });
    }
    expect(await answered(filterOf('anyEPC', [legacyUnit, ids.sscc, ids.sgtin(serial)]))).toEqual([
      eventIds.serial,
      eventIds.unit,
      eventIds.legacy,
    ]);
  });

  it('finds a party the events name, captured and captured long ago, in this account alone', async () => {
    const other = await createAccount('epcis-match-other');
    expect(await eventsNameParty(models(), account.id, ['urn:example:nobody', shipper])).toBe(true);
    expect(await eventsNameParty(models(), account.id, [carrier])).toBe(true);
    expect(await eventsNameParty(models(), account.id, [owner])).toBe(true);
    expect(await eventsNameParty(models(), account.id, ['urn:example:nobody'])).toBe(false);
    expect(await eventsNameParty(models(), other.id, [shipper, carrier])).toBe(false);
  });

  it('keys a captured original as the migration keys the originals stored before it', async () => {
    const { rows } = await sql().query<{ stored: string[]; computed: string[] }>(
      'SELECT match_keys AS stored, epcis_match_keys(epcis, epcis_index) AS computed FROM epcis_originals WHERE account_id = $1',
      [account.id],
    );
    expect(rows).toHaveLength(5);
    for (const { stored, computed } of rows) expect([...stored].sort()).toEqual([...computed].sort());
    expect(rows.flatMap((row) => row.stored)).toEqual(
      expect.arrayContaining([matchKey('party', owner), `party ${shipper}`, `epc ${canonicalIdentifier(ids.sscc)}`]),
    );
  });
});
