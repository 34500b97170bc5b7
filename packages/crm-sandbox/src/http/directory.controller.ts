// /v1/users (docs/CRM-API.md §4.7), /v1/channels and /v1/broadcasts (4.8): read-only lists.
import { Controller, Get, Query } from '@nestjs/common';
import {
  BROADCAST_LIST_QUERY,
  CHANNEL_LIST_QUERY,
  listBroadcasts,
  listChannels,
  listUsers,
  USER_LIST_QUERY,
} from '../domain/directory.operations';
import { parseQuery } from '../domain/query-checks';
import type { OpContext } from '../domain/sandbox-state';
import { Ctx, RequireScope } from './sandbox-request';

@Controller('v1')
export class DirectoryController {
  @Get('users')
  @RequireScope('users.read')
  users(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listUsers(ctx, parseQuery(query, USER_LIST_QUERY));
  }

  @Get('channels')
  @RequireScope('channels.read')
  channels(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listChannels(ctx, parseQuery(query, CHANNEL_LIST_QUERY));
  }

  @Get('broadcasts')
  @RequireScope('broadcasts.read')
  broadcasts(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listBroadcasts(ctx, parseQuery(query, BROADCAST_LIST_QUERY));
  }
}
