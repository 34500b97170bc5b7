// /v1/custom-fields: docs/CRM-API.md §4.6 plus the assumed list, create, archive and restore (A13).
import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import {
  createCustomField,
  CUSTOM_FIELD_LIST_QUERY,
  deleteCustomField,
  listCustomFields,
  setCustomFieldStatus,
  updateCustomField,
} from '../domain/custom-fields.operations';
import { checkBody, checkPathIds } from '../domain/input-checks';
import { parseQuery } from '../domain/query-checks';
import type { OpContext } from '../domain/sandbox-state';
import { Ctx, RequireScope } from './sandbox-request';

@Controller('v1/custom-fields')
export class CustomFieldsController {
  @Get()
  @RequireScope('custom_fields.read')
  list(@Ctx() ctx: OpContext, @Query() query: Record<string, unknown>) {
    return listCustomFields(ctx, parseQuery(query, CUSTOM_FIELD_LIST_QUERY).status);
  }

  @Post()
  @RequireScope('custom_fields.write')
  create(@Ctx() ctx: OpContext, @Body() body: unknown) {
    return createCustomField(ctx, body);
  }

  @Patch(':customFieldId')
  @RequireScope('custom_fields.write')
  update(@Ctx() ctx: OpContext, @Param('customFieldId') customFieldId: string, @Body() body: unknown) {
    checkPathIds({ customFieldId });
    return updateCustomField(ctx, customFieldId, body);
  }

  @Patch(':customFieldId/archive')
  @RequireScope('custom_fields.write')
  archive(@Ctx() ctx: OpContext, @Param('customFieldId') customFieldId: string, @Body() body: unknown) {
    checkPathIds({ customFieldId });
    checkBody(body, {});
    return setCustomFieldStatus(ctx, customFieldId, 'ARCHIVED');
  }

  @Patch(':customFieldId/restore')
  @RequireScope('custom_fields.write')
  restore(@Ctx() ctx: OpContext, @Param('customFieldId') customFieldId: string, @Body() body: unknown) {
    checkPathIds({ customFieldId });
    checkBody(body, {});
    return setCustomFieldStatus(ctx, customFieldId, 'ACTIVE');
  }

  @Delete(':customFieldId')
  @RequireScope('custom_fields.write')
  remove(@Ctx() ctx: OpContext, @Param('customFieldId') customFieldId: string, @Body() body: unknown) {
    checkPathIds({ customFieldId });
    checkBody(body, {});
    return deleteCustomField(ctx, customFieldId);
  }
}
