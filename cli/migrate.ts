import { createMigrator } from '../db/migrate';
import { run, withDatabase } from './database';

/**
 * `npm run migrate` applies pending migrations (withDatabase does that) to DATABASE_URL or the running
 * service's database; `-- down` reverts the last one.
 */
run(async () => {
  await withDatabase(async (sequelize) => {
    if (process.argv[2] === 'down') {
      const reverted = await (await createMigrator(sequelize)).down();
      console.log(reverted.length ? `reverted ${reverted.map((m) => m.name).join(', ')}` : 'nothing to revert');
    } else {
      const executed = await (await createMigrator(sequelize)).executed();
      console.log(`schema up to date (${executed.length} migrations applied)`);
    }
  });
});
