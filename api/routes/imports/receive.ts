import { MULTIPART_OVERHEAD_BYTES, type MultipartLimits } from '../../spooled-upload';
import { MAX_IMPORT_ROWS } from '../../../usecases/import-file';

/** At most this much file per import; the 413 names it. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** The whole body: the file, its framing and the small fields. */
export const MAX_IMPORT_BODY_BYTES = MAX_IMPORT_BYTES + MULTIPART_OVERHEAD_BYTES;

/** The 413 of a file past either limit, as its `detail`, `maxBytes` and `maxRows`. */
export const TOO_LARGE = {
  detail: `An import takes at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS.toLocaleString('en')} rows per file; split the file.`,
  maxBytes: MAX_IMPORT_BYTES,
  maxRows: MAX_IMPORT_ROWS,
};

export const IMPORT_LIMITS: MultipartLimits = {
  fileBytes: MAX_IMPORT_BYTES,
  parts: { fields: 10, fieldSize: 1024, parts: 12 },
  spool: 'import',
};
