import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from '../../platform/net';
import { createAccount } from '../factories/accounts';
import { commission, instance, uid } from '../factories/events';
import { cli, pointedAt } from '../helpers/cli';
import { request } from '../helpers/http';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { startReplica, stopReplica, type Replica } from '../helpers/replica';
import { killStacks, startStack, type Stack } from '../helpers/stack';

/**
 * `npm start` as a person runs it on a terminal, with nothing configured: a development instance on this
 * machine. Its output is for reading, and a webhook to a receiver on the same machine just works. The
 * production shape (`npm run api`) keeps refusing that unless an operator allows it.
 */
describe('npm start on a terminal, nothing configured', () => {
  let stack: Stack;
  let receiver: Receiver;
  let output = '';

  beforeAll(async () => {
    stack = await startStack(
      // What the suite's stacks set that a person's shell has not.
      { WEBHOOK_ALLOWED_HOSTS: undefined, LOG_FORMAT: undefined, LOG_LEVEL: undefined, TEMPORAL_UI_PORT: undefined },
      { terminal: true },
    );
    receiver = await startReceiver();
    await waitFor('the summary', 30_000, async () => {
      // Without the terminal's colours and carriage returns.
      output = fs
        .readFileSync(path.join(stack.dir, 'stack.log'), 'utf8')
        // eslint-disable-next-line no-control-regex
        .replace(/\x1b\[[0-9;]*m|\r/g, '');
      return output.includes('Ctrl-C stops everything.');
    });
  }, 240_000);

  afterAll(async () => {
    await receiver?.close();
    if (!stack) return;
    const exited = new Promise((resolve) => stack.process.once('exit', resolve));
    process.kill(stack.state.pid, 'SIGTERM');
    await exited;
    killStacks([stack]);
  }, 30_000);

  it('prints one line per part as it is up, then one summary of addresses; no log lines', () => {
    const lines = output.split('\n');
    const parts = lines.filter((line) => line.startsWith('  ✓ ')).map((line) => line.split(/\s+/)[2]);
    expect(parts).toEqual(['PostgreSQL', 'Temporal', 'worker', 'API']);
    const api = stack.state.apiUrl;
    const row = (label: string) => lines.find((line) => line.trimStart().startsWith(`${label}  `))?.trim();
    expect(row('API')).toMatch(new RegExp(`^API\\s+${api}$`));
    expect(row('API docs')).toMatch(new RegExp(`\\s${api}/docs$`));
    expect(row('trace')).toMatch(new RegExp(`\\s${api}/trace$`));
    expect(row('recalls')).toMatch(new RegExp(`\\s${api}/recalls$`));
    expect(row('support')).toMatch(new RegExp(`\\s${api}/support$`));
    expect(row('imports')).toMatch(new RegExp(`\\s${api}/imports$`));
    expect(row('Temporal UI')).toMatch(new RegExp(`\\s${stack.state.temporalUiUrl}$`));
    expect(row('webhooks')).toContain('to this machine (localhost,127.0.0.1,::1) allowed');
    // Neither JSON nor pretty log lines: at a terminal the parts log warnings and errors only.
    expect(lines.filter((line) => /^\{|\bINFO\b/.test(line))).toEqual([]);
  });

  it('listens on loopback only: another machine cannot reach the API (nor have it call this one)', () => {
    const port = Number(new URL(stack.state.apiUrl).port);
    // /proc/net/tcp: the local address and port in hex, state 0A is LISTEN; 0100007F is 127.0.0.1.
    const listening = fs
      .readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && Number.parseInt(fields[1]?.split(':')[1] ?? '', 16) === port)
      .map((fields) => fields[1].split(':')[0]);
    expect(listening).toEqual(['0100007F']);
  });

  it('accepts a webhook to this machine without configuration, and the worker delivers to it', async () => {
    const created = cli('cli/apikey.ts', ['create', '--account', `dev-${uid('A')}`], pointedAt(stack.dir));
    expect(created.stderr).toBe('');
    const key = created.stdout.trim();
    const baseUrl = stack.state.apiUrl;
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
      const added = await request('POST', '/Integration/Webhooks', {
        key,
        baseUrl,
        body: { Url: url, Events: ['batch.completed'] },
      });
      expect({ url, status: added.status }).toEqual({ url, status: 201 });
    }
    const sent = await request('POST', '/Integration/Events', {
      key,
      baseUrl,
      body: {
        Events: [commission({ location: 'DOCK', time: '2024-03-01T10:00:00Z' }, instance('COD', uid('LOT'), 5))],
      },
    });
    expect(sent.status).toBe(200);
    const delivered = await receiver.waitFor(2);
    expect(delivered.map((d) => JSON.parse(d.body).type)).toEqual(['batch.completed', 'batch.completed']);
  }, 60_000);
});

describe('npm run api alone (the production shape), WEBHOOK_ALLOWED_HOSTS unset', () => {
  let replica: Replica | undefined;
  afterAll(() => stopReplica(replica));

  it('refuses a webhook to this machine with a 400 that says how an operator allows it', async () => {
    replica = await startReplica({ API_SYNC_WORKER: 'false', WEBHOOK_ALLOWED_HOSTS: undefined });
    const account = await createAccount('prod-hooks');
    for (const [url, message] of [
      ['http://127.0.0.1:9/hooks', 'must use https'],
      ['https://localhost/hooks', 'is this machine. An operator can allow it with WEBHOOK_ALLOWED_HOSTS'],
    ]) {
      const refused = await request('POST', '/Integration/Webhooks', {
        key: account.key,
        baseUrl: replica.url,
        body: { Url: url, Events: ['batch.completed'] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.Url[0]).toContain(message);
    }
  }, 120_000);
});
