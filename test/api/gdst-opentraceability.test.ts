import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount, type TestAccount } from '../factories/accounts';
import { capture } from '../factories/epcis';
import { apiUrl, request } from '../helpers/http';
import {
  digitalLinkPath,
  epcisQueryInterfaceUrl,
  partyPath,
  productsOf,
  resolveMasterData,
  traceback,
  type EpcisFormat,
} from '../helpers/opentraceability';

/** GDST's sample documents, as OpenTraceability's tests capture them (test/fixtures/gdst/README.md). */
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, '../fixtures/gdst', name), 'utf8')) as {
    epcisBody: { eventList: Record<string, unknown>[] };
  };

const SAMPLE = fixture('testserver_advancedfilters.jsonld');
/** Where OpenTraceability's Traceback test starts: the processor's lot of canned tuna. */
const CANNED_TUNA = 'urn:gdst:example.org:product:lot:class:processor.2u.v1-0122-2022';
/**
 * The pallet's second unpacking (2022-03-04): the one event of the sample the traceback does not reach. It
 * follows the canned tuna's inputs back to the feed mill and the hatchery, then queries the pallet the
 * lot was packed on (SSCC …0004) up to the next event naming the lot: its repacking on 2022-03-01.
 */
const AFTER_THE_TRACE = 'urn:uuid:abf72ff7-6f9a-4092-8d75-25e545c95123U';

/** Every owning party an event's source or destination list names (what MasterDataResolver resolves by 417). */
const partiesOf = (events: Record<string, unknown>[]): string[] => [
  ...new Set(
    events.flatMap((event) => [
      ...((event.sourceList as { type: string; source: string }[] | undefined) ?? [])
        .filter((s) => s.type === 'owning_party')
        .map((s) => s.source),
      ...((event.destinationList as { type: string; destination: string }[] | undefined) ?? [])
        .filter((d) => d.type === 'owning_party')
        .map((d) => d.destination),
    ]),
  ),
];

describe('GDST’s flow as OpenTraceability’s client runs it: resolver, query, traceback', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await createAccount('opentraceability');
    expect(await capture(account.key, SAMPLE)).toMatchObject({ success: true, errors: [] });
  });

  it('resolves the EPCIS query interface of every product of every event, and of every owning party, in GS1’s link format', async () => {
    const epcs = [...new Set(SAMPLE.epcisBody.eventList.flatMap((e) => productsOf(e).map((p) => p.epc)))];
    // OpenTraceability's own test document names GDST lots, GS1 SSCC pallets and GDST parties.
    expect(epcs.some((epc) => epc.includes(':product:lot:class:'))).toBe(true);
    expect(epcs.some((epc) => epc.startsWith('urn:epc:id:sscc:'))).toBe(true);
    const parties = partiesOf(SAMPLE.epcisBody.eventList);
    expect(parties.length).toBeGreaterThan(0);
    const resolved: Record<string, string | undefined> = {};
    for (const path of [...epcs.map(digitalLinkPath), ...parties.map(partyPath)])
      resolved[path] = await epcisQueryInterfaceUrl(account.key, path);
    expect(resolved).toEqual(Object.fromEntries(Object.keys(resolved).map((path) => [path, `${apiUrl()}/epcis/`])));
  });

  it.each<EpcisFormat>(['JSON 2.0', 'XML 2.0', 'XML 1.2'])(
    'resolves the lot, then traces back in %s through the pallet to every event of the sample before the lot’s repacking',
    async (format) => {
      const epcisUrl = await epcisQueryInterfaceUrl(account.key, digitalLinkPath(CANNED_TUNA));
      expect(epcisUrl).toBe(`${apiUrl()}/epcis/`);
      const results = await traceback(account.key, epcisUrl!, CANNED_TUNA, format);
      expect(results.errors).toEqual([]);
      expect(results.events.map((e) => e.eventID).sort()).toEqual(
        SAMPLE.epcisBody.eventList
          .map((e) => String(e.eventID))
          .filter((id) => id !== AFTER_THE_TRACE)
          .sort(),
      );
      // Back to the feed mill's and the hatchery's lots, and through the pallets (SSCC) they were shipped on.
      const epcs = new Set(results.events.flatMap((e) => e.products.map((p) => p.epc)));
      for (const epc of [
        'urn:gdst:example.org:product:lot:class:feedmill.1u.ff11252021',
        'urn:gdst:example.org:product:lot:class:hatchery.1u.tf12012021',
        'urn:gdst:example.org:product:lot:class:fisherman01.tunau.v1-0122-2022',
      ])
        expect({ epc, found: epcs.has(epc) }).toEqual({ epc, found: true });
    },
  );

  it('resolves the traced events’ master data as GDST’s master data resolver does: product classes, the vessel, the parties', async () => {
    const epcisUrl = await epcisQueryInterfaceUrl(account.key, digitalLinkPath(CANNED_TUNA));
    const traced = await traceback(account.key, epcisUrl!, CANNED_TUNA, 'JSON 2.0');
    const resolved = await resolveMasterData(account.key, traced.events, { gdst: true });
    expect(resolved.errors).toEqual([]);
    // The service does not know the language a name was written in: none is stated.
    const unstated = (value: string) => [{ language: '', value }];
    // The product classes the sample's master data names.
    expect(resolved.tradeItems).toEqual(
      expect.arrayContaining([
        { id: 'urn:gdst:example.org:product:class:fisherman01.tunau', productName: unstated('Whole Yellowfin Tuna') },
        { id: 'urn:gdst:example.org:product:class:processor.2u', productName: unstated('Can of Tuna') },
      ]),
    );
    // The fishing vessel (SGLN 08600031303.1.1: a GLN's extension 1), with GDST's vessel attributes.
    expect(resolved.locations).toContainEqual({
      id: 'https://id.gs1.org/414/0860003130315/254/1',
      name: unstated('Vessel #1'),
      address: { addressLocality: unstated('San Diego'), countryCode: 'US' },
      vesselName: 'Vessel #1',
      vesselID: 'VESSEL1',
      vesselFlagState: 'US',
      imoNumber: 'IMO12345678',
    });
    // Every owning party, information provider and product owner the traced events name.
    const parties = [
      ...new Set(traced.events.flatMap((e) => [...e.owners, ...e.gdstParties]).map((p) => p.toLowerCase())),
    ].sort();
    expect(parties).toContain('urn:gdst:example.org:party:fisherman01.1u');
    expect(resolved.parties.map((p) => p.id).sort()).toEqual(parties);
    // Each identifier was asked once at the resolver (no Accept header), then at the link it answered.
    const asked = resolved.requests.filter((r) => r.url.endsWith('?linkType=gs1:masterData'));
    expect(new Set(asked.map((r) => r.url)).size).toBe(asked.length);
    expect(resolved.requests.filter((r) => r.url.includes('/masterdata/')).every((r) => r.status === 200)).toBe(true);
  });

  it('answers 404 for identifiers this account does not hold, another account’s included', async () => {
    const status = async (key: string, path: string) =>
      (
        await request('GET', `/${path}?linkType=gs1:epcis`, {
          headers: { 'X-API-Key': key, Accept: 'application/json' },
        })
      ).status;
    for (const path of [
      digitalLinkPath(CANNED_TUNA),
      digitalLinkPath('urn:epc:id:sscc:08600031303.0004'),
      partyPath('urn:gdst:example.org:party:processor.1u'),
      '01/urn:gdst:example.org:product:class:processor.2u',
    ]) {
      expect({ path, own: await status(account.key, path) }).toEqual({ path, own: 200 });
      const other = await createAccount('ot-other');
      expect({ path, other: await status(other.key, path) }).toEqual({ path, other: 404 });
    }
    for (const path of [
      digitalLinkPath('urn:gdst:example.org:product:lot:class:processor.2u.no-such-lot'),
      digitalLinkPath('urn:gdst:example.org:product:serial:obj:processor.2u.1'),
      digitalLinkPath('urn:epc:id:sscc:08600031303.9999'),
      partyPath('urn:gdst:example.org:party:nobody.1u'),
    ])
      expect({ path, status: await status(account.key, path) }).toEqual({ path, status: 404 });
  });
});
