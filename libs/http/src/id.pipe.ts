import { BadRequestException, Injectable, NotFoundException, PipeTransform } from '@nestjs/common';

/** The largest id a row can have: the id columns are Postgres `integer`s. */
export const MAX_DATABASE_ID = 2_147_483_647;

/** Whether `value` could be the id of a row: a whole number from 1 to MAX_DATABASE_ID. */
export function isDatabaseId(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_DATABASE_ID;
}

/**
 * A path id: not a whole number → 400; a whole number no row can have (0, negative, past the
 * column's range) → 404, as any id that names nothing. Never reaches SQL out of range.
 */
@Injectable()
export class IdPipe implements PipeTransform<string | number, number> {
  // The controllers' validation pipe may already have made the text a number (NaN when it was not one).
  transform(value: string | number): number {
    const text = String(value);
    if (!/^-?\d+$/.test(text)) throw new BadRequestException('Validation failed (numeric string is expected)');
    const id = Number(text);
    if (!isDatabaseId(id)) throw new NotFoundException(`nothing has the id ${text}`);
    return id;
  }
}
