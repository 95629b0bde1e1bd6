import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { AppApiController } from '@analytics/http';
import { GroupKey, GroupKeysService } from '@analytics/projects';
import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DefineGroupKeyDto } from './group-keys.dto';

const groupKeyJson = (key: GroupKey) => ({ name: key.name, created: key.createdAt.toISOString() });

/** The project's group keys: a group profile update must name one defined here. */
@AppApiController('api/app/projects/:projectId/group-keys', { tag: 'group keys', access: ProjectAccessGuard })
export class GroupKeysController {
  constructor(private readonly groupKeys: GroupKeysService) {}

  @Get()
  @RequireRole('consumer')
  @ApiOperation({ summary: 'List the group keys: `{"status":"ok","results":[{"name","created"}]}`' })
  async list(@CurrentAccess() access: ProjectAccess) {
    return { status: 'ok', results: (await this.groupKeys.list(access.scope)).map(groupKeyJson) };
  }

  @Post()
  @HttpCode(201)
  @RequireRole('admin')
  @ApiOperation({ summary: 'Define a group key (idempotent): 201 `{"status":"ok","results":{"name","created"}}`' })
  async define(@CurrentAccess() access: ProjectAccess, @Body() body: DefineGroupKeyDto) {
    return { status: 'ok', results: groupKeyJson(await this.groupKeys.define(access.scope, body.name)) };
  }

  @Delete(':name')
  @RequireRole('admin')
  @ApiOperation({ summary: 'Remove a group key; its group profiles stay, new updates for it are refused' })
  async remove(@CurrentAccess() access: ProjectAccess, @Param('name') name: string) {
    await this.groupKeys.remove(access.scope, name);
    return { status: 'ok' };
  }
}
