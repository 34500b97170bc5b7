// Server-sent events for the live pages: one shared feed per kind, whatever the number of tabs.
import { Controller, Get, type MessageEvent, Sse } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { map, type Observable } from 'rxjs';
import { BudgetFeed } from './live/budget-feed.service';
import { formatDuration } from './live/backlog-eta';
import { OverviewFeed } from './live/overview-feed.service';

@ApiExcludeController()
@Controller('console')
export class ConsoleStreamController {
  constructor(
    private readonly overview: OverviewFeed,
    private readonly budget: BudgetFeed,
  ) {}

  @Sse('stream/overview')
  overviewStream(): Observable<MessageEvent> {
    return this.overview.stream.pipe(map((data) => ({ data })));
  }

  @Sse('stream/budget')
  budgetStream(): Observable<MessageEvent> {
    return this.budget.stream.pipe(
      map((s) => ({
        data: {
          ...s,
          pause: s.pauseRemainingMs ? formatDuration(s.pauseRemainingMs) : 'none',
          eta: { interactive: formatDuration(s.eta.interactiveMs), bulk: formatDuration(s.eta.bulkMs) },
        },
      })),
    );
  }

  /** The samples kept so far: a page opened now plots the recent past at once. */
  @Get('budget/history')
  history() {
    return { samples: this.budget.recent() };
  }
}
