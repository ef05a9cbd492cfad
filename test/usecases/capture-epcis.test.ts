import { CaptureRefused, captureEpcis, type CheckedDocument } from '../../usecases/capture-epcis';
import { createAccount, type TestAccount } from '../factories/accounts';
import { gs1Ids, lotOf, objectEvent } from '../factories/epcis';
import type { EpcisEvent } from '../../domain/epcis/translate';
import { models, rowCounts, sql } from '../helpers/db';

/** The capture use case, called directly against PostgreSQL: no HTTP, no Temporal (the batch is stored, not started). */
describe('capture an EPCIS document (use case)', () => {
  let account: TestAccount;
  const deps = () => ({ sequelize: models(), urnDomain: 'test.example', bounds: { idLength: 200, quantity: 1e12 } });
  const documentOf = (events: unknown[], product: string): CheckedDocument => ({
    events: events as EpcisEvent[],
    pointerOf: (index) => `/epcisBody/eventList/${index}`,
    namespaces: [],
    vocabularies: {
      list: [
        {
          type: 'urn:epcglobal:epcis:vtype:EPCClass',
          vocabularyElementList: [
            { id: product, attributes: [{ id: 'urn:epcglobal:cbv:mda#descriptionShort', attribute: 'Cod loins' }] },
          ],
        },
      ],
      pointer: '/epcisHeader/epcisMasterData/vocabularyList',
    },
  });
  const counted = ['batches', 'products', 'locations', 'epcis_originals'];

  beforeAll(async () => {
    account = await createAccount('usecase-capture');
  });

  it('stores the batch, its originals and the master data it brings, the batch Accepted and not yet started', async () => {
    const ids = gs1Ids();
    const event = objectEvent({
      quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 5, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    const batch = await captureEpcis(deps(), {
      account,
      requestId: 'usecase-test',
      document: documentOf([event], ids.gtinClass),
      behaviour: 'rollback',
    });
    expect(batch).toMatchObject({ accountId: account.id, mode: 'epcis', status: 'Accepted', eventCount: 1 });
    const { rows } = await sql().query('SELECT name FROM products WHERE account_id = $1', [account.id]);
    expect(rows).toEqual([{ name: 'Cod loins' }]);
  });

  it('a rule the schema cannot state (an eventID twice) is CaptureRefused naming it; nothing is stored', async () => {
    const ids = gs1Ids();
    const before = await rowCounts(account.id, counted);
    const event = objectEvent({
      quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 5, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    const refused = captureEpcis(deps(), {
      account,
      requestId: 'usecase-test',
      document: documentOf([event, event], ids.gtinClass),
      behaviour: 'rollback',
    });
    await expect(refused).rejects.toBeInstanceOf(CaptureRefused);
    await expect(refused).rejects.toMatchObject({
      issues: [
        { pointer: '/epcisBody/eventList/1/eventID', message: expect.stringContaining('also the eventID of event 0') },
      ],
    });
    expect(await rowCounts(account.id, counted)).toEqual(before);
  });

  it('all or nothing: when storing the batch fails after the master data was applied, the master data is not changed either', async () => {
    const own = await createAccount('usecase-capture-fail');
    const ids = gs1Ids();
    const event = objectEvent({
      quantityList: [{ epcClass: ids.lgtin(lotOf()), quantity: 5, uom: 'KGM' }],
      readPoint: ids.sgln(),
    });
    // A fault the database itself raises, after the master data and the originals are written: the batch row is refused.
    const trigger = `fail_batch_${own.id.replaceAll('-', '')}`;
    await sql().query(`
      CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'batch refused by the test'; END $$;
      CREATE TRIGGER ${trigger} BEFORE INSERT ON batches FOR EACH ROW
        WHEN (NEW.account_id = '${own.id}') EXECUTE FUNCTION ${trigger}();`);
    try {
      const before = await rowCounts(own.id, counted);
      await expect(
        captureEpcis(deps(), {
          account: own,
          requestId: 'usecase-test',
          document: documentOf([event], ids.gtinClass),
          behaviour: 'rollback',
        }),
      ).rejects.toThrow(/batch refused by the test/);
      expect(await rowCounts(own.id, counted)).toEqual(before);
    } finally {
      await sql().query(`DROP TRIGGER ${trigger} ON batches; DROP FUNCTION ${trigger}();`);
    }
  });
});
