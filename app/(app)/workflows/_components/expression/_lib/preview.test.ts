import { describe, expect, it } from 'vitest';
import { previewOf, previewText, type SampleScope } from './preview';

const sample: SampleScope = {
  trigger: { subject: 'Invoice 42', amount: 12.5, from: { name: 'Ann' } },
  input: { items: [1, 2, 3] },
  nodes: { extract: { total: 7 } },
  now: '2026-03-01T10:00:00.000Z',
};

describe('previewOf', () => {
  it('gives a whole expression’s value (any type)', async () => {
    expect(await previewOf('{{ trigger.amount * 2 }}', sample)).toMatchObject({ kind: 'value', value: 25, text: '25' });
    expect(await previewOf('{{ input.items }}', sample)).toMatchObject({ kind: 'value', value: [1, 2, 3] });
    expect(await previewOf('{{ now }}', sample)).toMatchObject({ kind: 'value', value: '2026-03-01T10:00:00.000Z' });
  });

  it('interpolates text around expressions like a run does', async () => {
    expect(await previewOf('Re: {{ trigger.subject }} ({{ input.items }})', sample)).toMatchObject({ kind: 'value', value: 'Re: Invoice 42 ([1,2,3])' });
    expect(await previewOf('none {{ trigger.missing }}!', sample)).toMatchObject({ kind: 'value', value: 'none !' });
  });

  it('reports an expression that does not compile or fails', async () => {
    const broken = await previewOf('{{ trigger.subject + }}', sample, 'params.subject');
    expect(broken.kind).toBe('error');
    expect(broken.kind === 'error' && broken.message).toMatch(/^Expression in params\.subject: /);
    const failing = await previewOf('{{ $number("x") }}', sample);
    expect(failing.kind).toBe('error');
  });

  it('says when there is nothing to evaluate or no sample', async () => {
    expect(await previewOf('plain', sample)).toEqual({ kind: 'literal' });
    expect(await previewOf('{{ trigger.subject }}', null)).toEqual({ kind: 'noSample' });
    expect(await previewOf('{{ trigger.subject }}', {})).toEqual({ kind: 'noSample' });
  });

  it('reaches nothing of the host', async () => {
    const outcome = await previewOf('{{ trigger.constructor.constructor("return process")() }}', sample);
    expect(['error', 'value']).toContain(outcome.kind);
    if (outcome.kind === 'value') expect(outcome.value).toBeNull();
  });

  it('applies the engine’s string bound, so a doubling bomb in the editor fails fast instead of freezing the tab', async () => {
    const bomb = "{{ ($f := function($s,$n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $length($f('abcdefgh', 22))) }}";
    const outcome = await previewOf(bomb, sample, 'params.fields[0].value');
    expect(outcome).toEqual({ kind: 'error', message: 'Expression in params.fields[0].value: A string would be longer than 1,000,000 characters. (at character 45)' });
  });

  it('cuts long values', () => {
    const { text, truncated } = previewText('x'.repeat(1000), 20);
    expect(truncated).toBe(true);
    expect(text).toHaveLength(21);
  });
});
