import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Busboy from 'busboy';
import { MAX_FILE_BYTES } from '../../../domain/documents';
import type { ReceivedFile } from '../../../usecases/upload-document';
import {
  bodyLimit,
  FileMeter,
  MULTIPART_OVERHEAD_BYTES,
  removeSpool,
  spoolPath,
  stopReading,
} from '../../spooled-upload';

export const MAX_BODY_BYTES = MAX_FILE_BYTES + MULTIPART_OVERHEAD_BYTES;

export type Upload =
  | { outcome: 'tooLarge' }
  | { outcome: 'tooManyFiles' }
  /** The whole body was read. file: the part named `file` (path null when its bytes were dropped). */
  | { outcome: 'received'; file: ReceivedFile | undefined };

/** The body cannot be read as multipart/form-data, or the client left before it was complete. */
export class UnreadableBody extends Error {}

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * Reads a multipart body as it arrives. The part named `file` goes through a FileMeter into a temporary
 * file (mode 0600) when keep(fileName) says so, else nowhere; memory holds a few stream buffers, never
 * the file. A second file part or a body over the limit ends the reading at once; what the client is
 * still sending stays unread, and the answer closes the connection.
 * The caller owns `file.path` of a received upload and removes it with removeSpool.
 */
export function receiveUpload(req: IncomingMessage, keep: (fileName: string) => boolean): Promise<Upload> {
  return new Promise<Upload>((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fields: 20, fieldSize: 8 * 1024, parts: 25, headerPairs: 100 },
      });
    } catch {
      // Not multipart/form-data at all (or no boundary): there is no file part to find.
      req.resume();
      resolve({ outcome: 'received', file: undefined });
      return;
    }

    let settled = false;
    let spooled: string | null = null;
    let filePart: Promise<ReceivedFile> | undefined;
    let fileStream: Readable | undefined;
    const counter = bodyLimit(MAX_BODY_BYTES, () => stop({ outcome: 'tooLarge' }));

    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
    };

    function stop(upload: Upload): void {
      settle(() => {
        stopReading(req);
        counter.destroy();
        fileStream?.destroy();
        busboy.removeAllListeners('close');
        busboy.on('error', () => undefined);
        void removeSpool(spooled);
        resolve(upload);
      });
    }

    const fail = (error: Error) =>
      settle(() => {
        req.unpipe(counter);
        fileStream?.destroy();
        void removeSpool(spooled);
        reject(error);
      });

    busboy.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return;
      }
      const fileName = info.filename ?? '';
      fileStream = stream;
      const meter = new FileMeter(MAX_FILE_BYTES, () => stop({ outcome: 'tooLarge' }));
      let sink: Writable;
      let target: string | null = null;
      if (keep(fileName)) {
        target = spooled = spoolPath('document');
        sink = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 });
      } else {
        sink = discard();
      }
      filePart = pipeline(stream, meter, sink).then(
        () => ({ fileName, size: meter.size, sha256: meter.digest(), head: meter.head(), path: target }),
        (error: unknown) => {
          // The sink may open its file after stop() removed the path: remove it again once closed.
          void removeSpool(target);
          throw error;
        },
      );
      // Settled through 'close' below, or by stop(); never left unobserved.
      filePart.catch(() => undefined);
    });
    busboy.on('filesLimit', () => stop({ outcome: 'tooManyFiles' }));
    busboy.on('error', (error: Error) =>
      fail(new UnreadableBody(`The request body is not valid multipart/form-data: ${error.message}`)),
    );
    busboy.on('close', () => {
      (filePart ?? Promise.resolve(undefined)).then(
        (file) => settle(() => resolve({ outcome: 'received', file })),
        (error: Error) => fail(error),
      );
    });
    req.on('close', () => {
      if (!req.complete) fail(new UnreadableBody('The client closed the connection before the body was complete.'));
    });

    req.pipe(counter).pipe(busboy);
  });
}
