import { Module } from '@nestjs/common';
import { ContactJournalRepository } from './contact-journal.repository';

/** Imported by whoever notes something for the contact timeline (intake, matching, runner, console). */
@Module({ providers: [ContactJournalRepository], exports: [ContactJournalRepository] })
export class ContactJournalModule {}
