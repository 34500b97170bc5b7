import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactJournalModule } from '../../persistence/journal/contact-journal.module';
import { CrmGatewayModule } from '../../outbound/crm-gateway/crm-gateway.module';
import { ContactMirrorStateEntity } from './contact-mirror-state.entity';
import { ContactMirrorTombstoneEntity } from './contact-mirror-tombstone.entity';
import { ContactMirrorEntity } from './contact-mirror.entity';
import { ContactMirrorService } from './contact-mirror.service';
import { ContactMirrorTombstonesPruner } from './contact-mirror-tombstones-pruner';
import { ContactNamesService } from './contact-names.service';

/**
 * The contact mirror alone, so the event pipeline can import it (ContactMirrorService.applyEvent
 * for contact.* webhooks) without the sweep machinery. Static: one instance wherever imported.
 */
@Module({
  imports: [
    CrmGatewayModule,
    ContactJournalModule,
    TypeOrmModule.forFeature([ContactMirrorEntity, ContactMirrorTombstoneEntity, ContactMirrorStateEntity]),
  ],
  providers: [ContactMirrorService, ContactNamesService, ContactMirrorTombstonesPruner],
  exports: [ContactMirrorService, ContactNamesService],
})
export class ContactMirrorModule {}
