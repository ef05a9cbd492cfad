import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../runtime/config';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown> | string[];
}

const compose = parse(fs.readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
const dependsOn = (s: Service) => (Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {}));

describe('docker-compose.yml, the production shape', () => {
  it('has postgres, temporal, temporal-ui, api and worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'postgres', 'temporal', 'temporal-ui', 'worker']);
  });

  it('gives Temporal PostgreSQL persistence', () => {
    const { temporal } = compose.services;
    expect(temporal.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgres' });
    expect(dependsOn(temporal)).toContain('postgres');
    expect(compose.services['temporal-ui'].environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it.each(['api', 'worker'])('runs %s from the compiled entry point against postgres and temporal', (role) => {
    const service = compose.services[role];
    expect(service.build).toBe('.');
    expect(service.command).toEqual(['node', `dist/${role}/main.js`]);
    expect(fs.existsSync(path.join(PROJECT_ROOT, role, 'main.ts'))).toBe(true);
    expect(service.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(service.environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(dependsOn(service)).toEqual(expect.arrayContaining(['postgres', 'temporal']));
  });

  it('points the worker at the bundle `npm run build` writes', () => {
    const build = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).scripts.build as string;
    expect(build).toContain(compose.services.worker.environment?.WORKFLOW_BUNDLE_PATH);
  });
});
