// The live CRM directory as a snapshot, by token: the deploy of a fetched rule set checks its names
// against it (src/runtime/rule-set/deploy) without loading the gateway (src/tooling/toolchain/live-snapshot.module.ts
// provides it from the CRM directory).
import type { CrmSnapshot } from './crm-snapshot';

export const LIVE_DIRECTORY = 'LIVE_DIRECTORY';

export interface LiveDirectory {
  snapshot(source: string): Promise<CrmSnapshot>;
}
