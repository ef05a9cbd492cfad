import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { revokeGln } from '../../db/repositories/gln-verifications';
import { CTES, CTE_COLUMNS, FSMA_COLUMNS } from '../../domain/fsma204';
import { createAccount, type TestAccount } from '../factories/accounts';
import { uploadDocument } from '../factories/documents';
import {
  commission,
  line,
  locationPayload,
  newGln,
  productPayload,
  receive,
  record,
  ship,
  uid,
  verifyGlnOf,
} from '../factories/trace-events';
import { threeAccountChain } from '../factories/trace-chain';
import { models } from '../helpers/db';
import { apiUrl, client } from '../helpers/http';

interface Node {
  id: string;
  product: { id: string; name: string; unit: string };
  lotSerial: string;
  account: string;
  location: { id: string; name: string; external: boolean };
  visibility: 'own' | 'shared' | 'shipment';
  quantityIn: number | null;
  quantityOut: number | null;
  quantityOnHand: number | null;
  eventCount: number;
}
interface Edge {
  from: string;
  to: string;
  type: string;
  quantity: number;
}
interface Graph {
  root: { nodes: string[] };
  nodes: Node[];
  edges: Edge[];
}

const label = (n: Node) => `${n.account.split('-')[0]}:${n.lotSerial.split('-')[0]}@${n.location.name}`;
const labels = (g: Graph) => g.nodes.map(label).sort();
const edgeLabels = (g: Graph) => {
  const byId = new Map(g.nodes.map((n) => [n.id, label(n)]));
  return g.edges.map((e) => `${byId.get(e.from)} -${e.type} ${e.quantity}-> ${byId.get(e.to)}`).sort();
};
const trace = async (key: string, query: string) => client(key).get<Graph>(`/Integration/Trace?${query}`);

describe('GET /Integration/Trace across three accounts', () => {
  let chain: Awaited<ReturnType<typeof threeAccountChain>>;
  let farm: TestAccount;
  let processor: TestAccount;
  let retailer: TestAccount;
  let other: TestAccount;
  let lot: string;
  let fillet: string;
  let fishA: { Id: string };
  let fishB: { Id: string };
  let filletC: { Id: string };

  beforeAll(async () => {
    chain = await threeAccountChain();
    ({ farm, processor, retailer, other, lot, fillet } = chain);
    ({ fishA, fishB, filletC } = chain.products);
  });

  it('the retailer traces its fillet back through the processor’s transform to the farm, and never sees the other buyer', async () => {
    const response = await trace(retailer.key, `ProductId=${filletC.Id}&LotSerial=${fillet}&Direction=backward`);
    expect(response.status).toBe(200);
    expect(labels(response.body)).toEqual(
      [
        'farm:L@Farm',
        'processor:F@Processor dock',
        'processor:L@Processor dock',
        'retailer:F@Retail shop',
        'retailer:F@Retail store',
      ].sort(),
    );
    expect(edgeLabels(response.body)).toEqual(
      [
        'farm:L@Farm -Ship 60-> processor:L@Processor dock',
        'processor:L@Processor dock -Transform 50-> processor:F@Processor dock',
        'processor:F@Processor dock -Ship 30-> retailer:F@Retail store',
        'retailer:F@Retail store -Ship 10-> retailer:F@Retail shop',
      ].sort(),
    );
    expect(JSON.stringify(response.body)).not.toContain(other.name);
    const byLabel = new Map(response.body.nodes.map((n) => [label(n), n]));
    expect(byLabel.get('retailer:F@Retail store')).toMatchObject({
      visibility: 'own',
      quantityIn: 30,
      quantityOut: 10,
      quantityOnHand: 20,
      eventCount: 2,
    });
    // The farm's records up to its shipment to the processor: the commission and that ship, not the later ship to the other buyer.
    expect(byLabel.get('farm:L@Farm')).toMatchObject({
      visibility: 'shared',
      quantityIn: 100,
      quantityOut: 60,
      quantityOnHand: null,
      eventCount: 2,
    });
    expect(response.body.root.nodes.map((id) => label(response.body.nodes.find((n) => n.id === id)!)).sort()).toEqual([
      'retailer:F@Retail shop',
      'retailer:F@Retail store',
    ]);
  });

  it('the processor sees the farm behind it, and forward only its own record of the retailer', async () => {
    const response = await trace(processor.key, `ProductId=${fishB.Id}&LotSerial=${lot}`);
    expect(labels(response.body)).toEqual(
      [
        'farm:L@Farm',
        'processor:F@Processor dock',
        'processor:F@Retail store (processor record)',
        'processor:L@Processor dock',
      ].sort(),
    );
    const placeholder = response.body.nodes.find((n) => n.location.name === 'Retail store (processor record)')!;
    expect(placeholder).toMatchObject({
      visibility: 'own',
      location: { external: true },
      quantityIn: 30,
      quantityOnHand: null,
    });
    expect(JSON.stringify(response.body)).not.toContain(retailer.name);
  });

  it('the farm sees only its own records: shipping shows nothing of the receivers', async () => {
    const response = await trace(farm.key, `ProductId=${fishA.Id}&LotSerial=${lot}`);
    expect(labels(response.body)).toEqual(
      ['farm:L@Farm', 'farm:L@Other buyer (farm record)', 'farm:L@Processor dock (farm record)'].sort(),
    );
  });

  it('an unverified GLN opens nothing: with the processor’s GLN revoked the retailer’s trace ends at the processor', async () => {
    await revokeGln(models(), processor.name, chain.processorGln);
    try {
      const response = await trace(retailer.key, `ProductId=${filletC.Id}&LotSerial=${fillet}&Direction=backward`);
      expect(labels(response.body)).not.toContain('farm:L@Farm');
      expect(labels(response.body)).toContain('processor:L@Processor dock');
    } finally {
      await verifyGlnOf(processor, chain.processorGln);
    }
  });

  it('MaxDepth cuts the graph at that many edges from the lot; AsOf leaves out later events', async () => {
    const oneHop = await trace(retailer.key, `ProductId=${filletC.Id}&LotSerial=${fillet}&MaxDepth=1`);
    expect(labels(oneHop.body)).toEqual(
      ['processor:F@Processor dock', 'retailer:F@Retail shop', 'retailer:F@Retail store'].sort(),
    );
    const beforeTransform = await trace(
      processor.key,
      `ProductId=${fishB.Id}&LotSerial=${lot}&AsOf=2024-07-02T20:00:00Z`,
    );
    expect(labels(beforeTransform.body)).toEqual(['farm:L@Farm', 'processor:L@Processor dock'].sort());
  });

  it('lists the events of one node, as far as the caller may see them', async () => {
    const graph = (await trace(retailer.key, `ProductId=${filletC.Id}&LotSerial=${fillet}&Direction=backward`)).body;
    const farmNode = graph.nodes.find((n) => n.location.name === 'Farm')!;
    const query = `ProductId=${filletC.Id}&LotSerial=${fillet}&Direction=backward`;
    const response = await client(retailer.key).get(
      `/Integration/Trace/events?${query}&NodeId=${encodeURIComponent(farmNode.id)}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.node).toEqual(farmNode);
    // The farm's later shipment to the other buyer is not the retailer's to see.
    expect(
      response.body.events.map((e: { type: string; quantity: number; to: string | null }) => [
        e.type,
        e.quantity,
        e.to,
      ]),
    ).toEqual([
      ['Commission', 100, null],
      ['Ship', 60, 'Processor dock (farm record)'],
    ]);
    const unknown = await client(retailer.key).get(`/Integration/Trace/events?${query}&NodeId=nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toHaveProperty('NodeId');
  });

  it('refuses bad parameters with a 400 naming them, and an unknown product with a 404', async () => {
    const api = client(retailer.key);
    for (const [query, field] of [
      [`LotSerial=${fillet}`, 'ProductId'],
      [`ProductId=${filletC.Id}`, 'LotSerial'],
      [`ProductId=${filletC.Id}&LotSerial=${fillet}&Direction=sideways`, 'Direction'],
      [`ProductId=${filletC.Id}&LotSerial=${fillet}&MaxDepth=0`, 'MaxDepth'],
      [`ProductId=${filletC.Id}&LotSerial=${fillet}&MaxDepth=1001`, 'MaxDepth'],
      [`ProductId=${filletC.Id}&LotSerial=${fillet}&AsOf=yesterday`, 'AsOf'],
      [`ProductId=${filletC.Id}&LotSerial=${fillet}&AsOf=2016-12-31T23:59:60Z`, 'AsOf'],
    ]) {
      const response = await api.get(`/Integration/Trace?${query}`);
      expect({ query, status: response.status, fields: Object.keys(response.body.errors) }).toEqual({
        query,
        status: 400,
        fields: [field],
      });
    }
    // Another account's product id is not the caller's product.
    const foreign = await api.get(`/Integration/Trace?ProductId=${fishA.Id}&LotSerial=${lot}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toHaveProperty('ProductId');
  });

  it('recall: every lot made from it, who of ours holds it now, and every shipment to a trade partner', async () => {
    const response = await client(processor.key).get(
      `/Integration/Trace/recall?ProductId=${fishB.Id}&LotSerial=${lot}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.lots.map((l: { lotSerial: string }) => l.lotSerial).sort()).toEqual([fillet, lot].sort());
    const byLot = (a: (string | number)[], b: (string | number)[]) => String(a[0]).localeCompare(String(b[0]));
    expect(
      response.body.holdings
        .map((h: { lotSerial: string; location: { name: string }; quantityOnHand: number; unit: string }) => [
          h.lotSerial,
          h.location.name,
          h.quantityOnHand,
          h.unit,
        ])
        .sort(byLot),
    ).toEqual(
      [
        [lot, 'Processor dock', 10, 'KGM'],
        [fillet, 'Processor dock', 10, 'KGM'],
      ].sort(byLot),
    );
    expect(response.body.shipments).toEqual([
      expect.objectContaining({
        lotSerial: fillet,
        quantity: 30,
        unit: 'KGM',
        to: expect.objectContaining({ name: 'Retail store (processor record)', external: true }),
      }),
    ]);
  });

  it('the FSMA 204 spreadsheet has one row per CTE of the chain the retailer may see, with its KDEs, as csv and xlsx', async () => {
    const query = `ProductId=${filletC.Id}&LotSerial=${fillet}&Direction=backward`;
    const csv = await client(retailer.key).get(`/Integration/Trace/fsma204?${query}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="fsma204-${fillet}.csv"`);
    const [header, ...rows] = parse(csv.text) as string[][];
    expect(header).toEqual([...FSMA_COLUMNS]);
    const col = (name: (typeof FSMA_COLUMNS)[number]) => FSMA_COLUMNS.indexOf(name);
    const summary = rows.map(
      (r) =>
        `${r[col('Critical Tracking Event')]} ${r[col('Traceability Lot Code')].split('-')[0]} ${r[col('Quantity')]} ${r[col('Record Keeper')].split('-')[0]}`,
    );
    // The farm's ship to the other buyer came after its ship to the processor: not in the chain the retailer sees.
    expect(summary).toEqual([
      'Initial Packing L 100 farm',
      'Shipping L 60 farm',
      'Receiving L 60 processor',
      'Transformation F 40 processor',
      'Shipping F 30 processor',
      'Receiving F 30 retailer',
      'Shipping F 10 retailer',
      'Receiving F 10 retailer',
    ]);
    const transformation = rows[3];
    expect(transformation[col('Input Traceability Lot Codes')]).toBe(lot);
    expect(transformation[col('Traceability Lot Code Source Location Description')]).toBe(
      `Partner ${chain.dock.Details.TradePartner.Id}, Processor dock, Bryggen 1, Bergen, NO`,
    );
    expect(transformation[col('Traceability Lot Code Source Reference')]).toBe(`GLN ${chain.processorGln}`);
    expect(rows[1][col('Immediate Subsequent Recipient Location Description')]).toContain(
      'Processor dock (farm record)',
    );
    expect(rows[0][col('Unit of Measure')]).toBe('KGM');
    expect(rows[0][col('Event Date')]).toBe('2024-07-01');
    expect(rows[0][col('Event Time (UTC)')]).toBe('2024-07-01T06:00:00Z');

    const response = await fetch(`${apiUrl()}/Integration/Trace/fsma204?${query}&format=xlsx`, {
      headers: { 'X-API-KEY': retailer.key },
    });
    expect(response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    // One sheet per CTE, in the rule's order, each with its own KDE columns; a CTE without rows keeps its header.
    expect(workbook.worksheets.map((w) => w.name)).toEqual([...CTES]);
    const counts = Object.fromEntries(workbook.worksheets.map((w) => [w.name, w.rowCount - 1]));
    expect(counts).toEqual({
      'Initial Packing': 1,
      'First Land-Based Receiving': 0,
      Shipping: 3,
      Receiving: 3,
      Transformation: 1,
    });
    for (const cte of CTES)
      expect(workbook.getWorksheet(cte)!.getRow(1).values).toEqual([undefined, ...CTE_COLUMNS[cte]]);
    const sheet = workbook.getWorksheet('Transformation')!;
    const cell = (name: (typeof FSMA_COLUMNS)[number]) =>
      sheet.getRow(2).getCell(CTE_COLUMNS.Transformation.indexOf(name) + 1).value;
    expect(cell('Event Time (UTC)')).toBe('2024-07-03T06:00:00Z');
    expect(cell('Quantity')).toBe(40);
    expect(cell('Input Traceability Lot Codes')).toBe(lot);
    expect(sheet.autoFilter).toBeTruthy();
  });

  it('refuses an unknown spreadsheet format with a 400 naming it', async () => {
    const response = await client(retailer.key).get(
      `/Integration/Trace/fsma204?ProductId=${filletC.Id}&LotSerial=${fillet}&format=pdf`,
    );
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.errors)).toEqual(['format']);
  });
});

describe("a supplier's other customers, shipped before the ship to the caller", () => {
  it('reach none of what the buyer sees: not the trace, its events, the FSMA 204 sheet nor the event details', async () => {
    const [supplier, buyer] = await Promise.all([createAccount('supplier'), createAccount('buyer')]);
    const gln = newGln();
    await verifyGlnOf(buyer, gln);
    const fish = productPayload(uid('HAD'), 'Open', 'Haddock');
    const lot = uid('HAD');
    const plant = locationPayload(uid('PLANT'), { name: 'Supplier plant' });
    const competitor = locationPayload(uid('COMP'), { connectionType: 'BUYER', name: 'Competitor customer' });
    const toBuyer = locationPayload(uid('B-DOCK'), {
      connectionType: 'BUYER',
      gln,
      name: 'Buyer dock (supplier record)',
    });
    // A move to its own cold store is no customer's: it is shown as the supplier's own records are.
    const coldStore = locationPayload(uid('COLD'), { name: 'Supplier cold store' });
    await record(
      supplier.key,
      commission(plant, '2024-05-01T06:00:00', [line(fish, lot, 100)]),
      ship(plant, competitor, '2024-05-01T12:00:00', [line(fish, lot, 10)]),
      ship(plant, coldStore, '2024-05-01T13:00:00', [line(fish, lot, 5)]),
      ship(plant, toBuyer, '2024-05-02T06:00:00', [line(fish, lot, 40)]),
    );
    const mine = productPayload(uid('B-HAD'), 'Open', 'Haddock');
    await record(
      buyer.key,
      receive(locationPayload(uid('DOCK'), { gln, name: 'Buyer dock' }), '2024-05-02T18:00:00', [line(mine, lot, 40)]),
    );

    const query = `ProductId=${mine.Id}&LotSerial=${lot}&Direction=backward`;
    const graph = (await trace(buyer.key, query)).body;
    const supplierNode = graph.nodes.find((n) => n.location.name === 'Supplier plant')!;
    expect(supplierNode).toMatchObject({ visibility: 'shared', quantityIn: 100, quantityOut: 45, eventCount: 3 });
    const events = await client(buyer.key).get(
      `/Integration/Trace/events?${query}&NodeId=${encodeURIComponent(supplierNode.id)}`,
    );
    expect(events.body.events.map((e: { type: string; quantity: number }) => [e.type, e.quantity])).toEqual([
      ['Commission', 100],
      ['Ship', 5],
      ['Ship', 40],
    ]);
    const sheet = await client(buyer.key).get(`/Integration/Trace/fsma204?${query}&format=csv`);
    expect(sheet.status).toBe(200);
    expect(sheet.text).toContain('Buyer dock');
    const details = await client(buyer.key).get(`/epcis/Events/details?LotSerial=${lot}`, {
      accept: 'application/json',
    });
    expect(
      details.body.results.map((r: { eventType: string; quantity: number }) => [r.eventType, r.quantity]).sort(),
    ).toEqual([
      ['Commission', 100],
      ['Receive', 40],
      ['Ship', 40],
      ['Ship', 5],
    ]);
    for (const answer of [JSON.stringify(graph), events.text, sheet.text, details.text]) {
      expect(answer).not.toContain('Competitor');
      expect(answer).not.toContain(competitor.Details.TradePartner.Name);
    }
  });
});

describe('GET /Integration/Trace with a Restricted product', () => {
  it('shows another account’s Restricted lot as the shipment alone', async () => {
    const [farm, buyer] = await Promise.all([createAccount('farm'), createAccount('buyer')]);
    const gln = newGln();
    await verifyGlnOf(buyer, gln);
    const farmSite = locationPayload(uid('FARM'), { name: 'Farm' });
    const secret = productPayload(uid('SECRET'), 'Restricted', 'Secret cod');
    const lot = uid('R');
    await record(
      farm.key,
      commission(farmSite, '2024-07-01T06:00:00', [line(secret, lot, 100)]),
      ship(farmSite, locationPayload(uid('DEST'), { connectionType: 'BUYER', gln }), '2024-07-02T06:00:00', [
        line(secret, lot, 40),
      ]),
      ship(farmSite, locationPayload(uid('ELSEWHERE'), { connectionType: 'BUYER' }), '2024-07-02T07:00:00', [
        line(secret, lot, 30),
      ]),
    );
    const mine = productPayload(uid('MINE'), 'Open', 'Cod');
    await record(
      buyer.key,
      receive(locationPayload(uid('DOCK'), { gln, name: 'Buyer dock' }), '2024-07-02T18:00:00', [line(mine, lot, 40)]),
    );
    const response = await trace(buyer.key, `ProductId=${mine.Id}&LotSerial=${lot}`);
    const farmNode = response.body.nodes.find((n) => n.account === farm.name)!;
    expect(farmNode).toMatchObject({
      visibility: 'shipment',
      quantityIn: null,
      quantityOut: null,
      quantityOnHand: null,
      eventCount: 0,
    });
    expect(edgeLabels(response.body)).toEqual([`farm:R@Farm -Ship 40-> buyer:R@Buyer dock`]);

    // The sheet shows the farm's shipment to the buyer and nothing else of the farm's (not its commission, not its shipment elsewhere).
    const sheet = await client(buyer.key).get(`/Integration/Trace/fsma204?ProductId=${mine.Id}&LotSerial=${lot}`);
    const [, ...rows] = parse(sheet.text) as string[][];
    const col = (name: (typeof FSMA_COLUMNS)[number]) => FSMA_COLUMNS.indexOf(name);
    expect(rows.map((r) => `${r[col('Critical Tracking Event')]} ${r[col('Quantity')]}`)).toEqual([
      'Shipping 40',
      'Receiving 40',
    ]);
  });
});

describe('GET /Integration/Trace through aggregations', () => {
  it('a lot packed onto a pallet and unpacked again is followed through both', async () => {
    const account = await createAccount('packer');
    const plant = locationPayload(uid('PLANT'), { name: 'Plant' });
    const box = productPayload(uid('BOX'), 'Open', 'Cod box');
    const pallet = productPayload(uid('PALLET'), 'Open', 'Pallet');
    const [lot, palletLot] = [uid('B'), uid('PAL')];
    const containment = (type: 'aggregation' | 'disaggregation', time: string) => ({
      $type: type,
      Id: uid(`EV-${type}`),
      Location: plant,
      EventTime: time,
      EventTimeZone: '+00:00',
      ParentLotSerial: palletLot,
      Product: pallet,
      ChildProductInstances: [{ Quantity: 10, LotSerial: lot, Product: box }],
    });
    await record(
      account.key,
      commission(plant, '2024-07-01T06:00:00', [line(box, lot, 10)]),
      containment('aggregation', '2024-07-01T07:00:00'),
      containment('disaggregation', '2024-07-01T08:00:00'),
    );
    const response = await trace(account.key, `ProductId=${box.Id}&LotSerial=${lot}&Direction=forward`);
    expect(edgeLabels(response.body)).toEqual(
      [
        `packer:B@Plant -Aggregation 10-> packer:PAL@Plant`,
        `packer:PAL@Plant -Disaggregation 10-> packer:B@Plant`,
      ].sort(),
    );
    const palletNode = response.body.nodes.find((n) => n.lotSerial === palletLot)!;
    expect(palletNode).toMatchObject({ product: { name: 'Pallet' }, eventCount: 2, quantityOnHand: 0 });
  });
});

describe('GET /Integration/Trace/fsma204 for seafood from a fishing vessel', () => {
  it('the first land-based receiver’s receipt is its own CTE with the catch’s KDEs, the catch is never initial packing, and the other CTEs keep their columns', async () => {
    const [fleet, processor] = await Promise.all([createAccount('fleet'), createAccount('processor')]);
    const gln = newGln();
    await verifyGlnOf(processor, gln);
    const base = locationPayload(uid('VESSEL'), { name: 'FV Nordkapp' });
    const boat = {
      ...base,
      Details: {
        ...base.Details,
        CaptainsName: 'Kari',
        ContactInformation: { Name: 'Kari' },
        Vessel: { VesselName: 'FV Nordkapp', VesselFlagState: 'NO', IMONumber: '9876543' },
      },
    };
    const catchArea = (value: string) => ({
      CustomProperties: [{ Name: 'catchArea', Namespace: 'gdst', Value: value }],
    });
    const cod = productPayload(uid('COD'), 'Open', 'Atlantic cod');
    const lot = uid('CATCH');
    const [certificate, logbook] = [uid('CATCH-CERT'), uid('LOGBOOK')];
    await uploadDocument(fleet.key, certificate, 'Catch certificate', 'Public');
    await uploadDocument(fleet.key, logbook, 'Logbook', 'Private');
    await record(
      fleet.key,
      commission(boat, '2024-08-01T06:00:00', [line(cod, lot, 300)], {
        ...catchArea('FAO 27'),
        DocumentIds: [certificate],
      }),
      commission(boat, '2024-08-03T06:00:00', [line(cod, lot, 200)], catchArea('FAO 21')),
      ship(
        boat,
        locationPayload(uid('P-DOCK'), { connectionType: 'BUYER', gln, name: 'Processor dock (fleet record)' }),
        '2024-08-04T06:00:00',
        [line(cod, lot, 500)],
        {
          DocumentIds: [logbook],
        },
      ),
    );
    const mine = productPayload(uid('MINE'), 'Open', 'Atlantic cod');
    const dock = locationPayload(uid('DOCK'), { gln, name: 'Processor dock' });
    await record(
      processor.key,
      receive(dock, '2024-08-04T18:00:00', [line(mine, lot, 500)]),
      ship(dock, locationPayload(uid('BUYER'), { connectionType: 'BUYER', name: 'Buyer' }), '2024-08-05T06:00:00', [
        line(mine, lot, 100),
      ]),
    );
    const query = `ProductId=${mine.Id}&LotSerial=${lot}&Direction=backward`;

    const csv = await client(processor.key).get(`/Integration/Trace/fsma204?${query}`);
    expect(csv.status).toBe(200);
    const [header, ...rows] = parse(csv.text) as string[][];
    expect(header).toEqual([...FSMA_COLUMNS]);
    const value = (row: string[], name: (typeof FSMA_COLUMNS)[number]) => row[FSMA_COLUMNS.indexOf(name)];
    // The catches and the unloading at the vessel are no CTE rows: what they recorded is in the landing's row.
    expect(
      rows.map((r) => [
        value(r, 'Critical Tracking Event'),
        value(r, 'Event Date'),
        value(r, 'Record Keeper').split('-')[0],
      ]),
    ).toEqual([
      ['First Land-Based Receiving', '2024-08-04', 'processor'],
      ['Shipping', '2024-08-05', 'processor'],
    ]);
    const [landing, shipping] = rows;
    expect(Object.fromEntries(FSMA_COLUMNS.map((c) => [c, value(landing, c)]))).toMatchObject({
      'Traceability Lot Code': lot,
      'Traceability Lot Code Source Reference': `GLN ${gln}`,
      'Product Description': 'Atlantic cod',
      Quantity: '500',
      'Harvest Start Date': '2024-08-01',
      'Harvest End Date': '2024-08-03',
      'Harvest Location': 'FAO 27; FAO 21',
      'Landing Date': '2024-08-04',
      'Vessel Name': 'FV Nordkapp',
      'Vessel Identifier': 'IMO 9876543',
      'Vessel Flag State': 'NO',
      // The fleet's documents at sea go with the landing, its Private logbook not to the processor.
      'Reference Document Number': certificate,
    });
    expect(csv.text).not.toContain(logbook);
    expect(value(landing, 'Traceability Lot Code Source Location Description')).toContain('Processor dock');
    // The receiver assigned the lot code: the shipment names it as the source, not the vessel.
    expect(value(shipping, 'Traceability Lot Code Source Reference')).toBe(`GLN ${gln}`);
    expect(value(shipping, 'Immediate Subsequent Recipient Location Description')).toContain('Buyer');
    expect(value(shipping, 'Vessel Name')).toBe('');

    const response = await fetch(`${apiUrl()}/Integration/Trace/fsma204?${query}&format=xlsx`, {
      headers: { 'X-API-KEY': processor.key },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    expect(workbook.getWorksheet('Initial Packing')!.rowCount).toBe(1);
    const landed = workbook.getWorksheet('First Land-Based Receiving')!;
    expect(landed.rowCount).toBe(2);
    const cell = (name: (typeof FSMA_COLUMNS)[number]) =>
      landed.getRow(2).getCell(CTE_COLUMNS['First Land-Based Receiving'].indexOf(name) + 1).value;
    expect([cell('Landing Date'), cell('Harvest Location'), cell('Vessel Name')]).toEqual([
      '2024-08-04',
      'FAO 27; FAO 21',
      'FV Nordkapp',
    ]);
    expect(workbook.getWorksheet('Shipping')!.rowCount).toBe(2);
  });
});
