import { Global, Module } from '@nestjs/common';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import { LIVE_DIRECTORY } from '../../language/crm-terms/live-directory';

/** The CRM directory (cached, through the budget) as the LiveDirectory a deploy checks names against. */
// Global: the deploy (src/runtime/rule-set/deploy) injects it without importing the toolchain (no folder cycle).
@Global()
@Module({
  imports: [CrmGatewayModule],
  providers: [{ provide: LIVE_DIRECTORY, useExisting: CrmDirectory }],
  exports: [LIVE_DIRECTORY],
})
export class LiveSnapshotModule {}
