/**
 * Capturing an EPCIS document (JSON-LD, or XML read as JSON-LD): what the schema cannot check is checked
 * (eventIDs repeated, event times, duplicates by CBV 2.0 event hash id, the master data it brings), and the
 * capture is stored as one batch of mode 'epcis', with its originals and its master data changes, in one
 * transaction: all or nothing. The caller starts the batch's workflow (batches/submit.ts runBatch).
 */
import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import type { Batch } from '../db/models';
import { findOrCreateBatch } from '../db/repositories/batches';
import { existingEventHashes, existingEventIds, findEpcisEntities } from '../db/repositories/epcis-entities';
import {
  applyEpcisMasterData,
  type MasterDataChanges,
  type ProductDefaults,
} from '../db/repositories/epcis-master-data';
import { insertEpcisOriginals } from '../db/repositories/epcis-originals';
import type { BatchError } from '../domain/batch-errors';
import { eventHashId, namespacesOfContext } from '../domain/epcis/event-hash';
import { gdstKdeWarnings, type EpcisKdeWarning } from '../domain/epcis/gdst-kdes';
import { urnCompanyPrefixes } from '../domain/epcis/identifiers';
import { epcisMasterDataOf, type EpcisVocabulary } from '../domain/epcis/master-data';
import {
  referencedIdentifiers,
  separateOriginals,
  translateEpcisEvents,
  type CapturedEvent,
  type CaptureErrorBehaviour,
  type EpcisEvent,
  type StoredCapturedEvent,
} from '../domain/epcis/translate';
import type { XmlLeftOut } from '../domain/epcis/xml/from-xml';

/** Something in the document that breaks a rule, named by its JSON pointer (or XML location). */
export interface CaptureIssue {
  pointer: string;
  message: string;
}

/** A document that passed GS1's schema: its events, and where each sits in the body. */
export interface CheckedDocument {
  events: EpcisEvent[];
  /** epcisHeader.epcisMasterData's vocabularies, and the JSON pointer of their list. */
  vocabularies?: { list: EpcisVocabulary[]; pointer: string };
  /** JSON pointer of each event in the request body. */
  pointerOf: (index: number) => string;
  namespaces: unknown[];
  /** What the XML mapping left out of each event (domain/epcis/xml/from-xml.ts). */
  leftOut?: XmlLeftOut[];
}

/** A warning about one captured event. */
export type EpcisEventWarning = EpcisKdeWarning | (Omit<EpcisKdeWarning, 'type'> & { type: 'FieldLeftOut' });

/** The stored request of an 'epcis' batch: `Events` is what the pipeline reads, the rest the capture job's. */
export interface EpcisCaptureRequest {
  /** Each event's original stored apart (epcis_originals); captures stored before that hold theirs in place. */
  Events: (StoredCapturedEvent | CapturedEvent)[];
  /** The company prefixes the events spell out in EPC URNs (absent in captures that hold their originals in place). */
  EpcisCompanyPrefixes?: string[];
  captureErrorBehaviour: CaptureErrorBehaviour;
  /** Events left out under `proceed` (their eventID was already captured), as the job reports them. */
  rejected: BatchError[];
  /** Identifiers (Digital Link URIs) of the products and locations the capture creates. */
  created: { products: string[]; locations: string[] };
  /** What the document's epcisHeader.epcisMasterData created or changed (absent in captures stored before it was read). */
  masterData?: MasterDataChanges;
  /** Per event, warnings, never refusals: GDST KDEs it lacks (domain/epcis/gdst-kdes.ts), fields the XML mapping left out. */
  kdeWarnings?: EpcisEventWarning[];
}

/** The document breaks a rule of EPCIS 2.0 that GS1's schema cannot state: nothing was stored. */
export class CaptureRefused extends Error {
  constructor(readonly issues: CaptureIssue[]) {
    super('The document breaks a rule of EPCIS 2.0: nothing was captured.');
    this.name = 'CaptureRefused';
  }
}

export interface CaptureDeps {
  sequelize: Sequelize;
  /** The domain of the URNs of what the capture creates (config.urnDomain). */
  urnDomain: string;
  /** The bounds of a lot or serial number and of a quantity (domain/schemas/limits.ts). */
  bounds: { idLength: number; quantity: number };
}

export interface CaptureInput {
  account: { id: string; name: string };
  requestId: string;
  document: CheckedDocument;
  behaviour: CaptureErrorBehaviour;
}

/** The unit and identifier type the events give each GTIN the capture creates: what its master data creates it with. */
function productDefaultsOf(events: CapturedEvent[]): ProductDefaults {
  const out = new Map<string, { unit: string; identifierType: 'Lot' | 'Serial' }>();
  for (const event of events) {
    for (const line of [
      ...(event.ProductInstances ?? []),
      ...(event.InputProducts ?? []),
      ...(event.OutputProducts ?? []),
      ...(event.ChildProductInstances ?? []),
    ]) {
      const details = line.Product.Details;
      const gtin = details?.GTIN ?? details?.Gtin;
      if (details && gtin && !out.has(gtin))
        out.set(gtin, { unit: details.SimpleUnitOfMeasurement, identifierType: details.ProductIdentifierType });
    }
  }
  return out;
}

/** eventIDs that an earlier event of the document has already. */
function repeatedEventIds({ events, pointerOf }: CheckedDocument): CaptureIssue[] {
  const issues: CaptureIssue[] = [];
  const seen = new Map<string, number>();
  events.forEach((event, index) => {
    if (!event.eventID) return;
    const first = seen.get(event.eventID);
    if (first !== undefined)
      issues.push({
        pointer: `${pointerOf(index)}/eventID`,
        message: `eventID ${event.eventID} is also the eventID of event ${first}.`,
      });
    else seen.set(event.eventID, index);
  });
  return issues;
}

/**
 * By index, the events (not declarations) whose hash id the account already holds or an earlier event of
 * the document has, with the reason. One resent with the same eventID is left to the eventID checks, which say so.
 */
async function duplicateHashes(
  sequelize: Sequelize,
  accountId: string,
  events: EpcisEvent[],
  hashes: string[],
): Promise<Map<number, string>> {
  const held = await existingEventHashes(
    sequelize,
    accountId,
    hashes.filter((_, i) => !events[i].errorDeclaration),
  );
  const first = new Map<string, number>();
  const out = new Map<number, string>();
  events.forEach((event, index) => {
    if (event.errorDeclaration) return;
    const hash = hashes[index];
    const earlier = first.get(hash);
    const heldAs = held.get(hash);
    const duplicateOf = (other: string) => `The event has the event hash id ${hash}, as ${other}: it is a duplicate.`;
    if (heldAs !== undefined) {
      if (heldAs !== event.eventID) out.set(index, duplicateOf(`the event ${heldAs} this account already holds`));
    } else if (earlier !== undefined) {
      if (events[earlier].eventID === undefined || events[earlier].eventID !== event.eventID)
        out.set(index, duplicateOf(`event ${earlier} of this document`));
    } else first.set(hash, index);
  });
  return out;
}

/** Stores the capture as a batch, not yet started; CaptureRefused (nothing stored) when it breaks a rule. */
export async function captureEpcis(deps: CaptureDeps, input: CaptureInput): Promise<Batch> {
  const { sequelize } = deps;
  const { account, requestId, behaviour } = input;
  const { events, pointerOf, namespaces, vocabularies, leftOut = [] } = input.document;
  const issues = repeatedEventIds(input.document);
  const prefixes = namespacesOfContext(namespaces);
  const hashes = events.map((event) => eventHashId(event, prefixes));
  const known = await findEpcisEntities(sequelize, account, referencedIdentifiers(events, hashes));
  // A declaration's own row gets its id now, stored with the document: a retried step sees the same one.
  const translation = translateEpcisEvents(events, known, {
    eventIds: events.map(() => `urn:uuid:${randomUUID()}`),
    hashes,
    pointerOf,
    context: namespaces,
    bounds: deps.bounds,
  });
  issues.push(...translation.issues);
  const masterData = epcisMasterDataOf(vocabularies?.list ?? [], vocabularies?.pointer ?? '');
  issues.push(...masterData.issues);
  // The same event sent again (with another eventID, or none) is a duplicate: CBV 2.0 event hash ids say so.
  const duplicates = await duplicateHashes(sequelize, account.id, events, hashes);
  if (behaviour === 'rollback') {
    for (const [index, message] of duplicates)
      issues.push({
        pointer: pointerOf(index),
        message: `${message} GS1-Capture-Error-Behaviour: proceed leaves such events out and captures the rest.`,
      });
  }
  if (issues.length) throw new CaptureRefused(issues);

  let captured = translation.events;
  const rejected: BatchError[] = [];
  if (behaviour === 'proceed') {
    // Greedy capture: an event already in the account is reported and left out instead of failing the rest.
    const existing = await existingEventIds(
      sequelize,
      account.id,
      captured.map((e) => e.Id),
    );
    captured = captured.filter((event, index) => {
      const message =
        duplicates.get(index) ??
        // An error declaration repeats its event's eventID by design; its own row has an id of its own.
        (!event.EpcisDeclarationOf && existing.has(event.Id)
          ? `An event with eventID ${event.Id} was already captured in this account.`
          : undefined);
      if (message) rejected.push({ index, eventId: event.Id, code: 'DuplicateEventId', field: 'eventID', message });
      return !message;
    });
  }
  const left = new Set(rejected.map((r) => r.index));
  const eventIdOf = (index: number) => events[index].eventID ?? hashes[index];
  const kdeWarnings: EpcisEventWarning[] = [
    ...gdstKdeWarnings(events, pointerOf, eventIdOf),
    ...leftOut.map(({ index, pointer, message }) => ({
      type: 'FieldLeftOut' as const,
      index,
      eventID: eventIdOf(index),
      pointer,
      detail: message,
    })),
  ].filter((w) => !left.has(w.index));
  // The originals are stored once, apart: the batch's request and (once persisted) each event name theirs.
  const separated = separateOriginals(captured, randomUUID);

  // The master data the document brings, its originals and its batch: one transaction, all or nothing.
  return sequelize.transaction(async (transaction) => {
    const masterDataChanges = await applyEpcisMasterData(
      sequelize,
      account,
      masterData,
      { self: known.self, urnDomain: deps.urnDomain, productDefaults: productDefaultsOf(translation.events) },
      transaction,
    );
    const createdByMasterData = new Set(
      [...masterDataChanges.products, ...masterDataChanges.locations]
        .filter((c) => c.change === 'created')
        .map((c) => c.id),
    );
    const request: EpcisCaptureRequest = {
      Events: separated.events,
      EpcisCompanyPrefixes: urnCompanyPrefixes(
        separated.originals.map((original) => original.epcis as unknown as Record<string, unknown>),
      ),
      captureErrorBehaviour: behaviour,
      rejected,
      created: {
        products: translation.created.products.filter((id) => !createdByMasterData.has(id)),
        locations: translation.created.locations.filter((id) => !createdByMasterData.has(id)),
      },
      masterData: masterDataChanges,
      kdeWarnings,
    };
    await insertEpcisOriginals(sequelize, account.id, separated.originals, transaction);
    const { batch } = await findOrCreateBatch(
      { accountId: account.id, mode: 'epcis', request, eventCount: captured.length, requestId },
      transaction,
    );
    return batch;
  });
}
