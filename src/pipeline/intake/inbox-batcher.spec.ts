// Which INSERT errors the intake's group commit answers by writing the batch's rows one by one
// (a payload refused for its shape: 400 for it alone) and which fail the whole batch (503, retried).
import { isRefusedPayload } from './inbox-batcher';

describe('isRefusedPayload', () => {
  it.each([
    ['22P05', 'unsupported Unicode escape (lone surrogate)', true],
    ['22003', 'numeric value out of range', true],
    ['22021', 'invalid byte sequence', true],
    ['54001', 'stack depth limit exceeded (JSON nested too deep)', true],
    ['54000', 'index row size exceeds maximum (event id too long)', true],
    ['57P01', 'admin shutdown (a restart)', false],
    ['08006', 'connection failure', false],
    ['53100', 'disk full', false],
    ['40001', 'serialization failure', false],
    ['57014', 'statement timeout', false],
    [undefined, 'no SQLSTATE (a socket error)', false],
  ])('%s (%s): %s', (code, _what, expected) => {
    expect(isRefusedPayload(Object.assign(new Error('x'), { code }))).toBe(expected);
  });
});
