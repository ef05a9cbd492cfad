import type { Sequelize } from 'sequelize';
import type { LedgerWriter } from '../db/repositories/ledger';
import type { Logger } from '../platform/logger';

export interface ActivityDeps {
  sequelize: Sequelize;
  logger: Logger;
  urnDomain: string;
  ledger: LedgerWriter;
}
