/**
 * The production shape as docker-compose.yml defines it, read from that file: what
 * `npm run bench:production` builds, configures and runs, so the run that was measured and the compose
 * file cannot name different versions or settings (test/runtime/compose.test.ts checks the rest).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../platform/config';

interface ComposeService {
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  command?: string[] | string;
}

export const COMPOSE_FILE = path.join(PROJECT_ROOT, 'docker-compose.yml');

/** Where the admin-tools image keeps the schema files the server module ships under `schema/`. */
export const IMAGE_SCHEMA_DIR = '/etc/temporal/schema';

export interface ProductionShape {
  /** The Temporal server's version, from the `temporal` service's image tag. */
  serverVersion: string;
  /** The server's environment: its config template (DB, POSTGRES_*, DYNAMIC_CONFIG_FILE_PATH...) is filled from it. */
  serverEnvironment: Record<string, string>;
  /** The dynamic config file in this repository that the compose file mounts where DYNAMIC_CONFIG_FILE_PATH points. */
  dynamicConfigFile: string;
  /** temporal-schema's script (creates and migrates Temporal's databases) and its environment. */
  schemaScript: string;
  schemaEnvironment: Record<string, string>;
  /** temporal-setup's script (namespace, search attributes). */
  setupScript: string;
}

/** A compose command as the shell sees it: `$$` is compose's escape for a literal `$`. */
const shellScript = (service: ComposeService): string =>
  [service.command ?? []].flat().join('\n').replaceAll('$$', '$');

const tagOf = (image: string | undefined, repository: string): string => {
  const match = new RegExp(`^${repository}:(.+)$`).exec(image ?? '');
  if (!match) throw new Error(`docker-compose.yml: expected image ${repository}:<version>, got ${image}`);
  return match[1];
};

export function readProductionShape(file = COMPOSE_FILE): ProductionShape {
  const { services } = parse(fs.readFileSync(file, 'utf8')) as { services: Record<string, ComposeService> };
  const temporal = services.temporal;
  const serverEnvironment = temporal.environment ?? {};
  const mountPoint = serverEnvironment.DYNAMIC_CONFIG_FILE_PATH;
  const mount = (temporal.volumes ?? []).map((volume) => volume.split(':')).find(([, target]) => target === mountPoint);
  if (!mountPoint || !mount)
    throw new Error(
      'docker-compose.yml: the temporal service must mount its dynamic config file where DYNAMIC_CONFIG_FILE_PATH points',
    );
  return {
    serverVersion: tagOf(temporal.image, 'temporalio/server'),
    serverEnvironment,
    dynamicConfigFile: path.resolve(path.dirname(file), mount[0]),
    schemaScript: shellScript(services['temporal-schema']),
    schemaEnvironment: services['temporal-schema'].environment ?? {},
    setupScript: shellScript(services['temporal-setup']),
  };
}

/** The Go packages of the server and its SQL schema tool at `version`, and the names the images give their binaries. */
export const serverPackages = (version: string) => [
  { pkg: `go.temporal.io/server/cmd/server@v${version}`, built: 'server', binary: 'temporal-server' },
  { pkg: `go.temporal.io/server/cmd/tools/sql@v${version}`, built: 'sql', binary: 'temporal-sql-tool' },
];

/** Where `npm run bench:production` builds them (git-ignored). */
export const serverBinDir = (version: string): string => path.join(PROJECT_ROOT, '.tools', 'temporal-server', version);
