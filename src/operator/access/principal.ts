// Pure. Who a request acts as, once a credential was accepted, and how audit rows name them.
import type { Role } from '../roles/roles';

export interface Principal {
  role: Role;
  /** NULL for ADMIN_TOKEN (the bootstrap and automation credential, which acts as an admin). */
  userId: string | null;
  displayName: string;
  email: string | null;
  via: 'session' | 'admin-token' | 'api-token';
}

export const ADMIN_TOKEN_PRINCIPAL: Omit<Principal, 'via'> = {
  role: 'admin',
  userId: null,
  displayName: 'admin token',
  email: null,
};

/** What an audit row (rule_control_audit.actor, a manual run's `by`) records: the person, never a secret. */
export function actorOf(p: Principal | undefined): string {
  if (!p) return 'unknown';
  if (!p.userId) return `admin token (${p.via === 'session' ? 'console' : 'API'})`;
  return `${p.displayName} <${p.email ?? ''}> (user ${p.userId})`;
}

export interface WithPrincipal {
  principal?: Principal;
}

/** Who a manual run's trigger key names (manual-trigger.ts): the user, or `fallback` for the admin token. */
export function manualCaller(p: Principal | undefined, fallback: string): string {
  return p?.userId ? `${p.email ?? ''}/${p.userId}` : fallback;
}
