import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import Busboy from 'busboy';
import {
  bodyLimit,
  FileMeter,
  MULTIPART_OVERHEAD_BYTES,
  removeSpool,
  spoolPath,
  stopReading,
} from '../../spooled-upload';
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

export interface ReceivedImport {
  fields: Record<string, string>;
  file: { fileName: string; size: number; sha256: string; path: string } | null;
}

export type ImportUpload = { outcome: 'tooLarge' } | { outcome: 'received'; upload: ReceivedImport };

export class UnreadableImport extends Error {}

/**
 * Reads a multipart body as it arrives: its small fields, and the part named `file` into a temporary file
 * (mode 0600), counted and hashed on the way, never whole in memory. Past MAX_IMPORT_BYTES of file or
 * MAX_IMPORT_BODY_BYTES of body the reading stops at once; the rest stays unread, and the 413 closes the
 * connection.
 */
export function receiveImport(req: IncomingMessage): Promise<ImportUpload> {
  return new Promise<ImportUpload>((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fields: 10, fieldSize: 1024, parts: 12, fileSize: MAX_IMPORT_BYTES + 1 },
      });
    } catch {
      req.resume();
      resolve({ outcome: 'received', upload: { fields: {}, file: null } });
      return;
    }
    let settled = false;
    // No prototype: a field named __proto__ or constructor is just a field.
    const fields = Object.create(null) as Record<string, string>;
    let filePart: Promise<ReceivedImport['file']> | undefined;
    let spooled: string | null = null;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
    };
    const counter = bodyLimit(MAX_IMPORT_BODY_BYTES, () => tooLarge());
    const tooLarge = () =>
      settle(() => {
        stopReading(req);
        counter.destroy();
        busboy.removeAllListeners('close');
        busboy.on('error', () => undefined);
        void removeSpool(spooled);
        resolve({ outcome: 'tooLarge' });
      });
    const fail = (error: Error) =>
      settle(() => {
        void removeSpool(spooled);
        reject(error);
      });
    busboy.on('field', (name, value) => {
      fields[name] = value;
    });
    busboy.on('file', (name, stream, info) => {
      if (name !== 'file' || filePart) {
        stream.resume();
        return;
      }
      const target = (spooled = spoolPath('import'));
      const meter = new FileMeter(MAX_IMPORT_BYTES, tooLarge);
      filePart = pipeline(stream, meter, fs.createWriteStream(target, { flags: 'wx', mode: 0o600 })).then(() => ({
        fileName: info.filename ?? '',
        size: meter.size,
        sha256: meter.digest().toString('hex'),
        path: target,
      }));
      filePart.catch(() => undefined);
    });
    busboy.on('filesLimit', () => fail(new UnreadableImport('Send one file per import.')));
    busboy.on('error', (error: Error) =>
      fail(new UnreadableImport(`The request body is not valid multipart/form-data: ${error.message}`)),
    );
    busboy.on('close', () => {
      (filePart ?? Promise.resolve(null)).then(
        (file) => settle(() => resolve({ outcome: 'received', upload: { fields, file } })),
        (error: Error) => fail(error),
      );
    });
    req.on('close', () => {
      if (!req.complete) fail(new UnreadableImport('The client closed the connection before the body was complete.'));
    });
    req.pipe(counter).pipe(busboy);
  });
}
