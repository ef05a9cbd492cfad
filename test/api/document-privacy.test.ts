import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
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
import { apiUrl, client } from '../helpers/http';

interface TraceNode {
  id: string;
  account: string;
}

/**
 * A farm commissions a lot with a Private and a Public document attached and ships it, with the Private
 * one attached again, to a buyer on a GLN verified as the buyer's. Whatever the buyer can read about
 * its own lot names the Public document, never the Private one: not its id, title or number, nor a
 * Private document's number repeated in an event's PurchaseOrder.
 */
describe('a Private document never reaches another account', () => {
  let farm: TestAccount;
  let buyer: TestAccount;
  let lot: string;
  let query: string;
  const secretId = uid('SECRET-CERT');
  const secretTitle = uid('Secret supplier audit');
  const publicId = uid('PUBLIC-CERT');
  // A purchase order uploaded as a Private document, whose number the ship event repeats in PurchaseOrder (in lower case: ids compare ignoring case).
  const orderId = uid('PO');
  const mine = productPayload(uid('MINE'), 'Open', 'Cod');
  const fish = productPayload(uid('FISH'), 'Open', 'Whole cod');

  /** Nothing of the Private documents in `text`, in any case (document ids compare ignoring case). */
  const expectNoSecret = (text: string) => {
    for (const secret of [secretId, secretTitle, orderId])
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
  };

  beforeAll(async () => {
    [farm, buyer] = await Promise.all([createAccount('farm'), createAccount('buyer')]);
    const gln = newGln();
    await verifyGlnOf(buyer, gln);
    await uploadDocument(farm.key, secretId, secretTitle, 'Private');
    await uploadDocument(farm.key, publicId, 'Catch certificate', 'Public');
    await uploadDocument(farm.key, orderId, 'Purchase order', 'Private');
    const farmSite = locationPayload(uid('FARM'), { name: 'Farm' });
    lot = uid('P');
    await record(
      farm.key,
      commission(farmSite, '2024-07-01T06:00:00', [line(fish, lot, 100)], { DocumentIds: [secretId, publicId] }),
      ship(
        farmSite,
        locationPayload(uid('DEST'), { connectionType: 'BUYER', gln }),
        '2024-07-02T06:00:00',
        [line(fish, lot, 40)],
        {
          DocumentIds: [secretId],
          PurchaseOrder: orderId.toLowerCase(),
        },
      ),
    );
    await record(
      buyer.key,
      receive(locationPayload(uid('DOCK'), { gln, name: 'Buyer dock' }), '2024-07-02T18:00:00', [line(mine, lot, 40)]),
    );
    query = `ProductId=${mine.Id}&LotSerial=${lot}&Direction=backward`;
  });

  const farmNode = async (key: string, productQuery: string) => {
    const trace = await client(key).get<{ nodes: TraceNode[] }>(`/Integration/Trace?${productQuery}`);
    return trace.body.nodes.find((n) => n.account === farm.name)!;
  };

  it('the trace', async () => {
    const response = await client(buyer.key).get(`/Integration/Trace?${query}`);
    expect(response.status).toBe(200);
    expect(response.body.nodes.some((n: TraceNode) => n.account === farm.name)).toBe(true);
    expectNoSecret(response.text);
  });

  it('the trace events of the farm’s node: the Public document, not the Private one', async () => {
    const node = await farmNode(buyer.key, query);
    const response = await client(buyer.key).get(
      `/Integration/Trace/events?${query}&NodeId=${encodeURIComponent(node.id)}`,
    );
    expect(response.status).toBe(200);
    expectNoSecret(response.text);
    const commissioned = response.body.events.find((e: { type: string }) => e.type === 'Commission');
    expect(commissioned.documents).toEqual([{ type: 'Certification', number: publicId }]);
  });

  it('the FSMA 204 CSV: the Public document in the farm’s rows, nothing of the Private one', async () => {
    const response = await client(buyer.key).get(`/Integration/Trace/fsma204?${query}`);
    expect(response.status).toBe(200);
    expectNoSecret(response.text);
    const [header, ...rows] = parse(response.text) as string[][];
    const numbers = rows.map((r) => r[header.indexOf('Reference Document Number')]);
    expect(numbers).toContain(publicId);
  });

  it('the FSMA 204 workbook', async () => {
    const response = await fetch(`${apiUrl()}/Integration/Trace/fsma204?${query}&format=xlsx`, {
      headers: { 'X-API-KEY': buyer.key },
    });
    expect(response.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const cells: string[] = [];
    workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(cell.text))));
    expectNoSecret(cells.join('\n'));
    expect(cells.join('\n')).toContain(publicId);
  });

  it('the event details of the lot', async () => {
    const response = await client(buyer.key).get(`/epcis/Events/details?LotSerial=${lot}`, {
      accept: 'application/json',
    });
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: { eventType: string }) => r.eventType).sort()).toEqual([
      'Commission',
      'Receive',
      'Ship',
    ]);
    expectNoSecret(response.text);
    // Filtering by the Private purchase order's number does not confirm it to the buyer; its owner finds the ship.
    const byOrder = (key: string) =>
      client(key).get(`/epcis/Events/details?LotSerial=${lot}&PurchaseOrder=${orderId.toLowerCase()}`, {
        accept: 'application/json',
      });
    expect((await byOrder(buyer.key)).body.totalItems).toBe(0);
    expect((await byOrder(farm.key)).body.results.map((r: { eventType: string }) => r.eventType)).toEqual(['Ship']);
  });

  it('EPCIS: the buyer’s events, and the farm’s ship event asked for by id', async () => {
    const events = await client(buyer.key).get('/epcis/events');
    expect(events.status).toBe(200);
    expectNoSecret(events.text);
    // The farm's own events, by the eventIDs EPCIS gives them, are not the buyer's to read.
    const farmEvents = await client(farm.key).get<{
      epcisBody: { queryResults: { resultsBody: { eventList: { eventID: string }[] } } };
    }>('/epcis/events');
    const ids = farmEvents.body.epcisBody.queryResults.resultsBody.eventList.map((e) => e.eventID);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const foreign = await client(buyer.key).get(`/epcis/events/${encodeURIComponent(id)}`);
      expect(foreign.status).toBe(404);
      expectNoSecret(foreign.text);
    }
  });

  it('the owner still sees its Private document in its own trace events and sheet', async () => {
    const ownQuery = `ProductId=${fish.Id}&LotSerial=${lot}`;
    const node = await farmNode(farm.key, ownQuery);
    const lines = await client(farm.key).get(
      `/Integration/Trace/events?${ownQuery}&NodeId=${encodeURIComponent(node.id)}`,
    );
    const commissioned = lines.body.events.find((e: { type: string }) => e.type === 'Commission');
    expect(commissioned.documents.map((d: { number: string }) => d.number).sort()).toEqual([publicId, secretId].sort());
    const sheet = await client(farm.key).get(`/Integration/Trace/fsma204?${ownQuery}`);
    expect(sheet.text).toContain(secretId);
    expect(sheet.text).toContain(orderId.toLowerCase());
  });
});
