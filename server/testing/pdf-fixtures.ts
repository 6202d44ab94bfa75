/**
 * Small real PDFs for tests, written by hand (PDF 1.4: a catalog, pages, the standard Helvetica font,
 * one content stream per page, an exact cross-reference table), so a test controls every byte: text a
 * reader must find, many pages, a document that asks for a password, a broken one.
 */

/** A PDF string literal: backslashes and parentheses escaped, Latin-1 only. */
function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (char) => `\\${char}`)})`;
}

export interface PdfOptions {
  /** An `/Encrypt` dictionary no empty password opens: a reader must ask for the password. */
  encrypted?: boolean;
  /** The first page's content stream, as given (compressed with `/FlateDecode`), instead of its lines. */
  firstPageStream?: Buffer;
}

/** A PDF whose pages show these lines of text, top to bottom. */
export function minimalPdf(pages: readonly (readonly string[])[], options: PdfOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) + 0;
  // Numbers are fixed: 1 catalog, 2 page tree, 3 font, then a page and its content per page, then Encrypt.
  add('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = pages.map((_, index) => `${4 + index * 2} 0 R`).join(' ');
  add(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (const [index, lines] of pages.entries()) {
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`);
    if (index === 0 && options.firstPageStream) {
      const raw = options.firstPageStream.toString('latin1');
      add(`<< /Length ${options.firstPageStream.length} /Filter /FlateDecode >>\nstream\n${raw}\nendstream`);
      continue;
    }
    const content = ['BT', '/F1 12 Tf', '14 TL', '72 760 Td', ...lines.map((line) => `${pdfString(line)} Tj T*`), 'ET'].join('\n');
    add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  }
  let encryptRef = '';
  if (options.encrypted) {
    const hex = (byte: string) => byte.repeat(64);
    add(`<< /Filter /Standard /V 1 /R 2 /O <${hex('a')}> /U <${hex('b')}> /P -4 >>`);
    encryptRef = ` /Encrypt ${objects.length} 0 R /ID [<${'0'.repeat(32)}> <${'0'.repeat(32)}>]`;
  }
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (const [index, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encryptRef} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The invoice the starter template's test reads: number INV-2024-0042, total EUR 1,234.50. */
export const invoicePdfLines = [
  'ACME Supplies SARL - Invoice',
  'Invoice number: INV-2024-0042',
  'Invoice date: 2024-11-05',
  'Bill to: Example Customer Ltd',
  'Widgets x 10 ........ EUR 1,000.00',
  'Shipping ............ EUR 234.50',
  'Total due: EUR 1,234.50',
] as const;

/**
 * A compression bomb: a PDF of a few hundred KB whose first page's content stream inflates to
 * `inflatedMb` MB of blanks before its text. Built in 1 MB steps, so the test process never holds it.
 */
export async function flateBombPdf(inflatedMb: number): Promise<Buffer> {
  const { createDeflate } = await import('node:zlib');
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const blanks = Buffer.alloc(1024 * 1024, 0x20);
  for (let step = 0; step < inflatedMb; step += 1) {
    if (!deflate.write(blanks)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end(Buffer.from('BT /F1 12 Tf 72 760 Td (bomb) Tj ET'));
  await ended;
  return minimalPdf([['unused']], { firstPageStream: Buffer.concat(chunks) });
}
