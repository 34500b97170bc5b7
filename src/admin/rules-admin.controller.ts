import { Controller, Get, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { RuleSetService } from '../rule-set/rule-set.service';
import { AdminTokenGuard } from './admin-token.guard';

@ApiTags('admin')
@ApiSecurity('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin/rules')
export class RulesAdminController {
  constructor(private readonly rules: RuleSetService) {}

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

  @Post('reload')
  @ApiOperation({ summary: 'Reload rules from disk; the new set replaces the old only if it validates' })
  reload() {
    return this.rules.reload('admin');
  }
}
