import { takeStoredChunks } from '../db/repositories/imports';
import type { ImportChunkBatch, SplitImportInput } from '../pipeline/contracts';
import type { ActivityDeps } from './deps';

/**
 * processImport's first step (a local activity: one short read): the chunks' batches its upload stored,
 * now the workflow's to start. Null when the upload stored the file alone: the split step reads it then.
 */
export function takeImportChunks(deps: ActivityDeps) {
  return ({ importId }: SplitImportInput): Promise<ImportChunkBatch[] | null> =>
    takeStoredChunks(deps.sequelize, importId);
}
