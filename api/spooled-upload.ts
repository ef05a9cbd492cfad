import Busboy from 'busboy';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform, Writable, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReceivedFile } from '../usecases/upload-document';
import type { APIContext } from './context';
import { problem } from './errors';
import { readingBody } from './expect-continue';

/** The multipart uploads (documents, imports): a body and its file part metered, the file spooled, a refused body left unread. */

const HEAD_BYTES = 1024;

class TooLarge extends Error {}

/** Counts, hashes and keeps the first bytes of a file part; fails as soon as it passes `limit`. */
class FileMeter extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  /** onLimit runs before the stream fails, so the upload is settled as too large before any error of the parser. */
  constructor(
    private readonly limit: number,
    private readonly onLimit: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.onLimit();
      return done(new TooLarge());
    }
    this.hash.update(chunk);
    if (this.headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(part)); // a copy: the slice would pin busboy's whole chunk
      this.headLength += part.length;
    }
    done(null, chunk);
  }

  digest(): Buffer {
    return this.hash.digest();
  }

  head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

/** A fresh temporary file name for a spooled part; `kind` names what it is for (`document`, `import`). */
const spoolPath = (kind: string): string => path.join(os.tmpdir(), `${kind}-upload-${randomBytes(12).toString('hex')}`);

export const removeSpool = (file: string | null | undefined): Promise<void> =>
  file ? fs.promises.rm(file, { force: true }) : Promise.resolve();

/** Room for the multipart framing and a few small form fields around a maximal file. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

/** Passes a body on until it passes `limit` bytes; then calls onLimit and passes nothing more. */
function bodyLimit(limit: number, onLimit: () => void): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > limit) onLimit();
      else done(null, chunk);
    },
  });
}

export interface MultipartLimits {
  /** Bytes of the part named `file`; the whole body may add MULTIPART_OVERHEAD_BYTES. */
  fileBytes: number;
  /** busboy's limits on the other parts (one file part at most, whatever is given). */
  parts: Omit<Busboy.Limits, 'files'>;
  spool: string;
}

export type Multipart =
  | { outcome: 'tooLarge' }
  | { outcome: 'tooManyFiles' }
  /** The whole body was read: its small fields, and the part named `file` (path null when its bytes were dropped). */
  | { outcome: 'received'; fields: Record<string, string>; file: ReceivedFile | undefined };

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * Reads a multipart body as it arrives. The part named `file` goes through a FileMeter into a temporary
 * file (mode 0600) when keep(fileName) says so, else nowhere; memory holds a few stream buffers, never
 * the file. A second file part or a body over a limit ends the reading at once; what the client is
 * still sending stays unread, and the answer closes the connection.
 * The caller owns `file.path` of a received upload and removes it with removeSpool. A body that is not
 * valid multipart/form-data, or that the client left before it was complete, is a 400 (unreadable-body).
 */
export function receiveMultipart(
  { req, res }: Pick<APIContext, 'req' | 'res'>,
  limits: MultipartLimits,
  keep: (fileName: string) => boolean = () => true,
): Promise<Multipart> {
  readingBody(req, res);
  return new Promise<Multipart>((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { ...limits.parts, files: 1 } });
    } catch {
      // Not multipart/form-data at all (or no boundary): there is no file part to find.
      req.resume();
      resolve({ outcome: 'received', fields: {}, file: undefined });
      return;
    }

    let settled = false;
    let spooled: string | null = null;
    let filePart: Promise<ReceivedFile> | undefined;
    let fileStream: Readable | undefined;
    // No prototype: a field named __proto__ or constructor is just a field.
    const fields = Object.create(null) as Record<string, string>;
    const counter = bodyLimit(limits.fileBytes + MULTIPART_OVERHEAD_BYTES, () => stop({ outcome: 'tooLarge' }));

    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
    };

    function stop(upload: Multipart): void {
      settle(() => {
        // The rest of the body stays unread: the answer then closes the connection
        // (api/middleware/close-unread-body.ts) instead of reading on to the body's end.
        req.unpipe();
        req.pause();
        counter.destroy();
        fileStream?.destroy();
        busboy.removeAllListeners('close');
        busboy.on('error', () => undefined);
        void removeSpool(spooled);
        resolve(upload);
      });
    }

    const unreadable = (detail: string) => problem('unreadable-body', { detail });
    const fail = (error: Error) =>
      settle(() => {
        req.unpipe(counter);
        fileStream?.destroy();
        void removeSpool(spooled);
        reject(error);
      });

    busboy.on('field', (name, value) => (fields[name] = value));
    busboy.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return;
      }
      const fileName = info.filename ?? '';
      fileStream = stream;
      const meter = new FileMeter(limits.fileBytes, () => stop({ outcome: 'tooLarge' }));
      const target = keep(fileName) ? spoolPath(limits.spool) : null;
      if (target) spooled = target;
      const sink = target ? fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }) : discard();
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
      fail(unreadable(`The request body is not valid multipart/form-data: ${error.message}`)),
    );
    busboy.on('close', () => {
      (filePart ?? Promise.resolve(undefined)).then(
        (file) => settle(() => resolve({ outcome: 'received', fields, file })),
        (error: Error) => fail(error),
      );
    });
    req.on('close', () => {
      if (!req.complete) fail(unreadable('The client closed the connection before the body was complete.'));
    });

    req.pipe(counter).pipe(busboy);
  });
}
