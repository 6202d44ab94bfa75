import { describe, expect, it } from 'vitest';
import { maskForModel, maskValues, restoreMaskedValues } from './masking';

describe('what the assistant’s model sees', () => {
  it('masks secret keys, secret pairs, URL keys and URL passwords, and lists the values masked', () => {
    const { value, secrets } = maskForModel({
      url: 'https://robot:url-pass-9@api.example.com/x?key=k-123456&page=2&access_token=t-98765',
      headers: [{ name: 'X-Api-Key', value: 'hdr-secret-1' }, { name: 'Accept', value: 'application/json' }],
      apiKey: 'plain-key-2',
      pin: 12345678,
    });
    expect(value).toEqual({
      url: 'https://robot:••••@api.example.com/x?key=••••&page=2&access_token=••••',
      headers: [{ name: 'X-Api-Key', value: '••••' }, { name: 'Accept', value: 'application/json' }],
      apiKey: '••••',
      pin: 12345678,
    });
    expect(secrets.sort()).toEqual(['hdr-secret-1', 'k-123456', 'plain-key-2', 't-98765', 'url-pass-9'].sort());
  });

  it('masks values by value in strings and keys only, never inside numbers, and leaves short ones alone', () => {
    expect(maskValues({ n: 123456, text: 'code 1234 here', 'key 1234': true, short: 'abc' }, ['1234', 'abc'])).toEqual({ n: 123456, text: 'code •••• here', 'key ••••': true, short: 'abc' });
  });

  it('puts back the masked values a proposal kept, by node id and pair name; a moved one stays unresolved', () => {
    const draft = { nodes: [{ id: 'a', params: { headers: [{ name: 'Authorization', value: 'Bearer s-1' }], url: 'https://x.example/?key=k-2' } }] };
    const seen = maskForModel(draft).value;
    const proposed = { nodes: [{ id: 'new', params: {} }, { ...seen.nodes[0], params: { ...seen.nodes[0].params, headers: [{ name: 'authorization', value: '••••' }, { name: 'X-Other', value: '••••' }] } }] };
    const { graph, unresolved } = restoreMaskedValues(proposed, draft);
    expect(graph).toEqual({ nodes: [{ id: 'new', params: {} }, { id: 'a', params: { headers: [{ name: 'authorization', value: 'Bearer s-1' }, { name: 'X-Other', value: '••••' }], url: 'https://x.example/?key=k-2' } }] });
    expect(unresolved).toEqual(['nodes.1.params.headers.1.value']);
  });
});
