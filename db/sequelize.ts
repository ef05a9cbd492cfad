import pg from 'pg';
import { Sequelize } from 'sequelize';
import { initModels } from './models';
import type { Droppable } from './sql';

/**
 * pg as Sequelize gets it, with a Client that listens for 'error' from its construction. Sequelize adds
 * its own listener (which drops the connection) only after connect() resolves, a microtask later: when a
 * server dies as a connection is made, its ReadyForQuery and its FATAL "terminating connection due to
 * unexpected postmaster exit" can arrive in one read, and the FATAL was emitted with no listener, which
 * ended the process (seen in CI when the self-healing test killed PostgreSQL under load).
 */
class ListeningClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {
      (this as pg.Client & Droppable)._invalid = true;
    });
  }
}
const dialectModule = { ...pg, Client: ListeningClient };

/** One pool per process; models are bound to it once. */
export function createSequelize(databaseUrl: string, poolMax = 10): Sequelize {
  const sequelize = new Sequelize(databaseUrl, {
    dialect: 'postgres',
    dialectModule,
    logging: false,
    pool: { max: poolMax, min: 0, idle: 10_000 },
    // Attributes are camelCase, columns snake_case (db/models/row.ts).
    define: { underscored: true },
  });
  initModels(sequelize);
  return sequelize;
}
