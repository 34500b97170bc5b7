import { randomBytes } from 'node:crypto';
import { adminTokenWeakness } from './admin-token-strength';

describe('adminTokenWeakness', () => {
  it.each([
    ['32 × a', 'a'.repeat(32), /one character repeated/],
    ['48 × 0', '0'.repeat(48), /one character repeated/],
    ['two characters alternating', 'ab'.repeat(16), /only 2 distinct characters/],
    ['seven distinct characters', 'abcdefg'.repeat(5), /only 7 distinct characters/],
    ['an example value', 'changeme', /example value/],
    ['an example value in capitals', 'CHANGEME', /example value/],
    ['a placeholder from a .env template', 'your-admin-token', /example value/],
    ['short', 'short-secret', /at least 32 characters \(got 12\)/],
    [
      'a repeated 16-character sequence',
      '0123456789abcdef'.repeat(2),
      /16-character sequence repeated 2 times/,
    ],
    ['a repeated 8-character sequence', 'abcdefgh'.repeat(4), /8-character sequence repeated 4 times/],
  ])('refuses %s', (_name, token, message) => {
    const weakness = adminTokenWeakness(token);
    expect(weakness).toMatch(message);
    expect(weakness).not.toContain(token);
  });

  it.each([
    ['openssl rand -hex 24', 'f3a9c1d2e4b5a6978877665544332211ffeeddccbbaa0099'],
    ['openssl rand -hex 16', '9b1e4c7a2f3d5e6b8a0c1d2e3f405162'],
    ['a UUID (the throughput bench)', '2c5b7d9e-1f3a-4b6c-8d0e-a1b2c3d4e5f6'],
    ['the e2e harness token', 'test-admin-token-0123456789abcdef'],
  ])('accepts %s', (_name, token) => {
    expect(adminTokenWeakness(token)).toBeUndefined();
  });

  it.each(Array.from({ length: 20 }, (_, i) => i))('accepts random hex token #%i', () => {
    expect(adminTokenWeakness(randomBytes(24).toString('hex'))).toBeUndefined();
  });
});
