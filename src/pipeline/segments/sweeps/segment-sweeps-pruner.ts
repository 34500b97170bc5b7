// Ended sweeps past the horizon; queued and running ones stay. Found by RetentionService through
// @PrunesTable (segments owns the table, retention only asks).
import { Injectable } from '@nestjs/common';
import { PrunesTable, type TablePruner } from '../../../persistence/retention/table-pruner';
import { SegmentSweepsRepository } from './segment-sweeps.repository';

@Injectable()
@PrunesTable('segment_sweeps')
export class SegmentSweepsPruner implements TablePruner {
  constructor(private readonly sweeps: SegmentSweepsRepository) {}

  prune(cutoff: Date, limit: number): Promise<number> {
    return this.sweeps.deleteEndedBefore(cutoff, limit);
  }
}
