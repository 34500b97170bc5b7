// The control surface for tests and demos, under /_sandbox/ (never /v1): reset, load a
// fixture, simulate an inbound message, arm faults, read counters and the delivery log.
// Not authenticated nor rate limited; the organization is picked with `orgKey` (query,
// X-Sandbox-Org-Key header or body member), defaulting to the one of sk_demo_full.
import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { enumCheck } from '@crm-rules/crm-contract';
import { FAULT_KINDS, type FaultSpec } from '../domain/fault-injector';
import type { SandboxFixture } from '../domain/fixture-types';
import { checkBody, checkPathIds, int, str } from '../domain/input-checks';
import { mustFind } from '../domain/lookups';
import { receiveInboundMessage } from '../domain/messages.operations';
import { validationFailed } from '../domain/sandbox-error';
import { contactView } from '../domain/views';
import { FixtureError } from '../domain/fixture-loader';
import { SANDBOX_RUNTIME, SandboxRuntime } from '../sandbox-runtime';
import { ControlRoute } from './sandbox-request';

const FAULT_SHAPE = {
  kind: enumCheck(FAULT_KINDS),
  count: int({ min: 1, max: 100_000 }),
  latencyMs: int({ min: 0, max: 120_000 }),
  retryAfterSec: int({ min: 1, max: 3600 }),
  route: str({ min: 1, max: 300 }),
  code: str({ min: 1, max: 100 }),
};

@ControlRoute()
@Controller('_sandbox')
export class SandboxControlController {
  constructor(@Inject(SANDBOX_RUNTIME) private readonly runtime: SandboxRuntime) {}

  @Get()
  info() {
    const { limit, windowMs } = this.runtime.options.rateLimit;
    const orgs = [...this.runtime.state.orgs.values()].map((o) => ({ id: o.id, name: o.name }));
    return { organizations: orgs, rateLimit: { limit, windowMs } };
  }

  @Post('reset')
  @HttpCode(200)
  reset() {
    this.runtime.reset();
    return { success: true };
  }

  @Post('fixture')
  @HttpCode(200)
  loadFixture(@Body() body: unknown) {
    try {
      this.runtime.loadFixture(body as SandboxFixture);
    } catch (err) {
      if (!(err instanceof FixtureError)) throw err;
      throw validationFailed(
        err.problems.map((p) => ({ param: p.split(':')[0], code: 'invalid_fixture', message: p })),
      );
    }
    return {
      success: true,
      organizations: [...this.runtime.state.orgs.values()].map((o) => ({ id: o.id, name: o.name })),
    };
  }

  @Post('inbound-message')
  @HttpCode(201)
  inbound(
    @Body() body: Record<string, unknown> | undefined,
    @Query('orgKey') orgKey?: string,
    @Headers('x-sandbox-org-key') header?: string,
  ) {
    const { orgKey: bodyKey, ...rest } = body ?? {};
    const org = this.runtime.orgFor(orgKey ?? header ?? (typeof bodyKey === 'string' ? bodyKey : undefined));
    return receiveInboundMessage(this.runtime.context(org), rest);
  }

  @Post('faults')
  @HttpCode(201)
  armFault(@Body() body: unknown) {
    const spec = checkBody<FaultSpec>(body, FAULT_SHAPE, ['kind', 'count']);
    return { fault: this.runtime.faults.arm(spec), faults: this.runtime.faults.list() };
  }

  @Get('faults')
  faults() {
    return { data: this.runtime.faults.list() };
  }

  @Delete('faults')
  clearFaults() {
    this.runtime.faults.clear();
    return { success: true };
  }

  @Get('counters')
  counters() {
    return Object.fromEntries(this.runtime.counters);
  }

  @Delete('counters')
  clearCounters() {
    this.runtime.counters.clear();
    return { success: true };
  }

  @Get('deliveries')
  deliveries(
    @Query('eventId') eventId?: string,
    @Query('type') type?: string,
    @Query('subscriptionId') subscriptionId?: string,
  ) {
    const data = this.runtime.dispatcher
      .deliveries()
      .filter(
        (d) =>
          (!eventId || d.eventId === eventId) &&
          (!type || d.type === type) &&
          (!subscriptionId || d.subscriptionId === subscriptionId),
      );
    return { data };
  }

  @Delete('deliveries')
  clearDeliveries() {
    this.runtime.dispatcher.clearLog();
    return { success: true };
  }

  @Get('state/contacts/:contactId')
  contactState(
    @Param('contactId') contactId: string,
    @Query('orgKey') orgKey?: string,
    @Headers('x-sandbox-org-key') header?: string,
  ) {
    checkPathIds({ contactId });
    const org = this.runtime.orgFor(orgKey ?? header);
    return contactView(org, mustFind(org, 'contacts', contactId));
  }
}
