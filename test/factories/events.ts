import { randomBytes } from 'node:crypto';
import type { EventPayload, EventTypeName, ProductInstancePayload } from '../../domain/events';

export const uid = (prefix: string): string => `${prefix}-${randomBytes(5).toString('hex')}`;

/** A location carried inline (DESIGN.md allows events to create their locations). */
export const location = (id: string) => ({
  Id: id,
  Details: {
    Name: `Location ${id}`,
    TradePartner: { Id: 'SELF-TP', Name: 'Our company', ConnectionType: 'SELF' as const },
    Address: { City: 'Boston', Country: 'US', AddressLine1: '1 Fish Pier' },
  },
});

/** A product carried inline, Lot-identified unless told otherwise. */
export const product = (id: string, identifierType: 'Lot' | 'Serial' = 'Lot') => ({
  Id: id,
  Details: {
    Name: `Product ${id}`,
    SimpleUnitOfMeasurement: 'kg',
    SharingPolicy: 'Open' as const,
    ProductIdentifierType: identifierType,
  },
});

export const instance = (
  productId: string,
  lotSerial: string,
  quantity: number,
  identifierType: 'Lot' | 'Serial' = 'Lot',
): ProductInstancePayload => ({
  Quantity: quantity,
  LotSerial: lotSerial,
  Product: product(productId, identifierType),
});

export interface EventOptions {
  id?: string;
  location: string;
  /** UTC, e.g. 2024-03-01T10:00:00Z. */
  time: string;
  documentIds?: string[] | null | string;
}

const base = (type: EventTypeName, options: EventOptions) => ({
  $type: type,
  Id: options.id ?? uid(type),
  Location: location(options.location),
  EventTime: options.time,
  EventTimeZone: '+00:00',
  ...(options.documentIds !== undefined ? { DocumentIds: options.documentIds } : {}),
});

export const commission = (options: EventOptions, ...instances: ProductInstancePayload[]): EventPayload =>
  ({ ...base('commission', options), ProductInstances: instances }) as EventPayload;
export const receive = (options: EventOptions, ...instances: ProductInstancePayload[]): EventPayload =>
  ({
    ...base('receive', options),
    ProductInstances: instances,
    SourceLocation: location('SUPPLIER-DOCK'),
  }) as EventPayload;
export const ship = (options: EventOptions, ...instances: ProductInstancePayload[]): EventPayload =>
  ({
    ...base('ship', options),
    ProductInstances: instances,
    DestinationLocation: location('CUSTOMER-DOCK'),
  }) as EventPayload;
export const decommission = (options: EventOptions, ...instances: ProductInstancePayload[]): EventPayload =>
  ({ ...base('decommission', options), ProductInstances: instances }) as EventPayload;
export const observe = (options: EventOptions, ...instances: ProductInstancePayload[]): EventPayload =>
  ({ ...base('observe', options), ProductInstances: instances }) as EventPayload;
export const transform = (
  options: EventOptions,
  inputs: ProductInstancePayload[],
  outputs: ProductInstancePayload[],
): EventPayload => ({ ...base('transform', options), InputProducts: inputs, OutputProducts: outputs }) as EventPayload;
export const aggregation = (
  type: 'aggregation' | 'disaggregation',
  options: EventOptions,
  parentLot: string,
  ...children: ProductInstancePayload[]
): EventPayload =>
  ({
    ...base(type, options),
    ParentLotSerial: parentLot,
    Product: product('PALLET'),
    ChildProductInstances: children,
  }) as EventPayload;
