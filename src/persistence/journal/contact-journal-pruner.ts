// The contact timeline's rows past the horizon (whole days go as partitions first; this takes the
// legacy past and the DEFAULT partition). Found by RetentionService through @PrunesTable.
import { Injectable } from '@nestjs/common';
import { PrunesTable, type TablePruner } from '../retention/table-pruner';
import { ContactJournalRepository } from './contact-journal.repository';

@Injectable()
@PrunesTable('contact_journal')
export class ContactJournalPruner implements TablePruner {
  constructor(private readonly journal: ContactJournalRepository) {}

  prune(cutoff: Date, limit: number): Promise<number> {
    return this.journal.deleteBefore(cutoff, limit);
  }
}
