import { SetMetadata } from '@nestjs/common';
import type { RouteAccess } from './roles';

export const MIN_ROLE = 'crmr:min-role';

/**
 * The least role a route (or every route of a controller) needs; `public` for none. The access
 * guard refuses every route that declares nothing, and the route × role test
 * (test/operator/console/access-table.e2e-spec.ts) lists every registered route with its declaration.
 */
export const MinRole = (access: RouteAccess) => SetMetadata(MIN_ROLE, access);
