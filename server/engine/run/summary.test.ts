import { describe, expect, it } from 'vitest';
import { anonymisedSummary } from './summary';

describe('an incident summary is anonymised and at most 200 characters', () => {
  it('hides addresses, query strings, tokens and long numbers', () => {
    const summary = anonymisedSummary({
      code: 'http_status',
      nodeName: 'Call CRM',
      message: 'POST https://crm.example.com/contacts?email=jane@example.com failed for jane.doe@example.com with key abcdefghijklmnopqrstuvwxyz0123456789 and id 12345678',
    });
    expect(summary).toBe('Call CRM: http_status: POST https://crm.example.com/contacts failed for <address> with key <token> and id <number>');
  });

  it('cuts at 200 characters', () => {
    const summary = anonymisedSummary({ code: 'internal', message: 'x '.repeat(500) });
    expect(summary.length).toBe(200);
    expect(summary.endsWith('…')).toBe(true);
  });
});
