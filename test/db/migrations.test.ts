import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataTypes, QueryTypes, type Model, type ModelStatic } from 'sequelize';
import { createMigrator, migrateUp } from '../../db/migrate';
import { MODELS } from '../../db/models';
import { createSequelize } from '../../db/sequelize';

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

describe('migrations', () => {
  it('run up, down and up again on an empty database', async () => {
    await withEmptyDatabase(async (url) => {
      const sequelize = createSequelize(url, 2);
      try {
        const migrator = createMigrator(sequelize);
        await migrator.up();
        const created = await tables(sequelize);
        expect(created).toEqual(expect.arrayContaining(['accounts', 'api_keys', 'events', 'inventory_records', 'ledger_entries']));
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
        expect([...first, ...second]).toHaveLength((await createMigrator(a).executed()).length);
        expect(await migrateUp(a, url)).toEqual([]);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  it('agree with the model definitions, column by column', async () => {
    await withEmptyDatabase(async (url) => {
      const sequelize = createSequelize(url, 2);
      try {
        await createMigrator(sequelize).up();
        for (const model of MODELS as readonly ModelStatic<Model>[]) {
          const columns = await sequelize.getQueryInterface().describeTable(model.getTableName() as string);
          const attributes = Object.values(model.getAttributes());
          const modelColumns = attributes.map((a) => a.field ?? '').sort();
          expect({ table: model.getTableName(), columns: Object.keys(columns).sort() }).toEqual({ table: model.getTableName(), columns: modelColumns });
          for (const attribute of attributes) {
            const column = columns[attribute.field!];
            const name = `${model.getTableName()}.${attribute.field}`;
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
