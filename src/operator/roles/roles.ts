// Pure. Who may do what: three roles, each including the one below it.
// - viewer: reads every page and admin read route, never a secret;
// - operator: pause, shadow, retry, replay, manual runs, resolve uncertain;
// - admin: forced sends, users, rule deploys and rollback, the queue board.
// A route declares the least role it needs (min-role.decorator.ts); `public` routes need none.

export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type RouteAccess = Role | 'public';

const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` may use a route that needs `needed`. */
export function allows(role: Role, needed: RouteAccess): boolean {
  return needed === 'public' || RANK[role] >= RANK[needed];
}

/** The higher of two roles (a user in several mapped groups gets the highest). */
export function higher(a: Role | undefined, b: Role | undefined): Role | undefined {
  if (!a) return b;
  if (!b) return a;
  return RANK[a] >= RANK[b] ? a : b;
}
