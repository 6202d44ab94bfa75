import { describe, expect, it } from 'vitest';
import { findGmailPart, type GmailPart } from './parts';

const payload: GmailPart = {
  partId: '',
  mimeType: 'multipart/mixed',
  parts: [
    {
      partId: '0',
      mimeType: 'multipart/alternative',
      parts: [
        { partId: '0.0', mimeType: 'text/plain' },
        { partId: '0.1', mimeType: 'text/html' },
      ],
    },
    { partId: '1', mimeType: 'application/pdf', filename: 'a.pdf', body: { attachmentId: 'att-1', size: 10 } },
  ],
};

describe('findGmailPart', () => {
  it.each([
    ['2', '1'],
    ['1', '0'],
    ['1.2', '0.1'],
    ['1.1', '0.0'],
  ])('IMAP part %s is Gmail part %s', (imap, gmail) => {
    expect(findGmailPart(payload, imap)?.partId).toBe(gmail);
  });

  it.each(['3', '1.3', '2.1', '0', '', 'x', '1..2'])('no part %s', (imap) => {
    expect(findGmailPart(payload, imap)).toBeNull();
  });

  it('a single-part message is its own part 1', () => {
    const single = { partId: '', mimeType: 'text/plain', body: { size: 3, data: 'aGk' } };
    expect(findGmailPart(single, '1')).toBe(single);
    expect(findGmailPart(single, '2')).toBeNull();
  });
});
