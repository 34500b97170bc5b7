import { createHmac } from 'node:crypto';
import { concernsRef, verifyGitPush } from './verify-git-push';

const SECRET = 'a-webhook-secret-of-32-characters';
const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main' }));
const sign = (b: Buffer, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(b).digest('hex')}`;

describe('verifyGitPush', () => {
  it.each([
    [
      'a GitHub signature of the body',
      { 'x-hub-signature-256': sign(body) },
      { ok: true, provider: 'github', ref: 'refs/heads/main' },
    ],
    [
      'a GitLab token',
      { 'x-gitlab-token': SECRET },
      { ok: true, provider: 'gitlab', ref: 'refs/heads/main' },
    ],
    [
      'a signature made with another secret',
      { 'x-hub-signature-256': sign(body, 'another-secret-000000') },
      { ok: false, reason: 'bad_signature' },
    ],
    [
      'a signature of another body',
      { 'x-hub-signature-256': sign(Buffer.from('{}')) },
      { ok: false, reason: 'bad_signature' },
    ],
    ['a wrong GitLab token', { 'x-gitlab-token': 'guess' }, { ok: false, reason: 'bad_signature' }],
    ['no signature at all', {}, { ok: false, reason: 'unsigned' }],
  ])('%s', (_name, headers, expected) => {
    expect(verifyGitPush(headers, body, SECRET)).toEqual(expected);
  });

  it('refuses everything when no secret is configured', () => {
    expect(verifyGitPush({ 'x-gitlab-token': '' }, body, undefined)).toEqual({
      ok: false,
      reason: 'no_secret_configured',
    });
  });

  it.each([
    [undefined, 'main', true],
    ['refs/heads/main', 'main', true],
    ['refs/tags/v1', 'v1', true],
    ['refs/heads/feature', 'main', false],
  ])('a push of %s concerns %s: %s', (pushed, followed, expected) => {
    expect(concernsRef(pushed, followed)).toBe(expected);
  });
});
