import { randomInt } from 'node:crypto';
import { verifyGln } from '../../db/repositories/gln-verifications';
import { glnOf } from '../../domain/gs1-keys';
import { models, sql } from '../helpers/db';
import { client } from '../helpers/http';
import { uid } from './events';

export { uid };

/**
 * Batch-style event payloads (DESIGN.md, Events) built from whole location and product payloads, for
 * tests that need their own names, GLNs and destinations (test/factories/events.ts fixes those).
 */
export interface LocationOptions {
  gln?: string;
  connectionType?: 'SELF' | 'SUPPLIER' | 'BUYER' | 'OTHER';
  tradePartnerId?: string;
  name?: string;
}

export function locationPayload(id: string, options: LocationOptions = {}) {
  const tradePartnerId = options.tradePartnerId ?? `TP-${id}`;
  return {
    Id: id,
    Details: {
      TradePartner: {
        Id: tradePartnerId,
        Name: `Partner ${tradePartnerId}`,
        ConnectionType: options.connectionType ?? 'SELF',
      },
      Name: options.name ?? `Location ${id}`,
      ...(options.gln ? { Gln: options.gln } : {}),
      Address: { City: 'Bergen', Country: 'NO', AddressLine1: 'Bryggen 1' },
    },
  };
}

export function productPayload(id: string, sharingPolicy: 'Open' | 'Restricted' = 'Open', name = `Product ${id}`) {
  return {
    Id: id,
    Details: { Name: name, SimpleUnitOfMeasurement: 'KGM', SharingPolicy: sharingPolicy, ProductIdentifierType: 'Lot' },
  };
}

type Payload = Record<string, unknown>;

export interface Line {
  product: Payload;
  lot: string;
  quantity: number;
}

export const line = (product: Payload, lot: string, quantity: number): Line => ({ product, lot, quantity });

const instance = ({ product, lot, quantity }: Line) => ({ Quantity: quantity, LotSerial: lot, Product: product });

const common = (type: string, location: Payload, time: string, extra: Payload = {}) => ({
  $type: type,
  Id: uid(`EV-${type}`),
  Location: location,
  EventTime: time,
  EventTimeZone: '+00:00',
  ...extra,
});

export const commission = (location: Payload, time: string, lines: Line[], extra: Payload = {}) =>
  common('commission', location, time, { ProductInstances: lines.map(instance), ...extra });

export const receive = (location: Payload, time: string, lines: Line[], extra: Payload = {}) =>
  common('receive', location, time, { ProductInstances: lines.map(instance), ...extra });

export const ship = (location: Payload, destination: Payload, time: string, lines: Line[], extra: Payload = {}) =>
  common('ship', location, time, { DestinationLocation: destination, ProductInstances: lines.map(instance), ...extra });

export const transform = (location: Payload, time: string, inputs: Line[], outputs: Line[], extra: Payload = {}) =>
  common('transform', location, time, {
    InputProducts: inputs.map(instance),
    OutputProducts: outputs.map(instance),
    ...extra,
  });

/** Sends events through the sync pipeline endpoint and insists they were stored. */
export async function record(key: string, ...events: Payload[]) {
  const response = await client(key).post('/Integration/Events', { Events: events });
  if (response.status !== 200) throw new Error(`events rejected: ${response.status} ${response.text}`);
  return response.body;
}

export async function serviceId(
  table: 'products' | 'locations',
  accountId: string,
  externalId: string,
): Promise<string> {
  const { rows } = await sql().query(`SELECT id FROM ${table} WHERE account_id = $1 AND external_id = $2`, [
    accountId,
    externalId,
  ]);
  if (!rows.length) throw new Error(`no ${table} row ${externalId}`);
  return rows[0].id as string;
}

/** A GLN nobody has used yet, with a valid GS1 check digit. */
export const newGln = (): string => glnOf(String(randomInt(1e11, 1e12)));

/** What `npm run gln -- verify ACCOUNT GLN` does, without a process per call. */
export async function verifyGlnOf(account: { name: string }, gln: string): Promise<void> {
  await verifyGln(models(), account.name, gln, 'jest');
}
