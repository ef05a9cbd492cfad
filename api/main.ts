import http from 'node:http';
import { Client } from '@temporalio/client';
import { BatchFinishedListener } from '../db/batch-finished';
import { migrateUp } from '../db/migrate';
import { RateLimits } from '../db/rate-limits';
import { createSequelize } from '../db/sequelize';
import { onEveryStatement } from '../db/sql';
import { loadConfig, requireServices } from '../platform/config';
import { createLogger } from '../platform/logger';
import { batchHealth } from '../db/queries/batch-health';
import { negativeLotCounts } from '../db/queries/inventory';
import {
  statementCounter,
  enableProcessMetrics,
  registerBatchGauges,
  registerInventoryGauges,
} from '../platform/metrics';
import { ensureSearchAttributes } from '../platform/search-attributes';
import { connectTemporalClient } from '../platform/temporal-client';
import { apiStatementStep, startApiSyncWorker } from '../worker/api-sync-worker';
import { createApp } from './app';
import { QuerySockets } from '../usecases/query-sockets';
import { routeUpgrades } from './upgrades';
import { answerClientError } from './client-errors';

const SHUTDOWN_GRACE_MS = 3000;

/** The API role alone (`npm run api`): needs DATABASE_URL and TEMPORAL_ADDRESS. */
async function main(): Promise<void> {
  const config = requireServices(loadConfig());
  const logger = createLogger(config.logLevel, 'api');
  enableProcessMetrics('api', ...(config.apiSyncWorker ? (['worker'] as const) : []));
  const sequelize = createSequelize(config.databaseUrl, 20);
  onEveryStatement(sequelize, statementCounter(apiStatementStep));
  registerBatchGauges(() => batchHealth(sequelize));
  registerInventoryGauges(() => negativeLotCounts(sequelize));
  await migrateUp(sequelize, config.databaseUrl);
  const syncWorker = config.apiSyncWorker ? await startApiSyncWorker(config, logger, sequelize) : undefined;
  const temporal = syncWorker
    ? new Client({ connection: syncWorker.connection, namespace: config.temporalNamespace })
    : await connectTemporalClient(config.temporalAddress, config.temporalNamespace);
  await ensureSearchAttributes(temporal.connection, config.temporalNamespace, logger);
  const batchFinished = new BatchFinishedListener(config.databaseUrl, logger);
  await batchFinished.start();
  const querySockets = new QuerySockets(sequelize, batchFinished, logger, config.querySocketPingSeconds * 1000);
  const rateLimits = new RateLimits(sequelize, config.failedKeysPerMinute);
  const app = createApp({
    config,
    sequelize,
    temporal,
    logger,
    batchFinished,
    querySockets,
    rateLimits,
    eagerStart: syncWorker !== undefined,
  });

  const requestTimeoutMs = config.requestTimeoutSeconds * 1000;
  const handle = app.callback();
  const server = http.createServer(
    {
      // Longer than the idle timeout of load balancers in front (60 s on most), so they never reuse a
      // connection the API has just closed; Node's default of 5 s makes such clients see resets.
      keepAliveTimeout: 65_000,
      // A client trickling its headers or body holds a connection and a file descriptor: past this it
      // gets 408 and the connection closes (Node's default waits 300 s for a body). A request received
      // in full is not limited by it (a sync batch may wait longer for its answer).
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      // How often Node looks for such requests (30 s by default, which would more than double a short timeout).
      connectionsCheckingInterval: Math.min(5000, requestTimeoutMs / 4),
    },
    // Koa's handler settles every request itself (its errors go to ctx.onerror): nothing to await here.
    (req, res) => void handle(req, res),
  );
  // Expect: 100-continue is answered by whoever reads the body (api/expect-continue.ts), not at once:
  // a request refused before its body is read then never has it sent.
  server.on('checkContinue', (req, res) => void handle(req, res));
  server.on('clientError', answerClientError);
  // Koa answers requests only; the WebSocket upgrades of EPCIS query subscriptions go through the same
  // app (its key check and errors) and are then handed to ws (api/upgrades.ts).
  routeUpgrades(server, handle);
  await new Promise<void>((resolve) => server.listen(config.port, config.apiHost, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info(
    {
      port,
      url: `http://127.0.0.1:${port}`,
      docs: `http://127.0.0.1:${port}/docs`,
      metrics: `http://127.0.0.1:${port}/metrics`,
    },
    'API listening',
  );
  process.send?.({ type: 'ready', role: 'api', port });

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'API shutting down');
    const closed = new Promise((resolve) => server.close(resolve));
    // Upgraded connections are no longer the server's to close: their sockets are told to reconnect.
    querySockets.stop(SHUTDOWN_GRACE_MS);
    // Keep-alive connections would otherwise hold close() for keepAliveTimeout (65 s), and an open
    // request (a sync batch, a slow upload) for as long as it takes: a stop must not wait on clients.
    server.closeIdleConnections();
    const force = setTimeout(() => {
      logger.warn({ graceMs: SHUTDOWN_GRACE_MS }, 'closing the connections still open after the grace period');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    await closed;
    clearTimeout(force);
    await batchFinished.stop();
    await syncWorker?.stop();
    await temporal.connection.close();
    await sequelize.close();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void shutdown(signal));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
