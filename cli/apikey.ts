import { parseArgs } from 'node:util';
import { Account, API_KEY_ROLES, ApiKey, type ApiKeyRole } from '../db/models';
import { createApiKey } from '../db/repositories/accounts';
import { run, withDatabase } from './database';

const USAGE = `usage:
  npm run --silent apikey -- create --account NAME [--label LABEL]   prints the new key alone on stdout
  npm run --silent apikey -- create --role support [--account NAME] [--label LABEL]
                                    a support key: sees and retries every account's batches (account 'support' unless named)
  npm run --silent apikey -- list [--account NAME]
  npm run --silent apikey -- revoke KEY_ID`;

run(async () => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { account: { type: 'string' }, label: { type: 'string' }, role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  await withDatabase(async () => {
    switch (command) {
      case 'create': {
        const role = (values.role ?? 'account') as ApiKeyRole;
        if (!API_KEY_ROLES.includes(role)) throw new Error(`--role must be one of ${API_KEY_ROLES.join(', ')}.\n${USAGE}`);
        const accountName = values.account ?? (role === 'support' ? 'support' : undefined);
        if (!accountName) throw new Error(`--account is required.\n${USAGE}`);
        const { key } = await createApiKey(accountName, values.label ?? null, role);
        process.stdout.write(`${key}\n`);
        return;
      }
      case 'list': {
        const account = values.account ? await Account.findOne({ where: { name: values.account } }) : null;
        if (values.account && !account) throw new Error(`No account named ${values.account}.`);
        const keys = await ApiKey.findAll({ where: account ? { accountId: account.id } : {}, order: [['createdAt', 'ASC']] });
        const names = new Map((await Account.findAll()).map((a) => [a.id, a.name]));
        console.log(['KEY_ID', 'ACCOUNT', 'LABEL', 'CREATED', 'STATE', 'ROLE'].join('\t'));
        for (const key of keys) {
          console.log(
            [key.id, names.get(key.accountId), key.label ?? '-', key.createdAt.toISOString(), key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active', key.role].join('\t'),
          );
        }
        return;
      }
      case 'revoke': {
        const [id] = rest;
        if (!id) throw new Error(`revoke needs a key id.\n${USAGE}`);
        const key = /^[0-9a-f-]{36}$/i.test(id) ? await ApiKey.findByPk(id) : null;
        if (!key) throw new Error(`No API key with id ${id}.`);
        if (!key.revokedAt) await key.update({ revokedAt: new Date() });
        console.log(`revoked ${key.id}`);
        return;
      }
      default:
        throw new Error(`Unknown command ${command}.\n${USAGE}`);
    }
  });
});
