import { createAccount, type TestAccount } from './accounts';
import {
  commission,
  line,
  locationPayload,
  newGln,
  productPayload,
  receive,
  record,
  ship,
  transform,
  uid,
  verifyGlnOf,
} from './trace-events';

/**
 * A chain across three accounts, and a fourth beside it:
 * the farm commissions 100 of fish lot L, ships 60 to the processor's dock (GLN verified as the
 * processor's) and then 20 to another buyer. The processor receives 60, makes 40 of fillet lot F from 50
 * of it, ships 30 to the retailer's store (GLN verified as the retailer's). The retailer receives 30 and
 * moves 10 to its own shop.
 */
export async function threeAccountChain() {
  const [farm, processor, retailer, other]: TestAccount[] = await Promise.all(
    ['farm', 'processor', 'retailer', 'other'].map((p) => createAccount(p)),
  );
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

  await Promise.all([
    verifyGlnOf(processor, processorGln),
    verifyGlnOf(retailer, retailerGln),
    verifyGlnOf(other, otherGln),
  ]);
  await record(
    farm.key,
    commission(farmSite, '2024-07-01T06:00:00', [line(fishA, lot, 100)]),
    ship(
      farmSite,
      locationPayload(uid('P-DOCK'), {
        connectionType: 'BUYER',
        gln: processorGln,
        name: 'Processor dock (farm record)',
      }),
      '2024-07-02T06:00:00',
      [line(fishA, lot, 60)],
    ),
    ship(
      farmSite,
      locationPayload(uid('O-DOCK'), { connectionType: 'BUYER', gln: otherGln, name: 'Other buyer (farm record)' }),
      '2024-07-02T07:00:00',
      [line(fishA, lot, 20)],
    ),
  );
  await record(
    other.key,
    receive(locationPayload(uid('OTHER'), { gln: otherGln, name: 'Other buyer' }), '2024-07-02T18:00:00', [
      line(productPayload(uid('O-FISH')), lot, 20),
    ]),
  );
  await record(
    processor.key,
    receive(dock, '2024-07-02T18:00:00', [line(fishB, lot, 60)]),
    transform(dock, '2024-07-03T06:00:00', [line(fishB, lot, 50)], [line(filletB, fillet, 40)]),
    ship(
      dock,
      locationPayload(uid('R-STORE'), {
        connectionType: 'BUYER',
        gln: retailerGln,
        name: 'Retail store (processor record)',
      }),
      '2024-07-04T06:00:00',
      [line(filletB, fillet, 30)],
    ),
  );
  await record(
    retailer.key,
    receive(store, '2024-07-04T18:00:00', [line(filletC, fillet, 30)]),
    ship(store, shop, '2024-07-05T06:00:00', [line(filletC, fillet, 10)]),
    receive(shop, '2024-07-05T08:00:00', [line(filletC, fillet, 10)]),
  );
  return { farm, processor, retailer, other, processorGln, products, lot, fillet, dock, store };
}

/** The towns of the retailer's hubs, each with how many shops it supplies. */
const HUBS: [string, number][] = [
  ['Oslo', 4],
  ['Bergen', 4],
  ['Trondheim', 4],
];

/**
 * A 50-node chain across three accounts, as wide and deep as a real recall: the farm commissions five
 * cod lots at five pens, moves each to its packhouse and ships it to the processor (the first in two
 * shipments). The processor receives the five, fillets them into one lot F, moves F to its cold store
 * and ships it to the retailer's distribution centre. The retailer receives F there (the lot to trace:
 * one node), packs it into two pack lots, ships both to three hubs and from each hub to its four shops.
 * The retailer's key sees 50 nodes (a shipment to a verified GLN is drawn as the receiver's node): 5 × 3
 * of the farm's lots (pen, packhouse, processor dock), 2 of F at the processor (dock, cold store), and
 * 33 of its own (F, 2 packs, 2 × 3 hubs, 2 × 12 shops).
 */
export async function fiftyNodeChain() {
  const [farm, processor, retailer]: TestAccount[] = await Promise.all(
    ['fjord-cod-farm', 'coast-seafood', 'harbour-retail'].map((p) => createAccount(p)),
  );
  const [processorGln, retailerGln] = [newGln(), newGln()];
  await Promise.all([verifyGlnOf(processor, processorGln), verifyGlnOf(retailer, retailerGln)]);
  const cod = productPayload(uid('COD'), 'Open', 'Atlantic cod, whole');
  const codIn = productPayload(uid('COD-IN'), 'Open', 'Atlantic cod, whole');
  const filletOut = productPayload(uid('FILLET-OUT'), 'Open', 'Cod loin fillet, skin-off');
  const fillet = productPayload(uid('FILLET'), 'Open', 'Cod loin fillet, skin-off');
  const pack = productPayload(uid('PACK'), 'Open', 'Cod loin 400 g pack');
  const lots = [1, 2, 3, 4, 5].map((i) => uid(`COD-2024-0${i}`));
  const filletLot = uid('FIL-2024-07');
  const packLots = [uid('PK-A'), uid('PK-B')];

  const packhouse = locationPayload(uid('PACKHOUSE'), { name: 'Farm packhouse' });
  const farmDock = locationPayload(uid('P-DOCK'), {
    connectionType: 'BUYER',
    gln: processorGln,
    name: 'Processor dock (farm record)',
  });
  await record(
    farm.key,
    ...lots.flatMap((lot, i) => {
      const pen = locationPayload(uid(`PEN-${i + 1}`), { name: `Sea pen ${i + 1}` });
      return [
        commission(pen, `2024-07-01T${String(6 + i).padStart(2, '0')}:00:00`, [line(cod, lot, 100)]),
        ship(pen, packhouse, '2024-07-01T12:00:00', [line(cod, lot, 100)]),
        receive(packhouse, '2024-07-01T14:00:00', [line(cod, lot, 100)]),
        // The first lot leaves in two trucks: two edges between the same two nodes, whose labels must not meet.
        ...(i === 0
          ? [
              ship(packhouse, farmDock, '2024-07-02T05:00:00', [line(cod, lot, 60)]),
              ship(packhouse, farmDock, '2024-07-02T06:00:00', [line(cod, lot, 40)]),
            ]
          : [ship(packhouse, farmDock, '2024-07-02T06:00:00', [line(cod, lot, 100)])]),
      ];
    }),
  );

  const dock = locationPayload(uid('DOCK'), { gln: processorGln, name: 'Processor dock' });
  const coldStore = locationPayload(uid('COLD'), { name: 'Processor cold store' });
  const toRetailer = locationPayload(uid('R-DC'), {
    connectionType: 'BUYER',
    gln: retailerGln,
    name: 'Retail DC (processor record)',
  });
  await record(
    processor.key,
    receive(
      dock,
      '2024-07-02T18:00:00',
      lots.map((lot) => line(codIn, lot, 100)),
    ),
    transform(
      dock,
      '2024-07-03T06:00:00',
      lots.map((lot) => line(codIn, lot, 100)),
      [line(filletOut, filletLot, 240)],
    ),
    ship(dock, coldStore, '2024-07-03T08:00:00', [line(filletOut, filletLot, 240)]),
    receive(coldStore, '2024-07-03T09:00:00', [line(filletOut, filletLot, 240)]),
    ship(coldStore, toRetailer, '2024-07-04T06:00:00', [line(filletOut, filletLot, 240)]),
  );

  const dc = locationPayload(uid('DC'), { gln: retailerGln, name: 'Retail distribution centre' });
  const hubs = HUBS.map(([town, shops]) => ({
    hub: locationPayload(uid(`HUB-${town}`), { name: `${town} hub` }),
    shops: Array.from({ length: shops }, (_, i) =>
      locationPayload(uid(`SHOP-${town}-${i + 1}`), { name: `${town} shop ${i + 1}` }),
    ),
  }));
  await record(
    retailer.key,
    receive(dc, '2024-07-04T18:00:00', [line(fillet, filletLot, 240)]),
    transform(
      dc,
      '2024-07-05T06:00:00',
      [line(fillet, filletLot, 240)],
      packLots.map((p) => line(pack, p, 120)),
    ),
    ...packLots.flatMap((p) =>
      hubs.flatMap(({ hub, shops }) => [
        ship(dc, hub, '2024-07-05T08:00:00', [line(pack, p, 40)]),
        receive(hub, '2024-07-05T12:00:00', [line(pack, p, 40)]),
        ...shops.flatMap((shop) => [
          ship(hub, shop, '2024-07-06T06:00:00', [line(pack, p, 10)]),
          receive(shop, '2024-07-06T09:00:00', [line(pack, p, 10)]),
        ]),
      ]),
    ),
  );
  return { farm, processor, retailer, fillet, filletLot };
}
