import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadMediaType, safeFilename } from './download-headers';

describe('downloadMediaType', () => {
  it.each([
    ['image/png', 'image/png'],
    ['IMAGE/JPEG; name="x.jpg"', 'image/jpeg'],
    ['application/pdf', 'application/octet-stream'],
    ['text/plain; charset=utf-8', 'text/plain'],
    ['text/html', 'application/octet-stream'],
    ['TEXT/HTML; charset=utf-8', 'application/octet-stream'],
    ['image/svg+xml', 'application/octet-stream'],
    ['application/xhtml+xml', 'application/octet-stream'],
    ['application/xml', 'application/octet-stream'],
    ['text/xml', 'application/octet-stream'],
    ['application/rss+xml', 'application/octet-stream'],
    ['application/javascript', 'application/octet-stream'],
    ['text/javascript', 'application/octet-stream'],
    ['application/x-javascript', 'application/octet-stream'],
    ['application/ecmascript', 'application/octet-stream'],
    ['text/ecmascript', 'application/octet-stream'],
    ['application/xslt+xml', 'application/octet-stream'],
    ['text/xsl', 'application/octet-stream'],
    ['text/cache-manifest', 'application/octet-stream'],
    ['multipart/x-mixed-replace', 'application/octet-stream'],
    ['application/x-shockwave-flash', 'application/octet-stream'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['', 'application/octet-stream'],
    ['nonsense', 'application/octet-stream'],
    ['text/plain\r\nX-Injected: 1', 'application/octet-stream'],
  ])('%j → %s', (stored, served) => {
    expect(downloadMediaType(stored)).toBe(served);
  });
});

describe('contentDisposition', () => {
  it.each([
    ['report.pdf', `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`],
    ['Relevé été.pdf', `attachment; filename="Relev_ _t_.pdf"; filename*=UTF-8''Relev%C3%A9%20%C3%A9t%C3%A9.pdf`],
    ['../../etc/passwd', `attachment; filename="_.._etc_passwd"; filename*=UTF-8''_.._etc_passwd`],
    ['a"b\r\nX-Evil: 1.txt', `attachment; filename="a_b__X-Evil_ 1.txt"; filename*=UTF-8''a_b__X-Evil_%201.txt`],
    ['', `attachment; filename="attachment"; filename*=UTF-8''attachment`],
    ["it's 100%;.txt", `attachment; filename="it_s 100__.txt"; filename*=UTF-8''it%27s%20100%25%3B.txt`],
  ])('%j', (name, header) => {
    expect(contentDisposition(name)).toBe(header);
  });

  it('bounds the name', () => {
    expect(safeFilename('x'.repeat(500))).toHaveLength(200);
    expect(safeFilename(' . ')).toBe('attachment');
  });
});
