/**
 * EPCIS 2.0 events (already valid against GS1's JSON Schema) as the pipeline's batch-style events, so
 * a captured event lands in the same events, lines, inventory timeline and ledger as one sent to
 * /Integration/Events. The EPCIS event itself travels along (`Epcis`) and is stored with the event, so
 * it is answered exactly as it was sent. Pure: what the account already has is passed in.
 */
import {
  parseEventTime,
  type EventPayload,
  type EventTypeName,
  type ProductInstancePayload,
  type ProductRefPayload,
  type LocationRefPayload,
} from '../events';
import type { TradePartnerPayload } from '../master-data';
import { inProductUnit, normaliseUnit, unitsAcceptedMessage } from '../units';
import { uuidFromName } from '../hashing';
import { reversalOf, type DeclaredEvent } from './declarations';
import { quantityRefused } from '../decimal';
import { matchKeysOf, type MatchList } from './match-keys';
import {
  canonicalIdentifier,
  locationDigitalLink,
  physicalLocationOf,
  tradeItemDigitalLink,
  tradeItemOf,
  type PhysicalLocation,
  type TradeItem,
} from './identifiers';

/** GS1-Capture-Error-Behaviour: rollback stores none of a document's events when one is refused, proceed stores the rest. */
export const CAPTURE_ERROR_BEHAVIOURS = ['rollback', 'proceed'] as const;
export type CaptureErrorBehaviour = (typeof CAPTURE_ERROR_BEHAVIOURS)[number];

export type EpcisAction = 'ADD' | 'OBSERVE' | 'DELETE';

export interface EpcisQuantityElement {
  epcClass: string;
  quantity?: number;
  uom?: string;
}

/** The fields of an EPCIS event the mapping reads; every other field is kept as sent in `Epcis`. */
export interface EpcisEvent {
  type: string;
  eventID?: string;
  eventTime: string;
  eventTimeZoneOffset: string;
  action?: EpcisAction;
  bizStep?: string;
  disposition?: string;
  readPoint?: { id: string };
  bizLocation?: { id: string };
  epcList?: string[];
  quantityList?: EpcisQuantityElement[];
  parentID?: string;
  childEPCs?: string[];
  childQuantityList?: EpcisQuantityElement[];
  inputEPCList?: string[];
  inputQuantityList?: EpcisQuantityElement[];
  outputEPCList?: string[];
  outputQuantityList?: EpcisQuantityElement[];
  bizTransactionList?: { type?: string; bizTransaction: string }[];
  errorDeclaration?: { declarationTime: string; reason?: string; correctiveEventIDs?: string[] };
  [field: string]: unknown;
}

/**
 * What queries match a captured event on, in one spelling (canonicalIdentifier, CBV bare words), so a
 * query in Digital Link form finds an event captured with URNs and the other way round.
 */
export type EpcisIndex = Partial<Record<MatchList, string[]>> &
  Partial<Record<'readPoint' | 'bizLocation' | 'bizStep' | 'disposition', string>>;

/**
 * A batch-style event that came from EPCIS: the pipeline reads the first part; `Epcis` is the original,
 * `EpcisContext` the namespace definitions of the document's @context (for its extensions), and
 * `EpcisIndex` what queries match on.
 */
export type CapturedEvent = EventPayload & {
  Epcis: EpcisEvent;
  EpcisContext?: unknown[];
  EpcisIndex: EpcisIndex;
  /**
   * An error declaration's reversal: the row id of the event it declares (domain/epcis/declarations.ts),
   * or `applied:` and the row id of the pending declaration it applies to an event that arrived after it.
   */
  EpcisDeclarationOf?: string;
  /** An error declaration of an event the account did not hold when it was captured: that event's eventID. */
  EpcisPendingDeclaration?: string;
  /** An event that arrived after its error declaration: the row id of that declaration. */
  EpcisDeclaredBy?: string;
  /** Its CBV 2.0 event hash id (domain/epcis/event-hash.ts): what finds it and what makes a resent event a duplicate. */
  EpcisHash?: string;
};

/** What a captured event's row in epcis_originals holds: its original, its query index and match keys, its document's namespaces. */
export interface EpcisOriginal {
  id: string;
  epcis: EpcisEvent;
  index: EpcisIndex;
  keys: string[];
  context?: unknown[];
}

/** A captured event as its batch's request and its event row hold it: the original is named, not copied. */
export type StoredCapturedEvent = Omit<CapturedEvent, 'Epcis' | 'EpcisIndex' | 'EpcisContext'> & {
  EpcisOriginal: string;
};

/** What separateOriginals moves out of a captured event. */
const ORIGINAL_KEYS: ReadonlySet<string> = new Set(['Epcis', 'EpcisIndex', 'EpcisContext']);

/**
 * Each captured event's original apart, under a new id the event names (EpcisOriginal): the original and
 * its index are stored once, not in the batch's request and again in the event's payload.
 */
export function separateOriginals(
  events: readonly CapturedEvent[],
  newId: () => string,
): { events: StoredCapturedEvent[]; originals: EpcisOriginal[] } {
  const originals: EpcisOriginal[] = [];
  const stored = events.map((event): StoredCapturedEvent => {
    const id = newId();
    const { Epcis, EpcisIndex, EpcisContext } = event;
    originals.push({
      id,
      epcis: Epcis,
      index: EpcisIndex,
      keys: matchKeysOf(Epcis, EpcisIndex),
      ...(EpcisContext ? { context: EpcisContext } : {}),
    });
    // Copied key by key: an object rest (`...rest`) takes V8's slow path, several microseconds per event.
    const rest: Record<string, unknown> = {};
    for (const key of Object.keys(event)) if (!ORIGINAL_KEYS.has(key)) rest[key] = event[key as keyof CapturedEvent];
    rest.EpcisOriginal = id;
    return rest as StoredCapturedEvent;
  });
  return { events: stored, originals };
}

/** A CBV term as a bare word, anything else (a custom URI) as it is. */
export const cbvTerm = (value: string | undefined): string | null =>
  value === undefined ? null : (cbvName(value) ?? value);

/**
 * The canonical identifiers of `list` (EPCs, or quantity elements' classes) appended to `index[key]`:
 * for epcisIndexOf, per event, so a plain function, not a closure.
 */
function indexIds(index: EpcisIndex, key: MatchList, list: (string | EpcisQuantityElement)[] | undefined): void {
  if (!list?.length) return;
  const out = (index[key] ??= []);
  for (const id of list) out.push(canonicalIdentifier(typeof id === 'string' ? id : id.epcClass));
}

/** Only what an event has is indexed: the index is stored with every captured event. Runs for every captured event, so plain loops. */
function epcisIndexOf(event: EpcisEvent): EpcisIndex {
  const index: EpcisIndex = {};
  indexIds(index, 'epc', event.epcList);
  indexIds(index, 'epc', event.childEPCs);
  if (event.parentID) index.parentID = [canonicalIdentifier(event.parentID)];
  indexIds(index, 'inputEPC', event.inputEPCList);
  indexIds(index, 'outputEPC', event.outputEPCList);
  indexIds(index, 'epcClass', event.quantityList);
  indexIds(index, 'epcClass', event.childQuantityList);
  indexIds(index, 'inputEPCClass', event.inputQuantityList);
  indexIds(index, 'outputEPCClass', event.outputQuantityList);
  if (event.readPoint) index.readPoint = canonicalIdentifier(event.readPoint.id);
  if (event.bizLocation) index.bizLocation = canonicalIdentifier(event.bizLocation.id);
  const bizStep = cbvTerm(event.bizStep);
  if (bizStep) index.bizStep = bizStep;
  const disposition = cbvTerm(event.disposition);
  if (disposition) index.disposition = disposition;
  return index;
}

/** What the account already has, by the keys EPCIS identifiers map to. */
export interface EpcisKnownEntities {
  /** GTIN-14 → the product's external id and its unit (a Rec 20 code). */
  products: ReadonlyMap<string, { externalId: string; unit: string }>;
  /** `gln` or `gln/extension` → the location's external id. */
  glnLocations: ReadonlyMap<string, string>;
  /** A non-GS1 location URI → the external id of the location with that id or URN. */
  otherLocations: ReadonlyMap<string, string>;
  /** The trade partner new locations are created under: the account's own. */
  self: TradePartnerPayload;
  /** By eventID, the events the document's error declarations name. */
  declared: ReadonlyMap<string, DeclaredEvent>;
  /** By the eventID they declare, the declarations of events the account did not hold, not yet applied. */
  pendingDeclarations: ReadonlyMap<string, { rowId: string; epcis: EpcisEvent }>;
}

export interface EpcisIssue {
  index: number;
  /** JSON pointer into the captured document. */
  pointer: string;
  message: string;
}

/** Where an event without readPoint and bizLocation is recorded: EPCIS allows both to be absent. */
const UNKNOWN_LOCATION_ID = 'urn:epcis:location:unknown';

/** CBV 2.0 lets a bizStep be bare (`shipping`) or a URI; the mapping reads the bare name. */
export function cbvName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const match =
    /^(?:urn:epcglobal:cbv:(?:bizstep|disp):|https:\/\/ref\.gs1\.org\/cbv\/(?:BizStep|Disp)-)([A-Za-z_]+)$/.exec(value);
  return match ? match[1] : /^[a-z_]+$/.test(value) ? value : undefined;
}

const RECEIVING = new Set(['receiving', 'arriving', 'accepting']);
const SHIPPING = new Set(['shipping', 'departing']);

/**
 * Which of our eight types an EPCIS event is, and so what it does to inventory (README "EPCIS"):
 * ObjectEvent ADD commissions (receives, with a receiving step), OBSERVE with a shipping step ships and
 * with a receiving step receives, DELETE decommissions; TransformationEvent transforms; Aggregation and
 * Association events aggregate (ADD) or disaggregate (DELETE); everything else observes.
 */
export function internalTypeOf(event: Pick<EpcisEvent, 'type' | 'action' | 'bizStep'>): EventTypeName {
  const step = cbvName(event.bizStep);
  switch (event.type) {
    case 'ObjectEvent':
      if (event.action === 'ADD') return step && RECEIVING.has(step) ? 'receive' : 'commission';
      if (event.action === 'DELETE') return 'decommission';
      if (step && SHIPPING.has(step)) return 'ship';
      if (step && RECEIVING.has(step)) return 'receive';
      return 'observe';
    case 'TransformationEvent':
      return 'transform';
    case 'AggregationEvent':
    case 'AssociationEvent':
      if (event.action === 'ADD') return 'aggregation';
      if (event.action === 'DELETE') return 'disaggregation';
      return 'observe';
    default:
      return 'observe';
  }
}

const locationKey = (location: PhysicalLocation): string =>
  location.extension !== undefined ? `${location.gln}/${location.extension}` : location.gln;

/** The identifiers an EPCIS document names, for one lookup per kind. */
export function referencedIdentifiers(
  events: EpcisEvent[],
  hashes: string[],
): { gtins: string[]; glns: string[]; otherLocations: string[]; declared: string[]; eventIds: string[] } {
  // A declaration without an eventID names its event by its hash id (the declaration itself hashes as the event, errorDeclaration left out).
  const declared = events.flatMap((e, i) => (e.errorDeclaration ? [e.eventID ?? hashes[i]] : []));
  const eventIds = events.flatMap((e, i) => (e.errorDeclaration ? [] : [...(e.eventID ? [e.eventID] : []), hashes[i]]));
  const gtins = new Set<string>();
  const glns = new Set<string>();
  const others = new Set<string>();
  for (const event of events) {
    for (const { identifier } of identifiersOf(event)) {
      const item = tradeItemOf(identifier);
      if (item) gtins.add(item.gtin);
    }
    const where = locationIdentifierOf(event) ?? UNKNOWN_LOCATION_ID;
    const location = physicalLocationOf(where);
    if (location) glns.add(location.gln);
    else others.add(where);
  }
  return { gtins: [...gtins], glns: [...glns], otherLocations: [...others], declared, eventIds };
}

const locationIdentifierOf = (event: EpcisEvent): string | undefined => event.bizLocation?.id ?? event.readPoint?.id;

type Role = 'instances' | 'inputs' | 'outputs' | 'children';

/** A product identifier of an event, with the list it came from (`key`, at `position`) and its quantity. */
interface NamedProduct {
  role: Role;
  identifier: string;
  quantity?: number;
  uom?: string;
  key: string;
  position: number;
}

/** Where a named product sits in its event, for an issue about it. */
const linePointer = (line: NamedProduct): string => `/${line.key}/${line.position}`;

/** Where each role's products are listed: its EPCs, then its quantities. */
const PRODUCT_LISTS = [
  ['instances', 'epcList', 'quantityList'],
  ['children', 'childEPCs', 'childQuantityList'],
  ['inputs', 'inputEPCList', 'inputQuantityList'],
  ['outputs', 'outputEPCList', 'outputQuantityList'],
] as const;

/** Every product identifier an event names, with the list it came from and its quantity. */
function identifiersOf(event: EpcisEvent): NamedProduct[] {
  const out: NamedProduct[] = [];
  for (const [role, epcs, quantities] of PRODUCT_LISTS) {
    const epcList = event[epcs] ?? [];
    for (let position = 0; position < epcList.length; position++)
      out.push({ role, identifier: epcList[position], quantity: 1, key: epcs, position });
    const quantityList = event[quantities] ?? [];
    for (let position = 0; position < quantityList.length; position++) {
      const q = quantityList[position];
      out.push({ role, identifier: q.epcClass, quantity: q.quantity, uom: q.uom, key: quantities, position });
    }
  }
  return out;
}

/** GS1 CBV's `po` / `inv` business transactions are our PurchaseOrder and InvoiceNumber. */
function bizTransactionOf(event: EpcisEvent, kind: 'po' | 'inv'): string | null {
  const match = event.bizTransactionList?.find(
    (t) => t.type && (t.type === kind || t.type.endsWith(`:${kind}`) || t.type.endsWith(`BTT-${kind}`)),
  );
  return match ? match.bizTransaction.slice(0, 200) : null;
}

/**
 * Each EPCIS event as a batch-style event. An event without an eventID gets the one in `eventIds` (the
 * API assigns it before the document is stored, so a retried step sees the same one). A GTIN or GLN the
 * account does not have yet is created from what the event carries.
 */
export interface TranslationOptions {
  /** The ids of error declarations' own rows. */
  eventIds: string[];
  /** The CBV 2.0 event hash id of each event: the eventID of one sent without. */
  hashes: string[];
  /** JSON pointer of each event in the request. */
  pointerOf: (index: number) => string;
  /** The namespace definitions of the document's @context. */
  context: unknown[];
  /** What a lot or serial number and a quantity may be (the service's request limits). */
  bounds: { idLength: number; quantity: number };
}

export function translateEpcisEvents(
  events: EpcisEvent[],
  known: EpcisKnownEntities,
  { eventIds, hashes, pointerOf, context, bounds }: TranslationOptions,
) {
  const issues: EpcisIssue[] = [];
  const issue = (index: number, pointer: string, message: string) => issues.push({ index, pointer, message });
  const newProducts = new Map<string, ProductRefPayload>();
  const newLocations = new Set<string>();

  const productRef = (item: TradeItem, uom: string | undefined): ProductRefPayload => {
    const existing = known.products.get(item.gtin);
    if (existing) return { Id: existing.externalId };
    const id = tradeItemDigitalLink({ gtin: item.gtin });
    if (!newProducts.has(item.gtin)) {
      newProducts.set(item.gtin, {
        Id: id,
        Urn: id,
        Details: {
          Name: `GTIN ${item.gtin}`,
          SimpleUnitOfMeasurement: uom ?? 'EA',
          // An EPCIS client says nothing about sharing: the product discloses the least until edited.
          SharingPolicy: 'Restricted',
          ProductIdentifierType: item.serial !== undefined ? 'Serial' : 'Lot',
          GTIN: item.gtin,
        },
      });
    }
    // Every mention carries the Details: the pipeline creates on the first and finds it after.
    return newProducts.get(item.gtin)!;
  };
  /** The unit a product's quantities are kept in: its own, or the one the document creates it with. */
  const unitOfProduct = (gtin: string): string | undefined => {
    const details = newProducts.get(gtin)?.Details;
    return known.products.get(gtin)?.unit ?? (details && normaliseUnit(details.SimpleUnitOfMeasurement));
  };

  const locationRef = (index: number, event: EpcisEvent): LocationRefPayload => {
    const identifier = locationIdentifierOf(event) ?? UNKNOWN_LOCATION_ID;
    const physical = physicalLocationOf(identifier);
    if (!physical) {
      const existing = known.otherLocations.get(identifier);
      if (existing) return { Id: existing };
      if (identifier.length > bounds.idLength)
        issue(
          index,
          `${pointerOf(index)}/${event.bizLocation ? 'bizLocation' : 'readPoint'}/id`,
          `A location identifier that is no GLN becomes the location's id: at most ${bounds.idLength} characters.`,
        );
      return newLocation(
        identifier,
        identifier === UNKNOWN_LOCATION_ID
          ? 'Unknown location (EPCIS events without readPoint or bizLocation)'
          : identifier,
      );
    }
    const existing = known.glnLocations.get(locationKey(physical));
    if (existing) return { Id: existing };
    const id = locationDigitalLink(physical);
    return newLocation(
      id,
      `GLN ${physical.gln}${physical.extension !== undefined ? ` ext ${physical.extension}` : ''}`,
      physical,
    );
  };

  const newLocation = (id: string, name: string, physical?: PhysicalLocation): LocationRefPayload => {
    newLocations.add(id);
    return {
      Id: id,
      Urn: id,
      Details: {
        Name: name,
        TradePartner: known.self,
        ...(physical ? { Gln: physical.gln } : {}),
        ...(physical?.extension !== undefined ? { Extension: physical.extension } : {}),
      },
    };
  };

  const applied: CapturedEvent[] = [];
  const translated = events.map((event, index): CapturedEvent => {
    const at = pointerOf(index);
    const time = parseEventTime(event.eventTime, event.eventTimeZoneOffset);
    if (!time.ok)
      issue(
        index,
        `${at}/${time.field === 'EventTime' ? 'eventTime' : 'eventTimeZoneOffset'}`,
        time.message.replace('EventTimeZone', 'eventTimeZoneOffset').replace('EventTime', 'eventTime'),
      );
    const hash = hashes[index];
    if (event.eventID && event.eventID.length > bounds.idLength)
      issue(index, `${at}/eventID`, `An eventID is at most ${bounds.idLength} characters.`);
    if (event.errorDeclaration) {
      const key = event.eventID ?? hash;
      const declared = known.declared.get(key);
      const epcis = {
        Epcis: event,
        ...(context.length ? { EpcisContext: context } : {}),
        EpcisIndex: epcisIndexOf(event),
      };
      if (declared ? declared.declared : known.pendingDeclarations.has(key))
        issue(index, `${at}/errorDeclaration`, `Event ${key} has been declared erroneous already.`);
      if (declared)
        return { ...reversalOf(declared.payload, eventIds[index]), ...epcis, EpcisDeclarationOf: declared.rowId };
      // EPCIS records a declaration as an event: one of an event not held is kept, and applied when that event arrives.
      const pending: EventPayload = {
        $type: 'observe',
        Id: eventIds[index],
        Location: locationRef(index, event),
        EventTime: event.eventTime,
        EventTimeZone: event.eventTimeZoneOffset,
        ProductInstances: [],
      };
      // Its hash id is its event's (errorDeclaration is left out of it): EQ_eventID by that hash finds it.
      return { ...pending, ...epcis, EpcisPendingDeclaration: key, EpcisHash: hash };
    }

    const lists: Record<Role, ProductInstancePayload[]> = { instances: [], inputs: [], outputs: [], children: [] };
    for (const line of identifiersOf(event)) {
      const item = tradeItemOf(line.identifier);
      // Only trade items (GTINs) are inventory; an SSCC or a private identifier is kept in Epcis only.
      if (!item) continue;
      const lotSerial = item.serial ?? item.lot ?? '';
      if (lotSerial.length > bounds.idLength)
        issue(index, `${at}${linePointer(line)}`, `A lot or serial number is at most ${bounds.idLength} characters.`);
      const product = productRef(item, line.uom);
      const unit = line.uom === undefined ? undefined : normaliseUnit(line.uom);
      if (line.uom !== undefined && !unit)
        issue(
          index,
          `${at}${linePointer(line)}/uom`,
          `Unknown unit of measure "${line.uom}". ${unitsAcceptedMessage()}`,
        );
      // A quantity in another unit of its product's kind is read in the product's unit (22 LBR of a KGM
      // product is 9.97903214); one of another kind as it is, as before: a product created without a unit is EA.
      const productUnit = unitOfProduct(item.gtin);
      let quantity = line.quantity;
      let quantityIssue: string | undefined;
      if (line.quantity !== undefined) {
        quantityIssue =
          line.quantity >= 0 && line.quantity <= bounds.quantity
            ? quantityRefused(line.quantity)
            : `A quantity is between 0 and ${bounds.quantity}.`;
        const converted =
          !quantityIssue && unit && productUnit
            ? inProductUnit(line.quantity, unit, productUnit, bounds.quantity)
            : undefined;
        if (converted && 'problem' in converted) quantityIssue = converted.problem;
        else if (converted) quantity = converted.quantity;
      }
      if (quantityIssue) issue(index, `${at}${linePointer(line)}/quantity`, quantityIssue);
      lists[line.role].push({ Quantity: quantity ?? 0, LotSerial: lotSerial, Product: product });
    }

    const type = internalTypeOf(event);
    const payload: EventPayload = {
      $type: type,
      Id: event.eventID ?? hash,
      Location: locationRef(index, event),
      EventTime: event.eventTime,
      EventTimeZone: event.eventTimeZoneOffset,
    };
    // Absent rather than null: every byte of a captured event is stored twice (the batch, the event).
    const purchaseOrder = bizTransactionOf(event, 'po');
    const invoiceNumber = bizTransactionOf(event, 'inv');
    if (purchaseOrder) payload.PurchaseOrder = purchaseOrder;
    if (invoiceNumber) payload.InvoiceNumber = invoiceNumber;
    if (type === 'transform') {
      payload.InputProducts = lists.inputs;
      payload.OutputProducts = lists.outputs;
    } else if (type === 'aggregation' || type === 'disaggregation') {
      payload.ChildProductInstances = [...lists.children, ...lists.instances];
      const parent = event.parentID ? tradeItemOf(event.parentID) : undefined;
      if (parent) {
        payload.Product = productRef(parent, undefined);
        payload.ParentLotSerial = (parent.serial ?? parent.lot ?? '').slice(0, bounds.idLength);
      }
    } else {
      payload.ProductInstances = [...lists.instances, ...lists.children, ...lists.inputs, ...lists.outputs];
    }
    // An event sent without an eventID is named by its hash id, as CBV 2.0 says.
    const original: EpcisEvent = event.eventID ? event : { ...event, eventID: hash };
    const captured: CapturedEvent = {
      ...payload,
      Epcis: original,
      ...(context.length ? { EpcisContext: context } : {}),
      EpcisIndex: epcisIndexOf(original),
      EpcisHash: hash,
    };
    const declaration =
      (event.eventID ? known.pendingDeclarations.get(event.eventID) : undefined) ?? known.pendingDeclarations.get(hash);
    if (!declaration) return captured;
    // Its declaration came first: the event is marked by it and reversed, as if they had come in order.
    applied.push({
      ...reversalOf(payload, `urn:uuid:${uuidFromName(`${declaration.rowId}:applied`)}`),
      Epcis: declaration.epcis,
      EpcisIndex: {},
      EpcisDeclarationOf: `applied:${declaration.rowId}`,
    });
    return { ...captured, EpcisDeclaredBy: declaration.rowId };
  });

  // After the document's events, so each event keeps its index in the stored request.
  return {
    events: [...translated, ...applied],
    issues,
    // Products and locations the capture creates, by the identifier that named them (the capture job reports them).
    created: { products: [...newProducts.values()].map((p) => p.Id), locations: [...newLocations] },
  };
}
