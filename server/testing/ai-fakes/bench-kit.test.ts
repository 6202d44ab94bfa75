/** The bench's two call paths answer the same text from the instant fake. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOverheadPair, type OverheadPair } from './bench-kit';

describe('bench kit', () => {
  let pair: OverheadPair;
  beforeAll(async () => {
    pair = await startOverheadPair();
  });
  afterAll(async () => {
    await pair.close();
  });

  it('calls through the layer and through the bare SDK', async () => {
    expect(await pair.viaLayer()).toBe('Hello from the fake.');
    expect(await pair.viaBareSdk()).toBe('Hello from the fake.');
    expect(pair.server.requests).toHaveLength(2);
  });
});
