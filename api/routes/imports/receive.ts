import { MULTIPART_OVERHEAD_BYTES, type MultipartLimits } from '../../spooled-upload';
import { MAX_IMPORT_BYTES } from '../../../contract/imports/schema';

/** The whole body: the file, its framing and the small fields. */
export const MAX_IMPORT_BODY_BYTES = MAX_IMPORT_BYTES + MULTIPART_OVERHEAD_BYTES;

export const IMPORT_LIMITS: MultipartLimits = {
  fileBytes: MAX_IMPORT_BYTES,
  parts: { fields: 10, fieldSize: 1024, parts: 12 },
  spool: 'import',
};
