import type { Sequelize } from 'sequelize';
import { Account } from './account';
import { ApiKey } from './api-key';
import { Batch } from './batch';
import { Document } from './document';
import { DocumentChunk } from './document-chunk';
import { Event } from './event';
import { EventDocument } from './event-document';
import { EventLine } from './event-line';
import { InventoryRecord } from './inventory-record';
import { LedgerEntry } from './ledger-entry';
import { Location } from './location';
import { Product } from './product';
import { TradePartner } from './trade-partner';

export type { BatchMode, BatchStatus } from './batch';
export { API_KEY_ROLES, type ApiKeyRole } from './api-key';
export {
  Account,
  ApiKey,
  Batch,
  Document,
  DocumentChunk,
  Event,
  EventDocument,
  EventLine,
  InventoryRecord,
  LedgerEntry,
  Location,
  Product,
  TradePartner,
};

export const MODELS = [
  Account,
  ApiKey,
  TradePartner,
  Location,
  Product,
  Document,
  DocumentChunk,
  Batch,
  Event,
  EventLine,
  EventDocument,
  InventoryRecord,
  LedgerEntry,
] as const;

export function initModels(sequelize: Sequelize): void {
  for (const model of MODELS) model.initModel(sequelize);
  ApiKey.belongsTo(Account, { foreignKey: 'accountId', as: 'account' });
}
