import { describe, expect, it } from 'vitest';
import { listUnsubscribeOf, mailtoParts } from './unsubscribe';

const headers = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([key, value]) => [key, [value]]));

describe('List-Unsubscribe (RFC 2369, RFC 8058)', () => {
  it('offers one-click only with an https URL and List-Unsubscribe-Post: List-Unsubscribe=One-Click', () => {
    expect(
      listUnsubscribeOf(headers({ 'list-unsubscribe': '<mailto:leave@list.example?subject=stop>, <https://list.example/u/abc?x=1>', 'list-unsubscribe-post': 'List-Unsubscribe=One-Click' })),
    ).toEqual({ oneClickUrl: 'https://list.example/u/abc?x=1', mailto: 'mailto:leave@list.example?subject=stop' });
    // Without the Post header the URL is a page to visit, not a one-click endpoint.
    expect(listUnsubscribeOf(headers({ 'list-unsubscribe': '<https://list.example/u/abc>' }))).toBeNull();
    // http is never posted to.
    expect(listUnsubscribeOf(headers({ 'list-unsubscribe': '<http://list.example/u>', 'list-unsubscribe-post': 'List-Unsubscribe=One-Click' }))).toBeNull();
  });

  it('a mailto-only header offers a prepared mail', () => {
    const found = listUnsubscribeOf(headers({ 'list-unsubscribe': '<mailto:leave@list.example?subject=unsubscribe%20me>' }));
    expect(found).toEqual({ oneClickUrl: null, mailto: 'mailto:leave@list.example?subject=unsubscribe%20me' });
    expect(mailtoParts(found!.mailto!)).toEqual({ to: 'leave@list.example', subject: 'unsubscribe me', body: '' });
    expect(listUnsubscribeOf(headers({ 'list-unsubscribe': '<javascript:alert(1)>, <mailto:not-an-address>' }))).toBeNull();
  });
});
