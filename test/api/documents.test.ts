import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { request as httpRequest } from 'node:http';
import { CHUNK_BYTES } from '../../db/repositories/documents';
import { MAX_FILE_BYTES } from '../../domain/documents';
import { createAccount, type TestAccount } from '../factories/accounts';
import { buildLocation, buildProduct, buildTradePartner } from '../factories/master-data-rows';
import { sql } from '../helpers/db';
import { apiUrl, client, request, type Response } from '../helpers/http';
import { startReplica, stopReplica, type Replica } from '../helpers/replica';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const CFB = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
const CSV = Buffer.from('lot,quantity\nL1,10\n');

/** A zip whose first entry has this name: enough for content sniffing to call it docx or xlsx. */
function zipWithEntry(name: string): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(5, 18); // compressed size
  header.writeUInt32LE(5, 22); // uncompressed size
  header.writeUInt16LE(Buffer.byteLength(name), 26);
  return Buffer.concat([header, Buffer.from(name), Buffer.from('<x/>\n'), Buffer.alloc(64)]);
}

interface FilePart {
  name?: string;
  fileName: string;
  content: Buffer;
}

function form(...files: FilePart[]): FormData {
  const data = new FormData();
  for (const file of files) data.append(file.name ?? 'file', new Blob([file.content]), file.fileName);
  return data;
}

const upload = (
  account: TestAccount,
  headers: Record<string, string>,
  body: FormData | string | undefined = form({ fileName: 'cert.pdf', content: PDF }),
) => request('POST', '/Integration/Documents', { key: account.key, headers, body });

const basic = { 'X-Document-Title': 'Catch certificate', 'X-Document-Type': 'Certification' };

const storedCount = async (account: TestAccount): Promise<number> =>
  Number(
    (await sql().query<{ n: string }>('SELECT count(*) AS n FROM documents WHERE account_id = $1', [account.id]))
      .rows[0].n,
  );

const chunkCount = async (account: TestAccount): Promise<number> =>
  Number(
    (await sql().query<{ n: string }>('SELECT count(*) AS n FROM document_chunks WHERE account_id = $1', [account.id]))
      .rows[0].n,
  );

function expectFailed(response: Response, error: string): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 422,
    body: { documents: [expect.objectContaining({ status: 'Failed', error, fileType: null })] },
  });
}

describe('POST /Integration/Documents: a valid upload', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount('docs');
  });

  it('stores the file with every header and answers the SPEC.md document', async () => {
    await buildTradePartner(account.id, 'TP-1');
    await buildLocation(account.id, 'LOC-1');
    await buildProduct(account.id, 'PRD-1');
    const response = await upload(account, {
      'X-Document-Title': '  Bill of lading 17  ',
      'X-Document-Type': 'bol',
      'X-Document-Id': 'BOL-17#a',
      'X-Document-Expiration-Date': '2028-02-29',
      'X-Document-Company': 'TP-1',
      'X-Document-Location': 'LOC-1',
      'X-Document-Product': 'PRD-1',
      'X-Document-Privacy': 'public',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      documents: [
        {
          documentId: 'BOL-17#a',
          title: 'Bill of lading 17',
          documentType: 'BOL',
          documentTypeName: null,
          fileName: 'cert.pdf',
          fileType: 'application/pdf',
          expirationDate: '2028-02-29',
          company: 'TP-1',
          location: 'LOC-1',
          product: 'PRD-1',
          privacy: 'Public',
          status: 'Uploaded',
          error: null,
        },
      ],
    });
    const { rows } = await sql().query(
      `SELECT d.size_bytes, d.sha256, (SELECT string_agg(c.data, ''::bytea ORDER BY c.seq) FROM document_chunks c WHERE c.document_id = d.id) AS content
         FROM documents d WHERE d.account_id = $1 AND d.document_id = 'BOL-17#a'`,
      [account.id],
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].size_bytes)).toBe(PDF.length);
    expect(Buffer.compare(rows[0].content, PDF)).toBe(0);
    expect(rows[0].sha256.toString('hex')).toBe(createHash('sha256').update(PDF).digest('hex'));
  });

  it('generates DOC- and 32 hex characters and defaults privacy to Private', async () => {
    const response = await upload(account, basic);
    expect(response.status).toBe(200);
    expect(response.body.documents[0]).toMatchObject({
      documentId: expect.stringMatching(/^DOC-[0-9A-F]{32}$/),
      privacy: 'Private',
      expirationDate: null,
    });
  });

  it('keeps the custom type name of type Other', async () => {
    const response = await upload(account, {
      ...basic,
      'X-Document-Type': 'OTHER',
      'X-Document-Type-Name': 'Lab report',
    });
    expect(response.body.documents[0]).toMatchObject({ documentType: 'Other', documentTypeName: 'Lab report' });
  });

  it('reads a UTF-8 title and file name', async () => {
    const headers = { ...basic, 'X-Document-Title': Buffer.from('Año de captura – Ñandú', 'utf8').toString('latin1') };
    const response = await upload(account, headers, form({ fileName: 'certificación.pdf', content: PDF }));
    expect(response.status).toBe(200);
    expect(response.body.documents[0]).toMatchObject({
      title: 'Año de captura – Ñandú',
      fileName: 'certificación.pdf',
    });
  });

  it.each([
    [
      'sheet.xlsx',
      zipWithEntry('xl/workbook.xml'),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    ['legacy.XLS', CFB, 'application/vnd.ms-excel'],
    [
      'letter.docx',
      zipWithEntry('word/document.xml'),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    ['letter.doc', CFB, 'application/msword'],
    ['lots.csv', CSV, 'text/csv'],
    ['photo.jpeg', JPEG, 'image/jpeg'],
    ['photo.JPG', JPEG, 'image/jpeg'],
  ])('decides the file type of %s from its content and extension', async (fileName, content, fileType) => {
    const response = await upload(account, basic, form({ fileName, content }));
    expect(response.status).toBe(200);
    expect(response.body.documents[0]).toMatchObject({ fileName, fileType });
  });
});

describe('POST /Integration/Documents: every SPEC.md error, with nothing stored', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount('docs-errors');
    await upload(account, { ...basic, 'X-Document-Id': 'EXISTING-1' });
  });

  const cases: [string, Record<string, string>, FormData | string | undefined, string][] = [
    ['title missing', { 'X-Document-Type': 'BOL' }, undefined, 'Document title is required.'],
    ['title blank', { ...basic, 'X-Document-Title': '   ' }, undefined, 'Document title is required.'],
    [
      'title 201 characters',
      { ...basic, 'X-Document-Title': 'x'.repeat(201) },
      undefined,
      'Document title must not be longer than 200 characters.',
    ],
    [
      'type missing',
      { 'X-Document-Title': 'T' },
      undefined,
      'Document type is required and must be Certification, PurchaseOrder, Other, or BOL.',
    ],
    [
      'type unknown',
      { ...basic, 'X-Document-Type': 'Invoice' },
      undefined,
      'Document type is required and must be Certification, PurchaseOrder, Other, or BOL.',
    ],
    [
      'Other without name',
      { ...basic, 'X-Document-Type': 'Other' },
      undefined,
      'Document type name is required when the document type is Other.',
    ],
    [
      'id empty',
      { ...basic, 'X-Document-Id': '' },
      undefined,
      'Document ID must be 1-100 characters and must not contain control characters.',
    ],
    [
      'id with a space',
      { ...basic, 'X-Document-Id': 'A B' },
      undefined,
      'Document ID must be 1-100 characters and must not contain control characters.',
    ],
    [
      'id of 101 characters',
      { ...basic, 'X-Document-Id': 'x'.repeat(101) },
      undefined,
      'Document ID must be 1-100 characters and must not contain control characters.',
    ],
    [
      'id in use, other case',
      { ...basic, 'X-Document-Id': 'existing-1' },
      undefined,
      "Document ID 'existing-1' is already in use.",
    ],
    [
      'impossible date',
      { ...basic, 'X-Document-Expiration-Date': '2025-02-30' },
      undefined,
      'Expiration date must be an ISO date (YYYY-MM-DD).',
    ],
    [
      'date not ISO',
      { ...basic, 'X-Document-Expiration-Date': '02/03/2025' },
      undefined,
      'Expiration date must be an ISO date (YYYY-MM-DD).',
    ],
    ['privacy unknown', { ...basic, 'X-Document-Privacy': 'Secret' }, undefined, 'Privacy must be Public or Private.'],
    ['company unknown', { ...basic, 'X-Document-Company': 'TP-NOPE' }, undefined, 'Company not found: TP-NOPE'],
    ['location unknown', { ...basic, 'X-Document-Location': 'LOC-NOPE' }, undefined, 'Location not found: LOC-NOPE'],
    ['product unknown', { ...basic, 'X-Document-Product': 'PRD-NOPE' }, undefined, 'Product not found: PRD-NOPE'],
    ['no file field', basic, new FormData(), 'Please add a document file.'],
    [
      'file under another field name',
      basic,
      form({ name: 'document', fileName: 'a.pdf', content: PDF }),
      'Please add a document file.',
    ],
    ['not multipart at all', basic, 'just text', 'Please add a document file.'],
    ['empty file', basic, form({ fileName: 'a.pdf', content: Buffer.alloc(0) }), 'Please add a document file.'],
    [
      'extension not allowed',
      basic,
      form({ fileName: 'a.png', content: PNG }),
      'The file type is not supported. Allowed types are pdf, xlsx, xls, csv, docx, doc, jpeg, and jpg.',
    ],
    [
      'content not what the extension says',
      basic,
      form({ fileName: 'a.pdf', content: PNG }),
      'The file type is not supported. Allowed types are pdf, xlsx, xls, csv, docx, doc, jpeg, and jpg.',
    ],
  ];

  it.each(cases)('%s: 422 with the exact message', async (_case, headers, body, message) => {
    const before = await storedCount(account);
    const response = await upload(account, headers, body);
    expectFailed(response, message);
    expect(await storedCount(account)).toBe(before);
    expect(before).toBe(1);
  });

  it('a Failed document echoes what was sent, null where absent', async () => {
    const response = await upload(
      account,
      {
        'X-Document-Title': ' T ',
        'X-Document-Type': 'bol',
        'X-Document-Id': 'NEW-1',
        'X-Document-Privacy': 'private',
        'X-Document-Company': 'TP-NOPE',
      },
      form({ fileName: 'a.pdf', content: PDF }),
    );
    expect(response.body).toEqual({
      documents: [
        {
          documentId: 'NEW-1',
          title: 'T',
          documentType: 'BOL',
          documentTypeName: null,
          fileName: 'a.pdf',
          fileType: null,
          expirationDate: null,
          company: 'TP-NOPE',
          location: null,
          product: null,
          privacy: 'Private',
          status: 'Failed',
          error: 'Company not found: TP-NOPE',
        },
      ],
    });
  });

  it('more than one file: 422 with the plain JSON string', async () => {
    const response = await upload(
      account,
      basic,
      form({ fileName: 'a.pdf', content: PDF }, { fileName: 'b.pdf', content: PDF }),
    );
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.text).toBe('"Send one file per request."');
    expect(await storedCount(account)).toBe(1);
  });

  it('an existing document is never changed by an upload with its id', async () => {
    const before = (await sql().query('SELECT * FROM documents WHERE account_id = $1', [account.id])).rows;
    const response = await upload(
      account,
      {
        'X-Document-Title': 'Replacement',
        'X-Document-Type': 'Other',
        'X-Document-Type-Name': 'X',
        'X-Document-Id': 'EXISTING-1',
      },
      form({ fileName: 'b.csv', content: CSV }),
    );
    expectFailed(response, "Document ID 'EXISTING-1' is already in use.");
    expect((await sql().query('SELECT * FROM documents WHERE account_id = $1', [account.id])).rows).toEqual(before);
    expect(await chunkCount(account)).toBe(1);
  });

  it('the same id is free in another account', async () => {
    const other = await createAccount('docs-other');
    expect((await upload(other, { ...basic, 'X-Document-Id': 'EXISTING-1' })).status).toBe(200);
  });

  it('two uploads racing for one id: one is stored, the other gets the in-use message', async () => {
    const racer = await createAccount('docs-race');
    const responses = await Promise.all([1, 2, 3, 4].map(() => upload(racer, { ...basic, 'X-Document-Id': 'RACE-1' })));
    expect(responses.map((r) => r.status).sort((a, b) => a - b)).toEqual([200, 422, 422, 422]);
    for (const r of responses.filter((x) => x.status === 422))
      expectFailed(r, "Document ID 'RACE-1' is already in use.");
    expect(await storedCount(racer)).toBe(1);
  });
});

describe('POST /Integration/Documents: bodies that cannot be read', () => {
  const multipartHead = (boundary: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`;

  it('a truncated multipart body is a 400 problem, nothing stored', async () => {
    const account = await createAccount('docs-broken');
    const response = await upload(
      account,
      { ...basic, 'Content-Type': 'multipart/form-data; boundary=b0undary' },
      multipartHead('b0undary'),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 400,
      code: 'unreadable-body',
      detail: expect.stringMatching(/^The request body is not valid multipart\/form-data/),
    });
    expect(await storedCount(account)).toBe(0);
  });

  it('a client that leaves mid-upload leaves nothing behind, and the API carries on', async () => {
    const account = await createAccount('docs-abort');
    await new Promise<void>((resolve) => {
      const req = httpRequest(`${apiUrl()}/Integration/Documents`, {
        method: 'POST',
        headers: {
          'X-API-KEY': account.key,
          'Content-Type': 'multipart/form-data; boundary=b0undary',
          'Content-Length': String(5 * 1024 * 1024),
          ...basic,
        },
      });
      req.on('error', () => resolve());
      req.write(multipartHead('b0undary'));
      req.write(Buffer.alloc(1024 * 1024));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    expect((await upload(account, basic)).status).toBe(200);
    expect(await storedCount(account)).toBe(1);
  });
});

describe('POST /Integration/Documents: the order of checks when several fail', () => {
  it('reports title, type, type name, id, id in use, expiration, privacy, company, location, product, file in that order', async () => {
    const account = await createAccount('docs-order');
    await upload(account, { ...basic, 'X-Document-Id': 'TAKEN' });
    await buildTradePartner(account.id, 'TP-1');
    await buildLocation(account.id, 'LOC-1');
    await buildProduct(account.id, 'PRD-1');
    let headers: Record<string, string> = {
      'X-Document-Title': 'x'.repeat(201),
      'X-Document-Type': 'Nope',
      'X-Document-Id': 'bad id',
      'X-Document-Expiration-Date': '2025-02-30',
      'X-Document-Privacy': 'Secret',
      'X-Document-Company': 'TP-X',
      'X-Document-Location': 'LOC-X',
      'X-Document-Product': 'PRD-X',
    };
    const bad = form({ fileName: 'virus.exe', content: PNG });
    const steps: [Record<string, string>, string][] = [
      [{}, 'Document title must not be longer than 200 characters.'],
      [
        { 'X-Document-Title': 'T' },
        'Document type is required and must be Certification, PurchaseOrder, Other, or BOL.',
      ],
      [{ 'X-Document-Type': 'Other' }, 'Document type name is required when the document type is Other.'],
      [
        { 'X-Document-Type-Name': 'Lab' },
        'Document ID must be 1-100 characters and must not contain control characters.',
      ],
      [{ 'X-Document-Id': 'taken' }, "Document ID 'taken' is already in use."],
      [{ 'X-Document-Id': 'FREE-1' }, 'Expiration date must be an ISO date (YYYY-MM-DD).'],
      [{ 'X-Document-Expiration-Date': '2030-01-31' }, 'Privacy must be Public or Private.'],
      [{ 'X-Document-Privacy': 'Public' }, 'Company not found: TP-X'],
      [{ 'X-Document-Company': 'TP-1' }, 'Location not found: LOC-X'],
      [{ 'X-Document-Location': 'LOC-1' }, 'Product not found: PRD-X'],
      [
        { 'X-Document-Product': 'PRD-1' },
        'The file type is not supported. Allowed types are pdf, xlsx, xls, csv, docx, doc, jpeg, and jpg.',
      ],
    ];
    for (const [fix, message] of steps) {
      headers = { ...headers, ...fix };
      expectFailed(await upload(account, headers, bad), message);
    }
    expect(await storedCount(account)).toBe(1);
    expect((await upload(account, headers)).status).toBe(200);
  });

  it('body-level failures come first: two files with bad headers still get the plain string', async () => {
    const account = await createAccount('docs-order');
    const response = await upload(
      account,
      { 'X-Document-Type': 'Nope' },
      form({ fileName: 'a.pdf', content: PDF }, { fileName: 'b.pdf', content: PDF }),
    );
    expect(response.status).toBe(422);
    expect(response.body).toBe('Send one file per request.');
  });
});

describe('POST /Integration/Documents: the 20 MB limit', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createAccount('docs-size');
  });

  const pdfOfSize = (size: number) => {
    const content = Buffer.alloc(size, 0x20);
    PDF.copy(content);
    return content;
  };

  it('accepts a file of exactly 20 MB and stores every byte', async () => {
    const content = pdfOfSize(MAX_FILE_BYTES);
    const response = await upload(
      account,
      { ...basic, 'X-Document-Id': 'BIG-1' },
      form({ fileName: 'big.pdf', content }),
    );
    expect(response.status).toBe(200);
    const { rows } = await sql().query('SELECT size_bytes, sha256 FROM documents WHERE account_id = $1', [account.id]);
    expect(Number(rows[0].size_bytes)).toBe(MAX_FILE_BYTES);
    expect(rows[0].sha256.toString('hex')).toBe(createHash('sha256').update(content).digest('hex'));
    expect(await chunkCount(account)).toBe(MAX_FILE_BYTES / CHUNK_BYTES);
    const download = await fetch(`${apiUrl()}/Integration/Documents/BIG-1/content`, {
      headers: { 'X-API-KEY': account.key },
    });
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(MAX_FILE_BYTES);
    expect(bytes.equals(content)).toBe(true);
  });

  it('answers one byte more with 413 and an HTML page, storing nothing', async () => {
    const before = await storedCount(account);
    const response = await upload(
      account,
      { ...basic, 'X-Document-Id': 'BIG-2' },
      form({ fileName: 'big.pdf', content: pdfOfSize(MAX_FILE_BYTES + 1) }),
    );
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toMatch(/<html>[\s\S]*413 Request Entity Too Large/);
    expect(await storedCount(account)).toBe(before);
  });

  it('answers 413 at once, unread, when the declared length is already over the limit', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${apiUrl()}/Integration/Documents`, {
        method: 'POST',
        headers: {
          'X-API-KEY': account.key,
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': String(50 * 1024 * 1024),
          ...basic,
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.write('--x\r\n'); // the body never comes: the answer must not wait for it
    });
    expect(status).toBe(413);
  });

  it('the API stays healthy after a refused upload (no leaked spool file keeps it busy)', async () => {
    expect((await request('GET', '/healthz')).status).toBe(200);
  });
});

describe('reading documents back', () => {
  let owner: TestAccount;
  let stranger: TestAccount;
  beforeAll(async () => {
    owner = await createAccount('docs-read');
    stranger = await createAccount('docs-stranger');
    for (const id of ['R-1', 'R-2', 'R-3']) await upload(owner, { ...basic, 'X-Document-Id': id });
    await upload(owner, { ...basic, 'X-Document-Id': 'R-4#x' }, form({ fileName: 'año (lots).csv', content: CSV }));
  });

  it('GET /Integration/Documents/{id}: metadata, id in any case', async () => {
    const response = await client(owner.key).get('/Integration/Documents/r-2');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      documentId: 'R-2',
      title: 'Catch certificate',
      fileType: 'application/pdf',
      status: 'Uploaded',
      error: null,
      fileSize: PDF.length,
      sha256: createHash('sha256').update(PDF).digest('hex'),
    });
  });

  it('GET /Integration/Documents/{id}/content: the bytes, their type and a download name', async () => {
    const response = await fetch(`${apiUrl()}/Integration/Documents/${encodeURIComponent('r-4#X')}/content`, {
      headers: { 'X-API-KEY': owner.key },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="a_o (lots).csv"; filename*=UTF-8''a%C3%B1o%20%28lots%29.csv`,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(CSV)).toBe(true);
  });

  it.each(['/Integration/Documents/R-1', '/Integration/Documents/R-1/content', '/Integration/Documents/NOPE'])(
    '%s is a 404 problem for anyone but the owner',
    async (path) => {
      const response = await client(stranger.key).get(path);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ status: 404, traceId: expect.any(String) });
    },
  );

  it('GET /Integration/Documents: pages in upload order', async () => {
    const first = await client(owner.key).get('/Integration/Documents?PageSize=3');
    expect(first.body).toMatchObject({
      totalPages: 2,
      pageNumber: 1,
      pageSize: 3,
      totalItems: 4,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    expect(first.body.results.map((d: { documentId: string }) => d.documentId)).toEqual(['R-1', 'R-2', 'R-3']);
    const second = await client(owner.key).get('/Integration/Documents?PageSize=3&PageNumber=2');
    expect(second.body).toMatchObject({
      totalPages: 2,
      pageNumber: 2,
      pageSize: 3,
      totalItems: 4,
      hasNextPage: false,
      hasPreviousPage: true,
    });
    expect(second.body.results.map((d: { documentId: string }) => d.documentId)).toEqual(['R-4#x']);
    const defaults = await client(owner.key).get('/Integration/Documents');
    expect(defaults.body).toMatchObject({ pageNumber: 1, pageSize: 20, totalItems: 4, totalPages: 1 });
    expect((await client(stranger.key).get('/Integration/Documents')).body).toMatchObject({
      totalItems: 0,
      results: [],
      totalPages: 0,
    });
  });

  it.each(['PageNumber=0', 'PageSize=0', 'PageNumber=abc', 'PageSize=-1'])(
    '?%s is a 400 with a plain JSON string',
    async (query) => {
      const response = await client(owner.key).get(`/Integration/Documents?${query}`);
      expect(response.status).toBe(400);
      expect(response.body).toBe('PageNumber and PageSize must be greater than 0.');
    },
  );

  it('caps PageSize at 100 like every other list', async () => {
    const response = await client(owner.key).get('/Integration/Documents?PageSize=101');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ pageSize: 100, totalItems: 4 });
  });
});

/** Kilobytes of a /proc/<pid>/status line (VmRSS: resident now, VmHWM: peak resident since the last reset). */
function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1]);
}

/*
 * V8 collects Buffer memory once about 64 MiB of it has been allocated since its last collection, so the
 * garbage a streaming upload leaves (chunk buffers) peaks near that whatever the number of uploads, while
 * holding the file grows with each one. 16 uploads keep the two far apart: 3 to 6 MiB per upload measured
 * streaming, 21 to 26 with each file kept in memory (4 uploads measured up to 16 MiB per upload streaming).
 */
const CONCURRENT = 16;

/*
 * An API process of its own on the test stack (test/helpers/replica.ts), without a worker of its own
 * (API_SYNC_WORKER=false): the stack's API also runs other test files' small batches, whose memory would
 * be counted with the uploads'. Its peak resident memory is read from /proc; writing 5 to clear_refs
 * resets VmHWM to the current RSS, so the peak covers these uploads only.
 */
describe('memory while receiving 20 MB uploads', () => {
  let replica: Replica | undefined;
  beforeAll(async () => {
    replica = await startReplica({ API_SYNC_WORKER: 'false' });
  }, 120_000);
  afterAll(() => stopReplica(replica));

  it(`grows by far less than 20 MB per concurrent upload (${CONCURRENT} at once)`, async () => {
    const { pid, url } = replica!;
    const account = await createAccount('docs-memory');
    const content = Buffer.alloc(MAX_FILE_BYTES, 0x20);
    PDF.copy(content);
    const send = (id: string, file = content) =>
      request('POST', '/Integration/Documents', {
        key: account.key,
        headers: { ...basic, 'X-Document-Id': id },
        body: form({ fileName: 'big.pdf', content: file }),
        baseUrl: url,
      });
    // Warm-up: code paths compiled and the pools' connections open before the baseline is taken. A small
    // file, whose garbage leaves no freed memory in the baseline for the uploads to reuse unseen.
    expect((await send('WARM-UP', PDF)).status).toBe(200);

    const baselineKb = statusKb(pid, 'VmRSS');
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => send(`MEM-${i}`)));
    const peakKb = statusKb(pid, 'VmHWM');

    expect(responses.map((r) => r.status)).toEqual(Array(CONCURRENT).fill(200));
    const growthMiB = (peakKb - baselineKb) / 1024;
    const perUploadMiB = growthMiB / CONCURRENT;
    console.info(
      `API peak RSS growth while receiving ${CONCURRENT} concurrent 20 MiB uploads: ${growthMiB.toFixed(1)} MiB ` +
        `(${perUploadMiB.toFixed(1)} MiB per upload; baseline ${(baselineKb / 1024).toFixed(0)} MiB)`,
    );
    // Holding the file costs at least 20 MiB per upload; what is measured streaming is a few chunk
    // buffers plus garbage the collector has not reclaimed yet.
    expect(perUploadMiB).toBeLessThan(12);
  });
});
