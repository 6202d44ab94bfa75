import { describe, expect, it } from 'vitest';
import { previewMediaType } from '@/server/domains/mail/attachments/download-headers';
import { previewKindOf, previewUrl } from './previews';

describe('attachment previews', () => {
  it('a preview of PDF and image attachments, never HTML, SVG or scripts', () => {
    expect(previewKindOf('image/png')).toBe('image');
    expect(previewKindOf('IMAGE/JPEG; name="a.jpg"')).toBe('image');
    expect(previewKindOf('application/pdf')).toBe('pdf');
    for (const active of ['image/svg+xml', 'text/html', 'application/xhtml+xml', 'application/javascript', 'text/plain', 'application/octet-stream']) {
      expect(previewKindOf(active)).toBeNull();
    }
  });

  it('previews only what the server serves inline', () => {
    for (const mime of ['image/png', 'image/jpg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf', 'image/svg+xml', 'text/html', 'image/tiff']) {
      expect(previewKindOf(mime) !== null).toBe(previewMediaType(mime) !== null);
    }
    expect(previewUrl('/api/v1/messages/x/attachments/2')).toBe('/api/v1/messages/x/attachments/2?preview=true');
  });
});
