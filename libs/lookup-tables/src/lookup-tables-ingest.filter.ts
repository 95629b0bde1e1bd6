import { DomainError } from '@analytics/errors';
import { STATUS_TEXT } from '@analytics/sdk-transport';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { LookupTableInvalid } from './lookup-tables.service';

/** `instanceof` alone would type the status as `any` (the class is generic). */
const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;

const STATUS_NAMES: Record<number, string> = { ...STATUS_TEXT, 404: 'Not Found', 500: 'Internal Server Error' };

/**
 * The ingestion host's lookup-table routes answer failures in the real API's shape:
 * `{"code","error","status"}`, plus `failed_records` when the CSV's rows failed its checks.
 */
@Catch()
export class LookupTablesIngestFilter implements ExceptionFilter {
  private readonly logger = new Logger(LookupTablesIngestFilter.name);

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { code, message } = this.statusOf(error);
    if (isDomainError(error) && error.retryAfterSeconds) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    const body: Record<string, unknown> = { code, error: message, status: STATUS_NAMES[code] ?? 'Error' };
    if (error instanceof LookupTableInvalid) body.failed_records = error.failedRecords;
    res.status(code).json(body);
  }

  private statusOf(error: unknown): { code: number; message: string } {
    if (error instanceof LookupTableInvalid) return { code: 400, message: error.message };
    if (isDomainError(error)) return { code: error.status, message: error.message };
    if (error instanceof HttpException) return { code: error.getStatus(), message: error.message };
    this.logger.error(`lookup tables: ${(error as Error)?.stack ?? String(error)}`);
    return { code: 500, message: 'internal error' };
  }
}
