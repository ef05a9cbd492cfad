/**
 * The custom search attributes of batch workflows, in domain/ (imports of @temporalio/common only) so the
 * workflow code can upsert them; platform/search-attributes.ts registers them on the server.
 */
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

/** A typed key of any type (the SDK exports the generic only through its pairs). */
export type SearchAttributeKey = SearchAttributePair['key'];

/** Set on every batch workflow, so operators can filter batches in the Temporal UI. */
export const ACCOUNT_NAME = defineSearchAttributeKey('AccountName', SearchAttributeType.KEYWORD);
export const BATCH_ID = defineSearchAttributeKey('BatchId', SearchAttributeType.KEYWORD);
/** The batch a retried batch re-runs (`batch -- retry`). */
export const RETRY_OF = defineSearchAttributeKey('RetryOf', SearchAttributeType.KEYWORD);
/** How the batch came in: sync, async, json, epcis or retry (the batches row's `mode`). */
export const BATCH_MODE = defineSearchAttributeKey('BatchMode', SearchAttributeType.KEYWORD);
/**
 * The batch's status as its row has it (Accepted, Running, Completed, Failed), kept by the workflow as it
 * moves: ExecutionStatus tells the workflow's state, this one the batch's (a resumed batch is Running
 * while its first, terminated run says Terminated).
 */
export const BATCH_STATUS = defineSearchAttributeKey('BatchStatus', SearchAttributeType.KEYWORD);

/** Every custom search attribute the service uses: the dev server, docker-compose.yml and start-up register these. */
export const SEARCH_ATTRIBUTES: readonly SearchAttributeKey[] = [
  ACCOUNT_NAME,
  BATCH_ID,
  RETRY_OF,
  BATCH_MODE,
  BATCH_STATUS,
];
