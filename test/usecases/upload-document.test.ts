import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DocumentErrors } from '../../domain/documents';
import { checkDocumentMetadata, uploadDocument, type ReceivedFile } from '../../usecases/upload-document';
import { createAccount, type TestAccount } from '../factories/accounts';
import { models, rowCounts, sql } from '../helpers/db';

/** The document upload use case, called directly against PostgreSQL with files spooled as the route spools them. */
describe('upload a document (use case)', () => {
  let account: TestAccount;
  let dir: string;
  const counted = ['documents', 'document_chunks'];

  async function spooled(fileName: string, content: string): Promise<ReceivedFile> {
    const bytes = Buffer.from(content);
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}-${fileName}`);
    await fs.writeFile(file, bytes);
    return {
      fileName,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest(),
      head: bytes.subarray(0, 1024),
      path: file,
    };
  }
  const upload = async (headers: Parameters<typeof checkDocumentMetadata>[1], file: ReceivedFile | undefined) =>
    uploadDocument(models(), {
      accountId: account.id,
      metadata: await checkDocumentMetadata(account.id, headers),
      file,
    });

  beforeAll(async () => {
    account = await createAccount('usecase-documents');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'usecase-documents-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('stores the document and its bytes, under the id asked for', async () => {
    const outcome = await upload(
      { title: ' Catch certificate ', type: 'certification', id: 'CERT-1' },
      await spooled('catch.csv', 'vessel,kg\nNord,120\n'),
    );
    if (outcome.kind !== 'uploaded') throw new Error(outcome.error);
    expect(outcome.document).toMatchObject({
      documentId: 'CERT-1',
      title: 'Catch certificate',
      documentType: 'Certification',
      fileType: 'text/csv',
      privacy: 'Private',
    });
    const { rows } = await sql().query<{ data: Buffer }>(
      `SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) AS data FROM document_chunks c WHERE c.document_id = $1`,
      [outcome.document.id],
    );
    expect(rows[0].data.toString()).toBe('vessel,kg\nNord,120\n');
  });

  it('refuses what breaks a rule, storing nothing: metadata, a file that is not what its name says, a missing file', async () => {
    const before = await rowCounts(account.id, counted);
    const certificate = { title: 'Cert', type: 'Certification' };
    expect(await upload({ ...certificate, company: 'NOBODY' }, await spooled('a.csv', 'a\n'))).toEqual({
      kind: 'failed',
      error: DocumentErrors.company('NOBODY'),
    });
    expect(await upload(certificate, await spooled('fake.pdf', 'not a pdf at all'))).toEqual({
      kind: 'failed',
      error: DocumentErrors.fileType,
    });
    expect(await upload(certificate, undefined)).toEqual({ kind: 'failed', error: DocumentErrors.fileMissing });
    expect(await rowCounts(account.id, counted)).toEqual(before);
  });

  it('an id taken between the check and the insert answers as the check would, and stores nothing', async () => {
    const metadata = await checkDocumentMetadata(account.id, { title: 'Twice', type: 'BOL', id: 'bol-9' });
    const first = await uploadDocument(models(), {
      accountId: account.id,
      metadata,
      file: await spooled('one.csv', 'x\n'),
    });
    expect(first.kind).toBe('uploaded');
    const before = await rowCounts(account.id, counted);
    // The same checked metadata, as a racing second upload holds it.
    expect(
      await uploadDocument(models(), { accountId: account.id, metadata, file: await spooled('two.csv', 'y\n') }),
    ).toEqual({ kind: 'failed', error: DocumentErrors.idInUse('bol-9') });
    expect(await rowCounts(account.id, counted)).toEqual(before);
  });
});
