import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  INSIGHTS_MATH,
  INSIGHTS_UNITS,
  InsightsMath,
  InsightsUnit,
  LENGTH_UNITS,
  LengthUnit,
  MAX_FUNNEL_STEPS,
  MAX_INSIGHTS_METRICS,
  MAX_RETENTION_INTERVALS,
  RETENTION_TYPES,
  RETENTION_UNITS,
  RetentionType,
  RetentionUnit,
} from '@analytics/report-definitions';

/** Shapes of the management bodies; the rules beyond shape (windows, expressions, ranges) live in @analytics/report-definitions. */

const NAME = [IsString(), MinLength(1), MaxLength(255)];
const EVENT_NAME = [IsString(), MinLength(1), MaxLength(255)];
const EXPRESSION = [IsOptional(), IsString(), MaxLength(10_000)];
const apply =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((d) => d(target, key));

export class InsightsMetricDto {
  @apply(...EVENT_NAME) event!: string;
  @IsIn(INSIGHTS_MATH) math!: InsightsMath;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) property?: string;
  @apply(...EXPRESSION) where?: string;
}

export class InsightsParamsDto {
  @IsArray()
  @ArrayMaxSize(MAX_INSIGHTS_METRICS)
  @ValidateNested({ each: true })
  @Type(() => InsightsMetricDto)
  events!: InsightsMetricDto[];
  @IsOptional() @IsString() from_date?: string;
  @IsOptional() @IsString() to_date?: string;
  @IsOptional() @IsInt() last_days?: number;
  @IsIn(INSIGHTS_UNITS) unit!: InsightsUnit;
  @apply(...EXPRESSION) on?: string;
  @IsOptional() @IsInt() limit?: number;
}

export class PartialInsightsParamsDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_INSIGHTS_METRICS)
  @ValidateNested({ each: true })
  @Type(() => InsightsMetricDto)
  events?: InsightsMetricDto[];
  @IsOptional() @IsString() from_date?: string;
  @IsOptional() @IsString() to_date?: string;
  @IsOptional() @IsInt() last_days?: number;
  @IsOptional() @IsIn(INSIGHTS_UNITS) unit?: InsightsUnit;
  @apply(...EXPRESSION) on?: string;
  @IsOptional() @IsInt() limit?: number;
}

export class CreateBookmarkDto {
  @apply(...NAME) name!: string;
  @IsObject() @ValidateNested() @Type(() => InsightsParamsDto) params!: InsightsParamsDto;
}

export class UpdateBookmarkDto {
  @IsOptional() @apply(...NAME) name?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => PartialInsightsParamsDto) params?: PartialInsightsParamsDto;
}

export class FunnelStepDto {
  @apply(...EVENT_NAME) event!: string;
  @apply(...EXPRESSION) where?: string;
  @IsOptional() @IsString() @MaxLength(255) label?: string;
}

/** A funnel's definition: what a saved funnel holds besides its name (also sent unsaved with a query). */
export class FunnelDefinitionDto {
  @IsArray()
  @ArrayMaxSize(MAX_FUNNEL_STEPS)
  @ValidateNested({ each: true })
  @Type(() => FunnelStepDto)
  steps!: FunnelStepDto[];
  @IsInt() length!: number;
  @IsIn(LENGTH_UNITS) length_unit!: LengthUnit;
  @apply(...EXPRESSION) where?: string;
}

export class CreateFunnelDto extends FunnelDefinitionDto {
  @apply(...NAME) name!: string;
}

export class UpdateFunnelDto {
  @IsOptional() @apply(...NAME) name?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FUNNEL_STEPS)
  @ValidateNested({ each: true })
  @Type(() => FunnelStepDto)
  steps?: FunnelStepDto[];
  @IsOptional() @IsInt() length?: number;
  @IsOptional() @IsIn(LENGTH_UNITS) length_unit?: LengthUnit;
  @apply(...EXPRESSION) where?: string;
}

/** A retention report's definition: what a saved one holds besides its name (no dates: the query gives them). */
export class RetentionDefinitionDto {
  @IsIn(RETENTION_TYPES) retention_type!: RetentionType;
  @IsOptional() @apply(...EVENT_NAME) born_event?: string;
  @IsOptional() @apply(...EVENT_NAME) event?: string;
  @apply(...EXPRESSION) born_where?: string;
  @apply(...EXPRESSION) where?: string;
  @IsIn(RETENTION_UNITS) unit!: RetentionUnit;
  @IsInt() @Min(1) @Max(MAX_RETENTION_INTERVALS) interval_count!: number;
}

export class CreateRetentionReportDto extends RetentionDefinitionDto {
  @apply(...NAME) name!: string;
}

export class UpdateRetentionReportDto {
  @IsOptional() @apply(...NAME) name?: string;
  @IsOptional() @IsIn(RETENTION_TYPES) retention_type?: RetentionType;
  @IsOptional() @apply(...EVENT_NAME) born_event?: string;
  @IsOptional() @apply(...EVENT_NAME) event?: string;
  @apply(...EXPRESSION) born_where?: string;
  @apply(...EXPRESSION) where?: string;
  @IsOptional() @IsIn(RETENTION_UNITS) unit?: RetentionUnit;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_RETENTION_INTERVALS) interval_count?: number;
}

export class CohortBehaviorDto {
  @apply(...EVENT_NAME) event!: string;
  @apply(...EXPRESSION) where?: string;
  @IsInt() min_count!: number;
  @IsInt() last_days!: number;
}

export class CohortDefinitionDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(10_000) where?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => CohortBehaviorDto) behavior?: CohortBehaviorDto;
}

export class CreateCohortDto {
  @apply(...NAME) name!: string;
  @IsOptional() @IsString() @MaxLength(10_000) description?: string;
  @IsOptional() @IsBoolean() is_visible?: boolean;
  @IsObject() @ValidateNested() @Type(() => CohortDefinitionDto) definition!: CohortDefinitionDto;
}

export class UpdateCohortDto {
  @IsOptional() @apply(...NAME) name?: string;
  @IsOptional() @IsString() @MaxLength(10_000) description?: string;
  @IsOptional() @IsBoolean() is_visible?: boolean;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => CohortDefinitionDto) definition?: CohortDefinitionDto;
}
