// Child process for the SIGHUP test: jest replaces `process` inside tests, so a real signal is
// only observable in a process of its own. Prints `ready <version>` and `version <version>`.
import { Logger } from '@nestjs/common';
import { loadConfig } from '../../../../src/runtime/config/load-config';
import { RuleSetService } from '../../../../src/runtime/rule-set/rule-set.service';

Logger.overrideLogger(false);
const service = new RuleSetService(loadConfig({ RULES_DIR: process.argv[2], RULES_WATCH: 'false' }));
const keepAlive = setInterval(() => undefined, 1000);
process.on('SIGTERM', () => {
  service.onModuleDestroy();
  clearInterval(keepAlive);
});
service.onModuleInit().then(
  () => {
    process.stdout.write(`ready ${service.current()!.version}\n`);
    service.onChange((set) => process.stdout.write(`version ${set.version}\n`));
  },
  (err: Error) => {
    process.stderr.write(err.message);
    process.exit(1);
  },
);
