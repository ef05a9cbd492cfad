import os from 'node:os';
import { listGlns, revokeGln, verifyGln } from '../db/repositories/gln-verifications';
import { runCommands } from './database';

const USAGE = `usage:
  npm run --silent gln -- verify ACCOUNT GLN   ACCOUNT owns GLN: shipments to that GLN become visible to it
  npm run --silent gln -- revoke ACCOUNT GLN   shipments to GLN are private again
  npm run --silent gln -- list [--account NAME]`;

runCommands(
  USAGE,
  { account: { type: 'string' } },
  {
    verify: async ({ sequelize, args: [account, gln] }) => {
      if (!account || !gln) throw new Error(`verify needs an account and a GLN.\n${USAGE}`);
      const verified = await verifyGln(sequelize, account, gln, process.env.SUDO_USER ?? os.userInfo().username);
      console.log(`verified ${verified.gln} for ${verified.account}`);
    },
    revoke: async ({ sequelize, args: [account, gln] }) => {
      if (!account || !gln) throw new Error(`revoke needs an account and a GLN.\n${USAGE}`);
      console.log(
        (await revokeGln(sequelize, account, gln))
          ? `revoked ${gln} for ${account}`
          : `${gln} was not verified for ${account}`,
      );
    },
    list: async ({ sequelize, values }) => {
      for (const v of await listGlns(sequelize, { account: values.account })) {
        console.log([v.gln, v.account, v.verifiedAt.toISOString(), v.verifiedBy].join('\t'));
      }
    },
  },
);
