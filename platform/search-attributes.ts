import { isGrpcServiceError, type OperatorService } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Logger } from './logger';
import { waitFor } from './net';
import { SEARCH_ATTRIBUTES, type SearchAttributeKey } from '../domain/search-attribute-keys';

export * from '../domain/search-attribute-keys';

/** The server's IndexedValueType of a search attribute type: INDEXED_VALUE_TYPE_<type>. */
export const indexedValueTypeOf = (type: SearchAttributeType): temporal.api.enums.v1.IndexedValueType =>
  temporal.api.enums.v1.IndexedValueType[`INDEXED_VALUE_TYPE_${type}`];

/** The CLI's spelling of a type (`--type Keyword`, `--search-attribute Name=Keyword`). */
export function cliTypeName(type: SearchAttributeType): string {
  return type
    .split('_')
    .map((word) => word[0] + word.slice(1).toLowerCase())
    .join('');
}

/**
 * The command an operator runs to register `keys` on `namespace`. One `--type` per `--name`, in pairs:
 * the CLI zips the two lists, and silently skips a name that has no type of its own.
 */
export function createSearchAttributesCommand(
  namespace: string,
  keys: readonly SearchAttributeKey[] = SEARCH_ATTRIBUTES,
): string {
  const pairs = keys.map((key) => `--name ${key.name} --type ${cliTypeName(key.type)}`);
  return ['temporal operator search-attribute create', `--namespace ${namespace}`, ...pairs].join(' ');
}

/** What a client Connection and the worker's NativeConnection both offer. */
export interface OperatorConnection {
  readonly operatorService: OperatorService;
}

// gRPC status code (grpc-js `status.PERMISSION_DENIED`): the server's authorizer refused the call.
const PERMISSION_DENIED = 7;

async function missingOn(connection: OperatorConnection, namespace: string): Promise<SearchAttributeKey[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  return SEARCH_ATTRIBUTES.filter((key) => customAttributes?.[key.name] === undefined);
}

const refused = (error: unknown): boolean => isGrpcServiceError(error) && error.code === PERMISSION_DENIED;

/**
 * Registers the service's search attributes on `namespace` when the server lacks them: a workflow start
 * naming an unregistered attribute is refused, which would fail every event batch. Returns once all are
 * listed. When the server refuses the registration (no operator rights), the process cannot do its job:
 * it stops with one log line naming the command an operator must run.
 */
export async function ensureSearchAttributes(
  connection: OperatorConnection,
  namespace: string,
  logger: Logger,
): Promise<void> {
  let missing: SearchAttributeKey[];
  try {
    missing = await missingOn(connection, namespace);
  } catch (error) {
    if (!refused(error)) throw error;
    // Some deployments let a service start workflows but not read cluster metadata; the attributes may
    // well be there, and a start that names a missing one fails loudly on its own.
    logger.warn(
      { namespace, command: createSearchAttributesCommand(namespace) },
      'cannot list Temporal search attributes (permission denied); assuming they are registered',
    );
    return;
  }
  if (!missing.length) return;

  const searchAttributes = Object.fromEntries(missing.map((key) => [key.name, indexedValueTypeOf(key.type)]));
  try {
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  } catch (error) {
    if (refused(error)) {
      const command = createSearchAttributesCommand(namespace, missing);
      logger.fatal(
        { namespace, missing: missing.map((key) => key.name), command },
        `Temporal refused to register search attributes on namespace ${namespace} (permission denied); an operator must run: ${command}`,
      );
      process.exit(1);
    }
    // The api and the worker start together and both add: the other one may have won the race.
    if ((await missingOn(connection, namespace)).length) throw error;
  }
  await waitFor(
    `search attributes ${missing.map((key) => key.name).join(', ')} on namespace ${namespace}`,
    30_000,
    async () => !(await missingOn(connection, namespace)).length,
  );
  logger.info({ namespace, added: missing.map((key) => key.name) }, 'registered Temporal search attributes');
}
