// Tombstones of contacts deleted in the CRM, past the horizon. Found by RetentionService through
// @PrunesTable (the mirror owns the table, retention only asks).
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PrunesTable, type TablePruner } from '../../persistence/retention/table-pruner';
import { ContactMirrorTombstonesRepository } from './contact-mirror-tombstones.repository';

@Injectable()
@PrunesTable('contact_mirror_tombstones')
export class ContactMirrorTombstonesPruner implements TablePruner {
  private readonly tombstones: ContactMirrorTombstonesRepository;

  constructor(db: DataSource) {
    this.tombstones = new ContactMirrorTombstonesRepository(db);
  }

  prune(cutoff: Date, limit: number): Promise<number> {
    return this.tombstones.deleteBefore(cutoff, limit);
  }
}
