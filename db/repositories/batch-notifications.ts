import type { Sequelize, Transaction } from 'sequelize';
import { oweStreamReports } from './epcis-queries';
import { endpointsOwed, oweBatchNotifications } from './webhooks';

/**
 * Runs `finish` (the statement that writes a batch's final status) in a transaction that also owes the
 * batch's webhook notifications and its EPCIS stream subscriptions' reports. Answers with what `finish`
 * returned and the endpoints still owed a notification of the batch, to be woken after the commit: also
 * when `finish` changed nothing, so a caller that died between its commit and the wake-up, run again,
 * wakes what the first run did not.
 */
export async function finishBatch<T>(
  sequelize: Sequelize,
  batchId: string,
  finish: (transaction: Transaction) => Promise<T>,
): Promise<{ result: T; owed: string[] }> {
  const result = await sequelize.transaction(async (transaction) => {
    const finished = await finish(transaction);
    await oweBatchNotifications(sequelize, batchId, transaction);
    await oweStreamReports(sequelize, batchId, transaction);
    return finished;
  });
  return { result, owed: await endpointsOwed(sequelize, `batch:${batchId}`) };
}
