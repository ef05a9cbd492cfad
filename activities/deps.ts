import type { Sequelize } from 'sequelize';
import type { LedgerWriter } from '../db/repositories/ledger';
import type { Logger } from '../platform/logger';
import type { WebhookSettings } from '../platform/webhooks';

export interface ActivityDeps {
  sequelize: Sequelize;
  logger: Logger;
  urnDomain: string;
  ledger: LedgerWriter;
  /** Where notifications may go and how long they are retried; without it only public https hosts, 72 hours. */
  webhooks?: WebhookSettings;
}
