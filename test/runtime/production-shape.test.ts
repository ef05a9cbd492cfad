import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import type { Sequelize } from 'sequelize';
import { createApiKey } from '../../db/repositories/accounts';
import { createSequelize } from '../../db/sequelize';
import { PROJECT_ROOT } from '../../platform/config';
import { freePort, waitFor } from '../../platform/net';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../supervisor/postgres';
import {
  ACCOUNT_NAME,
  createSearchAttributesCommand,
  RETRY_OF,
  SEARCH_ATTRIBUTES,
} from '../../platform/search-attributes';
import { findTemporalCli } from '../../supervisor/temporal';
import { commission, instance, uid } from '../factories/events';
import { ContractChecker, type OpenApiLike } from '../helpers/contract';

/**
 * `npm run api` and `npm run worker` as an operator runs them: an external PostgreSQL (a server of its
 * own, not the suite's), and a plain `temporal server start-dev` that nobody gave our search attributes.
 */

const REFUSED_NAMESPACE = 'refused';

interface RoleProcess {
  child: ChildProcess;
  output(): string;
  exitCode: Promise<number | null>;
}

const running = new Set<RoleProcess>();

function startRole(role: 'api' | 'worker', env: NodeJS.ProcessEnv): RoleProcess {
  // Its own process group: npm, tsx and node all get the signal that stops it.
  const child = spawn('npm', ['run', '--silent', role], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      WORKER_METRICS_PORT: '0',
      WORKER_APP_METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // 'close', not 'exit': npm may be gone while the node process that shares its pipes still runs.
  const exitCode = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const handle: RoleProcess = { child, output: () => output, exitCode };
  running.add(handle);
  void exitCode.then(() => running.delete(handle));
  return handle;
}

async function stopRole(handle: RoleProcess): Promise<void> {
  if (!running.has(handle) || !handle.child.pid) return;
  const group = -handle.child.pid;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(group, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const stopped = await Promise.race([handle.exitCode.then(() => true), sleep(20_000, false, { ref: false })]);
  if (!stopped) signal('SIGKILL');
  await handle.exitCode;
}

async function waitForOutput(handle: RoleProcess, text: string, timeoutMs: number): Promise<void> {
  await waitFor(`"${text}" from ${handle.child.spawnargs.join(' ')}`, timeoutMs, async () => {
    if (handle.output().includes(text)) return true;
    if (handle.child.exitCode !== null)
      throw new Error(`exited with code ${handle.child.exitCode}:\n${handle.output().slice(-3000)}`);
    return false;
  });
}

interface Proxy {
  address: string;
  close(): Promise<void>;
}

/**
 * A gRPC (h2c) proxy in front of the dev server that answers AddSearchAttributes the way a server with an
 * authorizer answers a caller without operator rights; every other call reaches the real server.
 */
async function startRefusingProxy(upstream: string): Promise<Proxy> {
  const upstreamSession = http2.connect(`http://${upstream}`);
  upstreamSession.on('error', () => undefined);
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = http2.createServer();
  server.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    stream.on('error', () => undefined);
    if (headers[':path'] === '/temporal.api.operatorservice.v1.OperatorService/AddSearchAttributes') {
      stream.respond(
        {
          ':status': 200,
          'content-type': 'application/grpc',
          'grpc-status': '7',
          'grpc-message': 'Request unauthorized.',
        },
        { endStream: true },
      );
      return;
    }
    const forwarded = upstreamSession.request(headers);
    forwarded.on('error', () => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR));
    stream.pipe(forwarded);
    forwarded.on('response', (responseHeaders, flags) => {
      if (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) {
        stream.respond(responseHeaders, { endStream: true });
        return;
      }
      let trailers: http2.OutgoingHttpHeaders = {};
      forwarded.on('trailers', (received) => {
        trailers = received;
      });
      stream.respond(responseHeaders, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers(trailers));
      forwarded.pipe(stream);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${port}`,
    async close() {
      for (const session of sessions) session.destroy();
      upstreamSession.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Which of our attributes the namespace has. */
const registered = async (connection: Connection, namespace: string): Promise<string[]> => {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  return SEARCH_ATTRIBUTES.map((key) => key.name).filter((name) => customAttributes?.[name] !== undefined);
};

describe('the production shape (npm run api + npm run worker) on a Temporal server nobody prepared', () => {
  let dir: string;
  let postgres: EmbeddedPostgres;
  let temporal: ChildProcess;
  let temporalExited: Promise<void>;
  let temporalAddress: string;
  let connection: Connection;
  let sequelize: Sequelize;
  let proxy: Proxy | undefined;

  const roleEnv = (overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
    // The suite's setup has built the workflow bundle already (test/helpers/global-setup.ts); building it again only costs CPU.
    return {
      DATABASE_URL: postgres.url,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
      TASK_QUEUE: uid('production-shape'),
      WORKFLOW_BUNDLE_PATH: process.env.WORKFLOW_BUNDLE_PATH ?? '',
      ...overrides,
    };
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'production-shape-'));
    fs.chmodSync(dir, 0o755); // the postgres user must reach dir/pg when we are root
    postgres = await startEmbeddedPostgres({
      dataDir: path.join(dir, 'pg'),
      logger: pino({ level: 'warn' }),
      durable: false,
    });

    const port = await freePort();
    temporalAddress = `127.0.0.1:${port}`;
    temporal = spawn(
      findTemporalCli(process.env.TEMPORAL_CLI_PATH),
      [
        'server',
        'start-dev',
        '--headless',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--namespace',
        REFUSED_NAMESPACE,
        '--log-level',
        'error',
      ],
      { stdio: 'ignore' },
    );
    temporalExited = new Promise((resolve) => temporal.once('exit', () => resolve()));
    await waitFor(`temporal server start-dev on ${temporalAddress}`, 60_000, async () => {
      if (temporal.exitCode !== null)
        throw new Error(`temporal server start-dev exited with code ${temporal.exitCode}`);
      try {
        connection = await Connection.connect({ address: temporalAddress, connectTimeout: 1000 });
        await connection.workflowService.describeNamespace({ namespace: REFUSED_NAMESPACE });
        return true;
      } catch {
        await connection?.close().catch(() => undefined);
        return false;
      }
    });
    sequelize = createSequelize(postgres.url, 2);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...running].map(stopRole));
    await proxy?.close();
    await connection?.close().catch(() => undefined);
    await sequelize?.close();
    if (temporal && temporal.exitCode === null && temporal.signalCode === null) {
      temporal.kill('SIGTERM');
      await temporalExited;
    }
    await postgres?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('registers the search attributes at start-up and stores a batch of events', async () => {
    expect(await registered(connection, 'default')).toEqual([]);

    const apiPort = await freePort();
    const env = roleEnv({ PORT: String(apiPort) });
    const [api, worker] = [startRole('api', env), startRole('worker', env)];
    await Promise.all([
      waitForOutput(api, '"msg":"API listening"', 150_000),
      waitForOutput(worker, '"msg":"worker running"', 150_000),
    ]);

    expect(await registered(connection, 'default')).toEqual(SEARCH_ATTRIBUTES.map((key) => key.name));

    // The api migrated the database it was given; the key goes into that database.
    const account = uid('shape');
    const { key } = await createApiKey(account, 'production-shape test');
    const url = `http://127.0.0.1:${apiPort}`;
    const event = commission({ location: 'DOCK', time: '2024-03-01T15:00:00Z' }, instance('SALMON', uid('LOT'), 12.5));
    const response = await fetch(`${url}/Integration/Events`, {
      method: 'POST',
      headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ Events: [event] }),
    });
    const body = (await response.json()) as { result: { externalEventId: string; status: string }[] };
    expect({ status: response.status, body }).toMatchObject({
      status: 200,
      body: { result: [{ externalEventId: event.Id, status: 'Created' }] },
    });
    const contract = new ContractChecker((await (await fetch(`${url}/openapi.json`)).json()) as OpenApiLike);
    expect(
      contract.problemWith('POST', '/Integration/Events', response.status, response.headers.get('content-type'), body),
    ).toBeUndefined();

    // The batch workflow carries the attribute, so an operator's filter in the UI finds it.
    const client = new Client({ connection, namespace: 'default' });
    await waitFor(
      'the batch workflow in visibility',
      20_000,
      async () => (await client.workflow.count(`${ACCOUNT_NAME.name} = "${account}"`)).count === 1,
    );

    await Promise.all([stopRole(api), stopRole(worker)]);
  }, 240_000);

  it('a server that refuses the registration stops api and worker with one line naming the command', async () => {
    expect(await registered(connection, REFUSED_NAMESPACE)).toEqual([]);
    proxy = await startRefusingProxy(temporalAddress);
    const env = roleEnv({
      TEMPORAL_ADDRESS: proxy.address,
      TEMPORAL_NAMESPACE: REFUSED_NAMESPACE,
      PORT: String(await freePort()),
    });
    const roles = [startRole('api', env), startRole('worker', env)];
    const command = createSearchAttributesCommand(REFUSED_NAMESPACE);
    expect(command).toBe(
      `temporal operator search-attribute create --namespace ${REFUSED_NAMESPACE} --name AccountName --type Keyword --name BatchId --type Keyword --name RetryOf --type Keyword --name BatchMode --type Keyword --name BatchStatus --type Keyword`,
    );

    for (const role of roles) {
      const exitCode = await Promise.race([role.exitCode, sleep(150_000, 'still running', { ref: false })]);
      const output = role.output();
      expect({ exitCode, output }).toMatchObject({ exitCode: 1 });
      const lines = output.split('\n').filter((line) => line.includes('temporal operator search-attribute create'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ level: 60, namespace: REFUSED_NAMESPACE, command });
      expect(lines[0]).toContain(command);
      expect(output).not.toMatch(/\n\s+at /);
      expect(output).not.toContain('API listening');
    }
    expect(await registered(connection, REFUSED_NAMESPACE)).toEqual([]);
  }, 240_000);
});

describe('createSearchAttributesCommand', () => {
  // `--name A --name B --type Keyword` registers A alone (temporal CLI 1.9): every name needs its type.
  it('names every attribute with its own --type', () => {
    expect(createSearchAttributesCommand('prod', [RETRY_OF])).toBe(
      'temporal operator search-attribute create --namespace prod --name RetryOf --type Keyword',
    );
    expect(createSearchAttributesCommand('ns')).toBe(
      'temporal operator search-attribute create --namespace ns --name AccountName --type Keyword --name BatchId --type Keyword --name RetryOf --type Keyword --name BatchMode --type Keyword --name BatchStatus --type Keyword',
    );
  });

  it('is the one the operators page gives, run through npm run temporal (the pinned CLI, the running instance)', () => {
    expect(fs.readFileSync(path.join(PROJECT_ROOT, 'docs/operators.md'), 'utf8')).toContain(
      createSearchAttributesCommand('default').replace(/^temporal /, 'npm run --silent temporal -- '),
    );
  });
});
