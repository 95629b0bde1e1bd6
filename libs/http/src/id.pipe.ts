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
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^-?\d+$/.test(value)) throw new BadRequestException(`an id must be a whole number, got "${value}"`);
    const id = Number(value);
    if (!isDatabaseId(id)) throw new NotFoundException(`nothing has the id ${value}`);
    return id;
  }
}
