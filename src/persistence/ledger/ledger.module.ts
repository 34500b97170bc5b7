import { Module, type Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ActionResultsRepository } from './action-results.repository';
import { ContactLeasesRepository } from './contact-leases.repository';
import { EnrollmentsRepository } from './enrollments.repository';
import { InboxEventsRepository } from './inbox-events.repository';
import { InboxEventsPruner, RunsPruner } from './ledger-pruners';
import { RunsRepository } from './runs.repository';

/** Repositories over the pool; `.in(tx)` gives the same one over a transaction or a connection. */
type OverPool = new (db: DataSource) => unknown;
const overPool = (repository: OverPool): Provider => ({
  provide: repository,
  useFactory: (dataSource: DataSource) => new repository(dataSource),
  inject: [DataSource],
});

const REPOSITORIES: OverPool[] = [
  InboxEventsRepository,
  RunsRepository,
  ActionResultsRepository,
  EnrollmentsRepository,
  ContactLeasesRepository,
];

/** The ledger: the only code that reads or writes inbox_events, runs, action_results, enrollments, contact_leases. */
@Module({
  providers: [...REPOSITORIES.map(overPool), RunsPruner, InboxEventsPruner],
  exports: REPOSITORIES,
})
export class LedgerModule {}
