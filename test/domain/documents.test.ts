import {
  checkFile,
  checkMetadata,
  contentDisposition,
  DocumentErrors,
  type DocumentHeaders,
  type DocumentLookups,
  extensionOf,
  generateDocumentId,
  isIsoDate,
  isValidDocumentId,
} from '../../domain/documents';

/** An account that holds exactly these ids: in-memory answers to the check list's lookups. */
function account(
  ids: { documents?: string[]; companies?: string[]; locations?: string[]; products?: string[] } = {},
): DocumentLookups {
  const has = (list: string[] | undefined, id: string) => (list ?? []).includes(id);
  return {
    documentIdInUse: async (id) => (ids.documents ?? []).some((d) => d.toLowerCase() === id.toLowerCase()),
    companyExists: async (id) => has(ids.companies, id),
    locationExists: async (id) => has(ids.locations, id),
    productExists: async (id) => has(ids.products, id),
  };
}

const valid: DocumentHeaders = { title: 'Catch certificate', type: 'Certification' };
const errorOf = async (headers: DocumentHeaders, lookups = account()) => {
  const result = await checkMetadata(headers, lookups);
  return result.ok ? undefined : result.error;
};

describe('document header rules', () => {
  it('trims the title and takes the defaults for absent optional headers', async () => {
    expect(await checkMetadata({ title: '  PO 17  ', type: 'purchaseorder' }, account())).toEqual({
      ok: true,
      value: {
        title: 'PO 17',
        documentType: 'PurchaseOrder',
        documentTypeName: null,
        documentId: null,
        expirationDate: null,
        company: null,
        location: null,
        product: null,
        privacy: 'Private',
      },
    });
  });

  it.each([
    [{ ...valid, title: undefined }, DocumentErrors.titleRequired],
    [{ ...valid, title: '   ' }, DocumentErrors.titleRequired],
    [{ ...valid, title: 'x'.repeat(201) }, DocumentErrors.titleTooLong],
    [{ ...valid, type: undefined }, DocumentErrors.type],
    [{ ...valid, type: 'Invoice' }, DocumentErrors.type],
    [{ ...valid, type: 'other' }, DocumentErrors.typeName],
    [{ ...valid, type: 'Other', typeName: '  ' }, DocumentErrors.typeName],
    [{ ...valid, id: '' }, DocumentErrors.id],
    [{ ...valid, id: 'has space' }, DocumentErrors.id],
    [{ ...valid, id: 'tab\there' }, DocumentErrors.id],
    [{ ...valid, id: 'x'.repeat(101) }, DocumentErrors.id],
    [{ ...valid, id: 'doc-1' }, "Document ID 'doc-1' is already in use."],
    [{ ...valid, expirationDate: '2025-02-30' }, DocumentErrors.expirationDate],
    [{ ...valid, expirationDate: '2025-2-3' }, DocumentErrors.expirationDate],
    [{ ...valid, privacy: 'Secret' }, DocumentErrors.privacy],
    [{ ...valid, company: 'TP-X' }, 'Company not found: TP-X'],
    [{ ...valid, location: 'LOC-X' }, 'Location not found: LOC-X'],
    [{ ...valid, product: 'PRD-X' }, 'Product not found: PRD-X'],
  ])('%j fails with its message', async (headers, message) => {
    expect(await errorOf(headers, account({ documents: ['DOC-1'] }))).toBe(message);
  });

  it('keeps a 200-character title (characters, not UTF-16 units)', async () => {
    expect(await errorOf({ ...valid, title: 'ñ'.repeat(200) })).toBeUndefined();
    expect(await errorOf({ ...valid, title: '🐟'.repeat(200) })).toBeUndefined();
  });

  it('accepts every allowed id character and 100 characters', async () => {
    expect(await errorOf({ ...valid, id: 'A-z_0.9#-' })).toBeUndefined();
    expect(await errorOf({ ...valid, id: 'x'.repeat(100) })).toBeUndefined();
  });

  it('reads type and privacy in any case and stores the canonical spelling', async () => {
    const result = await checkMetadata({ ...valid, type: 'bOl', privacy: 'PUBLIC' }, account());
    expect(result.ok && [result.value.documentType, result.value.privacy]).toEqual(['BOL', 'Public']);
  });

  it('keeps the type name only for type Other', async () => {
    const other = await checkMetadata({ ...valid, type: 'Other', typeName: ' Lab report ' }, account());
    expect(other.ok && other.value.documentTypeName).toBe('Lab report');
    const bol = await checkMetadata({ ...valid, type: 'BOL', typeName: 'Lab report' }, account());
    expect(bol.ok && bol.value.documentTypeName).toBeNull();
  });

  it('reports the first failure in the documented order when every rule fails', async () => {
    const everything: DocumentHeaders = {
      title: 'x'.repeat(201),
      type: 'Nope',
      id: 'bad id',
      expirationDate: '2025-02-30',
      privacy: 'Secret',
      company: 'TP-X',
      location: 'LOC-X',
      product: 'PRD-X',
    };
    // Fix one rule at a time, in order: each fix reveals the next rule's message.
    const steps: [Partial<DocumentHeaders>, string][] = [
      [{}, DocumentErrors.titleTooLong],
      [{ title: 'ok' }, DocumentErrors.type],
      [{ type: 'Other' }, DocumentErrors.typeName],
      [{ typeName: 'Lab' }, DocumentErrors.id],
      [{ id: 'doc-1' }, DocumentErrors.idInUse('doc-1')],
      [{ id: 'DOC-2' }, DocumentErrors.expirationDate],
      [{ expirationDate: '2024-02-29' }, DocumentErrors.privacy],
      [{ privacy: 'public' }, DocumentErrors.company('TP-X')],
      [{ company: 'TP-1' }, DocumentErrors.location('LOC-X')],
      [{ location: 'LOC-1' }, DocumentErrors.product('PRD-X')],
    ];
    const lookups = account({ documents: ['DOC-1'], companies: ['TP-1'], locations: ['LOC-1'], products: ['PRD-1'] });
    let headers = everything;
    for (const [fix, message] of steps) {
      headers = { ...headers, ...fix };
      expect(await errorOf(headers, lookups)).toBe(message);
    }
    expect(await errorOf({ ...headers, product: 'PRD-1' }, lookups)).toBeUndefined();
  });

  it('asks no lookup when a pure rule already failed', async () => {
    const asked: string[] = [];
    const spy: DocumentLookups = {
      documentIdInUse: async () => (asked.push('id'), false),
      companyExists: async () => (asked.push('company'), true),
      locationExists: async () => (asked.push('location'), true),
      productExists: async () => (asked.push('product'), true),
    };
    await checkMetadata({ title: '', id: 'A', company: 'C', location: 'L', product: 'P' }, spy);
    expect(asked).toEqual([]);
  });
});

describe('dates, ids and names', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2025-02-30', false],
    ['2025-04-31', false],
    ['2025-12-31', true],
    ['2025-13-01', false],
    ['2025-00-10', false],
    ['2025-01-00', false],
    ['2025-01-01T00:00:00Z', false],
    ['20250101', false],
  ])('%s is a real ISO date: %s', (value, expected) => {
    expect(isIsoDate(value)).toBe(expected);
  });

  it('generates DOC- and 32 hex characters, all different', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => generateDocumentId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) {
      expect(id).toMatch(/^DOC-[0-9A-F]{32}$/);
      expect(isValidDocumentId(id)).toBe(true);
    }
  });

  it('reads extensions in any case', () => {
    expect(extensionOf('Report.PDF')).toBe('pdf');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('README')).toBe('');
  });

  it('writes a Content-Disposition that survives any file name', () => {
    expect(contentDisposition('plain.pdf')).toBe(`attachment; filename="plain.pdf"; filename*=UTF-8''plain.pdf`);
    expect(contentDisposition('año "1".pdf')).toBe(
      `attachment; filename="a_o _1_.pdf"; filename*=UTF-8''a%C3%B1o%20%221%22.pdf`,
    );
  });
});

describe('file rules', () => {
  const pdf = { fileName: 'a.pdf', size: 10, sniffed: 'pdf', head: Buffer.from('%PDF-1.7') };

  it.each([
    ['a.pdf', 'pdf', 'application/pdf'],
    ['A.PDF', 'pdf', 'application/pdf'],
    ['s.xlsx', 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['s.xlsx', 'zip', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['s.xls', 'cfb', 'application/vnd.ms-excel'],
    ['d.docx', 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['d.doc', 'cfb', 'application/msword'],
    ['t.csv', undefined, 'text/csv'],
    ['p.jpg', 'jpg', 'image/jpeg'],
    ['p.JPEG', 'jpg', 'image/jpeg'],
  ])('%s with content %s is stored as %s', (fileName, sniffed, fileType) => {
    expect(checkFile({ ...pdf, fileName, sniffed })).toEqual({ ok: true, value: { fileType } });
  });

  it.each([
    ['no file', undefined, DocumentErrors.fileMissing],
    ['an empty file', { ...pdf, size: 0, sniffed: undefined }, DocumentErrors.fileMissing],
    ['a .png', { ...pdf, fileName: 'a.png', sniffed: 'png' }, DocumentErrors.fileType],
    ['no extension', { ...pdf, fileName: 'pdf' }, DocumentErrors.fileType],
    ['an executable named .pdf', { ...pdf, sniffed: 'exe' }, DocumentErrors.fileType],
    ['a PDF named .csv', { ...pdf, fileName: 'a.csv' }, DocumentErrors.fileType],
    ['a spreadsheet named .docx', { ...pdf, fileName: 'a.docx', sniffed: 'xlsx' }, DocumentErrors.fileType],
    ['text named .pdf', { ...pdf, sniffed: undefined, head: Buffer.from('hello') }, DocumentErrors.fileType],
  ])('%s is refused', (_case, file, message) => {
    expect(checkFile(file)).toEqual({ ok: false, error: message });
  });

  it('checks the extension before emptiness', () => {
    expect(checkFile({ ...pdf, fileName: 'a.exe', size: 0 })).toEqual({ ok: false, error: DocumentErrors.fileType });
  });

  it('accepts a PDF with a short preamble before %PDF-, as readers do', () => {
    expect(checkFile({ ...pdf, sniffed: undefined, head: Buffer.from('\r\n\r\n%PDF-1.4') })).toEqual({
      ok: true,
      value: { fileType: 'application/pdf' },
    });
  });
});
