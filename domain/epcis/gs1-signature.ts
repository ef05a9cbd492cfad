import { createHmac } from 'node:crypto';

/** GS1-Signature of a subscription's report: the hex HMAC-SHA256 of its exact body under the subscriber's signatureToken. */
export const gs1Signature = (token: string, body: string): string =>
  createHmac('sha256', token).update(body).digest('hex');
