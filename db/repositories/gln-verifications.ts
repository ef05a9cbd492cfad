import type { Sequelize } from 'sequelize';
import { glnProblem } from '../../domain/gs1-keys';
import { Account } from '../models';
import { executeOf, queryOf } from '../sql';

export interface GlnVerification {
  gln: string;
  account: string;
  verifiedAt: Date;
  verifiedBy: string;
}

/** A refusal the operator can act on: the CLI prints its message alone. */
export class GlnVerificationError extends Error {}

const accountNamed = async (name: string): Promise<Account> => {
  const account = await Account.findOne({ where: { name } });
  if (!account) throw new GlnVerificationError(`No account named ${name}.`);
  return account;
};

/**
 * Records that `accountName` owns `gln`. The check digit is checked first, always; a GLN another account
 * already owns is refused (revoke it there first), one the same account owns is left as it is.
 */
export async function verifyGln(
  sequelize: Sequelize,
  accountName: string,
  gln: string,
  verifiedBy: string,
): Promise<GlnVerification> {
  const problem = glnProblem(gln);
  if (problem) throw new GlnVerificationError(problem);
  const account = await accountNamed(accountName);
  await executeOf(sequelize)(
    `INSERT INTO gln_verifications (gln, account_id, verified_by) VALUES ($1, $2, $3) ON CONFLICT (gln) DO NOTHING`,
    [gln, account.id, verifiedBy],
  );
  const [row] = await listGlns(sequelize, { gln });
  if (row.account !== account.name)
    throw new GlnVerificationError(`GLN ${gln} is verified for account ${row.account}; revoke it there first.`);
  return row;
}

/** Takes `gln` away from `accountName`: shipments to it are private again. */
export async function revokeGln(sequelize: Sequelize, accountName: string, gln: string): Promise<boolean> {
  const account = await accountNamed(accountName);
  const removed = await queryOf(sequelize)(
    `DELETE FROM gln_verifications WHERE gln = $1 AND account_id = $2 RETURNING gln`,
    [gln, account.id],
  );
  return removed.length > 0;
}

export async function listGlns(
  sequelize: Sequelize,
  filter: { account?: string; gln?: string } = {},
): Promise<GlnVerification[]> {
  return queryOf(sequelize)<GlnVerification>(
    `SELECT v.gln, a.name AS account, v.verified_at AS "verifiedAt", v.verified_by AS "verifiedBy"
       FROM gln_verifications v JOIN accounts a ON a.id = v.account_id
      WHERE ($1::text IS NULL OR a.name = $1) AND ($2::text IS NULL OR v.gln = $2)
      ORDER BY a.name, v.gln`,
    [filter.account ?? null, filter.gln ?? null],
  );
}
