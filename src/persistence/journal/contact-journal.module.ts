import { Module } from '@nestjs/common';
import { ContactJournalPruner } from './contact-journal-pruner';
import { ContactJournalRepository } from './contact-journal.repository';

/** Imported by whoever notes something for the contact timeline (intake, matching, runner, console). */
@Module({ providers: [ContactJournalRepository, ContactJournalPruner], exports: [ContactJournalRepository] })
export class ContactJournalModule {}
