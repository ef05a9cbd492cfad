import { Account, API_KEY_ROLES, ApiKey, type ApiKeyRole } from '../db/models';
import { createApiKey } from '../db/repositories/accounts';
import { commandLine, run, wholeNumber } from './database';

const USAGE = `usage:
  npm run --silent apikey -- create --account NAME [--label LABEL]   prints the new key alone on stdout
  npm run --silent apikey -- create --role support [--account NAME] [--label LABEL]
                                    a support key: sees and retries every account's batches (account 'support' unless named)
  npm run --silent apikey -- list [--account NAME]
  npm run --silent apikey -- revoke KEY_ID
  npm run --silent apikey -- limit --account NAME --per-second N [--burst M]
                                    the account's keys may each make N requests a second and M more a minute (default 0)
  npm run --silent apikey -- limit --account NAME --default
                                    back to the service's limits (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST)`;

export const apikey = commandLine(
  USAGE,
  {
    account: { type: 'string' },
    label: { type: 'string' },
    role: { type: 'string' },
    'per-second': { type: 'string' },
    burst: { type: 'string' },
    default: { type: 'boolean' },
  },
  {
    create: async ({ values, print }) => {
      const role = (values.role ?? 'account') as ApiKeyRole;
      if (!API_KEY_ROLES.includes(role))
        throw new Error(`--role must be one of ${API_KEY_ROLES.join(', ')}.\n${USAGE}`);
      const accountName = values.account ?? (role === 'support' ? 'support' : undefined);
      if (!accountName) throw new Error(`--account is required.\n${USAGE}`);
      const { key } = await createApiKey(accountName, values.label ?? null, role);
      print(key);
    },
    list: async ({ values, print }) => {
      const account = values.account ? await Account.findOne({ where: { name: values.account } }) : null;
      if (values.account && !account) throw new Error(`No account named ${values.account}.`);
      const keys = await ApiKey.findAll({
        where: account ? { accountId: account.id } : {},
        order: [['createdAt', 'ASC']],
      });
      const names = new Map((await Account.findAll()).map((a) => [a.id, a.name]));
      print(['KEY_ID', 'ACCOUNT', 'LABEL', 'CREATED', 'STATE', 'ROLE'].join('\t'));
      for (const key of keys) {
        print(
          [
            key.id,
            names.get(key.accountId),
            key.label ?? '-',
            key.createdAt.toISOString(),
            key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active',
            key.role,
          ].join('\t'),
        );
      }
    },
    revoke: async ({ args: [id], print }) => {
      if (!id) throw new Error(`revoke needs a key id.\n${USAGE}`);
      const key = /^[0-9a-f-]{36}$/i.test(id) ? await ApiKey.findByPk(id) : null;
      if (!key) throw new Error(`No API key with id ${id}.`);
      if (!key.revokedAt) await key.update({ revokedAt: new Date() });
      print(`revoked ${key.id}`);
    },
    limit: async ({ values, print }) => {
      if (!values.account) throw new Error(`--account is required.\n${USAGE}`);
      const account = await Account.findOne({ where: { name: values.account } });
      if (!account) throw new Error(`No account named ${values.account}.`);
      if (values.default) {
        await account.update({ rateLimitPerSecond: null, rateLimitBurst: null });
        print(`${account.name}: the service's limits`);
        return;
      }
      const perSecond = wholeNumber('--per-second', values['per-second'], 1, USAGE);
      const burst = values.burst === undefined ? 0 : wholeNumber('--burst', values.burst, 0, USAGE);
      await account.update({ rateLimitPerSecond: perSecond, rateLimitBurst: burst });
      print(`${account.name}: ${perSecond} requests a second per key, ${burst} more a minute`);
    },
  },
);

if (require.main === module) run(() => apikey(process.argv.slice(2)));
