// @vitest-environment jsdom
/**
 * Issue 24 §1, the member's side: "Wait for a reply" and "Read the thread" are configured through
 * forms a person reads, never JSON: the duration's unit in words, business hours as a time-zone list,
 * weekday checkboxes (Monday first) and time inputs; the AI nodes' attachments choice in words. The
 * forms are fed what GET /api/v1/node-types serves, in English and French.
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { listNodeTypes } from '@/server/domains/node-types/service';
import { fakeRouter, renderWithTrpc } from '@/app/testing/render-with-trpc';
import { editorText } from '../expression/_testing/dom';
import { NodeParamsForm } from './node-params-form';
import { clockPattern, orderedChoices, widgetFor } from './_lib/widgets';

afterEach(cleanup);

function typeIn(lang: 'en' | 'fr', type: string) {
  const found = listNodeTypes({ lang }).nodeTypes.find((entry) => entry.type === type);
  if (!found) throw new Error(`no node type ${type}`);
  return found;
}

function Harness({ type, initial, emitted, lang }: { type: string; initial: Record<string, unknown>; emitted: Record<string, unknown>[]; lang: 'en' | 'fr' }) {
  const [params, setParams] = useState(initial);
  return (
    <NodeParamsForm
      nodeType={typeIn(lang, type)}
      params={params}
      onChange={(next) => {
        emitted.push(next);
        setParams(next);
      }}
    />
  );
}

function renderForm(type: string, initial: Record<string, unknown>, lang: 'en' | 'fr' = 'en') {
  const emitted: Record<string, unknown>[] = [];
  renderWithTrpc(<Harness type={type} initial={initial} emitted={emitted} lang={lang} />, {}, { locale: lang, router: fakeRouter() });
  return { emitted, form: screen.getByTestId('node-params-form') };
}

function fieldOf(form: HTMLElement, path: string): HTMLElement {
  const field = form.querySelector<HTMLElement>(`[data-field-path="${path}"]`);
  if (!field) throw new Error(`No field at ${path}`);
  return field;
}

const last = <T,>(items: T[]): T => items[items.length - 1];

const parisHours = { timeZone: 'Europe/Paris', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '18:00' };

describe('Wait for a reply, in forms', () => {
  it('shows the starter’s business hours as a zone, weekday checkboxes and times, never as JSON', () => {
    const { form, emitted } = renderForm('flow.wait_for_reply', { amount: 3, unit: 'days', businessHours: parisHours });
    expect(emitted).toEqual([]);
    expect(form.querySelectorAll('textarea')).toHaveLength(0);
    expect((within(fieldOf(form, 'amount')).getByRole('spinbutton', { name: /Amount/ }) as HTMLInputElement).value).toBe('3');
    expect((within(fieldOf(form, 'unit')).getByRole('combobox', { name: /Unit/ }) as HTMLSelectElement).selectedOptions[0].textContent).toBe('days');

    const zone = within(fieldOf(form, 'businessHours.timeZone')).getByRole('combobox', { name: /Time zone/ }) as HTMLSelectElement;
    expect(zone.value).toBe('Europe/Paris');
    expect([...zone.options].map((option) => option.value)).toContain('America/New_York');

    const days = within(fieldOf(form, 'businessHours.days')).getByRole('group', { name: /Days/ });
    const boxes = within(days).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => box.labels?.[0]?.textContent)).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']);
    expect(boxes.map((box) => box.checked)).toEqual([true, true, true, true, true, false, false]);

    const start = fieldOf(form, 'businessHours.start').querySelector('input[type="time"]') as HTMLInputElement;
    const end = fieldOf(form, 'businessHours.end').querySelector('input[type="time"]') as HTMLInputElement;
    expect([start.value, end.value]).toEqual(['09:00', '18:00']);
    expect(screen.getByLabelText(/^Start/)).toBe(start);
    expect(screen.getByLabelText(/^End/)).toBe(end);
  });

  it('sets business hours from nothing: a zone, Saturday, a closing time', () => {
    const { form, emitted } = renderForm('flow.wait_for_reply', { amount: 2, unit: 'days' });
    const hours = fieldOf(form, 'businessHours');
    fireEvent.click(within(hours).getByRole('button', { name: 'Set' }));
    expect(last(emitted)).toEqual({ amount: 2, unit: 'days', businessHours: { timeZone: '' } });

    const zone = within(fieldOf(form, 'businessHours.timeZone')).getByRole('combobox') as HTMLSelectElement;
    expect(zone.selectedOptions[0].textContent).toBe('Choose…');
    fireEvent.change(zone, { target: { value: 'America/Toronto' } });
    expect(last(emitted).businessHours).toEqual({ timeZone: 'America/Toronto' });

    // Days absent: the default (Monday to Friday) is what shows checked, and what the first change starts from.
    const days = within(fieldOf(form, 'businessHours.days')).getAllByRole('checkbox') as HTMLInputElement[];
    expect(days.filter((box) => box.checked)).toHaveLength(5);
    fireEvent.click(within(fieldOf(form, 'businessHours.days')).getByRole('checkbox', { name: 'Saturday' }));
    expect(last(emitted).businessHours).toEqual({ timeZone: 'America/Toronto', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'] });

    const end = fieldOf(form, 'businessHours.end').querySelector('input[type="time"]') as HTMLInputElement;
    expect(end.value).toBe('');
    expect(fieldOf(form, 'businessHours.end').textContent).toContain('default: 18:00');
    fireEvent.change(end, { target: { value: '17:30' } });
    expect(last(emitted).businessHours).toEqual({ timeZone: 'America/Toronto', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], end: '17:30' });

    fireEvent.click(within(hours).getByRole('button', { name: 'Leave out' }));
    expect(last(emitted)).toEqual({ amount: 2, unit: 'days' });
  });

  it('keeps at least one business day: the last one checked cannot be unchecked', () => {
    const { form, emitted } = renderForm('flow.wait_for_reply', { amount: 1, unit: 'hours', businessHours: { timeZone: 'UTC', days: ['wed', 'mon'] } });
    const group = fieldOf(form, 'businessHours.days');
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Wednesday' }));
    expect(last(emitted).businessHours).toEqual({ timeZone: 'UTC', days: ['mon'] });
    expect((within(group).getByRole('checkbox', { name: 'Monday' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Friday' }));
    expect(last(emitted).businessHours).toEqual({ timeZone: 'UTC', days: ['mon', 'fri'] });
  });

  it('shows what it cannot offer as written: an unknown zone, a time written another way', () => {
    const { form } = renderForm('flow.wait_for_reply', { amount: 1, unit: 'days', businessHours: { timeZone: 'Mars/Olympus', start: '9am' } });
    expect((within(fieldOf(form, 'businessHours.timeZone')).getByRole('combobox') as HTMLSelectElement).selectedOptions[0].textContent).toBe('Mars/Olympus (not in the list)');
    const start = fieldOf(form, 'businessHours.start');
    expect(start.querySelector('input[type="time"]')).toBeNull();
    expect(editorText(within(start).getByTestId('expression-editor'))).toBe('9am');
  });

  it('reads in French: units, weekdays, the time zone list', () => {
    const { form } = renderForm('flow.wait_for_reply', { amount: 3, unit: 'days', businessHours: parisHours }, 'fr');
    expect([...(within(fieldOf(form, 'unit')).getByRole('combobox') as HTMLSelectElement).options].map((option) => option.textContent)).toEqual(['minutes', 'heures', 'jours']);
    const boxes = within(fieldOf(form, 'businessHours.days')).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => box.labels?.[0]?.textContent)).toEqual(['Lundi', 'Mardi', 'Mercredi', 'Jeudi', 'Vendredi', 'Samedi', 'Dimanche']);
    expect(within(fieldOf(form, 'businessHours.timeZone')).getByRole('group', { name: 'Tous les fuseaux horaires' })).toBeTruthy();
  });

  it('labels every control it shows', () => {
    const { form } = renderForm('flow.wait_for_reply', { messageId: '{{ trigger.id }}', amount: 3, unit: 'days', businessHours: parisHours });
    for (const control of form.querySelectorAll('input, select, [role="textbox"]')) {
      const labelled = control.getAttribute('aria-label') || control.getAttribute('aria-labelledby') || (control as HTMLInputElement).labels?.length;
      expect(labelled, control.outerHTML.slice(0, 120)).toBeTruthy();
    }
  });
});

describe('Read the thread, in a form', () => {
  it('offers the limit as a number with its default and bounds, and the message as an optional field', () => {
    const { form, emitted } = renderForm('mail.read_thread', {});
    const limit = within(fieldOf(form, 'limit')).getByRole('spinbutton', { name: /Limit/ }) as HTMLInputElement;
    expect([limit.placeholder, limit.min, limit.max]).toEqual(['default: 50', '1', '50']);
    fireEvent.change(limit, { target: { value: '10' } });
    expect(last(emitted)).toEqual({ limit: 10 });
    expect(within(fieldOf(form, 'messageId')).getByTestId('expression-editor')).toBeTruthy();
    expect(fieldOf(form, 'messageId').textContent).toContain('default: the message that started the run');
  });
});

describe('The AI nodes’ attachments choice, in words', () => {
  it.each(['ai.extract', 'ai.classify'])('%s: the attachments option reads as words and stores the engine’s value', (type) => {
    const { form, emitted } = renderForm(type, type === 'ai.extract' ? { fields: [{ name: 'amount', type: 'number' }] } : { labels: [{ name: 'invoice' }] });
    const select = within(fieldOf(form, 'attachments')).getByRole('combobox') as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual(['Default (The message or text only)', 'The message or text only', 'Also the PDF and text attachments']);
    fireEvent.change(select, { target: { value: '1' } });
    expect(last(emitted).attachments).toBe('pdf_and_text');
  });

  it('reads in French', () => {
    const { form } = renderForm('ai.extract', { fields: [{ name: 'amount', type: 'number' }], attachments: 'pdf_and_text' }, 'fr');
    expect((within(fieldOf(form, 'attachments')).getByRole('combobox') as HTMLSelectElement).selectedOptions[0].textContent).toBe('Aussi les pièces jointes PDF et texte');
  });
});

describe('Which fields get a control of their own', () => {
  it('knows option lists, times of day and time zones from the schema', () => {
    const root = {};
    expect(widgetFor('days', { type: 'array', items: { type: 'string', enum: ['sun', 'mon'] } }, root)).toBe('choices');
    expect(widgetFor('to', { type: 'array', items: { type: 'string' } }, root)).toBeNull();
    expect(widgetFor('start', { type: 'string', pattern: clockPattern }, root)).toBe('clock');
    expect(widgetFor('timeZone', { type: 'string' }, root)).toBe('timeZone');
    expect(widgetFor('replyTimeZone', { type: 'string' }, root)).toBe('timeZone');
    expect(widgetFor('timeZone', { type: 'number' }, root)).toBeNull();
    expect(widgetFor('subject', { type: 'string' }, root)).toBeNull();
  });

  it('orders options as the dictionary words them, when it words them all', () => {
    expect(orderedChoices(['sun', 'mon', 'sat'], { mon: 'Monday', sat: 'Saturday', sun: 'Sunday' })).toEqual(['mon', 'sat', 'sun']);
    expect(orderedChoices(['sun', 'mon', 'odd'], { mon: 'Monday', sun: 'Sunday' })).toEqual(['sun', 'mon', 'odd']);
    expect(orderedChoices(['b', 'a'], undefined)).toEqual(['b', 'a']);
  });
});
