import { describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';

describe('the analyzer’s counted phrases', () => {
  it('say one message, one sender, one batch in English', () => {
    expect(en.analyzer.groupVolume(6, 1)).toBe('6 messages, 1 sender');
    expect(en.analyzer.groupVolume(1, 1)).toBe('1 message, 1 sender');
    expect(en.analyzer.groupVolume(1_200, 3)).toBe('1,200 messages, 3 senders');
    expect(en.analyzer.evidence(1)).toBe('1 message');
    expect(en.analyzer.evidence(12)).toBe('12 messages');
    expect(en.analyzer.batches(0, 1)).toBe('0 of 1 batch');
    expect(en.analyzer.batches(1, 2)).toBe('1 of 2 batches');
    expect(en.analyzer.failedBatches(1, 1)).toBe('1 of 1 batch failed.');
  });

  it('count 0 and 1 as singular in French', () => {
    expect(fr.analyzer.groupVolume(6, 1)).toBe('6 messages, 1 expéditeur');
    expect(fr.analyzer.groupVolume(5, 2)).toBe('5 messages, 2 expéditeurs');
    expect(fr.analyzer.evidence(1)).toBe('1 message');
    expect(fr.analyzer.batches(0, 1)).toBe('0 lot sur 1');
    expect(fr.analyzer.batches(1, 3)).toBe('1 lot sur 3');
    expect(fr.analyzer.batches(2, 3)).toBe('2 lots sur 3');
    expect(fr.analyzer.failedBatches(1, 3)).toBe('1 lot sur 3 a échoué.');
    expect(fr.analyzer.failedBatches(2, 3)).toBe('2 lots sur 3 ont échoué.');
  });
});
