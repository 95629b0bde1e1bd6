import { CurrentAccess, ProjectAccess, ProjectAccessGuard, RequireRole } from '@analytics/auth';
import { ApiEnvelope, AppApiController, IdPipe, ok } from '@analytics/http';
import { Body, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AlertChecker } from './alert-checker';
import { CreateAlertDto, UpdateAlertDto } from './alerts.dto';
import { AlertsService } from './alerts.service';
import { AlertDeliveryView, alertJson, AlertTestView, AlertView, CreatedAlertView, deliveryJson } from './alerts.views';

const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Alerts on saved insights reports, with the roles of saved reports: consumers read, analysts write. */
@AppApiController('api/app/projects/:projectId/alerts', { tag: 'alerts', access: ProjectAccessGuard })
export class AlertsController {
  constructor(
    private readonly alerts: AlertsService,
    private readonly checker: AlertChecker,
  ) {}

  @Get()
  @RequireRole('consumer')
  @ApiEnvelope(AlertView, { list: true })
  async list(@CurrentAccess() access: ProjectAccess) {
    return ok((await this.alerts.list(access.scope)).map(alertJson));
  }

  @Post()
  @HttpCode(201)
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Create an alert on a saved insights report; the answer holds its signing secret, once' })
  @ApiEnvelope(CreatedAlertView, { status: 201 })
  async create(@CurrentAccess() access: ProjectAccess, @Body() body: CreateAlertDto) {
    const { alert, signingSecret } = await this.alerts.create(access.scope, {
      name: body.name,
      bookmarkId: body.bookmark_id,
      rule: body.rule,
      threshold: body.threshold,
      series: body.series,
      cadence: body.cadence,
      webhookUrl: body.webhook_url,
      enabled: body.enabled,
    });
    return ok({ ...alertJson(alert), signing_secret: signingSecret });
  }

  @Get(':alertId')
  @RequireRole('consumer')
  @ApiEnvelope(AlertView)
  async get(@CurrentAccess() access: ProjectAccess, @Param('alertId', IdPipe) id: number) {
    return ok(alertJson(await this.alerts.get(access.scope, id)));
  }

  @Patch(':alertId')
  @RequireRole('analyst')
  @ApiEnvelope(AlertView)
  async update(
    @CurrentAccess() access: ProjectAccess,
    @Param('alertId', IdPipe) id: number,
    @Body() body: UpdateAlertDto,
  ) {
    const changes = defined({
      name: body.name,
      bookmarkId: body.bookmark_id,
      rule: body.rule,
      threshold: body.threshold,
      series: body.series,
      cadence: body.cadence,
      webhookUrl: body.webhook_url,
      enabled: body.enabled,
    });
    return ok(alertJson(await this.alerts.update(access.scope, id, changes)));
  }

  @Delete(':alertId')
  @RequireRole('analyst')
  async delete(@CurrentAccess() access: ProjectAccess, @Param('alertId', IdPipe) id: number) {
    await this.alerts.delete(access.scope, id);
    return ok({ id });
  }

  @Get(':alertId/history')
  @RequireRole('consumer')
  @ApiOperation({ summary: 'The alert’s checks and delivery attempts, newest first (the latest 200)' })
  @ApiEnvelope(AlertDeliveryView, { list: true })
  async history(@CurrentAccess() access: ProjectAccess, @Param('alertId', IdPipe) id: number) {
    return ok((await this.alerts.history(access.scope, id)).map(deliveryJson));
  }

  @Post(':alertId/test')
  @HttpCode(200)
  @RequireRole('analyst')
  @ApiOperation({ summary: 'Send a test delivery now (one attempt, marked test) and answer its outcome' })
  @ApiEnvelope(AlertTestView)
  async test(@CurrentAccess() access: ProjectAccess, @Param('alertId', IdPipe) id: number) {
    return ok(await this.checker.test(access.scope, id));
  }
}
