import { MasterDataRefused, createMasterData, updateLocations } from '../../usecases/master-data';
import type { LocationPayload } from '../../domain/master-data';
import { createAccount, type TestAccount } from '../factories/accounts';
import { models, rowCounts } from '../helpers/db';

/** The master data use cases, called directly against PostgreSQL. */
describe('create and update master data (use cases)', () => {
  let account: TestAccount;
  const deps = () => ({ sequelize: models(), urnDomain: 'test.example' });
  const location = (id: string, partner = 'TP-1'): LocationPayload => ({
    id,
    Details: {
      Name: `Dock ${id}`,
      TradePartner: { Id: partner, Name: 'Partner one', ConnectionType: 'SUPPLIER' },
      Address: { City: 'Bergen', Country: 'NO', AddressLine1: 'Bryggen 1' },
    },
  });
  const counted = ['locations', 'trade_partners'];

  beforeAll(async () => {
    account = await createAccount('usecase-master-data');
  });

  it('creates every record, or none: one conflict names its index and field, and nothing of the request is stored', async () => {
    const ids = await createMasterData(deps(), {
      account,
      data: { kind: 'locations', records: [location('A')] },
      fieldOf: (index) => `Locations[${index}]`,
    });
    expect(ids).toHaveLength(1);
    const before = await rowCounts(account.id, counted);
    const refused = createMasterData(deps(), {
      account,
      data: { kind: 'locations', records: [location('B'), location('A')] },
      fieldOf: (index) => `Locations[${index}]`,
    });
    await expect(refused).rejects.toBeInstanceOf(MasterDataRefused);
    await expect(refused).rejects.toMatchObject({
      kind: 'conflict',
      errors: [{ index: 1, id: 'A', field: expect.stringMatching(/^Locations\[1\]/) }],
    });
    expect(await rowCounts(account.id, counted)).toEqual(before);
  });

  it('what else commits with the records (an import chunk’s outcome) failing takes the records with it', async () => {
    const before = await rowCounts(account.id, counted);
    await expect(
      createMasterData(deps(), {
        account,
        data: { kind: 'locations', records: [location('C')] },
        fieldOf: () => 'Record',
        alsoInTransaction: async () => {
          throw new Error('the chunk could not be recorded');
        },
      }),
    ).rejects.toThrow('the chunk could not be recorded');
    expect(await rowCounts(account.id, counted)).toEqual(before);
  });

  it('updating a location the account does not have is notFound, and the others of the request are not changed', async () => {
    const refused = updateLocations(deps(), {
      account,
      items: [
        { id: 'A', Details: { Name: 'Renamed' } },
        { id: 'MISSING', Details: { Name: 'x' } },
      ],
      prefixOf: (index) => `Locations[${index}]`,
    });
    await expect(refused).rejects.toMatchObject({ kind: 'notFound', errors: [{ index: 1, id: 'MISSING' }] });
    const [kept] = await updateLocations(deps(), {
      account,
      items: [{ id: 'A', Details: {} }],
      prefixOf: () => 'Location',
    });
    expect(kept.location.name).toBe('Dock A');
  });
});
