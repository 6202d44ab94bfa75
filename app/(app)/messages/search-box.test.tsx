// @vitest-environment jsdom
/**
 * The webmail's search box offers one clear button: ours. A `type="search"` input would add the
 * browser's own cross beside it (issue 19 §7), so the box is a text input that still searches on Enter.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@/app/i18n/en';
import { I18nProvider } from '@/app/i18n/client';
import { SearchBox } from './thread-list-pane';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {}, replace() {} }) }));

afterEach(cleanup);

function renderBox(value: string, onChange = vi.fn()) {
  render(
    <I18nProvider initialLocale="en">
      <SearchBox value={value} onChange={onChange} />
    </I18nProvider>,
  );
  return onChange;
}

describe('webmail search box', () => {
  it('has one clear button: no browser clear control beside ours', () => {
    const onChange = renderBox('invoice');
    const input = screen.getByRole('searchbox', { name: en.webmail.search });
    expect(input.getAttribute('type')).not.toBe('search');
    const clear = screen.getAllByRole('button', { name: en.webmail.clearSearch });
    expect(clear).toHaveLength(1);
    fireEvent.click(clear[0]);
    expect(onChange).toHaveBeenCalledWith('');
  });

  it('shows no clear button while empty', () => {
    renderBox('');
    expect(screen.queryByRole('button', { name: en.webmail.clearSearch })).toBeNull();
  });
});
