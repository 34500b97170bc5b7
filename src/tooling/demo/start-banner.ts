// What `npm start` says once the engine listens: where the console is and how to get in. Without
// it a newcomer finds neither (the console answers 503 until an admin token exists). Pure: the
// lines are decided here, main.ts prints them.
import type { Role } from '../../runtime/config/app-config';

export type AdminTokenSource =
  /** ADMIN_TOKEN was set by the operator: never printed. */
  | { kind: 'env' }
  /** The embedded demo's token from .data/ (generated now or kept from an earlier start). */
  | { kind: 'demo'; token: string; generated: boolean; file: string }
  /** No token: the console and the admin API are off. */
  | { kind: 'none' };

export interface BannerInput {
  url: string;
  role: Role;
  admin: AdminTokenSource;
}

export function startBanner({ url, role, admin }: BannerInput): string[] {
  if (role !== 'all' && role !== 'api') return [];
  const consoleUrl = `${url}/console`;
  switch (admin.kind) {
    case 'env':
      return [`Operator console: ${consoleUrl}`, '  log in with the admin token you set in ADMIN_TOKEN'];
    case 'demo':
      return [
        `Operator console: ${consoleUrl}`,
        `  log in with the admin token ${admin.token}`,
        `  (${admin.generated ? 'generated for this demo and kept' : 'the demo token kept'} in ${admin.file}; ` +
          'set ADMIN_TOKEN to use your own, e.g. ADMIN_TOKEN=$(openssl rand -hex 24) npm start)',
      ];
    case 'none':
      return [
        `Operator console: ${consoleUrl} is off until ADMIN_TOKEN is set`,
        '  (at least 32 characters, e.g. ADMIN_TOKEN=$(openssl rand -hex 24)); log in with that token',
      ];
  }
}
