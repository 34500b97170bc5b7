// A RuleSetService over a fresh temporary rules directory, with its logs silenced, for the rule-set
// specs; `cleanUp` stops it and removes the directory (and the log spies).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { RuleSetService } from './rule-set.service';

export function ruleSetInTempDir(): { dir: string; service: RuleSetService; cleanUp(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'rules-'));
  const service = new RuleSetService({
    rulesDir: dir,
    rulesWatch: false,
    httpAction: { allowedHosts: [] },
  } as unknown as AppConfig);
  jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  return {
    dir,
    service,
    cleanUp: () => {
      service.onModuleDestroy();
      rmSync(dir, { recursive: true, force: true });
      jest.restoreAllMocks();
    },
  };
}
