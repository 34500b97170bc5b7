// The ledger's tables that retention prunes by a statement of their own (action_results goes with
// its runs, by the foreign key's cascade). Found by RetentionService through @PrunesTable.
import { Injectable } from '@nestjs/common';
import { PrunesTable, type TablePruner } from '../retention/table-pruner';
import { InboxEventsRepository } from './inbox-events.repository';
import { RunsRepository } from './runs.repository';

/** Finished runs past the horizon (with their action results); dead, uncertain and live runs stay. */
@Injectable()
@PrunesTable('runs')
export class RunsPruner implements TablePruner {
  constructor(private readonly runs: RunsRepository) {}

  prune(cutoff: Date, limit: number): Promise<number> {
    return this.runs.deleteFinishedBefore(cutoff, limit);
  }
}

/** Processed deliveries past the horizon; pending and failed ones stay. */
@Injectable()
@PrunesTable('inbox_events')
export class InboxEventsPruner implements TablePruner {
  constructor(private readonly inbox: InboxEventsRepository) {}

  prune(cutoff: Date, limit: number): Promise<number> {
    return this.inbox.deleteProcessedBefore(cutoff, limit);
  }
}
