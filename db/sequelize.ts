import { Sequelize } from 'sequelize';
import { initModels } from './models';

/** One pool per process; models are bound to it once. */
export function createSequelize(databaseUrl: string, poolMax = 10): Sequelize {
  const sequelize = new Sequelize(databaseUrl, {
    dialect: 'postgres',
    logging: false,
    pool: { max: poolMax, min: 0, idle: 10_000 },
  });
  initModels(sequelize);
  return sequelize;
}
