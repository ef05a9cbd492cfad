import type { Client } from '@temporalio/client';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { destinationIssue, hostOf, isPublicAddress } from '../domain/destinations';
import type { DeliverWebhooksInput, DeliverWebhooksWorkflow } from '../domain/webhook-contracts';
import { deliveriesTaskQueueOf } from '../domain/task-queues';
import { atMost } from '../domain/at-most';

/** A delivery that takes longer is a failed attempt: a slow receiver holds up only its own endpoint. */
export const DELIVERY_TIMEOUT_MS = 10_000;
const LOOKUP_TIMEOUT_MS = 5_000;

export const webhookWorkflowId = (endpointId: string): string => `webhook-${endpointId}`;

export interface WebhookSettings {
  /** WEBHOOK_ALLOWED_HOSTS: hosts allowed although they are not https or not public (tests, a receiver on the same machine). */
  allowedHosts: readonly string[];
  /** WEBHOOK_RETRY_SECONDS: how long a delivery is retried before its endpoint is marked failing (72 hours). */
  retrySeconds: number;
}

/**
 * The one address a request to `host` may connect to: every address the name resolves to must be
 * public (unless the host is allowed), and the request connects to the checked one, so a second answer
 * from a rebinding DNS server is never used.
 */
export async function resolveDestination(
  host: string,
  allowedHosts: readonly string[],
): Promise<{ address: string; family: number }> {
  const family = isIP(host);
  const allowed = allowedHosts.includes(host);
  if (family) {
    if (!allowed && !isPublicAddress(host)) throw new Error(`${host} is not a public address`);
    return { address: host, family };
  }
  let timer: NodeJS.Timeout | undefined;
  const answers = await Promise.race([
    lookup(host, { all: true, verbatim: true }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${host} did not resolve within ${LOOKUP_TIMEOUT_MS / 1000} s`)),
        LOOKUP_TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
  if (!answers.length) throw new Error(`${host} does not resolve`);
  if (!allowed) {
    const inner = answers.find((answer) => !isPublicAddress(answer.address));
    if (inner) throw new Error(`${host} resolves to ${inner.address}, which is not a public address`);
  }
  return answers[0];
}

/** What is wrong with a webhook URL or subscription dest, resolving its name (null: it may be used). */
export async function destinationProblem(value: string, allowedHosts: readonly string[]): Promise<string | null> {
  const issue = destinationIssue(value, allowedHosts);
  if (issue) return issue;
  try {
    await resolveDestination(hostOf(new URL(value)), allowedHosts);
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^getaddrinfo \w+ /, '') : String(error);
    return `must be a reachable public address: ${reason}. An operator can allow a host with WEBHOOK_ALLOWED_HOSTS.`;
  }
}

/**
 * POSTs `body` to `url` once: the resolved address is checked again here (DNS rebinding), redirects
 * are answers, not followed, and the whole exchange is cut at 10 s. Throws on any transport failure.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  allowedHosts: readonly string[],
): Promise<{ status: number }> {
  const target = new URL(url);
  const checked = await resolveDestination(hostOf(target), allowedHosts);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [checked]);
    else callback(null, checked.address, checked.family);
  };
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body).toString(),
          'User-Agent': 'traceability-webhooks',
          ...headers,
        },
        lookup: pinned,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      },
      (response) => {
        // The answer's body is not needed; reading it frees the socket.
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', reject);
      },
    );
    request.on('error', (error) =>
      reject(error.name === 'AbortError' ? new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`) : error),
    );
    request.end(body);
  });
}

/**
 * Wakes the endpoint's delivery workflow (starting it on the deliveries' task queue if it is not
 * running, whichever of the service's queues `taskQueue` is): it reads what is owed from PostgreSQL,
 * so a wake-up more or less changes nothing but the delay.
 */
export async function wakeWebhookEndpoint(
  client: Client,
  taskQueue: string,
  endpointId: string,
  settings: Pick<WebhookSettings, 'retrySeconds'>,
): Promise<void> {
  const input: DeliverWebhooksInput = { endpointId, retrySeconds: settings.retrySeconds };
  await client.workflow.signalWithStart<DeliverWebhooksWorkflow, []>('deliverWebhooks', {
    taskQueue: deliveriesTaskQueueOf(taskQueue),
    workflowId: webhookWorkflowId(endpointId),
    args: [input],
    signal: 'wake',
    signalArgs: [],
    staticSummary: `webhook endpoint ${endpointId}`,
  });
}

/** The retry window of deliveries when the worker was given no webhook settings. */
const DEFAULT_RETRY_SECONDS = 72 * 3600;

/** Endpoints signalled at once: one by one, a recall's 99 consignees waited 5 s on their signals (55 ms each under load). */
const WAKES_AT_ONCE = 20;

/** Wakes each endpoint owed a notification (after the commit that owed it). */
export async function wakeWebhookEndpoints(
  client: Client,
  taskQueue: string,
  endpointIds: readonly string[],
  settings: Pick<WebhookSettings, 'retrySeconds'> | undefined,
): Promise<void> {
  const retrySeconds = settings?.retrySeconds ?? DEFAULT_RETRY_SECONDS;
  await atMost(WAKES_AT_ONCE, endpointIds, (endpointId) =>
    wakeWebhookEndpoint(client, taskQueue, endpointId, { retrySeconds }),
  );
}
