import { describe, expect, it } from 'vitest';
import { preferredLanguage, renderLinkPage } from './page';
import { checkPageToken, hashLinkToken, isLinkTokenShape, issuePageToken, newLinkToken, pageTokenTtlMs } from './tokens';

describe('approval link tokens', () => {
  it('are random, 43 base64url characters, stored as a SHA-256', () => {
    const token = newLinkToken();
    expect(isLinkTokenShape(token)).toBe(true);
    expect(newLinkToken()).not.toBe(token);
    expect(hashLinkToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(isLinkTokenShape('short')).toBe(false);
    expect(isLinkTokenShape(`${token}/`)).toBe(false);
  });

  it('a page token holds for its link, decision and one hour only', () => {
    const hash = hashLinkToken(newLinkToken());
    const now = Date.parse('2026-03-01T10:00:00Z');
    const pageToken = issuePageToken(hash, 'approve', now);
    expect(checkPageToken(pageToken, hash, 'approve', now + 1_000)).toBe(true);
    expect(checkPageToken(pageToken, hash, 'reject', now)).toBe(false);
    expect(checkPageToken(pageToken, hashLinkToken(newLinkToken()), 'approve', now)).toBe(false);
    expect(checkPageToken(pageToken, hash, 'approve', now + pageTokenTtlMs + 1)).toBe(false);
    expect(checkPageToken(null, hash, 'approve', now)).toBe(false);
    expect(checkPageToken(`${now}.${'A'.repeat(43)}`, hash, 'approve', now)).toBe(false);
    expect(checkPageToken(`${now + 10 * 60_000}.x`, hash, 'approve', now)).toBe(false);
  });
});

describe('approval link pages', () => {
  it.each([
    [null, 'en'],
    ['fr-CA,fr;q=0.9', 'fr'],
    ['de-DE,fr;q=0.8,en;q=0.5', 'fr'],
    ['en-GB,fr;q=0.5', 'en'],
    ['x'.repeat(10_000), 'en'],
  ])('Accept-Language %s prefers %s', (header, language) => {
    expect(preferredLanguage(header)).toBe(language);
  });

  it('escapes what a workflow wrote and never carries a script', () => {
    const approval = { title: '<script>alert(1)</script>', details: '"quoted" & more', workflowName: '<i>wf</i>', status: 'pending' as const, reason: null, decidedBy: null, decidedAt: null, expiresAt: new Date() };
    const { status, html } = renderLinkPage({ kind: 'confirm', approval, decision: 'approve', pageToken: 't"x' }, { brandName: '<Brand>', language: 'en', actionPath: '/p' });
    expect(status).toBe(200);
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;quoted&quot; &amp; more');
    expect(html).toContain('&lt;Brand&gt;');
    expect(html).toContain('value="t&quot;x"');
  });
});
