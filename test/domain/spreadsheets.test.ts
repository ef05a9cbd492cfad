import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { readRows, UnreadableSpreadsheet, type SheetRow } from '../../platform/spreadsheets';

/** A workbook as exceljs writes it (its workbook part stored last): a data sheet, then a Notes sheet. */
async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const data = book.addWorksheet('Data');
  data.addRow(['Id', 'Quantity', 'EventTime']);
  data.addRow(['EV-1', 3, new Date('2024-03-01T09:30:00Z')]);
  data.addRow(['Ålesund 🐟', 4.5, 'not a date']);
  book.addWorksheet('Notes').addRow(['Column', 'Meaning']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const expected: SheetRow[] = [
  { row: 1, cells: ['Id', 'Quantity', 'EventTime'] },
  { row: 2, cells: ['EV-1', 3, new Date('2024-03-01T09:30:00Z')] },
  { row: 3, cells: ['Ålesund 🐟', 4.5, 'not a date'] },
];

/** The file with its part `path` marked encrypted (general purpose flag, bit 0), as a password-protected zip's parts are. */
function encrypted(file: Buffer, path: string): Buffer {
  const marked = Buffer.from(file);
  const name = Buffer.from(path);
  for (let at = marked.indexOf(name); at >= 0; at = marked.indexOf(name, at + 1)) {
    // A local header's name starts at its byte 30 and its flags at 6; a central directory header's at 46 and 8.
    if (at >= 30 && marked.readUInt32LE(at - 30) === 0x04034b50) marked[at - 30 + 6] |= 1;
    else if (at >= 46 && marked.readUInt32LE(at - 46) === 0x02014b50) marked[at - 46 + 8] |= 1;
  }
  return marked;
}

async function rowsOf(input: Buffer | Readable, options?: { maxInflatedBytes: number }): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  for await (const row of readRows(Buffer.isBuffer(input) ? Readable.from([input]) : input, 'xlsx', options))
    rows.push(row);
  return rows;
}

describe('the rows of an XLSX file', () => {
  it('are read whole every time, though the workbook part comes last in the zip', async () => {
    // exceljs's one-pass reader lost that part about once in a hundred reads here (exceljs/exceljs#3064):
    // five hundred reads all pass only when nothing is lost.
    const file = await workbook();
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 500; i++) {
      const outcome = await rowsOf(file).then(
        (rows) => (JSON.stringify(rows) === JSON.stringify(expected) ? 'read whole' : JSON.stringify(rows)),
        (error: Error) => error.message,
      );
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect(Object.fromEntries(outcomes)).toEqual({ 'read whole': 500 });
  });

  it("are the workbook's first sheet, whichever order the zip stores the sheets in", async () => {
    const zip = await JSZip.loadAsync(await workbook());
    const paths = Object.keys(zip.files).filter((path) => !zip.files[path].dir);
    // The Notes sheet first, the workbook part last.
    const order = [
      'xl/worksheets/sheet2.xml',
      ...paths.filter((path) => path !== 'xl/worksheets/sheet2.xml' && path !== 'xl/workbook.xml'),
      'xl/workbook.xml',
    ];
    const reordered = new JSZip();
    for (const path of order) reordered.file(path, await zip.files[path].async('nodebuffer'));
    const file = await reordered.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(Object.keys((await JSZip.loadAsync(file)).files).filter((path) => /sheet\d\.xml$/.test(path))).toEqual([
      'xl/worksheets/sheet2.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    expect(await rowsOf(file)).toEqual(expected);
  });

  it('keep text whole where a character falls between two chunks of the inflated file', async () => {
    // exceljs decodes each chunk on its own: one name in five thousand came back with U+FFFD in it.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    sheet.addRow(['Id', 'Name']);
    const names = Array.from({ length: 5000 }, (_, i) => `Ålesund-fisk-ø-${i}-🐟`);
    names.forEach((name, i) => sheet.addRow([`EV-${i}`, name]));
    const rows = await rowsOf(Buffer.from(await book.xlsx.writeBuffer()));
    expect(rows.slice(1).filter((row, i) => row.cells[1] !== names[i])).toEqual([]);
    expect(rows).toHaveLength(5001);
  });

  it("are the first worksheet's when the workbook names its sheets by absolute paths and puts a chart sheet first", async () => {
    const zip = await JSZip.loadAsync(await workbook());
    const rels = await zip.file('xl/_rels/workbook.xml.rels')!.async('string');
    const book = await zip.file('xl/workbook.xml')!.async('string');
    zip.file(
      'xl/_rels/workbook.xml.rels',
      rels
        .replace(/Target="worksheets\//g, 'Target="/xl/worksheets/')
        .replace(
          '</Relationships>',
          '<Relationship Id="rIdChart" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/></Relationships>',
        ),
    );
    expect(book).toContain('<sheets>');
    zip.file('xl/workbook.xml', book.replace('<sheets>', '<sheets><sheet name="Chart" sheetId="9" r:id="rIdChart"/>'));
    zip.file(
      'xl/chartsheets/sheet1.xml',
      '<chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews/></chartsheet>',
    );
    expect(await rowsOf(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }))).toEqual(expected);
  });

  it.each(['xl/workbook.xml', 'xl/worksheets/sheet1.xml'])(
    'of a file whose part %s is password-protected are refused, not waited for',
    async (path) => {
      await expect(rowsOf(encrypted(await workbook(), path))).rejects.toThrow(
        'The XLSX file cannot be read: MISSING_PASSWORD',
      );
    },
    10_000,
  );

  it('fail as the input fails when the input cannot be read (a database read of a stored file)', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('the database went away'));
      },
    });
    const reading = rowsOf(failing);
    await expect(reading).rejects.toThrow('the database went away');
    await expect(reading).rejects.not.toThrow(UnreadableSpreadsheet);
  });

  it('of a file that unzips to more than the limit are refused, saying to split it', async () => {
    // 5,000 rows unzip to about a megabyte: past a limit of a quarter of one. The service's limit is 512 MB.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    for (let i = 0; i < 5000; i++) sheet.addRow([`EV-${i}`, `name ${i}`, i]);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    await expect(rowsOf(file, { maxInflatedBytes: 256 * 1024 })).rejects.toThrow(
      'The XLSX file cannot be read: it unzips to more than 0.25 MB; split it into smaller files',
    );
    expect(await rowsOf(file)).toHaveLength(5000);
  });

  it('that is no zip, or a zip without a workbook, cannot be read, and says so', async () => {
    await expect(rowsOf(Buffer.from('Id,Quantity\nEV-1,3\n'))).rejects.toThrow(UnreadableSpreadsheet);
    const noWorkbook = await new JSZip().file('hello.txt', 'hello').generateAsync({ type: 'nodebuffer' });
    await expect(rowsOf(noWorkbook)).rejects.toThrow(
      'The XLSX file cannot be read: it holds no workbook (xl/workbook.xml and its relationships)',
    );
  });
});
