import { randomBytes, randomInt } from 'node:crypto';
import { checkDigit } from '../../domain/epcis/identifiers';
import { client } from '../helpers/http';

export const EPCIS_CONTEXT = ['https://ref.gs1.org/standards/epcis/2.0.0/epcis-context.jsonld'];

const digits = (n: number): string => Array.from({ length: n }, () => randomInt(10)).join('');

/** A fresh GS1 company prefix (7 digits) per call, so every test names products and locations of its own. */
export function gs1Ids() {
  const companyPrefix = `9${digits(6)}`;
  const itemRef = `0${digits(5)}`;
  const locationRef = digits(5);
  const gtinBody = itemRef[0] + companyPrefix + itemRef.slice(1);
  const glnBody = companyPrefix + locationRef;
  return {
    companyPrefix,
    gtin: gtinBody + checkDigit(gtinBody),
    gln: glnBody + checkDigit(glnBody),
    lgtin: (lot: string) => `urn:epc:class:lgtin:${companyPrefix}.${itemRef}.${lot}`,
    sgtin: (serial: string) => `urn:epc:id:sgtin:${companyPrefix}.${itemRef}.${serial}`,
    gtinClass: `urn:epc:idpat:sgtin:${companyPrefix}.${itemRef}.*`,
    sgln: (extension = '0') => `urn:epc:id:sgln:${companyPrefix}.${locationRef}.${extension}`,
    sscc: `urn:epc:id:sscc:${companyPrefix}.${digits(10)}`,
  };
}

export const lotOf = (): string => `LOT-${randomBytes(4).toString('hex')}`;
export const eventIdOf = (): string =>
  `urn:uuid:${[8, 4, 4, 4, 12].map((n) => randomBytes(n / 2).toString('hex')).join('-')}`;

export const epcisDocument = (eventList: unknown[]) => ({
  '@context': EPCIS_CONTEXT,
  type: 'EPCISDocument',
  schemaVersion: '2.0',
  creationDate: '2024-03-01T15:00:00Z',
  epcisBody: { eventList },
});

export interface ObjectEventOptions {
  action?: 'ADD' | 'OBSERVE' | 'DELETE';
  bizStep?: string;
  quantityList?: { epcClass: string; quantity?: number; uom?: string }[];
  epcList?: string[];
  readPoint?: string;
  bizLocation?: string;
  eventTime?: string;
  eventID?: string | null;
  extra?: Record<string, unknown>;
}

export function objectEvent(options: ObjectEventOptions = {}) {
  return {
    type: 'ObjectEvent',
    ...(options.eventID === null ? {} : { eventID: options.eventID ?? eventIdOf() }),
    eventTime: options.eventTime ?? '2024-03-01T10:00:00.000-05:00',
    eventTimeZoneOffset: '-05:00',
    action: options.action ?? 'ADD',
    ...(options.bizStep ? { bizStep: options.bizStep } : {}),
    epcList: options.epcList ?? [],
    ...(options.quantityList ? { quantityList: options.quantityList } : {}),
    ...(options.readPoint ? { readPoint: { id: options.readPoint } } : {}),
    ...(options.bizLocation ? { bizLocation: { id: options.bizLocation } } : {}),
    ...options.extra,
  };
}

export interface CaptureJob {
  captureID: string;
  running: boolean;
  success: boolean;
  captureErrorBehaviour: string;
  errors: { type: string; title: string; eventID?: string }[];
  warnings?: Record<string, unknown>[];
  createdMasterData?: { products: string[]; locations: string[] };
}

/** POST /epcis/capture, then the capture job once it has finished. */
export async function capture(
  key: string,
  document: unknown,
  headers: Record<string, string> = {},
): Promise<CaptureJob> {
  const api = client(key);
  const accepted = await api.post('/epcis/capture', document, { 'Content-Type': 'application/ld+json', ...headers });
  if (accepted.status !== 202) throw new Error(`capture answered ${accepted.status}: ${accepted.text}`);
  return finishedJob(key, accepted.headers.get('location')!);
}

export async function finishedJob(key: string, location: string): Promise<CaptureJob> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    // Answered once the job has finished (or after 10 s): no polling while it runs.
    const job = await client(key).get<CaptureJob>(location, { Prefer: 'wait=10' });
    if (job.status !== 200) throw new Error(`${location} answered ${job.status}: ${job.text}`);
    if (!job.body.running) return job.body;
    if (Date.now() > deadline) throw new Error(`capture job ${location} still running after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const EXAMPLE_NAMESPACE = { example: 'https://ns.example.com/epcis/' };

/**
 * A document with every event type and the optional parts the standard has (sensor data, certification
 * info, persistent disposition, ILMD, user extensions, Digital Link ids, an event without an eventID).
 */
export function everyKindDocument() {
  const ids = gs1Ids();
  const lot = lotOf();
  const outputLot = lotOf();
  const where = ids.sgln();
  const events = {
    commission: {
      type: 'ObjectEvent',
      eventID: eventIdOf(),
      eventTime: '2024-03-01T10:00:00.000-05:00',
      eventTimeZoneOffset: '-05:00',
      action: 'ADD',
      bizStep: 'commissioning',
      disposition: 'active',
      epcList: [ids.sgtin('S1'), ids.sgtin('S2')],
      quantityList: [{ epcClass: ids.lgtin(lot), quantity: 100, uom: 'KGM' }],
      readPoint: { id: where },
      bizLocation: { id: where },
      certificationInfo: 'https://accreditation.example.org/certificate/ABC12345',
      persistentDisposition: { set: ['completeness_verified'], unset: ['completeness_inferred'] },
      ilmd: { 'example:bestBeforeDate': '2024-06-01' },
      'example:myField': { 'example:inner': 'user extension, kept as sent' },
    },
    sensor: {
      type: 'ObjectEvent',
      eventTime: '2024-03-01T11:00:00.000-05:00',
      eventTimeZoneOffset: '-05:00',
      action: 'OBSERVE',
      bizStep: 'inspecting',
      epcList: [`https://id.gs1.org/01/${ids.gtin}/21/S1`],
      readPoint: { id: `https://id.gs1.org/414/${ids.gln}` },
      sensorElementList: [
        {
          sensorMetadata: {
            time: '2024-03-01T15:55:00Z',
            deviceID: 'urn:epc:id:giai:4000001.111',
            deviceMetadata: 'https://id.gs1.org/giai/4000001111',
          },
          sensorReport: [{ type: 'Temperature', value: 2.5, uom: 'CEL' }],
        },
      ],
    },
    aggregation: {
      type: 'AggregationEvent',
      eventID: eventIdOf(),
      eventTime: '2024-03-01T12:00:00.000-05:00',
      eventTimeZoneOffset: '-05:00',
      action: 'ADD',
      bizStep: 'packing',
      disposition: 'in_progress',
      parentID: ids.sscc,
      childEPCs: [ids.sgtin('S2')],
      childQuantityList: [{ epcClass: ids.lgtin(lot), quantity: 10, uom: 'KGM' }],
      readPoint: { id: where },
    },
    transformation: {
      type: 'TransformationEvent',
      eventID: eventIdOf(),
      eventTime: '2024-03-01T13:00:00.000-05:00',
      eventTimeZoneOffset: '-05:00',
      bizStep: 'commissioning',
      inputQuantityList: [{ epcClass: ids.lgtin(lot), quantity: 20, uom: 'KGM' }],
      outputQuantityList: [{ epcClass: ids.lgtin(outputLot), quantity: 15, uom: 'KGM' }],
      transformationID: eventIdOf(),
      bizLocation: { id: where },
    },
    transaction: {
      type: 'TransactionEvent',
      eventID: eventIdOf(),
      eventTime: '2024-03-01T14:00:00.000-05:00',
      eventTimeZoneOffset: '-05:00',
      action: 'ADD',
      bizStep: 'shipping',
      bizTransactionList: [{ type: 'po', bizTransaction: 'urn:epcglobal:cbv:bt:0614141000012:PO-77' }],
      epcList: [ids.sgtin('S1')],
      readPoint: { id: where },
    },
    association: {
      type: 'AssociationEvent',
      eventID: eventIdOf(),
      eventTime: '2024-03-01T15:00:00.000-05:00',
      eventTimeZoneOffset: '-05:00',
      action: 'ADD',
      bizStep: 'assembling',
      parentID: 'urn:epc:id:grai:4012345.55555.987',
      childEPCs: ['urn:epc:id:giai:4000001.12345'],
      readPoint: { id: where },
    },
  };
  return {
    ids,
    lot,
    outputLot,
    where,
    events,
    document: { ...epcisDocument(Object.values(events)), '@context': [...EPCIS_CONTEXT, EXAMPLE_NAMESPACE] },
  };
}
