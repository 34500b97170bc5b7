// The deploy page (issue 31): the live commit, the history with each result, who did what, a diff
// of two versions, the actions (rollback, pin, unpin, fetch), and one rule's YAML at a commit
// (linked from the run page). Guarded like every console route (ConsoleModule's middleware).
import { MinRole } from '../roles/min-role.decorator';
import {
  BadRequestException,
  Body,
  Controller,
  Get,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { DeployService } from '../../runtime/rule-set/deploy/deploy.service';
import { ConsoleAuth, type ConsoleRequest } from './auth/console-auth';
import { ConsoleResponder } from './console-responder';
import { diffView, historyRows, ruleAtCommit } from './pages/deploy-page';
import { when } from './pages/display-format';

const ACTIONS = ['rollback', 'pin', 'unpin', 'fetch'] as const;
type Action = (typeof ACTIONS)[number];

@ApiExcludeController()
@MinRole('viewer')
@Controller('console/deploy')
export class ConsoleDeployController {
  constructor(
    private readonly deploy: DeployService,
    private readonly pages: ConsoleResponder,
    private readonly auth: ConsoleAuth,
  ) {}

  @Get()
  async page(@Req() req: ConsoleRequest, @Res() res: Response) {
    const [status, history, audit] = await Promise.all([
      this.deploy.status(),
      this.deploy.history(50),
      this.deploy.audit(50),
    ]);
    const source = status.source as {
      kind: string;
      url?: string;
      ref?: string;
      subdir?: string;
      dir?: string;
    };
    const view = {
      source:
        source.kind === 'git'
          ? `git ${source.url} @ ${source.ref}${source.subdir ? ` (${source.subdir}/)` : ''}`
          : `directory ${source.dir}`,
      active: status.active,
      activeAt: status.active ? when(status.active.activatedAt) : '',
      thisCommit: status.thisProcess.commit ?? 'none',
      pinned: status.pinned,
      heldBack: status.heldBack,
      gitDown: status.git && !status.git.reachable ? status.git : undefined,
      missingNames: status.missingNames,
      history: historyRows(history),
      audit: audit.map((a) => ({ ...a, at: when(a.at) })),
    };
    this.pages.send(req, res, 'deploy', view, {
      title: 'Deploy',
      section: 'deploy',
      flash: typeof req.query.done === 'string' ? req.query.done : undefined,
    });
  }

  @MinRole('admin')
  @Post('action')
  async act(
    @Req() req: ConsoleRequest,
    @Res() res: Response,
    @Body() body: { action?: string; commit?: string },
  ) {
    const action = body?.action as Action;
    if (!ACTIONS.includes(action))
      throw new BadRequestException(`action must be one of ${ACTIONS.join(', ')}`);
    const commit = typeof body.commit === 'string' && body.commit.trim() ? body.commit.trim() : undefined;
    const actor = this.auth.actor(req);
    if (action === 'pin' && !commit) throw new BadRequestException('pin needs a commit');
    const result =
      action === 'rollback'
        ? await this.deploy.rollback(commit, actor)
        : action === 'pin'
          ? await this.deploy.pin(commit!, actor)
          : action === 'unpin'
            ? await this.deploy.unpin(actor)
            : await this.deploy.fetch(actor);
    const done = result.ok
      ? `${action}: ${result.commit ?? result.note ?? 'done'}`
      : `${action} refused: ${result.message}`;
    res.redirect(303, `/console/deploy?done=${encodeURIComponent(done)}`);
  }

  @Get('diff')
  async diff(
    @Req() req: ConsoleRequest,
    @Res() res: Response,
    @Query('from') from?: string,
    @Query('to') to?: string,
  ) {
    if (!from || !to) throw new BadRequestException('from and to are commits');
    const diff = await this.deploy.diff(from.trim(), to.trim());
    if (!diff) throw new NotFoundException('no such version');
    this.pages.send(req, res, 'deploy-diff', diffView(from, to, diff), { title: 'Diff', section: 'deploy' });
  }

  @Get('versions/:commit/rules/:rule')
  async ruleAt(
    @Req() req: ConsoleRequest,
    @Res() res: Response,
    @Param('commit') commit: string,
    @Param('rule') rule: string,
  ) {
    const version = await this.deploy.version(commit);
    const view = version && ruleAtCommit(version.commit, version.files, rule);
    if (!view) throw new NotFoundException(`no rule ${rule} at ${commit}`);
    this.pages.send(req, res, 'rule-at-commit', view, {
      title: `${rule} at ${commit.slice(0, 12)}`,
      section: 'deploy',
    });
  }
}
