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
export const eventIdOf = (): string => `urn:uuid:${[8, 4, 4, 4, 12].map((n) => randomBytes(n / 2).toString('hex')).join('-')}`;

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
  createdMasterData?: { products: string[]; locations: string[] };
}

/** POST /epcis/capture, then the capture job once it has finished. */
export async function capture(key: string, document: unknown, headers: Record<string, string> = {}): Promise<CaptureJob> {
  const api = client(key);
  const accepted = await api.post('/epcis/capture', document, { 'Content-Type': 'application/ld+json', ...headers });
  if (accepted.status !== 202) throw new Error(`capture answered ${accepted.status}: ${accepted.text}`);
  return finishedJob(key, accepted.headers.get('location')!);
}

export async function finishedJob(key: string, location: string): Promise<CaptureJob> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = await client(key).get<CaptureJob>(location);
    if (job.status !== 200) throw new Error(`${location} answered ${job.status}: ${job.text}`);
    if (!job.body.running) return job.body;
    if (Date.now() > deadline) throw new Error(`capture job ${location} still running after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
