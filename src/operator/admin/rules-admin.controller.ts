import { BadRequestException, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { experimentReadout } from './experiment-readout';
import { splitReadouts } from './split-readouts';
import { MinRole } from '../roles/min-role.decorator';

@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('viewer')
@Controller('admin/rules')
export class RulesAdminController {
  constructor(
    private readonly rules: RuleSetService,
    private readonly runs: RunsRepository,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'The loaded rule set, its version, its messaging policy (null: none), and the problems of the last load attempt',
  })
  show() {
    const set = this.rules.current();
    return {
      status: this.rules.status(),
      problems: this.rules.problems(),
      policy: set?.policy ?? null,
      rules: (set?.rules ?? []).map((r) => ({
        id: r.id,
        version: r.version,
        description: r.description,
        trigger: r.trigger,
        enabled: r.enabled,
        mode: r.mode,
        priority: r.priority,
        source: r.source,
      })),
    };
  }

  @Get(':id/branches')
  @ApiOperation({
    summary: "A rule's runs per branch arm taken, with goal conversions (default: last 30 days)",
  })
  @ApiQuery({ name: 'since', required: false, description: 'ISO date-time' })
  branches(@Param('id') id: string, @Query('since') since?: string) {
    const from = since ? new Date(since) : new Date(Date.now() - 30 * 86_400_000);
    if (Number.isNaN(from.getTime())) throw new BadRequestException('since must be an ISO date-time');
    return this.runs.views.branchCounts(id, from);
  }

  @Get(':id/experiment')
  @ApiOperation({
    summary:
      "A rule's splits as experiments (`splits`, one readout per split; the first split's also at the top level): goal conversions per arm with 95% intervals, each arm's lift against its split's control arm, or 'too few to say' (default: last 30 days)",
  })
  @ApiQuery({ name: 'since', required: false, description: 'ISO date-time' })
  async experiment(@Param('id') id: string, @Query('since') since?: string) {
    const from = since ? new Date(since) : new Date(Date.now() - 30 * 86_400_000);
    if (Number.isNaN(from.getTime())) throw new BadRequestException('since must be an ISO date-time');
    const rule = this.rules.current()?.rule(id);
    const splits = splitReadouts(rule?.branches, await this.runs.views.armCountsByBranch(id, from));
    return {
      ruleId: id,
      since: from.toISOString(),
      goal: rule?.goal !== undefined,
      // The first split at the top level, as before there was one readout per split.
      ...(splits[0] ?? experimentReadout([])),
      splits,
    };
  }

  @MinRole('admin')
  @Post('reload')
  @ApiOperation({ summary: 'Reload rules from disk; the new set replaces the old only if it validates' })
  reload() {
    return this.rules.reload('admin');
  }
}
