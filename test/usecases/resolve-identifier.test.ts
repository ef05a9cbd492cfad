import { heldUnder } from '../../usecases/resolve-identifier';
import { createMasterData } from '../../usecases/master-data';
import { resolverKeyOf, type KeyAi, type KeyQualifier, type ResolvedKey } from '../../domain/epcis/resolver';
import { createAccount, type TestAccount } from '../factories/accounts';
import { models } from '../helpers/db';

const keyOf = (ai: KeyAi, value: string, qualifier?: KeyQualifier): ResolvedKey => {
  const parsed = resolverKeyOf(ai, value, qualifier);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.key;
};

/** What an account holds under a resolver's key, called directly against PostgreSQL. */
describe('resolve an identifier (use case)', () => {
  let account: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    [account, other] = await Promise.all([createAccount('usecase-resolver'), createAccount('usecase-resolver-other')]);
    await createMasterData(
      { sequelize: models(), urnDomain: 'test.example' },
      {
        account,
        data: {
          kind: 'locations',
          records: [
            {
              id: 'DOCK-1',
              Details: {
                Name: 'North dock',
                Gln: '0614141000012',
                TradePartner: { Id: 'TP-1', Name: 'Partner one', ConnectionType: 'SELF' },
                Address: { City: 'Bergen', Country: 'NO', AddressLine1: 'Bryggen 1' },
              },
            },
          ],
        },
        fieldOf: (index) => `Locations[${index}]`,
      },
    );
  });

  it('answers the master data of what the account holds, and names what another account lacks', async () => {
    const gln = keyOf('414', '0614141000012');
    expect(await heldUnder(models(), account.id, gln)).toEqual({
      kind: 'held',
      masterData: expect.objectContaining({ '@type': 'gs1:Place', globalLocationNumber: '0614141000012' }),
    });
    expect(await heldUnder(models(), other.id, gln)).toEqual({
      kind: 'unknown',
      code: 'unknown-location',
      detail: 'No location with GLN 0614141000012 in this account.',
    });
  });

  it('a lot or a logistic unit no event of the account names is unknown: a container by its code in capitals', async () => {
    const lot = keyOf('01', 'urn:gdst:example.org:product:class:nobody.1u', { lot: 'L-1' });
    expect(await heldUnder(models(), account.id, lot)).toMatchObject({
      kind: 'unknown',
      code: 'unknown-lot-or-serial',
    });
    const pallet = keyOf('00', 'urn:epc:id:bic:csqu3054383');
    expect(await heldUnder(models(), account.id, pallet)).toEqual({
      kind: 'unknown',
      code: 'unknown-lot-or-serial',
      detail: 'No event of this account names logistic unit URN urn:epc:id:bic:CSQU3054383.',
    });
  });
});
