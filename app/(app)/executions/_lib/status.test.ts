import { describe, expect, it } from 'vitest';
import { durationMs, executionStatusTone, formatDuration, isInProgress, statusColour, workflowStatusTone } from './status';

describe('status colours', () => {
  it('colours canvas nodes by their step status', () => {
    expect(statusColour('succeeded')).toBe('green');
    expect(statusColour('failed')).toBe('red');
    expect(statusColour('running')).toBe('blue');
    expect(statusColour('waiting')).toBe('amber');
    expect(statusColour('skipped')).toBe('grey');
    expect(statusColour('queued')).toBe('neutral');
    expect(statusColour(undefined)).toBe('neutral');
    expect(statusColour('something-new')).toBe('neutral');
  });

  it('gives each run and workflow status a badge tone', () => {
    expect(executionStatusTone('succeeded')).toBe('success');
    expect(executionStatusTone('failed')).toBe('danger');
    expect(executionStatusTone('running')).toBe('brand');
    expect(executionStatusTone('waiting')).toBe('warning');
    expect(executionStatusTone('cancelled')).toBe('neutral');
    expect(workflowStatusTone('published')).toBe('success');
    expect(workflowStatusTone('paused')).toBe('warning');
    expect(workflowStatusTone('draft')).toBe('brand');
  });

  it('knows which runs are still in progress', () => {
    expect(['queued', 'running', 'waiting'].every(isInProgress)).toBe(true);
    expect(['succeeded', 'failed', 'cancelled'].some(isInProgress)).toBe(false);
  });
});

describe('durations', () => {
  it('formats milliseconds to hours', () => {
    expect(formatDuration(850, 'en')).toBe('850\u00a0ms');
    expect(formatDuration(12_430, 'en')).toBe('12.4\u00a0s');
    expect(formatDuration(12_430, 'fr')).toBe('12,4\u00a0s');
    expect(formatDuration(245_000, 'en')).toBe('4\u00a0min 05\u00a0s');
    expect(formatDuration(7_380_000, 'en')).toBe('2\u00a0h 03\u00a0min');
    expect(formatDuration(60_000, 'en')).toBe('1\u00a0min');
    expect(formatDuration(3_600_000, 'en')).toBe('1\u00a0h');
    expect(formatDuration(86_400_000, 'en')).toBe('24\u00a0h');
    expect(formatDuration(30 * 86_400_000, 'en')).toBe('30\u00a0d');
    expect(formatDuration(30 * 86_400_000, 'fr')).toBe('30\u00a0j');
    expect(formatDuration(50 * 3_600_000, 'en')).toBe('2\u00a0d 2\u00a0h');
    expect(formatDuration(-5, 'en')).toBe('0\u00a0ms');
  });

  it('measures a run from start to finish, or to now while it runs', () => {
    expect(durationMs(null, null)).toBeNull();
    expect(durationMs('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:02.500Z')).toBe(2_500);
    expect(durationMs('2026-01-01T00:00:00.000Z', null, Date.parse('2026-01-01T00:01:00.000Z'))).toBe(60_000);
  });
});
