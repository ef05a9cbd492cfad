/**
 * The layers, top to bottom, and what each may import (npm run lint checks it; test/ and bench/ may import anything):
 *   supervisor, cli      the processes a person starts: npm start's supervisor, support tooling
 *   api, worker          the two processes of the production shape (api/: Koa routes and middleware alone)
 *   batches              the batch use case: submit, wait, retry, reconcile, the rejection format
 *   workflows            deterministic orchestration (activities by type only)
 *   activities           the pipeline's steps
 *   usecases             the application layer: one module per use case, typed input to typed outcome, no HTTP
 *   contract             the published HTTP contract: request and answer schemas, examples, OpenAPI operations and
 *                        document, the error catalogue; no Koa (.oxlintrc.json): api/ imports it, use cases may
 *   pipeline             what workflows and activities pass each other: contracts and the failed batch's encoding
 *   db                   models, migrations, queries, repositories
 *   platform             what every process shares: config, logger, metrics, the Temporal connection
 *   domain               pure logic, no I/O
 *   web                  the pages' browser code (bundled by api/browser-page.ts at run time, never imported); the
 *                        types of the answers it reads come from contract/ (`import type` only: .oxlintrc.json)
 */
const layer = (name, mayImport, alsoFiles = []) => ({
  name: `${name}-layer`,
  comment: `${name}/ may import only ${[...mayImport, ...alsoFiles].join(', ')} of ours`,
  severity: 'error',
  from: { path: `^${name}/` },
  to: {
    path: '^(api|contract|usecases|batches|activities|workflows|pipeline|worker|db|platform|domain|supervisor|cli|web|bench|test)/',
    pathNot: [`^(${[name, ...mayImport].join('|')})/`, ...alsoFiles.map((file) => `^${file}$`)],
  },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import cycles, type-only ones included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('web', ['contract']),
    layer('domain', []),
    layer('platform', ['domain']),
    layer('db', ['platform', 'domain']),
    layer('pipeline', ['domain']),
    layer('contract', ['platform', 'domain']),
    layer('usecases', ['contract', 'db', 'platform', 'domain']),
    layer('activities', ['usecases', 'pipeline', 'db', 'platform', 'domain']),
    layer('workflows', ['pipeline', 'activities', 'domain']),
    // The pipeline's checks, run on a refused request's other events to list every problem in one answer.
    layer(
      'batches',
      ['usecases', 'pipeline', 'workflows', 'db', 'platform', 'domain'],
      ['activities/persist/checks.ts'],
    ),
    // The API's own worker for the small sync batches it starts eagerly (API_SYNC_WORKER).
    layer(
      'api',
      ['contract', 'usecases', 'batches', 'pipeline', 'workflows', 'db', 'platform', 'domain'],
      ['worker/api-sync-worker.ts'],
    ),
    layer('worker', ['usecases', 'batches', 'pipeline', 'activities', 'workflows', 'db', 'platform', 'domain']),
    layer('cli', ['usecases', 'batches', 'db', 'platform', 'domain', 'supervisor']),
    layer('supervisor', ['worker', 'db', 'platform', 'domain']),
    {
      name: 'workflows-are-deterministic',
      comment: "workflow code (and the contracts bundled with it) runs in Temporal's sandbox: no Node built-ins",
      severity: 'error',
      from: { path: '^(workflows|pipeline)/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|\\.data|\\.tools)/' },
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
