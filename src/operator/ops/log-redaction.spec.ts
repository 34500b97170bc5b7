import { redactError, redactLogArguments, redactPersonalData } from './log-redaction';

describe('redactPersonalData', () => {
  it.each([
    [
      'a contact_not_found line with a phone',
      'event custom.shop 4a9e7f5d-d084-486e-b390-9615b51ce931: contact not found, no CRM contact has phone 990000000001',
      'event custom.shop 4a9e7f5d-d084-486e-b390-9615b51ce931: contact not found, no CRM contact has phone [phone]',
    ],
    ['a written phone', 'call +49 (30) 1234-5678 now', 'call [phone] now'],
    ['an email', 'no CRM contact has email Ann.Lee+x@mail.example.co.uk', 'no CRM contact has email [email]'],
    [
      'a uuid made of digits',
      'run 12345678-1234-1234-1234-123456789012 done',
      'run 12345678-1234-1234-1234-123456789012 done',
    ],
    ['an IPv4 address', 'wrong token from 192.168.100.200', 'wrong token from 192.168.100.200'],
    ['an ISO timestamp', 'at 2026-11-28T13:28:47.123Z', 'at 2026-11-28T13:28:47.123Z'],
    [
      'small numbers',
      'retry 3 of 5 in 1500 ms (budget 300/60000)',
      'retry 3 of 5 in 1500 ms (budget 300/60000)',
    ],
    [
      "TypeORM's parameters",
      'query failed: SELECT 1 WHERE phone = $1 -- PARAMETERS: ["+15550001111","a@b.co"]',
      'query failed: SELECT 1 WHERE phone = $1 -- PARAMETERS: [redacted]',
    ],
  ])('%s', (_what, text, expected) => {
    expect(redactPersonalData(text)).toBe(expected);
  });
});

describe('redactError', () => {
  it('drops the SQL text and parameters of a QueryFailedError, keeps its message and code', () => {
    const err = {
      type: 'QueryFailedError',
      message: 'invalid input syntax for type uuid: "ann@example.com"',
      stack: 'QueryFailedError: invalid input syntax for type uuid: "ann@example.com"\n    at x',
      query: 'SELECT * FROM contacts WHERE email = $1',
      parameters: ['ann@example.com'],
      driverError: { detail: 'Key (phone)=(15550001111)' },
      code: '22P02',
    };
    const out = redactError(err);
    expect(out).toEqual({
      type: 'QueryFailedError',
      message: 'invalid input syntax for type uuid: "[email]"',
      stack: 'QueryFailedError: invalid input syntax for type uuid: "[email]"\n    at x',
      code: '22P02',
    });
  });
});

describe('redactLogArguments', () => {
  it('gives an error logged without a message a redacted one (pino would copy the raw one)', () => {
    const err = new Error('no CRM contact has email ann@example.com');
    expect(redactLogArguments([{ err }])).toEqual([{ err }, 'no CRM contact has email [email]']);
    expect(redactLogArguments([{ err }, 'lookup failed for +15550001111'])).toEqual([
      { err },
      'lookup failed for [phone]',
    ]);
  });
});
