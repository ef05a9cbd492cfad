import { gln as glnCommands } from '../../cli/gln';
import { createAccount } from '../factories/accounts';
import { newGln } from '../factories/trace-events';
import { command } from '../helpers/cli';
import { sql } from '../helpers/db';

const glnCli = (...args: string[]) => command(glnCommands, ...args);

describe('npm run gln (the operator verifies who owns a GLN)', () => {
  it('verifies, lists and revokes a GLN; a wrong check digit or another owner is refused', async () => {
    const [owner, other] = await Promise.all([createAccount('gln'), createAccount('gln')]);
    const gln = newGln();
    const wrongCheckDigit = `${gln.slice(0, 12)}${(Number(gln[12]) + 1) % 10}`;

    await expect(glnCli('verify', owner.name, wrongCheckDigit)).rejects.toThrow(
      `${wrongCheckDigit} is not a GLN: its check digit is ${wrongCheckDigit[12]}`,
    );
    expect((await sql().query('SELECT 1 FROM gln_verifications WHERE gln = $1', [wrongCheckDigit])).rowCount).toBe(0);

    expect(await glnCli('verify', owner.name, gln)).toBe(`verified ${gln} for ${owner.name}\n`);
    await expect(glnCli('verify', other.name, gln)).rejects.toThrow(`GLN ${gln} is verified for account ${owner.name}`);
    expect(await glnCli('list', '--account', owner.name)).toMatch(new RegExp(`^${gln}\\t${owner.name}\\t\\d{4}-`));

    expect(await glnCli('revoke', owner.name, gln)).toBe(`revoked ${gln} for ${owner.name}\n`);
    expect(await glnCli('list', '--account', owner.name)).toBe('');
    expect(await glnCli('verify', other.name, gln)).toBe(`verified ${gln} for ${other.name}\n`);
  });
});
