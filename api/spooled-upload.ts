import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';

/** What the multipart receivers (documents, imports) share: metering a body and a file part, spooling it, leaving a refused body unread. */

const HEAD_BYTES = 1024;

class TooLarge extends Error {}

/** Counts, hashes and keeps the first bytes of a file part; fails as soon as it passes `limit`. */
export class FileMeter extends Transform {
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
export const spoolPath = (kind: string): string =>
  path.join(os.tmpdir(), `${kind}-upload-${randomBytes(12).toString('hex')}`);

export const removeSpool = (file: string | null | undefined): Promise<void> =>
  file ? fs.promises.rm(file, { force: true }) : Promise.resolve();

/** Room for the multipart framing and a few small form fields around a maximal file. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

/** Passes a body on until it passes `limit` bytes; then calls onLimit and passes nothing more. */
export function bodyLimit(limit: number, onLimit: () => void): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > limit) onLimit();
      else done(null, chunk);
    },
  });
}

/**
 * Leaves the rest of a refused body unread: the answer then closes the connection
 * (api/middleware/close-unread-body.ts) instead of reading on to the body's end.
 */
export function stopReading(req: IncomingMessage): void {
  req.unpipe();
  req.pause();
}
