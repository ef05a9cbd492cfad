import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../platform/config';
import { createAccount } from '../factories/accounts';
import { newGln } from '../factories/trace-events';
import { sql } from '../helpers/db';
import { typescriptCommand } from '../helpers/stack';

const exec = promisify(execFile);
const [node, nodeArgs] = typescriptCommand('cli/gln.ts');
const glnCli = (...args: string[]) =>
  exec(node, [...nodeArgs, ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });

describe('npm run gln (the operator verifies who owns a GLN)', () => {
  it('verifies, lists and revokes a GLN; a wrong check digit or another owner is refused', async () => {
    const [owner, other] = await Promise.all([createAccount('gln'), createAccount('gln')]);
    const gln = newGln();
    const wrongCheckDigit = `${gln.slice(0, 12)}${(Number(gln[12]) + 1) % 10}`;

    await expect(glnCli('verify', owner.name, wrongCheckDigit)).rejects.toMatchObject({
      stderr: expect.stringContaining(`${wrongCheckDigit} is not a GLN: its check digit is ${wrongCheckDigit[12]}`),
    });
    expect((await sql().query('SELECT 1 FROM gln_verifications WHERE gln = $1', [wrongCheckDigit])).rowCount).toBe(0);

    expect((await glnCli('verify', owner.name, gln)).stdout).toBe(`verified ${gln} for ${owner.name}\n`);
    await expect(glnCli('verify', other.name, gln)).rejects.toMatchObject({
      stderr: expect.stringContaining(`GLN ${gln} is verified for account ${owner.name}`),
    });
    expect((await glnCli('list', '--account', owner.name)).stdout).toMatch(
      new RegExp(`^${gln}\\t${owner.name}\\t\\d{4}-`),
    );

    expect((await glnCli('revoke', owner.name, gln)).stdout).toBe(`revoked ${gln} for ${owner.name}\n`);
    expect((await glnCli('list', '--account', owner.name)).stdout).toBe('');
    expect((await glnCli('verify', other.name, gln)).stdout).toBe(`verified ${gln} for ${other.name}\n`);
  }, 180_000); // seven CLI processes, each starting tsx: slow on a loaded machine
});
