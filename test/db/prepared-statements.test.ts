import { createSequelize } from '../../db/sequelize';
import { onEveryStatement, preparedQueryOf, queryOf } from '../../db/sql';

/** What the pipeline's steps send as named prepared statements, against the test stack's PostgreSQL. */
describe('preparedQueryOf', () => {
  const sequelize = createSequelize(process.env.DATABASE_URL!, 2);
  let sent = 0;
  onEveryStatement(sequelize, () => sent++);
  afterAll(() => sequelize.close());

  const SQUARES = 'SELECT n, n * n AS square FROM unnest($1::int[]) AS n ORDER BY n';
  /** The statements this session has prepared, by their text. */
  const preparedIn = (query: ReturnType<typeof queryOf>) =>
    query<{ statement: string }>('SELECT statement FROM pg_prepared_statements ORDER BY prepare_time', []);

  it('prepares a statement once per connection and answers its rows each time', async () => {
    await sequelize.transaction(async (transaction) => {
      const prepared = preparedQueryOf(sequelize, transaction);
      expect(await prepared(SQUARES, [[2, 3]])).toEqual([
        { n: 2, square: 4 },
        { n: 3, square: 9 },
      ]);
      expect(await prepared(SQUARES, [[4]])).toEqual([{ n: 4, square: 16 }]);
      const statements = (await preparedIn(queryOf(sequelize, transaction))).map((row) => row.statement);
      expect(statements.filter((statement) => statement === SQUARES)).toHaveLength(1);
    });
  });

  it('runs on a connection of the pool without a transaction', async () => {
    expect(await preparedQueryOf(sequelize)(SQUARES, [[5]])).toEqual([{ n: 5, square: 25 }]);
  });

  it("counts every statement it sends, as Sequelize's own are counted", async () => {
    const before = sent;
    await preparedQueryOf(sequelize)('SELECT 1 AS one', []);
    await queryOf(sequelize)('SELECT 2 AS two', []);
    expect(sent - before).toBe(2);
  });

  it("rejects with PostgreSQL's error as it is", async () => {
    await expect(preparedQueryOf(sequelize)('SELECT 1 / $1::int AS quotient', [0])).rejects.toThrow('division by zero');
    // The statement stays prepared and answers again.
    expect(await preparedQueryOf(sequelize)('SELECT 1 / $1::int AS quotient', [1])).toEqual([{ quotient: 1 }]);
  });
});
