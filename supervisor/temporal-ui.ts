import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The Temporal UI `npm start` serves: the dev server's own, behind this pass-through that offers no Reset.
 * A reset cannot run a batch again (its row is Failed already, so the reset run is refused) and a retry
 * does; docker-compose.yml's UI is told so with TEMPORAL_WORKFLOW_RESET_DISABLED, but the dev server
 * builds its UI's settings in code, with no flag or variable for it (CLI 1.9.1). So the UI's settings
 * answer says WorkflowResetDisabled, which hides the button, and a reset sent anyway is refused here.
 */

const SETTINGS = '/api/v1/settings';
/** The UI server's route for ResetWorkflowExecution; a workflow id in it is one URL-encoded segment. */
const RESET = /^\/api\/v1\/namespaces\/[^/]+\/workflows\/[^/]+\/reset\/?(?:\?|$)/;
/** Batch operations (StartBatchOperation): one of them resets every workflow a query finds. */
const BATCH_OPERATION = /^\/api\/v1\/namespaces\/[^/]+\/batch-operations\//;
/** A batch operation's body is a query and a reason: far below this. */
const BATCH_BODY_LIMIT = 1024 * 1024;

export const RESET_REFUSED =
  'Reset is disabled in this Temporal UI: a batch is retried, never reset (retry it from /support, ' +
  'POST /Integration/Batches/{id}/retry or npm run batch -- retry <batchId>).';

function refuse(response: http.ServerResponse): void {
  const body = JSON.stringify({ code: 7, message: RESET_REFUSED, details: [] });
  response.writeHead(403, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

async function bodyOf(request: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BATCH_BODY_LIMIT) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Listens on `port` (0: any free one) of 127.0.0.1 in front of the dev server's UI on `upstreamPort`. */
export async function startUiGuard(port: number, upstreamPort: number) {
  const forward = (
    request: http.IncomingMessage,
    response: http.ServerResponse,
    options: { body?: Buffer; rewrite?: (answer: Buffer) => Buffer } = {},
  ) => {
    const headers = { ...request.headers };
    // The settings are read as they are, to be rewritten: no compression.
    if (options.rewrite) delete headers['accept-encoding'];
    if (options.body) headers['content-length'] = String(options.body.length);
    const upstream = http.request(
      { host: '127.0.0.1', port: upstreamPort, method: request.method, path: request.url, headers },
      (answer) => {
        if (!options.rewrite || answer.statusCode !== 200) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = options.rewrite!(Buffer.concat(chunks));
          response.writeHead(200, { ...answer.headers, 'content-length': String(body.length) });
          response.end(body);
        });
      },
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`The Temporal UI is not answering (${error.message}); it comes back when Temporal does.`);
    });
    if (options.body) upstream.end(options.body);
    else request.pipe(upstream);
  };

  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (request.method === 'GET' && url.split('?')[0] === SETTINGS) {
      forward(request, response, {
        rewrite: (answer) => {
          try {
            return Buffer.from(JSON.stringify({ ...JSON.parse(answer.toString()), WorkflowResetDisabled: true }));
          } catch {
            return answer;
          }
        },
      });
      return;
    }
    if (request.method === 'POST' && RESET.test(url)) return refuse(response);
    if (request.method === 'POST' && BATCH_OPERATION.test(url)) {
      void bodyOf(request).then(
        (body) => {
          if (!body || /reset_?operation/i.test(body.toString())) return refuse(response);
          forward(request, response, { body });
        },
        () => response.destroy(),
      );
      return;
    }
    forward(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
