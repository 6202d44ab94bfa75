import { describe, expect, it } from 'vitest';
import { inlineCandidates, withInlineImages } from './inline-images';

const url = '/api/v1/messages/m1/attachments/2';
const html = `<p><img alt="logo" src="${url}"></p>`;

describe('inline images', () => {
  it('fetches only referenced raster images within the budget', () => {
    const base = { downloadUrl: url, mime: 'image/png', size: 1000, contentId: 'logo@x' };
    expect(inlineCandidates(html, [base])).toHaveLength(1);
    expect(inlineCandidates(html, [{ ...base, mime: 'image/svg+xml' }])).toHaveLength(0);
    expect(inlineCandidates(html, [{ ...base, contentId: null }])).toHaveLength(0);
    expect(inlineCandidates(html, [{ ...base, size: 6 * 1024 * 1024 }])).toHaveLength(0);
    expect(inlineCandidates('<p>no image</p>', [base])).toHaveLength(0);
  });

  it('writes data URLs into exact src attributes only, and nothing that is not a raster data URL', () => {
    expect(withInlineImages(html, new Map([[url, 'data:image/png;base64,AAAA']]))).toBe('<p><img alt="logo" src="data:image/png;base64,AAAA"></p>');
    expect(withInlineImages(html, new Map([[url, 'data:image/svg+xml;base64,AAAA']]))).toBe(html);
    expect(withInlineImages(html, new Map([[url, 'javascript:alert(1)']]))).toBe(html);
  });
});
