/** withStartupSetting: where the setting goes so that pg sends it in the startup packet, whatever the URL gives. */
import { describe, expect, it } from 'vitest';
import { withStartupSetting } from './index';

describe('a pool setting sent at connection start', () => {
  it('goes in the options when the database URL gives none', () => {
    expect(withStartupSetting({ connectionString: 'postgresql://u:p@db:5432/app', max: 4 }, 'synchronous_commit=off')).toEqual({
      connectionString: 'postgresql://u:p@db:5432/app',
      max: 4,
      options: '-c synchronous_commit=off',
    });
  });

  it("is added to the URL's own options, which pg reads over the pool's", () => {
    const made = withStartupSetting({ connectionString: 'postgresql://u:p@db:5432/app?options=endpoint%3Dep-1&sslmode=require' }, 'synchronous_commit=off');
    const url = new URL(made.connectionString!);
    expect(url.searchParams.get('options')).toBe('endpoint=ep-1 -c synchronous_commit=off');
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect(made.options).toBeUndefined();
  });

  it("keeps the pool's own options before it", () => {
    expect(withStartupSetting({ connectionString: 'postgresql://db/app', options: '-c search_path=app' }, 'synchronous_commit=off').options).toBe(
      '-c search_path=app -c synchronous_commit=off',
    );
  });
});
