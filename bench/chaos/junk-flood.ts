/**
 * The junk-body flood of the junk-bodies chaos scenario, run in a process of its own (startJunkFlood
 * spawns this file): pumping gigabytes into sockets would otherwise hold up the event loop of the keyed
 * client whose latency the scenario measures. It floods until its parent sends 'stop', then sends back
 * what each request got and exits.
 */
import { spawn } from 'node:child_process';
import { rawRequest } from '../../test/helpers/raw-http';
import { typescriptCommand } from '../../test/helpers/stack';

export interface JunkFloodOrder {
  apiUrl: string;
  /** A valid key: one kind of junk is a body declared far over the limit, sent with it. */
  key: string;
  clients: number;
}

/** What one junk request got: its status, whether the API said and did close the connection, and how far it got. */
export interface JunkAnswer {
  status: number;
  connection: string | undefined;
  /** null: the client dropped the connection itself once answered. */
  closed: boolean | null;
  bodyBytesWritten: number;
}

/** A key of the right shape that no account has. */
export const WRONG_KEY = 'trc_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * Client i's junk, by i % 4: 24 MB with no key (twice), 24 MB with a wrong key, 4 GB declared with the
 * valid key. Odd clients drop the connection once answered and start the next request; even ones send
 * on regardless until the API closes.
 */
async function junkRequest(order: JunkFloodOrder, client: number): Promise<JunkAnswer> {
  const kind = client % 4;
  const answer = await rawRequest({
    baseUrl: order.apiUrl,
    path: '/Integration/Events',
    headers: {
      'Content-Type': 'application/json',
      ...(kind === 2 ? { 'X-API-KEY': WRONG_KEY } : kind === 3 ? { 'X-API-KEY': order.key } : {}),
    },
    body: { declared: kind === 3 ? 4 * 1024 ** 3 : 24 * 1024 ** 2 },
    stopOnAnswer: client % 2 === 1,
  });
  return {
    status: answer.status,
    connection: answer.headers.connection,
    closed: answer.closed,
    bodyBytesWritten: answer.bodyBytesWritten,
  };
}

export interface JunkFloodReport {
  answers: JunkAnswer[];
  /** The flood's own CPU (user and system): it shares the machine with the service it floods. */
  cpuSeconds: number;
}

/** Starts the flood in a child process; stop() ends it and answers what every request got. */
export function startJunkFlood(order: JunkFloodOrder): { stop: () => Promise<JunkFloodReport> } {
  const [command, args] = typescriptCommand('bench/chaos/junk-flood.ts');
  const child = spawn(command, args, {
    env: { ...process.env, JUNK_FLOOD: JSON.stringify(order) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const report = new Promise<JunkFloodReport>((resolve, reject) => {
    child.once('message', (message) => resolve(message as JunkFloodReport));
    child.once('exit', (code) => reject(new Error(`the junk flood exited with ${code} before it reported`)));
  });
  return {
    stop: () => {
      child.send('stop');
      return report;
    },
  };
}

async function flood(order: JunkFloodOrder): Promise<void> {
  const answers: JunkAnswer[] = [];
  let flooding = true;
  process.once('message', () => (flooding = false));
  await Promise.all(
    Array.from({ length: order.clients }, async (_, client) => {
      while (flooding) answers.push(await junkRequest(order, client));
    }),
  );
  const { user, system } = process.cpuUsage();
  const report: JunkFloodReport = { answers, cpuSeconds: (user + system) / 1e6 };
  process.send?.(report, () => process.exit(0));
}

if (process.env.JUNK_FLOOD && process.send) void flood(JSON.parse(process.env.JUNK_FLOOD) as JunkFloodOrder);
