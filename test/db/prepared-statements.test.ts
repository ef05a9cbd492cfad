import type { Transaction } from 'sequelize';
import { createSequelize } from '../../db/sequelize';
import { onEveryStatement, preparedQueryOf, queryOf, type Query } from '../../db/sql';

/** What the pipeline's steps send as named prepared statements, against the test stack's PostgreSQL. */
describe('preparedQueryOf', () => {
  // One connection, so that every statement of a test runs in the same session.
  const sequelize = createSequelize(process.env.DATABASE_URL!, 1);
  let sent = 0;
  onEveryStatement(sequelize, () => sent++);
  afterAll(() => sequelize.close());

  const SQUARES = 'SELECT n, n * n AS square FROM unnest($1::int[]) AS n ORDER BY n';
  /** How many times the session has SQUARES prepared. */
  const preparedSquares = async (query: Query) =>
    (await query<{ statement: string }>('SELECT statement FROM pg_prepared_statements', [])).filter(
      (row) => row.statement === SQUARES,
    ).length;

  it('prepares a statement once per connection, in a transaction and on the pool', async () => {
    await sequelize.transaction(async (transaction) => {
      const prepared = preparedQueryOf(sequelize, transaction);
      expect(await prepared(SQUARES, [[2, 3]])).toEqual([
        { n: 2, square: 4 },
        { n: 3, square: 9 },
      ]);
      expect(await prepared(SQUARES, [[4]])).toEqual([{ n: 4, square: 16 }]);
      expect(await preparedSquares(queryOf(sequelize, transaction))).toBe(1);
    });
    expect(await preparedQueryOf(sequelize)(SQUARES, [[5]])).toEqual([{ n: 5, square: 25 }]);
    expect(await preparedSquares(queryOf(sequelize))).toBe(1);
  });

  it("counts every statement it sends, as Sequelize's own are counted", async () => {
    const before = sent;
    await preparedQueryOf(sequelize)('SELECT 1 AS one', []);
    await queryOf(sequelize)('SELECT 2 AS two', []);
    expect(sent - before).toBe(2);
  });

  it("rejects with PostgreSQL's error as it is", async () => {
    await expect(preparedQueryOf(sequelize)('SELECT 1 / $1::int AS quotient', [0])).rejects.toMatchObject({
      code: '22012',
      message: 'division by zero',
    });
  });

  it('refuses a bind without a value, and a finished transaction, sending nothing', async () => {
    let finished: Transaction | undefined;
    await sequelize.transaction(async (transaction) => {
      finished = transaction;
    });
    const before = sent;
    await expect(preparedQueryOf(sequelize)('SELECT $1::int AS n', [undefined])).rejects.toThrow(
      'Bind parameter $1 has no value.',
    );
    await expect(preparedQueryOf(sequelize, finished)('SELECT 1 AS one', [])).rejects.toThrow(
      'The transaction has finished (commit)',
    );
    expect(sent).toBe(before);
  });

  it('gives up a connection whose prepared statement the server lost', async () => {
    let invalid: boolean | undefined;
    await sequelize
      .transaction(async (transaction) => {
        const prepared = preparedQueryOf(sequelize, transaction);
        await prepared(SQUARES, [[1]]);
        await queryOf(sequelize, transaction)('DEALLOCATE ALL', []);
        const failure = prepared(SQUARES, [[1]]);
        await expect(failure).rejects.toMatchObject({ code: '26000' });
        invalid = (transaction as Transaction & { connection: { _invalid?: boolean } }).connection._invalid;
        await failure;
      })
      .catch(() => undefined);
    expect(invalid).toBe(true);
    // The pool made a new connection: the statement is prepared there afresh.
    expect(await preparedQueryOf(sequelize)(SQUARES, [[6]])).toEqual([{ n: 6, square: 36 }]);
  });
});
