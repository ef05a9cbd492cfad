/**
 * The tests in layers, each a jest project with only the setup its layer needs (`npm run test:fast` runs
 * the first three; `npm test` all four):
 *   domain      pure rules: no setup at all
 *   activities  the pipeline's steps with MockActivityEnvironment, and the use cases (usecases/) called directly,
 *               on a PostgreSQL of their own (test/helpers/postgres-setup.ts)
 *   workflows   workflow code with stub activities, on Temporal's time-skipping test server or the dev server, and
 *               the worker's own wiring (test/workflows/, test/worker/; test/helpers/workflow-setup.ts)
 *   stack       everything else: one PostgreSQL, Temporal dev server, worker and API per run (test/helpers/global-setup.ts)
 * A project's setup runs only when one of its files is selected: `npx jest test/domain/gln.test.ts` starts nothing.
 */
const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
};

const FAST = ['domain', 'activities', 'usecases', 'workflows', 'worker'];

module.exports = {
  testTimeout: 60000,
  maxWorkers: 2,
  testSequencer: '<rootDir>/test/helpers/sequencer.js',
  projects: [
    { ...shared, displayName: 'domain', roots: ['<rootDir>/test/domain'] },
    {
      ...shared,
      displayName: 'activities',
      roots: ['<rootDir>/test/activities', '<rootDir>/test/usecases'],
      globalSetup: '<rootDir>/test/helpers/postgres-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/postgres-teardown.ts',
      setupFiles: ['<rootDir>/test/helpers/quiet-runtime.ts', '<rootDir>/test/helpers/layer-database.ts'],
    },
    {
      ...shared,
      displayName: 'workflows',
      roots: ['<rootDir>/test/workflows', '<rootDir>/test/worker'],
      globalSetup: '<rootDir>/test/helpers/workflow-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/workflow-teardown.ts',
      setupFiles: ['<rootDir>/test/helpers/quiet-runtime.ts'],
    },
    {
      ...shared,
      displayName: 'stack',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: [`<rootDir>/test/(${FAST.join('|')})/`],
      globalSetup: '<rootDir>/test/helpers/global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
    },
  ],
};
