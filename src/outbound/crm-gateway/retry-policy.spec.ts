import { apiError } from '../../language/crm-terms/crm-errors.spec-support';
import { CrmTransportError } from '../../language/crm-terms/crm-errors';
import { backoffDelayMs, classifyFailure, parseRetryAfter } from './retry-policy';

describe('classifyFailure', () => {
  it.each([
    [429, 'rate-limited'],
    [500, 'retryable'],
    [503, 'retryable'],
    [400, 'final'],
    [401, 'final'],
    [403, 'final'],
    [404, 'final'],
    [409, 'final'],
  ])('classifies HTTP %i as %s', (status, expected) => {
    expect(classifyFailure(apiError(status))).toBe(expected);
  });

  it('retries timeouts and connection failures', () => {
    expect(classifyFailure(new CrmTransportError('addTag', 'timeout', 'timed out'))).toBe('retryable');
    expect(classifyFailure(new CrmTransportError('addTag', 'connection', 'refused'))).toBe('retryable');
  });

  it('never retries programming errors', () => {
    expect(classifyFailure(new TypeError('boom'))).toBe('final');
  });
});

describe('backoffDelayMs', () => {
  it('doubles the ceiling with each attempt', () => {
    const top = () => 0.999999;
    expect(backoffDelayMs(1, top, 100, 10_000)).toBe(99);
    expect(backoffDelayMs(2, top, 100, 10_000)).toBe(199);
    expect(backoffDelayMs(3, top, 100, 10_000)).toBe(399);
  });

  it('never exceeds the cap however many attempts were made', () => {
    expect(backoffDelayMs(30, () => 0.999999, 100, 5_000)).toBeLessThan(5_000);
  });

  it('draws uniformly down to zero (full jitter)', () => {
    expect(backoffDelayMs(4, () => 0, 100, 10_000)).toBe(0);
    expect(backoffDelayMs(4, () => 0.5, 100, 10_000)).toBe(400);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5_000);
  });

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });

  it('returns undefined for absent or unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
  });
});
