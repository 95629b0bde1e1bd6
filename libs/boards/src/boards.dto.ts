import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { TILE_KINDS, TileKind } from './boards.schema';

export const MAX_TILES = 30;
export const GRID_COLUMNS = 12;
/** Rows a tile may start at or span: a board is a page of reports, not an endless scroll. */
export const MAX_GRID_ROWS = 120;
export const MAX_LAST_DAYS = 3650;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export class TileLayoutDto {
  @IsInt() @Min(0) @Max(GRID_COLUMNS - 1) x!: number;
  @IsInt() @Min(0) @Max(MAX_GRID_ROWS) y!: number;
  @IsInt() @Min(1) @Max(GRID_COLUMNS) w!: number;
  @IsInt() @Min(1) @Max(MAX_GRID_ROWS) h!: number;
}

export class BoardTileDto {
  @IsIn(TILE_KINDS) kind!: TileKind;
  @IsInt() @Min(1) @Max(2 ** 31 - 1) report_id!: number;
  @IsObject() @ValidateNested() @Type(() => TileLayoutDto) layout!: TileLayoutDto;
}

export class BoardDateRangeDto {
  @IsOptional() @IsInt() @Min(1) @Max(MAX_LAST_DAYS) last_days?: number;
  @IsOptional() @IsString() @Matches(DAY, { message: 'from_date must be a date as yyyy-mm-dd' }) from_date?: string;
  @IsOptional() @IsString() @Matches(DAY, { message: 'to_date must be a date as yyyy-mm-dd' }) to_date?: string;
}

class BoardFieldsDto {
  @IsOptional() @IsString() @MaxLength(10_000) description?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TILES)
  @ValidateNested({ each: true })
  @Type(() => BoardTileDto)
  tiles?: BoardTileDto[];
  @IsOptional() @IsObject() @ValidateNested() @Type(() => BoardDateRangeDto) date_range?: BoardDateRangeDto;
  /** Applied to every tile's events, beside each report's own filters; empty for none. */
  @IsOptional() @IsString() @MaxLength(10_000) where?: string;
}

export class CreateBoardDto extends BoardFieldsDto {
  @IsString() @MinLength(1) @MaxLength(255) name!: string;
}

export class UpdateBoardDto extends BoardFieldsDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) name?: string;
}

export class ShareBoardDto {
  @IsOptional() @IsInt() @Min(1) @Max(90) expires_in_days?: number;
}
