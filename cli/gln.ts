import os from 'node:os';
import { listGlns, revokeGln, verifyGln } from '../db/repositories/gln-verifications';
import { commandLine, run } from './database';

const USAGE = `usage:
  npm run --silent gln -- verify ACCOUNT GLN   ACCOUNT owns GLN: shipments to that GLN become visible to it
  npm run --silent gln -- revoke ACCOUNT GLN   shipments to GLN are private again
  npm run --silent gln -- list [--account NAME]`;

export const gln = commandLine(
  USAGE,
  { account: { type: 'string' } },
  {
    verify: async ({ sequelize, args: [account, gln], print }) => {
      if (!account || !gln) throw new Error(`verify needs an account and a GLN.\n${USAGE}`);
      const verified = await verifyGln(sequelize, account, gln, process.env.SUDO_USER ?? os.userInfo().username);
      print(`verified ${verified.gln} for ${verified.account}`);
    },
    revoke: async ({ sequelize, args: [account, gln], print }) => {
      if (!account || !gln) throw new Error(`revoke needs an account and a GLN.\n${USAGE}`);
      print(
        (await revokeGln(sequelize, account, gln))
          ? `revoked ${gln} for ${account}`
          : `${gln} was not verified for ${account}`,
      );
    },
    list: async ({ sequelize, values, print }) => {
      for (const v of await listGlns(sequelize, { account: values.account })) {
        print([v.gln, v.account, v.verifiedAt.toISOString(), v.verifiedBy].join('\t'));
      }
    },
  },
);

if (require.main === module) run(() => gln(process.argv.slice(2)));
