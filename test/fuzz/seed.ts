/**
 * Fills the account of an API key with data of every shape the service stores, so the fuzz run
 * (.ci/fuzz) checks list and detail answers of real rows against /openapi.json, not only empty lists:
 * locations with and without coordinates, a vessel, Lot and Serial products, a document, events of all
 * eight types and URN-based events. Every answer is checked against the document on the way
 * (test/helpers/http.ts). Usage: tsx test/fuzz/seed.ts API_URL API_KEY
 */
import { uploadDocument } from '../factories/documents';
import {
  aggregation,
  commission,
  decommission,
  instance,
  observe,
  receive,
  ship,
  transform,
  uid,
} from '../factories/events';
import { jsonCommission, jsonInstance, urnOf } from '../factories/json-events';
import { buildLocationPayload, buildProductPayload, buildVesselPayload } from '../factories/master-data';
import { client } from '../helpers/http';

async function main(): Promise<void> {
  const [url, key] = process.argv.slice(2);
  if (!url || !key) throw new Error('usage: tsx test/fuzz/seed.ts API_URL API_KEY');
  process.env.API_URL = url;
  const api = client(key);
  const expect = async (what: string, answer: Promise<{ status: number; text: string }>, status = 200) => {
    const response = await answer;
    if (response.status !== status) throw new Error(`${what}: ${response.status} ${response.text.slice(0, 500)}`);
  };

  await expect(
    'locations',
    api.post('/Integration/Locations', {
      Locations: [
        buildLocationPayload(),
        buildLocationPayload({
          Details: {
            Address: {
              City: undefined,
              Country: undefined,
              AddressLine1: undefined,
              PostalCode: undefined,
              GeoCoordinates: { Latitude: -33.9, Longitude: 18.4 },
            },
          },
        }),
        buildLocationPayload({ Details: { Address: { GeoCoordinates: undefined } } }),
        buildVesselPayload(),
      ],
    }),
  );
  await expect(
    'products',
    api.post('/Integration/Products', {
      Products: [
        buildProductPayload(),
        buildProductPayload({ Details: { ProductIdentifierType: 'Serial', Gtin: undefined } }),
      ],
    }),
  );
  const documentId = uid('DOC');
  await uploadDocument(key, documentId);

  const lot = uid('LOT');
  const at = (day: number) => `2024-03-${String(day).padStart(2, '0')}T10:00:00Z`;
  await expect(
    'events',
    api.post('/Integration/Events', {
      Events: [
        commission(
          { location: 'FUZZ-DOCK', time: at(1), documentIds: [documentId, 'NOT-UPLOADED'] },
          instance('FUZZ-COD', lot, 100),
        ),
        observe({ location: 'FUZZ-DOCK', time: at(2) }, instance('FUZZ-COD', lot, 100)),
        aggregation(
          'aggregation',
          { location: 'FUZZ-DOCK', time: at(3) },
          uid('PALLET'),
          instance('FUZZ-COD', lot, 40),
        ),
        aggregation(
          'disaggregation',
          { location: 'FUZZ-DOCK', time: at(4) },
          uid('PALLET'),
          instance('FUZZ-COD', lot, 40),
        ),
        transform(
          { location: 'FUZZ-DOCK', time: at(5) },
          [instance('FUZZ-COD', lot, 30)],
          [instance('FUZZ-FILLET', uid('LOT'), 12)],
        ),
        ship({ location: 'FUZZ-DOCK', time: at(6) }, instance('FUZZ-COD', lot, 20)),
        receive({ location: 'FUZZ-DOCK', time: at(7) }, instance('FUZZ-COD', lot, 5)),
        decommission({ location: 'FUZZ-DOCK', time: at(8) }, instance('FUZZ-COD', lot, 1)),
        commission({ location: 'FUZZ-DOCK', time: at(9) }, instance('FUZZ-TAG', uid('SERIAL'), 1, 'Serial')),
      ],
    }),
  );
  const product = urnOf('product');
  await expect(
    'URN events',
    api.post('/Integration/JSON', {
      Events: [
        jsonCommission(
          { locationUrn: urnOf('location'), partnerUrn: urnOf('party'), time: at(10) },
          jsonInstance(product, uid('LOT'), 3),
        ),
      ],
    }),
  );
  await expect(
    'async events',
    api.post('/Integration/Events/async', {
      Events: [commission({ location: 'FUZZ-DOCK', time: at(11) }, instance('FUZZ-COD', uid('LOT'), 1))],
    }),
    202,
  );
  console.log('seeded: 4 locations, 2 products, 1 document, events of all eight types, URN events');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
