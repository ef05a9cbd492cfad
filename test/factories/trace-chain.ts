import { createAccount, type TestAccount } from './accounts';
import { commission, line, locationPayload, newGln, productPayload, receive, record, ship, transform, uid, verifyGlnOf } from './trace-events';

/**
 * A chain across three accounts, and a fourth beside it:
 * the farm commissions 100 of fish lot L, ships 60 to the processor's dock (GLN verified as the
 * processor's) and then 20 to another buyer. The processor receives 60, makes 40 of fillet lot F from 50
 * of it, ships 30 to the retailer's store (GLN verified as the retailer's). The retailer receives 30 and
 * moves 10 to its own shop.
 */
export async function threeAccountChain() {
  const [farm, processor, retailer, other]: TestAccount[] = await Promise.all(['farm', 'processor', 'retailer', 'other'].map((p) => createAccount(p)));
  const [processorGln, retailerGln, otherGln] = [newGln(), newGln(), newGln()];
  const products = {
    fishA: productPayload(uid('FISH-A'), 'Open', 'Whole cod'),
    fishB: productPayload(uid('FISH-B'), 'Open', 'Whole cod'),
    filletB: productPayload(uid('FILLET-B'), 'Open', 'Cod fillet'),
    filletC: productPayload(uid('FILLET-C'), 'Open', 'Cod fillet'),
  };
  const { fishA, fishB, filletB, filletC } = products;
  const lot = uid('L');
  const fillet = uid('F');
  const farmSite = locationPayload(uid('FARM'), { name: 'Farm' });
  const dock = locationPayload(uid('DOCK'), { gln: processorGln, name: 'Processor dock' });
  const store = locationPayload(uid('STORE'), { gln: retailerGln, name: 'Retail store' });
  const shop = locationPayload(uid('SHOP'), { name: 'Retail shop' });

  await Promise.all([verifyGlnOf(processor, processorGln), verifyGlnOf(retailer, retailerGln), verifyGlnOf(other, otherGln)]);
  await record(
    farm.key,
    commission(farmSite, '2024-07-01T06:00:00', [line(fishA, lot, 100)]),
    ship(farmSite, locationPayload(uid('P-DOCK'), { connectionType: 'BUYER', gln: processorGln, name: 'Processor dock (farm record)' }), '2024-07-02T06:00:00', [
      line(fishA, lot, 60),
    ]),
    ship(farmSite, locationPayload(uid('O-DOCK'), { connectionType: 'BUYER', gln: otherGln, name: 'Other buyer (farm record)' }), '2024-07-02T07:00:00', [
      line(fishA, lot, 20),
    ]),
  );
  await record(other.key, receive(locationPayload(uid('OTHER'), { gln: otherGln, name: 'Other buyer' }), '2024-07-02T18:00:00', [line(productPayload(uid('O-FISH')), lot, 20)]));
  await record(
    processor.key,
    receive(dock, '2024-07-02T18:00:00', [line(fishB, lot, 60)]),
    transform(dock, '2024-07-03T06:00:00', [line(fishB, lot, 50)], [line(filletB, fillet, 40)]),
    ship(dock, locationPayload(uid('R-STORE'), { connectionType: 'BUYER', gln: retailerGln, name: 'Retail store (processor record)' }), '2024-07-04T06:00:00', [
      line(filletB, fillet, 30),
    ]),
  );
  await record(
    retailer.key,
    receive(store, '2024-07-04T18:00:00', [line(filletC, fillet, 30)]),
    ship(store, shop, '2024-07-05T06:00:00', [line(filletC, fillet, 10)]),
    receive(shop, '2024-07-05T08:00:00', [line(filletC, fillet, 10)]),
  );
  return { farm, processor, retailer, other, processorGln, products, lot, fillet, dock };
}
