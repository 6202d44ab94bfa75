import { describe, expect, it } from 'vitest';
import { emptyHttpDraft, httpData, mapData, type Messages } from './secret-draft';

const m: Messages = {
  required: 'required',
  tooLong: (max) => `max ${max}`,
  pairsRequired: 'pairs',
  pairKeyInvalid: 'key',
  pairDuplicate: (key) => `dup ${key}`,
  tooManyPairs: (max) => `many ${max}`,
};

describe('connection secret drafts', () => {
  it('builds each http_generic kind with only its own fields', () => {
    expect(httpData({ ...emptyHttpDraft, kind: 'bearer', token: 't0k' }, m)).toEqual({ data: { kind: 'bearer', token: 't0k' } });
    expect(httpData({ ...emptyHttpDraft, kind: 'apiKey', headerName: ' X-Key ', value: 'v' }, m)).toEqual({ data: { kind: 'apiKey', headerName: 'X-Key', value: 'v' } });
    expect(httpData({ ...emptyHttpDraft, kind: 'basic', username: 'u', password: '' }, m)).toEqual({ errors: { username: undefined, password: 'required' } });
    expect(httpData({ ...emptyHttpDraft, kind: 'query', paramName: 'k', value: 'x'.repeat(4097) }, m)).toMatchObject({ errors: { value: 'max 4096' } });
  });

  it('builds a map from the filled pairs and refuses duplicates and prototype names', () => {
    expect(mapData([{ id: 1, key: ' a ', value: '1' }, { id: 2, key: '', value: '' }], m)).toEqual({ data: { a: '1' } });
    expect(mapData([], m)).toEqual({ errors: { pairs: 'pairs' } });
    expect(mapData([{ id: 1, key: 'a', value: '1' }, { id: 2, key: 'a', value: '2' }], m)).toEqual({ errors: { pairs: 'dup a' } });
    expect(mapData([{ id: 1, key: '__proto__', value: '1' }], m)).toEqual({ errors: { pairs: 'key' } });
  });
});
