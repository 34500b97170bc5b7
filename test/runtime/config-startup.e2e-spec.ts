// The compiled engine refusing to start on a broken configuration: exit 1 and one message that
// names every bad variable, before anything connects.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

describe('start-up with a broken configuration', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'src', 'main.js')))
      spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  });

  it('exits non-zero with one message naming every bad variable', () => {
    const result = spawnSync(process.execPath, [join(root, 'dist', 'src', 'main.js')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: 'not-a-port',
        CRM_RATE_WINDOW_MS: '-5',
        CRM_BASE_URL: 'https://crm.example',
        CRM_API_KEY: '',
      },
      encoding: 'utf8',
      timeout: 20000,
    });
    expect(result.status).toBe(1);
    // One message (one heading), one line per bad variable, all three of them, nothing else.
    expect(result.stderr.match(/Invalid configuration/g)).toHaveLength(1);
    const problems = result.stderr.split('\n').filter((line) => line.startsWith('  - '));
    expect(problems.map((line) => line.slice(4).split(' ')[0]).sort()).toEqual([
      'CRM_API_KEY',
      'CRM_RATE_WINDOW_MS',
      'PORT',
    ]);
    expect(result.stderr).toContain('PORT must be an integer');
    expect(result.stderr).toContain('CRM_API_KEY is required');
  });
});
