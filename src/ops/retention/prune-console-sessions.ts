// The retention job's share for console_sessions, apart from the ledger's (retention.service.ts
// calls it): sessions past their idle timeout or absolute lifetime are refused at once; this only
// deletes their rows, in batches.
import type { AppConfig } from '../../config/app-config';
import type { ConsoleSessionsRepository } from '../../console/auth/console-sessions.repository';
import { pruneInBatches } from './retention';

export function pruneConsoleSessions(
  sessions: ConsoleSessionsRepository,
  limits: AppConfig['consoleSession'],
): Promise<number> {
  return pruneInBatches((n) => sessions.deleteExpired(limits, n));
}
