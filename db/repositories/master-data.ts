import { type CreationAttributes, type ModelStatic, type Order, type Transaction, type WhereOptions } from 'sequelize';
import {
  locationAttributes,
  locationIdOf,
  productAttributes,
  type LocationPayload,
  type ProductPayload,
  type TradePartnerPayload,
} from '../../domain/master-data';
import { locationUrn, productUrn, tradePartnerUrn } from '../../domain/urn';
import { Location, Product, TradePartner } from '../models';
import { rowOf } from '../sql';

export interface AccountRef {
  id: string;
  name: string;
}

export interface Upserted<T> {
  row: T;
  created: boolean;
}

/** A payload that contradicts what the account already has; `field` is the payload path. */
export class MasterDataConflict extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'MasterDataConflict';
  }
}

type Columns = { urn: string; [column: string]: unknown };

/**
 * Finds the (account, external id) row, or inserts it from `valuesOf()` (called only then) and reads it
 * back: concurrent requests creating the same id both end with the one row, and only the winner reports
 * `created`. A row that is neither inserted nor found met the other unique key, the URN (a caller-given
 * one already in use).
 */
async function insertOrFind<M extends TradePartner | Location | Product>(
  model: ModelStatic<M>,
  accountId: string,
  externalId: string,
  valuesOf: () => Promise<Columns> | Columns,
  transaction: Transaction | undefined,
  field: string,
): Promise<Upserted<M>> {
  const where = { accountId, externalId } as WhereOptions<M>;
  const existing = (await model.findOne({ where, transaction })) as M | null;
  if (existing) return { row: existing, created: false };
  const values = await valuesOf();
  const [attempt] = await model.bulkCreate([{ ...values, accountId, externalId } as CreationAttributes<M>], {
    ignoreDuplicates: true,
    transaction,
  });
  const row = (await model.findOne({ where, transaction })) as M | null;
  if (!row)
    throw new MasterDataConflict(
      field ? `${field}.Urn` : 'Urn',
      `URN ${values.urn} is already used by another record of this account.`,
    );
  return { row, created: row.get('id') === attempt.get('id') };
}

export async function findOrCreateTradePartner(
  account: AccountRef,
  payload: TradePartnerPayload,
  urnDomain: string,
  transaction?: Transaction,
  field = 'TradePartner',
): Promise<Upserted<TradePartner>> {
  const result = await insertOrFind(
    TradePartner,
    account.id,
    payload.Id,
    () => ({
      urn: payload.Urn ?? tradePartnerUrn(urnDomain, account.name, payload.Id),
      name: payload.Name,
      connectionType: payload.ConnectionType,
      duns: payload.Duns ?? null,
      pgln: payload.Pgln ?? null,
    }),
    transaction,
    field,
  );
  if (!result.created && result.row.name !== payload.Name) {
    throw new MasterDataConflict(
      `${field}.Name`,
      `Trade partner ${payload.Id} is named "${result.row.name}"; the request names it "${payload.Name}". A trade partner id is never reused for another organization.`,
    );
  }
  return result;
}

/** Reuses the location with this id, or creates it (and its trade partner) from the payload's Details. */
export async function findOrCreateLocation(
  account: AccountRef,
  payload: LocationPayload,
  urnDomain: string,
  transaction?: Transaction,
  field = 'Location',
): Promise<Upserted<Location>> {
  const id = locationIdOf(payload);
  if (!id) throw new MasterDataConflict(`${field}.Id`, `${field}.Id is required.`);
  return insertOrFind(
    Location,
    account.id,
    id,
    async () => {
      const partner = await findOrCreateTradePartner(
        account,
        payload.Details.TradePartner,
        urnDomain,
        transaction,
        `${field}.Details.TradePartner`,
      );
      return {
        ...locationAttributes(payload.Details),
        tradePartnerId: partner.row.id,
        urn: payload.Urn ?? locationUrn(urnDomain, account.name, id),
      };
    },
    transaction,
    field,
  );
}

/** Reuses the product with this id, or creates it from the payload's Details. */
export async function findOrCreateProduct(
  account: AccountRef,
  payload: ProductPayload,
  urnDomain: string,
  transaction?: Transaction,
  /** Empty: conflicts name fields relative to the product (events prefix the line's path). */
  field = '',
): Promise<Upserted<Product>> {
  return insertOrFind(
    Product,
    account.id,
    payload.Id,
    () => ({
      ...productAttributes(payload.Details),
      urn: payload.Urn ?? productUrn(urnDomain, account.name, payload.Id),
    }),
    transaction,
    field,
  );
}

/**
 * Creates a location that must be new: an id the account already has is a conflict, never a reuse
 * (SPEC.md: a location id is not reused). Its trade partner is found or created as for events.
 */
export async function createLocation(
  account: AccountRef,
  payload: LocationPayload,
  urnDomain: string,
  transaction?: Transaction,
  field = 'Location',
): Promise<Location> {
  const id = locationIdOf(payload);
  if (!id) throw new MasterDataConflict(`${field}.id`, `${field}.id is required.`);
  const { row, created } = await findOrCreateLocation(account, payload, urnDomain, transaction, field);
  if (!created) throw new MasterDataConflict(`${field}.id`, `Location id "${id}" already exists in this account.`);
  return row;
}

/** Creates a product that must be new: an id the account already has is a conflict. */
export async function createProduct(
  account: AccountRef,
  payload: ProductPayload,
  urnDomain: string,
  transaction?: Transaction,
  field = 'Product',
): Promise<Product> {
  const { row, created } = await findOrCreateProduct(account, payload, urnDomain, transaction, field);
  if (!created)
    throw new MasterDataConflict(`${field}.Id`, `Product id "${payload.Id}" already exists in this account.`);
  return row;
}

export interface LocationWithPartner {
  location: Location;
  tradePartner: TradePartner;
}

async function withPartners(locations: Location[], transaction?: Transaction): Promise<LocationWithPartner[]> {
  const ids = [...new Set(locations.map((location) => location.tradePartnerId))];
  const partners = new Map(
    (await TradePartner.findAll({ where: { id: ids }, transaction })).map((partner) => [partner.id, partner]),
  );
  return locations.map((location) => ({ location, tradePartner: partners.get(location.tradePartnerId)! }));
}

/** The account's row with this external id, row-locked when a transaction is given (for updates). */
const byExternalId = (accountId: string, externalId: string, transaction?: Transaction) => ({
  where: { accountId, externalId },
  transaction,
  lock: transaction ? transaction.LOCK.UPDATE : undefined,
});

/** One page in creation order, so pages stay stable while new rows are added at the end. */
const inCreationOrder = (accountId: string, offset: number, limit: number) => ({
  where: { accountId },
  order: [['seq', 'ASC']] as Order,
  offset,
  limit,
});

export async function findLocation(
  accountId: string,
  externalId: string,
  transaction?: Transaction,
): Promise<LocationWithPartner | null> {
  const location = await Location.findOne(byExternalId(accountId, externalId, transaction));
  if (!location) return null;
  const [found] = await withPartners([location], transaction);
  return found;
}

export interface Page<T> {
  rows: T[];
  total: number;
}

export async function listLocations(
  accountId: string,
  offset: number,
  limit: number,
): Promise<Page<LocationWithPartner>> {
  const { rows, count } = await Location.findAndCountAll(inCreationOrder(accountId, offset, limit));
  return { rows: await withPartners(rows), total: count };
}

export async function findProduct(
  accountId: string,
  externalId: string,
  transaction?: Transaction,
): Promise<Product | null> {
  return Product.findOne(byExternalId(accountId, externalId, transaction));
}

export async function listProducts(accountId: string, offset: number, limit: number): Promise<Page<Product>> {
  const { rows, count } = await Product.findAndCountAll(inCreationOrder(accountId, offset, limit));
  return { rows, total: count };
}

/** Whether any inventory record of the location still has units available. */
export async function hasActiveInventory(
  accountId: string,
  locationId: string,
  transaction?: Transaction,
): Promise<boolean> {
  const row = await rowOf(Location.sequelize!, transaction)<{ active: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM inventory_records WHERE account_id = $1 AND location_id = $2 AND available > 0) AS active',
    [accountId, locationId],
  );
  return row!.active;
}
