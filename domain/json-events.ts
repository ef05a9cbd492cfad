/**
 * URN-based events (SPEC.md "Event: URN-based shape", POST /Integration/JSON) and their translation
 * into the batch-style EventPayload the pipeline already runs: entities are named by URN, and the
 * translation turns each URN into the external id the pipeline looks entities up by. Pure: what the
 * account already has is passed in.
 */
import type { BatchErrorCode } from './batch-errors';
import { quantityRefused } from './decimal';
import { glnProblem, gtinProblem } from './gs1-keys';
import { vocabularyIssue, isUrn } from './cbv';
import { parseEventTime, type EventPayload, type ProductInstancePayload, type ProductRefPayload } from './events';
import type {
  AddressPayload,
  ConnectionType,
  LocationPayload,
  ProductDetailsPayload,
  TradePartnerPayload,
} from './master-data';
import { inProductUnit, normaliseUnit, unitsAcceptedMessage } from './units';
import { LIMITS } from './schemas/limits';
import { sha256Hex } from './hashing';

export const JSON_EVENT_TYPES = ['commission', 'transform'] as const;
export type JsonEventType = (typeof JSON_EVENT_TYPES)[number];
/** What a new product needs: the ParentProduct fields that create it. */
const PRODUCT_DETAILS = ['Name', 'SimpleUnitOfMeasurement', 'SharingPolicy', 'ProductIdentifierType'] as const;

export interface JsonTradePartner {
  Urn: string;
  TradePartnerId?: string | null;
  Name?: string;
  Pgln?: string | null;
  ConnectionType?: ConnectionType;
}

export interface JsonLocation {
  Urn: string;
  TradePartnerUrn?: string | null;
  Name?: string;
  Gln?: string | null;
  Address?: AddressPayload | null;
}

export interface JsonParentProduct extends Partial<Pick<ProductDetailsPayload, (typeof PRODUCT_DETAILS)[number]>> {
  Urn: string;
  UnitQuantity?: number | null;
  UnitDescriptor?: ProductDetailsPayload['UnitDescriptor'] | null;
  Gtin?: string | null;
  ProductMasterData?: { Name: string; Namespace: string; Value: string; ElementId?: string | null }[] | null;
}

export interface JsonProductInstance {
  Quantity: number;
  LotSerial: string;
  Urn?: string | null;
  /** A unit code, or (as SPEC.md's transform example sends) a number: see uomIssue. */
  UOM?: string | number | null;
  Gtin?: string | null;
  ParentProduct: JsonParentProduct;
  TradePartnerName?: string | null;
  IdentifierType?: string | null;
}

export interface JsonEvent {
  $type: JsonEventType;
  ExternalEventId: string;
  Location: JsonLocation;
  TradePartner?: JsonTradePartner | null;
  Urn?: string | null;
  PurchaseOrder?: string | null;
  InvoiceNumber?: string | null;
  BizStep?: string | null;
  ReadPoint?: unknown;
  Disposition?: string | null;
  EventTime: string;
  EventTimeZone?: string | null;
  RecordTime?: string | null;
  CustomProperties?: unknown[] | null;
  CertificationList?: unknown[] | null;
  VesselCatchInformation?: unknown;
  ProductInstances?: JsonProductInstance[];
  InputProducts?: JsonProductInstance[];
  OutputProducts?: JsonProductInstance[];
}

/** What the account already has under a referenced URN (matched by urn, or by an external id equal to it). */
export interface KnownEntities {
  /** With the product's unit, a Rec 20 code. */
  products: ReadonlyMap<string, { externalId: string | null; unit: string }>;
  locations: ReadonlyMap<string, { externalId: string | null }>;
  tradePartners: ReadonlyMap<string, { externalId: string | null; name: string; connectionType: ConnectionType }>;
}

/** Shaped like the pipeline's BatchError, so one list reports both. */
export interface JsonEventIssue {
  index: number;
  eventId: string | null;
  code: Extract<BatchErrorCode, 'Required' | 'InvalidValue' | 'UnknownProduct' | 'UnknownLocation'>;
  field: string;
  message: string;
}

export type EntityStatus = 'Created' | 'Skipped';

export interface EntityRef {
  urn: string;
  /** The external id the pipeline stores or finds the entity under. */
  externalId: string;
  status: EntityStatus;
}

/**
 * A translated event: the pipeline's EventPayload plus the URN-based fields it does not read, kept
 * verbatim so the stored payload (events.payload) holds them (BizStep, certifications, ...).
 */
export type TranslatedEvent = EventPayload &
  Pick<
    JsonEvent,
    'Urn' | 'BizStep' | 'Disposition' | 'ReadPoint' | 'RecordTime' | 'VesselCatchInformation' | 'TradePartner'
  >;

export type Translation = ReturnType<typeof translateJsonEvents>;

/** The URNs a request names, for one lookup per kind; trade partners also by their TradePartnerId. */
export function referencedUrns(events: JsonEvent[]) {
  const products = new Set<string>();
  const locations = new Set<string>();
  const tradePartners = new Map<string, string | null>();
  const addPartner = (urn: string | null | undefined, id: string | null | undefined) => {
    if (urn && (!tradePartners.has(urn) || (id && !tradePartners.get(urn)))) tradePartners.set(urn, id ?? null);
  };
  for (const event of events) {
    locations.add(event.Location.Urn);
    addPartner(event.Location.TradePartnerUrn, null);
    addPartner(event.TradePartner?.Urn, event.TradePartner?.TradePartnerId);
    for (const [, instances] of instanceLists(event))
      for (const instance of instances) products.add(instance.ParentProduct.Urn);
  }
  return {
    products: [...products],
    locations: [...locations],
    tradePartners: [...tradePartners].map(([urn, id]) => ({ urn, id })),
  };
}

type InstanceList = 'ProductInstances' | 'InputProducts' | 'OutputProducts';

function instanceLists(event: JsonEvent): [InstanceList, JsonProductInstance[]][] {
  return event.$type === 'commission'
    ? [['ProductInstances', event.ProductInstances ?? []]]
    : [
        ['InputProducts', event.InputProducts ?? []],
        ['OutputProducts', event.OutputProducts ?? []],
      ];
}

/**
 * A product instance's quantity in its product's unit (SimpleUnitOfMeasurement). A number in UOM (SPEC.md's
 * transform example sends one) is not a unit, so it is ignored. A unit of the product's kind converts (22
 * LBR of a KGM product is 9.97903214); one of another kind would be misread, so it is refused.
 */
export function quantityInProductUnit(
  instance: Pick<JsonProductInstance, 'UOM' | 'Quantity'>,
  productUnit: string,
): { quantity: number } | { problem: string } {
  const { UOM: uom, Quantity: quantity } = instance;
  if (typeof uom !== 'string' || !uom.trim()) return { quantity };
  const unit = normaliseUnit(uom);
  if (!unit) return { problem: `Unknown unit of measure "${uom}". ${unitsAcceptedMessage()}` };
  return (
    inProductUnit(quantity, unit, productUnit, LIMITS.quantity) ?? {
      problem: `UOM "${uom}" (${unit}) is not of the kind of the product's unit ${productUnit}: send the quantity in ${productUnit}.`,
    }
  );
}

const hasProductDetails = (p: JsonParentProduct): boolean =>
  PRODUCT_DETAILS.every((k) => p[k] !== undefined && p[k] !== '');
const hasPartnerDetails = (
  p: JsonTradePartner | null | undefined,
): p is JsonTradePartner & { Name: string; ConnectionType: ConnectionType } => !!p && !!p.Name && !!p.ConnectionType;

function productDetails(p: JsonParentProduct, instanceGtin: string | null | undefined): ProductDetailsPayload {
  const gtin = p.Gtin || instanceGtin || undefined;
  return {
    Name: p.Name!,
    SimpleUnitOfMeasurement: p.SimpleUnitOfMeasurement!,
    SharingPolicy: p.SharingPolicy!,
    ProductIdentifierType: p.ProductIdentifierType!,
    ...(p.UnitQuantity != null ? { UnitQuantity: p.UnitQuantity } : {}),
    ...(p.UnitDescriptor ? { UnitDescriptor: p.UnitDescriptor } : {}),
    ...(gtin ? { GTIN: gtin } : {}),
    ...(p.ProductMasterData?.length
      ? { MasterData: p.ProductMasterData.map((m) => ({ name: m.Name, namespace: m.Namespace, value: m.Value })) }
      : {}),
  };
}

/** EventTimeZone may be left out when EventTime carries its offset: the offset is the zone. */
function zoneOf(event: JsonEvent): string | undefined {
  if (event.EventTimeZone) return event.EventTimeZone;
  return /(Z|[+-]\d{2}:?\d{2})$/i.exec(event.EventTime ?? '')?.[1];
}

/** Keeps first-seen order and the first status of every URN. */
class EntityList {
  private readonly refs = new Map<string, EntityRef>();
  add(urn: string, externalId: string, status: EntityStatus) {
    if (!this.refs.has(urn)) this.refs.set(urn, { urn, externalId, status });
  }
  has = (urn: string) => this.refs.has(urn);
  list = (): EntityRef[] => [...this.refs.values()];
}

/**
 * Every URN-based event as the batch-style payload, with the problems found on the way. A known URN
 * becomes its entity's external id (`Skipped`); an unknown one carries Details built from the inline
 * data with the URN as both external id and URN (`Created`), so the pipeline creates it in the batch's
 * transaction and later requests find it by either. An unknown URN without enough inline data anywhere
 * in the request is an issue naming it.
 */
export function translateJsonEvents(events: JsonEvent[], known: KnownEntities) {
  const issues: JsonEventIssue[] = [];
  const add = (index: number, code: JsonEventIssue['code'], field: string, message: string) =>
    issues.push({ index, eventId: events[index].ExternalEventId ?? null, code, field, message });
  const products = new EntityList();
  const locations = new EntityList();
  const tradePartners = new EntityList();

  // Inline data may come with any mention of a URN in the request; the first complete one is used.
  const productData = new Map<string, { parent: JsonParentProduct; gtin: string | null | undefined }>();
  const locationData = new Map<string, JsonLocation>();
  const partnerData = new Map<string, JsonTradePartner & { Name: string; ConnectionType: ConnectionType }>();
  for (const event of events) {
    if (event.Location.Name && !locationData.has(event.Location.Urn))
      locationData.set(event.Location.Urn, event.Location);
    const partner = event.TradePartner;
    if (hasPartnerDetails(partner) && !partnerData.has(partner.Urn)) partnerData.set(partner.Urn, partner);
    for (const [, instances] of instanceLists(event)) {
      for (const { ParentProduct: parent, Gtin } of instances) {
        if (hasProductDetails(parent) && !productData.has(parent.Urn))
          productData.set(parent.Urn, { parent, gtin: Gtin });
      }
    }
  }

  const partnerPayload = (urn: string, issue: IssueSink): TradePartnerPayload | undefined => {
    const stored = known.tradePartners.get(urn);
    if (stored?.externalId) {
      tradePartners.add(urn, stored.externalId, 'Skipped');
      return { Id: stored.externalId, Name: stored.name, ConnectionType: stored.connectionType };
    }
    const inline = partnerData.get(urn);
    if (stored || !inline || !isUrn(urn)) return undefined;
    if (!inline.TradePartnerId && urn.length > LIMITS.idLength)
      issue(
        'InvalidValue',
        'TradePartner.Urn',
        `TradePartner.Urn of a new trade partner without a TradePartnerId becomes its id, which is at most ${LIMITS.idLength} characters; send a TradePartnerId.`,
      );
    const key = checkedKey(urn);
    const id = inline.TradePartnerId || key;
    tradePartners.add(urn, id, 'Created');
    return {
      Id: id,
      Urn: key,
      Name: inline.Name,
      ConnectionType: inline.ConnectionType,
      ...(inline.Pgln ? { Pgln: inline.Pgln } : {}),
    };
  };

  const translated = events.map((event, index): TranslatedEvent => {
    const issue: IssueSink = (code, field, message) => add(index, code, field, message);

    const zone = zoneOf(event);
    const time = parseEventTime(event.EventTime, zone);
    if (!time.ok)
      issue(
        zone === undefined && time.field === 'EventTimeZone' ? 'Required' : 'InvalidValue',
        time.field,
        time.message,
      );
    for (const kind of ['BizStep', 'Disposition'] as const) {
      const value = event[kind];
      const problem = value ? vocabularyIssue(kind, value) : undefined;
      if (problem) issue('InvalidValue', kind, problem);
    }

    const location = translateLocation(event, known, locationData, locations, partnerPayload, issue);

    const lists: Partial<Record<InstanceList, ProductInstancePayload[]>> = {};
    for (const [list, instances] of instanceLists(event)) {
      lists[list] = instances.map((instance, position) => {
        const field = `${list}[${position}]`;
        const urn = instance.ParentProduct.Urn;
        const stored = known.products.get(urn);
        const inline = productData.get(urn);
        let product: ProductRefPayload = { Id: urn };
        let unit: string | undefined;
        if (stored) {
          if (!stored.externalId)
            issue(
              'InvalidValue',
              `${field}.ParentProduct.Urn`,
              `Product ${urn} has no external id and cannot be used in events.`,
            );
          else products.add(urn, stored.externalId, 'Skipped');
          product = { Id: stored.externalId ?? urn };
          unit = stored.unit;
        } else if (inline) {
          const problem = newUrnProblem('ParentProduct.Urn', 'product', urn);
          if (problem) issue('InvalidValue', `${field}.ParentProduct.Urn`, problem);
          products.add(urn, urn, 'Created');
          const details = productDetails(inline.parent, inline.gtin);
          const gtin = details.GTIN ? gtinProblem(details.GTIN) : null;
          if (gtin) issue('InvalidValue', `${field}.${inline.parent.Gtin ? 'ParentProduct.Gtin' : 'Gtin'}`, gtin);
          const key = checkedKey(urn);
          // Every mention carries the Details: the pipeline creates on the first and finds it after.
          product = { Id: key, Urn: key, Details: details };
          unit = normaliseUnit(details.SimpleUnitOfMeasurement);
          if (!unit)
            issue(
              'InvalidValue',
              `${field}.ParentProduct.SimpleUnitOfMeasurement`,
              `Unknown unit of measure "${details.SimpleUnitOfMeasurement}". ${unitsAcceptedMessage()}`,
            );
        } else {
          issue(
            'UnknownProduct',
            `${field}.ParentProduct`,
            `Product ${urn} does not exist in this account and the request carries no ParentProduct with Name, SimpleUnitOfMeasurement, SharingPolicy and ProductIdentifierType to create it.`,
          );
        }
        const quantityProblem = quantityRefused(instance.Quantity);
        if (quantityProblem) issue('InvalidValue', `${field}.Quantity`, quantityProblem);
        const inUnit = unit && !quantityProblem ? quantityInProductUnit(instance, unit) : undefined;
        if (inUnit && 'problem' in inUnit) issue('InvalidValue', `${field}.UOM`, inUnit.problem);
        const { ParentProduct: _parent, ...rest } = instance;
        // Converted, the instance says the unit it is now in.
        const converted = inUnit && 'quantity' in inUnit && inUnit.quantity !== instance.Quantity;
        return { ...rest, ...(converted ? { Quantity: inUnit.quantity, UOM: unit } : {}), Product: product };
      });
    }

    return {
      $type: event.$type,
      Id: event.ExternalEventId,
      Location: location,
      EventTime: event.EventTime,
      EventTimeZone: zone ?? '',
      PurchaseOrder: event.PurchaseOrder ?? null,
      InvoiceNumber: event.InvoiceNumber ?? null,
      ...(event.CustomProperties ? { CustomProperties: event.CustomProperties } : {}),
      ...(event.CertificationList ? { CertificationList: event.CertificationList } : {}),
      Urn: event.Urn ?? null,
      BizStep: event.BizStep ?? null,
      Disposition: event.Disposition ?? null,
      ReadPoint: event.ReadPoint ?? null,
      RecordTime: event.RecordTime ?? null,
      VesselCatchInformation: event.VesselCatchInformation ?? null,
      TradePartner: event.TradePartner ?? null,
      ...lists,
    };
  });
  // An event's own TradePartner is stored only as the owner of a new location (the pipeline creates
  // trade partners with their locations); checked once every location of the request is known.
  events.forEach((event, index) => {
    const urn = event.TradePartner?.Urn;
    // A location that could not be resolved is reported already; its owner would only repeat it.
    if (!urn || tradePartners.has(urn) || !locations.has(event.Location.Urn)) return;
    const stored = known.tradePartners.get(urn);
    if (stored?.externalId) tradePartners.add(urn, stored.externalId, 'Skipped');
    else
      add(
        index,
        'InvalidValue',
        'TradePartner.Urn',
        `Trade partner ${urn} is new to the account and owns no new location of the request; create it with a location (POST /Integration/Locations or a new Location here).`,
      );
  });
  issues.sort((a, b) => a.index - b.index);
  return {
    events: translated,
    issues,
    products: products.list(),
    locations: locations.list(),
    tradePartners: tradePartners.list(),
  };
}

type IssueSink = (code: JsonEventIssue['code'], field: string, message: string) => void;

/**
 * What a new record is checked under: its URN, unless that is too long to be a key (refused already, so
 * nothing is stored). Then a stand-in that fits the index, the same at every mention, so the checks read
 * the other events as if it were fine.
 */
const checkedKey = (urn: string): string =>
  urn.length <= LIMITS.idLength ? urn : `${urn.slice(0, 100)}…${sha256Hex(urn).slice(0, 16)}`;

/** A new record keeps its URN and is named by it as by an id, which events and lookups bound. */
function newUrnProblem(field: string, record: string, urn: string): string | undefined {
  if (!isUrn(urn))
    return `${field} "${urn}" is not a URN (urn:<nid>:<nss>); a new ${record} keeps the URN it is sent with.`;
  if (urn.length > LIMITS.idLength)
    return `${field} of a new ${record} becomes its id, which is at most ${LIMITS.idLength} characters; this one has ${urn.length}.`;
  return undefined;
}

/** Location.Urn as a batch-style location reference; a new location's owner is its TradePartnerUrn, else the event's TradePartner. */
function translateLocation(
  event: JsonEvent,
  known: KnownEntities,
  inlineData: ReadonlyMap<string, JsonLocation>,
  locations: EntityList,
  partnerPayload: (urn: string, issue: IssueSink) => TradePartnerPayload | undefined,
  issue: IssueSink,
): LocationPayload | { Id: string } {
  const urn = event.Location.Urn;
  const stored = known.locations.get(urn);
  if (stored) {
    if (!stored.externalId)
      issue('InvalidValue', 'Location.Urn', `Location ${urn} has no external id and cannot be used in events.`);
    else locations.add(urn, stored.externalId, 'Skipped');
    return { Id: stored.externalId ?? urn };
  }
  const inline = inlineData.get(urn);
  if (!inline) {
    issue(
      'UnknownLocation',
      'Location',
      `Location ${urn} does not exist in this account and the request carries no Location with a Name to create it.`,
    );
    return { Id: urn };
  }
  const partnerUrn = inline.TradePartnerUrn || event.TradePartner?.Urn;
  if (!partnerUrn) {
    issue(
      'Required',
      'Location.TradePartnerUrn',
      `Location ${urn} is new to the account; Location.TradePartnerUrn (or a TradePartner) is required to create it.`,
    );
    return { Id: urn };
  }
  const partner = partnerPayload(partnerUrn, issue);
  if (!partner) {
    issue(
      'Required',
      'TradePartner',
      `Trade partner ${partnerUrn} of new location ${urn} is new to the account; send TradePartner with its Urn, Name and ConnectionType.`,
    );
    return { Id: urn };
  }
  const problem = newUrnProblem('Location.Urn', 'location', urn);
  if (problem) issue('InvalidValue', 'Location.Urn', problem);
  const gln = inline.Gln ? glnProblem(inline.Gln) : null;
  if (gln) issue('InvalidValue', 'Location.Gln', gln);
  locations.add(urn, urn, 'Created');
  const key = checkedKey(urn);
  return {
    Id: key,
    Urn: key,
    Details: {
      Name: inline.Name!,
      TradePartner: partner,
      ...(inline.Gln ? { Gln: inline.Gln } : {}),
      ...(inline.Address ? { Address: inline.Address } : {}),
    },
  };
}

/**
 * A pipeline error's field, named as the URN-based request names it: the pipeline saw the translated
 * payload (Id, Location.Details, Product), the caller sent ExternalEventId, Location, ParentProduct.
 */
export function jsonFieldOf(field: string | null): string | null {
  if (field === null) return null;
  return field
    .replace(/^Id$/, 'ExternalEventId')
    .replace(/^Location\.Id$/, 'Location.Urn')
    .replace(/^Location\.Details\.TradePartner\b/, 'TradePartner')
    .replace(/^Location\.Details\b/, 'Location')
    .replace(/\.Product\.Id$/, '.ParentProduct.Urn')
    .replace(/\.Product\.Details\b/, '.ParentProduct')
    .replace(/\.Product$/, '.ParentProduct');
}
