import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../platform/config';
import { createSearchAttributesCommand, SEARCH_ATTRIBUTES } from '../../platform/search-attributes';
import { DEV_SERVER_DYNAMIC_CONFIG } from '../../supervisor/temporal';
import { IMAGE_SCHEMA_DIR, readProductionShape, serverBinDir, serverPackages } from '../../bench/production/shape';

interface Service {
  image?: string;
  build?: string;
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string>;
  configs?: { source: string; target: string }[];
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: string[];
  cpu_shares?: number;
}

const compose = parse(fs.readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  configs?: Record<string, { content?: string }>;
};
const { services } = compose;
const dependsOn = (s: Service) => (Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {}));
const conditionOf = (s: Service, on: string) =>
  Array.isArray(s.depends_on) ? undefined : s.depends_on?.[on]?.condition;
const script = (s: Service) => [s.entrypoint ?? [], s.command ?? []].flat().join('\n');

describe('docker-compose.yml, the production shape', () => {
  it('has postgres, Temporal with its two one-shot set-up services and its UI, api and two workers', () => {
    expect(Object.keys(services).sort()).toEqual([
      'api',
      'interactive-worker',
      'postgres',
      'temporal',
      'temporal-schema',
      'temporal-setup',
      'temporal-ui',
      'worker',
    ]);
  });

  it('uses the current Temporal images, not the deprecated auto-setup', () => {
    expect(services.temporal.image).toMatch(/^temporalio\/server:\d/);
    expect(services['temporal-schema'].image).toMatch(/^temporalio\/admin-tools:\d/);
    expect(services['temporal-setup'].image).toMatch(/^temporalio\/admin-tools:\d/);
    expect(Object.values(services).map((s) => s.image ?? '')).not.toContainEqual(expect.stringContaining('auto-setup'));
  });

  it('gives Temporal PostgreSQL persistence, its schema set up before the server starts', () => {
    const { temporal } = services;
    const schema = services['temporal-schema'];
    expect(temporal.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgres' });
    expect(conditionOf(schema, 'postgres')).toBe('service_healthy');
    expect(conditionOf(temporal, 'temporal-schema')).toBe('service_completed_successfully');
    for (const database of ['temporal', 'temporal_visibility']) {
      expect(script(schema)).toMatch(
        new RegExp(
          `setup ${database} /etc/temporal/schema/postgresql/v12/${database === 'temporal' ? 'temporal' : 'visibility'}/versioned`,
        ),
      );
    }
    expect(script(schema)).toContain('setup-schema -v 0.0');
    expect(script(schema)).toContain('update-schema -d');
    expect(services['temporal-ui'].environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it("offers no Reset in the production Temporal UI: it cannot run a batch again (a batch's retry does)", () => {
    expect(String(services['temporal-ui'].environment?.TEMPORAL_WORKFLOW_RESET_DISABLED)).toBe('true');
  });

  it("creates, once the server answers, the roles' namespace and every search attribute platform/search-attributes.ts defines", () => {
    const setup = services['temporal-setup'];
    expect(conditionOf(setup, 'temporal')).toBe('service_healthy');
    expect(setup.environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
    const namespaces = new Set(
      ['api', 'worker', 'interactive-worker'].map((role) => services[role].environment?.TEMPORAL_NAMESPACE),
    );
    expect([...namespaces]).toEqual(['default']);
    expect(script(setup)).toContain('temporal operator namespace create --namespace default');
    expect(script(setup)).toContain(createSearchAttributesCommand('default'));
    for (const key of SEARCH_ATTRIBUTES) expect(script(setup)).toContain(`--name ${key.name}`);
  });

  it.each(['api', 'worker'])(
    'runs %s from the compiled entry point, after postgres is healthy and Temporal is set up',
    (role) => {
      const service = services[role];
      expect(service.build).toBe('.');
      expect(service.command).toEqual(['node', `dist/${role}/main.js`]);
      expect(fs.existsSync(path.join(PROJECT_ROOT, role, 'main.ts'))).toBe(true);
      expect(service.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(service.environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
      expect(dependsOn(service).sort()).toEqual(['postgres', 'temporal-setup']);
      expect(conditionOf(service, 'postgres')).toBe('service_healthy');
      expect(conditionOf(service, 'temporal-setup')).toBe('service_completed_successfully');
    },
  );

  it('runs the interactive and the bulk worker as the worker role, the bulk one with a smaller CPU share', () => {
    const [interactive, bulk] = [services['interactive-worker'], services.worker];
    expect(interactive.environment?.WORKER_ROLE).toBe('interactive');
    expect(bulk.environment?.WORKER_ROLE).toBe('bulk');
    for (const service of [interactive, bulk]) expect(service.command).toEqual(['node', 'dist/worker/main.js']);
    expect({ ...interactive, environment: undefined, cpu_shares: undefined }).toEqual({
      ...bulk,
      environment: undefined,
      cpu_shares: undefined,
    });
    expect({ ...interactive.environment, WORKER_ROLE: undefined }).toEqual({
      ...bulk.environment,
      WORKER_ROLE: undefined,
    });
    expect(bulk.cpu_shares).toBeLessThan(interactive.cpu_shares!);
  });

  it.each(['worker', 'interactive-worker', 'api'])(
    'points the %s (which runs workflows) at the bundle `npm run build` writes',
    (name) => {
      const build = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).scripts
        .build as string;
      expect(services[name].environment?.WORKFLOW_BUNDLE_PATH).toBeTruthy();
      expect(build).toContain(services[name].environment?.WORKFLOW_BUNDLE_PATH);
    },
  );

  describe('names the Temporal server `npm run bench:production` builds, configures and measures', () => {
    const shape = readProductionShape();

    it('runs one Temporal version in the server and both admin-tools services, the one the bench builds from source', () => {
      expect(shape.serverVersion).toMatch(/^1\.32\.\d+$/);
      for (const name of ['temporal-schema', 'temporal-setup'])
        expect(services[name].image).toBe(`temporalio/admin-tools:${shape.serverVersion}`);
      expect(serverPackages(shape.serverVersion).map((p) => p.pkg)).toEqual([
        `go.temporal.io/server/cmd/server@v${shape.serverVersion}`,
        `go.temporal.io/server/cmd/tools/sql@v${shape.serverVersion}`,
      ]);
      expect(serverBinDir(shape.serverVersion)).toContain(path.join('.tools', 'temporal-server', shape.serverVersion));
    });

    it("mounts the repository's dynamic config where the server reads it, with eager activity dispatch on as in the dev server", () => {
      const { temporal } = services;
      const target = temporal.environment?.DYNAMIC_CONFIG_FILE_PATH;
      expect(temporal.volumes).toContain(`./${path.relative(PROJECT_ROOT, shape.dynamicConfigFile)}:${target}:ro`);
      const dynamic = parse(fs.readFileSync(shape.dynamicConfigFile, 'utf8')) as Record<
        string,
        { value: unknown; constraints?: object }[]
      >;
      expect(dynamic['system.enableActivityEagerExecution']).toEqual([{ value: true }]);
      const values = Object.fromEntries(Object.entries(dynamic).map(([key, [setting]]) => [key, setting.value]));
      expect(values).toEqual(DEV_SERVER_DYNAMIC_CONFIG);
    });

    it('gives temporal-sql-tool its connection from the environment, so the bench runs the same script against its own PostgreSQL', () => {
      const schema = services['temporal-schema'];
      expect(schema.environment).toMatchObject({
        SQL_PLUGIN: 'postgres12',
        SQL_HOST: 'postgres',
        SQL_PORT: '5432',
        SQL_USER: 'traceability',
      });
      expect(shape.schemaScript).not.toMatch(/--ep |--endpoint|--plugin|-p 5432/);
      expect(shape.schemaScript).toContain(`${IMAGE_SCHEMA_DIR}/postgresql/v12/`);
      expect(shape.schemaScript).not.toContain('$$');
    });
  });
});
