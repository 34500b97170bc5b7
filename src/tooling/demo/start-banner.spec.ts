// What `npm start` tells about the console, for each way an admin token can (not) exist.
import { startBanner, type AdminTokenSource } from './start-banner';

const TOKEN = 'ab'.repeat(24);
const demo = (generated: boolean): AdminTokenSource => ({
  kind: 'demo',
  token: TOKEN,
  generated,
  file: '.data/admin-token',
});

describe('startBanner', () => {
  it.each<[string, AdminTokenSource, RegExp[]]>([
    [
      'a generated demo token',
      demo(true),
      [
        /log in with the admin token (ab){24}/,
        /generated for this demo and kept in \.data\/admin-token/,
        /set ADMIN_TOKEN to use your own/,
      ],
    ],
    ['a kept demo token', demo(false), [/the demo token kept in \.data\/admin-token/]],
    ['ADMIN_TOKEN', { kind: 'env' }, [/log in with the admin token you set in ADMIN_TOKEN/]],
    ['no token', { kind: 'none' }, [/is off until ADMIN_TOKEN is set/, /openssl rand -hex 24/]],
  ])('names the console and how to log in with %s', (_, admin, expected) => {
    const text = startBanner({ url: 'http://127.0.0.1:3000', role: 'all', admin }).join('\n');
    expect(text).toContain('Operator console: http://127.0.0.1:3000/console');
    for (const line of expected) expect(text).toMatch(line);
  });

  it.each<[AdminTokenSource, boolean]>([
    [demo(true), true],
    [demo(false), true],
    [{ kind: 'env' }, false],
    [{ kind: 'none' }, false],
  ])('shows the token only when it is the demo one (%j)', (admin, shown) => {
    const text = startBanner({ url: 'http://h', role: 'all', admin }).join('\n');
    expect(text.includes(TOKEN)).toBe(shown);
  });

  it.each(['worker', 'scheduler'] as const)('says nothing in a %s process (it serves no console)', (role) => {
    expect(startBanner({ url: 'http://h', role, admin: { kind: 'env' } })).toEqual([]);
  });
});
