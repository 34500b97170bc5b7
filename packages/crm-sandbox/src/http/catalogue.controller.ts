// /v1/tags, /v1/contact-stages and /v1/segments: the organization's vocabulary.
import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { checkBody, checkPathIds } from '../domain/input-checks';
import { parseQuery } from '../domain/query-checks';
import type { OpContext } from '../domain/sandbox-state';
import { createSegment, listSegments } from '../domain/segments.operations';
import { createStage, deleteStage, listStages, updateStage } from '../domain/stages.operations';
import { createTag, deleteTag, listTags, TAG_LIST_QUERY, updateTag } from '../domain/tags.operations';
import { Ctx, RequireScope } from './sandbox-request';

@Controller('v1/tags')
export class TagsController {
  @Get()
  @RequireScope('tags.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listTags(ctx, parseQuery(query, TAG_LIST_QUERY));
  }

  @Post()
  @RequireScope('tags.write')
  create(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return createTag(ctx, body);
  }

  @Patch(':tagId')
  @RequireScope('tags.write')
  update(@Ctx() ctx: OpContext, @Param('tagId') tagId: string, @Body() body: unknown) {
    checkPathIds({ tagId });
    return updateTag(ctx, tagId, body);
  }

  @Delete(':tagId')
  @RequireScope('tags.write')
  remove(@Ctx() ctx: OpContext, @Param('tagId') tagId: string, @Body() body: unknown) {
    checkPathIds({ tagId });
    checkBody(body, {});
    return deleteTag(ctx, tagId);
  }
}

@Controller('v1/contact-stages')
export class StagesController {
  @Get()
  @RequireScope('stages.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    parseQuery(query, {});
    return listStages(ctx);
  }

  @Post()
  @RequireScope('stages.write')
  create(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return createStage(ctx, body);
  }

  @Patch(':stageId')
  @RequireScope('stages.write')
  update(@Ctx() ctx: OpContext, @Param('stageId') stageId: string, @Body() body: unknown) {
    checkPathIds({ stageId });
    return updateStage(ctx, stageId, body);
  }

  @Delete(':stageId')
  @RequireScope('stages.write')
  remove(@Ctx() ctx: OpContext, @Param('stageId') stageId: string, @Body() body: unknown) {
    checkPathIds({ stageId });
    return deleteStage(ctx, stageId, body);
  }
}

@Controller('v1/segments')
export class SegmentsController {
  @Post()
  @RequireScope('segments.write')
  create(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return createSegment(ctx, body);
  }

  @Get()
  @RequireScope('segments.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    parseQuery(query, {});
    return listSegments(ctx);
  }
}
