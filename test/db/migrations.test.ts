import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataTypes, QueryTypes, type Model, type ModelStatic } from 'sequelize';
import { RENAMED_MIGRATIONS, createMigrator, migrateUp } from '../../db/migrate';
import { MODELS } from '../../db/models';
import { createSequelize } from '../../db/sequelize';
import { eventHashId, namespacesOfContext } from '../../domain/epcis/event-hash';
import { matchKeysOf } from '../../domain/epcis/match-keys';

/** Each test gets an empty database of its own on the test server. */
async function withEmptyDatabase(task: (url: string) => Promise<void>): Promise<void> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `migrations_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    await task(url.toString());
  } finally {
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const tables = async (sequelize: ReturnType<typeof createSequelize>) =>
  (
    await sequelize.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY 1",
      { type: QueryTypes.SELECT },
    )
  ).map((r) => r.tablename);

/**
 * On an empty database, runs every migration before the one whose name contains `part`, then `task`
 * with the connection and the migrator to run the rest.
 */
async function beforeMigration(
  part: string,
  task: (
    sequelize: ReturnType<typeof createSequelize>,
    migrator: Awaited<ReturnType<typeof createMigrator>>,
  ) => Promise<void>,
): Promise<void> {
  await withEmptyDatabase(async (url) => {
    const sequelize = createSequelize(url, 2);
    try {
      const migrator = await createMigrator(sequelize);
      const names = (await migrator.pending()).map((m) => m.name);
      await migrator.up({ to: names[names.findIndex((name) => name.includes(part)) - 1] });
      await task(sequelize, migrator);
    } finally {
      await sequelize.close();
    }
  });
}

/** One account's batch of events with these external ids and payloads, written as SQL (the models may be newer than the schema). */
async function insertEvents(sequelize: ReturnType<typeof createSequelize>, events: [id: string, payload: unknown][]) {
  await sequelize.query(`
    INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'a');
    INSERT INTO trade_partners (id, account_id, urn, name, connection_type) VALUES ('00000000-0000-4000-8000-000000000011', '00000000-0000-4000-8000-000000000001', 'tp', 'Self', 'SELF');
    INSERT INTO locations (id, account_id, trade_partner_id, urn, name) VALUES ('00000000-0000-4000-8000-000000000021', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000011', 'loc', 'Dock');
    INSERT INTO batches (id, account_id, workflow_id, mode, status, event_count, request)
      VALUES ('00000000-0000-4000-8000-000000000031', '00000000-0000-4000-8000-000000000001', 'batch-1', 'epcis', 'Completed', ${events.length}, '{}');`);
  await sequelize.query(
    `INSERT INTO events (account_id, batch_id, external_event_id, type, event_time, event_time_zone, location_id, urn, payload)
      SELECT '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000031', id, 'Observe', now(), '+00:00', '00000000-0000-4000-8000-000000000021', id, payload::jsonb
        FROM unnest($1::text[], $2::text[]) AS v(id, payload)`,
    { bind: [events.map(([id]) => id), events.map(([, payload]) => JSON.stringify(payload))] },
  );
}

describe('migrations', () => {
  it('run up, down and up again on an empty database', async () => {
    await withEmptyDatabase(async (url) => {
      const sequelize = createSequelize(url, 2);
      try {
        const migrator = await createMigrator(sequelize);
        await migrator.up();
        const created = await tables(sequelize);
        expect(created).toEqual(
          expect.arrayContaining(['accounts', 'api_keys', 'events', 'inventory_records', 'ledger_entries']),
        );
        await migrator.down({ to: 0 });
        expect(await tables(sequelize)).toEqual([]);
        await migrator.up();
        expect(await tables(sequelize)).toEqual(created);
      } finally {
        await sequelize.close();
      }
    });
  });

  it('are idempotent and safe to run from several processes at once', async () => {
    await withEmptyDatabase(async (url) => {
      const a = createSequelize(url, 2);
      const b = createSequelize(url, 2);
      try {
        const [first, second] = await Promise.all([migrateUp(a, url), migrateUp(b, url)]);
        expect([...first, ...second]).toHaveLength((await (await createMigrator(a)).executed()).length);
        expect(await migrateUp(a, url)).toEqual([]);
        // Up to date is read from the table alone; one reverted is due again and applied again.
        const [last] = await (await createMigrator(a)).down();
        expect(await migrateUp(b, url)).toEqual([last.name]);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  it('have one timestamp each, and a database that ran a renamed one does not run it again', async () => {
    await withEmptyDatabase(async (url) => {
      const sequelize = createSequelize(url, 2);
      try {
        const migrator = await createMigrator(sequelize);
        const names = (await migrator.pending()).map((m) => m.name);
        const stamps = names.map((name) => name.split('-')[0]);
        expect(new Set(stamps).size).toBe(stamps.length);
        await migrateUp(sequelize, url);
        // A database migrated before the rename holds the old names.
        for (const [from, to] of Object.entries(RENAMED_MIGRATIONS)) {
          await sequelize.query('UPDATE schema_migrations SET name = $1 WHERE name = $2', {
            bind: [`${from}.ts`, `${to}.ts`],
          });
        }
        expect(await migrateUp(sequelize, url)).toEqual([]);
        expect((await migrator.executed()).map((m) => m.name)).toEqual(names);
      } finally {
        await sequelize.close();
      }
    });
  });

  it('fill the company prefixes of EPC URNs (GS1-EPC-Format) from the events captured before that table', async () => {
    await beforeMigration('epcis-company-prefixes', async (sequelize, migrator) => {
      const epcis = {
        type: 'ObjectEvent',
        epcList: ['urn:epc:id:sgtin:9521141.012345.S1'],
        bizLocation: { id: 'https://id.gs1.org/414/9521142000010' },
      };
      await insertEvents(sequelize, [
        ['e1', { Epcis: epcis }],
        ['e2', { Id: 'urn:epc:id:sgtin:7654321.000001.X' }],
      ]);
      await migrator.up();
      // The URN's prefix only: a Digital Link does not say where its prefix ends; a native event has none.
      const rows = await sequelize.query('SELECT account_id, prefix FROM epcis_company_prefixes', {
        type: QueryTypes.SELECT,
      });
      expect(rows).toEqual([{ account_id: '00000000-0000-4000-8000-000000000001', prefix: '9521141' }]);
    });
  });

  it('recompute the event hash ids of captured events from their originals: events the old hash merged part, events it split join', async () => {
    await beforeMigration('events-epcis-hash', async (sequelize, migrator) => {
      const event = (netWeight: string, vehicles: string[]) => ({
        type: 'ObjectEvent',
        eventTime: '2024-03-01T10:00:00.000Z',
        eventTimeZoneOffset: '+00:00',
        epcList: ['urn:epc:id:sgtin:9521141.012345.S1'],
        action: 'OBSERVE',
        'cbvmda:netWeight': { '@value': netWeight, measurementUnitCode: 'KGM' },
        'ex:vehicle': vehicles.map((id) => ({ 'ex:id': id })),
      });
      const context = [{ ex: 'https://ns.example.com/' }];
      const stored = [
        // What the old hash merged: two weights, one hash (only the first was stored then; both can be now).
        ['e1', event('3.5', ['A', 'B']), 'old-1'],
        ['e2', event('999', ['A', 'B']), 'old-1'],
        // What it split: one event, its repetitions in two orders, two hashes.
        ['e3', event('3.5', ['B', 'A']), 'old-3'],
      ] as const;
      await insertEvents(sequelize, [
        ...stored.map(([id, epcis, hash]): [string, unknown] => [
          id,
          { Epcis: epcis, EpcisContext: context, EpcisHash: hash },
        ]),
        ['native', { Id: 'native' }],
      ]);
      await migrator.up();
      const rows = await sequelize.query<{ external_event_id: string; epcis_hash: string | null }>(
        'SELECT external_event_id, epcis_hash FROM events ORDER BY external_event_id',
        { type: QueryTypes.SELECT },
      );
      const hashOf = (id: string) => rows.find((row) => row.external_event_id === id)!.epcis_hash;
      const namespaces = namespacesOfContext(context);
      expect(hashOf('e1')).toBe(eventHashId(stored[0][1], namespaces));
      expect(hashOf('e2')).not.toBe(hashOf('e1'));
      expect(hashOf('e3')).toBe(hashOf('e1'));
      expect(hashOf('native')).toBeNull();
    });
  });

  it('recompute the event hash ids by the corrected rules: a GRAI as URN and as Digital Link is one event', async () => {
    await beforeMigration('epcis-hash-rules', async (sequelize, migrator) => {
      const event = (grai: string) => ({
        type: 'ObjectEvent',
        eventTime: '2024-03-01T10:00:00.000Z',
        eventTimeZoneOffset: '+00:00',
        epcList: [grai],
        action: 'OBSERVE',
      });
      const urn = event('urn:epc:id:grai:0614141.12345.400');
      const link = event('https://id.gs1.org/8003/00614141123452400');
      await insertEvents(sequelize, [
        ['urn', { Epcis: urn, EpcisHash: 'old-1' }],
        ['link', { Epcis: link, EpcisHash: 'old-2' }],
      ]);
      await sequelize.query("UPDATE events SET epcis_hash = 'by the earlier rules ' || external_event_id");
      await migrator.up();
      const rows = await sequelize.query<{ external_event_id: string; epcis_hash: string }>(
        'SELECT external_event_id, epcis_hash FROM events ORDER BY external_event_id',
        { type: QueryTypes.SELECT },
      );
      expect(rows).toEqual([
        { external_event_id: 'link', epcis_hash: eventHashId(urn) },
        { external_event_id: 'urn', epcis_hash: eventHashId(urn) },
      ]);
    });
  });

  it('key the originals stored before match_keys as a capture keys its own', async () => {
    await beforeMigration('epcis-match-index', async (sequelize, migrator) => {
      const epcis = {
        type: 'ObjectEvent',
        eventTime: '2024-03-01T10:00:00.000Z',
        eventTimeZoneOffset: '+00:00',
        epcList: ['urn:epc:id:sscc:0614141.1234567890'],
        action: 'OBSERVE' as const,
        sourceList: [{ type: 'owning_party', source: 'urn:epc:id:pgln:0614141.00001' }],
        'gdst:informationProvider': 'urn:gdst:example.org:party:provider',
        // Past 512 bytes keyed by its MD5: a GIN index refuses a key of over 2,712 bytes.
        'gdst:productOwner': `urn:gdst:example.org:party:${randomBytes(1500).toString('hex')}`,
      };
      const index = { epc: ['https://id.gs1.org/00/006141411234567896'] };
      // An original as the schema before the migration holds it, and its keys once stored.
      const insertOriginal = (id: string) =>
        sequelize.query(
          `INSERT INTO epcis_originals (id, account_id, epcis, epcis_index)
          VALUES ($1, '00000000-0000-4000-8000-000000000001', $2::jsonb, $3::jsonb)`,
          { bind: [id, JSON.stringify(epcis), JSON.stringify(index)] },
        );
      const keysOf = async (id: string) => {
        const [row] = await sequelize.query<{ match_keys: string[] }>(
          'SELECT match_keys FROM epcis_originals WHERE id = $1',
          { bind: [id], type: QueryTypes.SELECT },
        );
        return [...row.match_keys].sort();
      };
      await insertEvents(sequelize, [['captured', { EpcisOriginal: '00000000-0000-4000-8000-000000000041' }]]);
      await insertOriginal('00000000-0000-4000-8000-000000000041');
      await migrator.up();
      const stored = await keysOf('00000000-0000-4000-8000-000000000041');
      expect(stored).toEqual(matchKeysOf(epcis, index).sort());
      expect(stored).toEqual([
        'epc https://id.gs1.org/00/006141411234567896',
        `party md5 ${createHash('md5').update(epcis['gdst:productOwner'], 'utf8').digest('hex')}`,
        'party urn:epc:id:pgln:0614141.00001',
        'party urn:gdst:example.org:party:provider',
      ]);
      // An API of the previous version, still running, inserts without them: the trigger keys the row.
      await insertOriginal('00000000-0000-4000-8000-000000000042');
      expect(await keysOf('00000000-0000-4000-8000-000000000042')).toEqual(stored);
    });
  });

  it('take the lines of one event on one timeline in their order: 10 and 20 read 30, an output of its own input counts after it', async () => {
    await beforeMigration('inventory-line-order', async (sequelize, migrator) => {
      await insertEvents(sequelize, [
        ['commission', {}],
        ['transform', {}],
      ]);
      // Two lines each, stored with the values either order of the recalculation could leave: all wrong here.
      await sequelize.query(`
        INSERT INTO products (id, account_id, urn, name, unit_of_measure, sharing_policy, identifier_type)
          VALUES ('00000000-0000-4000-8000-000000000051', '00000000-0000-4000-8000-000000000001', 'cod', 'Cod', 'KGM', 'Open', 'Lot');
        WITH lines AS (
          INSERT INTO event_lines (account_id, event_id, position, role, product_id, lot_serial, quantity)
          SELECT e.account_id, e.id, v.position, v.role, '00000000-0000-4000-8000-000000000051', 'L1', abs(v.delta)
            FROM (VALUES ('commission', 0, 'instance', 10), ('commission', 1, 'instance', 20),
                         ('transform', 0, 'input', -25), ('transform', 0, 'output', 3)) AS v(event, position, role, delta)
            JOIN events e ON e.external_event_id = v.event
           ORDER BY e.seq, v.role = 'output', v.position
          RETURNING id, event_id, role, quantity)
        INSERT INTO inventory_records (account_id, product_id, lot_serial, location_id, event_id, event_line_id, event_time, event_seq, delta, balance, available)
        SELECT e.account_id, '00000000-0000-4000-8000-000000000051', 'L1', e.location_id, e.id, l.id,
               CASE e.external_event_id WHEN 'commission' THEN timestamptz '2024-07-01Z' ELSE timestamptz '2024-07-03Z' END,
               e.seq, CASE l.role WHEN 'input' THEN -l.quantity ELSE l.quantity END, 0, 0
          FROM lines l JOIN events e ON e.id = l.event_id;`);
      await migrator.up();
      const rows = await sequelize.query<{ delta: string; balance: string; available: string }>(
        'SELECT delta::text, balance::text, available::text FROM inventory_records ORDER BY event_line_id',
        { type: QueryTypes.SELECT },
      );
      expect(rows).toEqual([
        { delta: '10', balance: '10', available: '5' },
        { delta: '20', balance: '30', available: '5' },
        { delta: '-25', balance: '5', available: '5' },
        { delta: '3', balance: '8', available: '8' },
      ]);
    });
  });

  it('agree with the model definitions, column by column', async () => {
    await withEmptyDatabase(async (url) => {
      const sequelize = createSequelize(url, 2);
      try {
        await (await createMigrator(sequelize)).up();
        // Generated columns are the database's own (an index's input), never written through a model.
        const generated = new Set(
          (
            await sequelize.query<{ name: string }>(
              "SELECT table_name || '.' || column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND is_generated = 'ALWAYS'",
              { type: QueryTypes.SELECT },
            )
          ).map((c) => c.name),
        );
        for (const model of MODELS as readonly ModelStatic<Model>[]) {
          const table = model.getTableName() as string;
          const columns = Object.fromEntries(
            Object.entries(await sequelize.getQueryInterface().describeTable(table)).filter(
              ([name]) => !generated.has(`${table}.${name}`),
            ),
          );
          const attributes = Object.values(model.getAttributes());
          const modelColumns = attributes.map((a) => a.field ?? '').sort();
          expect({ table, columns: Object.keys(columns).sort() }).toEqual({ table, columns: modelColumns });
          for (const attribute of attributes) {
            const column = columns[attribute.field!];
            const name = `${table}.${attribute.field}`;
            const nullableInModel = attribute.allowNull !== false && !attribute.primaryKey;
            expect({ name, nullable: column.allowNull }).toEqual({ name, nullable: nullableInModel });
            if (attribute.type instanceof DataTypes.UUID) expect(column.type).toBe('UUID');
            if (attribute.type instanceof DataTypes.JSONB) expect(column.type).toBe('JSONB');
          }
        }
      } finally {
        await sequelize.close();
      }
    });
  });
});
