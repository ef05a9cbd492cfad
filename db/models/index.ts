import type { Sequelize } from 'sequelize';
import { Account } from './account';
import { ApiKey } from './api-key';
import { Batch } from './batch';
import { Document } from './document';
import { Location } from './location';
import { Product } from './product';
import { TradePartner } from './trade-partner';

export type { BatchMode, BatchStatus } from './batch';
export { API_KEY_ROLES, type ApiKeyRole } from './api-key';
export { Account, ApiKey, Batch, Document, Location, Product, TradePartner };

/** The tables the code reaches through Sequelize models; the others are read and written in SQL (db/repositories, db/queries). */
export const MODELS = [Account, ApiKey, TradePartner, Location, Product, Document, Batch] as const;

export function initModels(sequelize: Sequelize): void {
  for (const model of MODELS) model.initModel(sequelize);
}
