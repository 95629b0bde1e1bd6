import { AccessDenied, BearerAccessGuard, ProjectAuthenticator } from '@analytics/auth';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The bearer scheme (OAuth token of an owner or admin, plus `token=<project token>`), answering an
 * unknown project token with 400 as the issue asks, where the bearer guard says 403 (no access).
 */
@Injectable()
export class ComplianceAccessGuard implements CanActivate {
  constructor(
    private readonly bearer: BearerAccessGuard,
    private readonly projects: ProjectAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return await this.bearer.canActivate(context);
    } catch (error) {
      if (error instanceof AccessDenied && error.status === 403) {
        const req = context.switchToHttp().getRequest<Request>();
        const token = new URL(req.originalUrl, 'http://local').searchParams.get('token');
        if (token && !(await this.projects.byToken(token))) throw new AccessDenied(400, 'token names no project');
      }
      throw error;
    }
  }
}
