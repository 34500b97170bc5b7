import { signPayload, signatureHeader, verifySignature } from './verify-signature';

const SECRET = 'whsec_test_secret';
const NOW = 1_800_000_000;
const BODY = Buffer.from('{"id":"evt_1","type":"contact.created","data":{"id":"c1","name":"Ana"}}');
const sig = (t: number, body: Buffer | string = BODY, secret = SECRET) => signPayload(secret, t, body);

describe('verifySignature', () => {
  const cases: {
    name: string;
    header: string | undefined;
    body?: Buffer;
    secrets?: string[];
    expect: string;
  }[] = [
    { name: 'valid', header: `t=${NOW},v1=${sig(NOW)}`, expect: 'ok' },
    {
      name: 'valid with spaces and an unknown scheme',
      header: `t=${NOW}, v0=abc, v1=${sig(NOW)}`,
      expect: 'ok',
    },
    { name: 'valid with upper-case hex', header: `t=${NOW},v1=${sig(NOW).toUpperCase()}`, expect: 'ok' },
    {
      name: 'valid with the second of two secrets (rotation)',
      header: `t=${NOW},v1=${sig(NOW)}`,
      secrets: ['other', SECRET],
      expect: 'ok',
    },
    { name: 'wrong secret', header: `t=${NOW},v1=${sig(NOW, BODY, 'wrong')}`, expect: 'signature_mismatch' },
    {
      name: 'one byte of body changed',
      header: `t=${NOW},v1=${sig(NOW)}`,
      body: Buffer.from(BODY.toString().replace('Ana', 'Anb')),
      expect: 'signature_mismatch',
    },
    {
      name: 'body re-serialised (raw bytes are signed)',
      header: `t=${NOW},v1=${sig(NOW)}`,
      body: Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 2)),
      expect: 'signature_mismatch',
    },
    {
      name: 't older than 5 minutes',
      header: `t=${NOW - 301},v1=${sig(NOW - 301)}`,
      expect: 'timestamp_too_old',
    },
    {
      name: 't exactly 5 minutes old is accepted',
      header: `t=${NOW - 300},v1=${sig(NOW - 300)}`,
      expect: 'ok',
    },
    {
      name: 't too far in the future',
      header: `t=${NOW + 301},v1=${sig(NOW + 301)}`,
      expect: 'timestamp_in_future',
    },
    { name: 'header missing', header: undefined, expect: 'missing_header' },
    { name: 'header empty', header: '', expect: 'missing_header' },
    { name: 'without v1', header: `t=${NOW}`, expect: 'missing_signature' },
    { name: 'without t', header: `v1=${sig(NOW)}`, expect: 'missing_timestamp' },
    { name: 'non-numeric t', header: `t=abc,v1=${sig(NOW)}`, expect: 'missing_timestamp' },
    { name: 'two v1', header: `t=${NOW},v1=${sig(NOW)},v1=${sig(NOW)}`, expect: 'multiple_signatures' },
    { name: 'two t', header: `t=${NOW},t=${NOW},v1=${sig(NOW)}`, expect: 'malformed_header' },
    { name: 'non-hex v1', header: `t=${NOW},v1=${'z'.repeat(64)}`, expect: 'malformed_header' },
    { name: 'short v1', header: `t=${NOW},v1=${sig(NOW).slice(0, 62)}`, expect: 'malformed_header' },
    { name: 'garbage', header: 'garbage', expect: 'malformed_header' },
    {
      name: 'signature of another timestamp',
      header: `t=${NOW},v1=${sig(NOW - 1)}`,
      expect: 'signature_mismatch',
    },
    {
      name: 'no secret configured',
      header: `t=${NOW},v1=${sig(NOW)}`,
      secrets: [],
      expect: 'no_secret_configured',
    },
  ];

  it.each(cases)('$name → $expect', ({ header, body, secrets, expect: expected }) => {
    const result = verifySignature(header, body ?? BODY, secrets ?? [SECRET], NOW);
    expect(result.ok ? 'ok' : result.reason).toBe(expected);
  });

  it('accepts what signatureHeader produces', () => {
    expect(verifySignature(signatureHeader(SECRET, BODY, NOW), BODY, [SECRET], NOW).ok).toBe(true);
  });
});
