import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IDENTITY_MODES, IdentityMode } from '@analytics/events';
import { DATA_REGIONS, DataRegion } from '@analytics/projects';
import { MAX_OAUTH_TOKEN_SECONDS, RoleName } from '@analytics/accounts';
import { MAX_RETENTION_DAYS } from '@analytics/tenancy';

const ROLE_NAMES = ['owner', 'admin', 'analyst', 'consumer'];

export class ProjectRoleDto {
  @IsInt() @IsPositive() id!: number;
  @IsIn(ROLE_NAMES) role!: RoleName;
}

export class CreateServiceAccountDto {
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/, { message: 'username must be 1 to 64 letters, digits, ".", "_" or "-"' })
  username!: string;
  @IsOptional() @IsIn(ROLE_NAMES) role?: RoleName;
  @IsOptional() @IsISO8601({ strict: true }) expires?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => ProjectRoleDto)
  projects?: ProjectRoleDto[];
}

export class AddToProjectDto {
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => ProjectRoleDto)
  projects!: ProjectRoleDto[];
  @IsArray() @ArrayMaxSize(1000) @IsInt({ each: true }) service_account_ids!: number[];
}

export class RemovalDto {
  @IsInt() @IsPositive() id!: number;
  @IsArray() @ArrayMaxSize(1000) @IsInt({ each: true }) service_account_ids!: number[];
}

export class RemoveFromProjectDto {
  @IsArray() @ArrayMaxSize(1000) @ValidateNested({ each: true }) @Type(() => RemovalDto) projects!: RemovalDto[];
}

export const TIME_ZONE_MESSAGE = 'timezone must be an IANA time zone name, such as UTC or Europe/Berlin';

export class CreateProjectDto {
  @IsString() @MinLength(1) @MaxLength(255) name!: string;
  @IsOptional() @IsIn(DATA_REGIONS) region?: DataRegion;
  /** The reports' time zone (docs/queries.md, "Time zone"); UTC when left out. */
  @IsOptional()
  @IsString({ message: TIME_ZONE_MESSAGE })
  @MaxLength(64, { message: TIME_ZONE_MESSAGE })
  timezone?: string;
}

const RETENTION_MESSAGE = `data_retention_days must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or null to keep events for ever`;

export class UpdateProjectDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) name?: string;
  @IsOptional() @IsIn(DATA_REGIONS) region?: DataRegion;
  @IsOptional() @IsIn(IDENTITY_MODES) identity_merge?: IdentityMode;
  /** Days of events kept (docs/retention.md); null keeps them for ever, leaving it out changes nothing. */
  @IsOptional()
  @IsInt({ message: RETENTION_MESSAGE })
  @Min(1, { message: RETENTION_MESSAGE })
  @Max(MAX_RETENTION_DAYS, { message: RETENTION_MESSAGE })
  data_retention_days?: number | null;
  /** The reports' time zone; a change re-buckets every report's history (docs/queries.md, "Time zone"). */
  @IsOptional()
  @IsString({ message: TIME_ZONE_MESSAGE })
  @MaxLength(64, { message: TIME_ZONE_MESSAGE })
  timezone?: string;
}

export class CreateOAuthTokenDto {
  @IsOptional() @IsInt() @Min(60) @Max(MAX_OAUTH_TOKEN_SECONDS) expires_in?: number;
}

export class CreateOrganizationDto {
  @IsString() @MinLength(1) @MaxLength(255) name!: string;
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/, { message: 'owner_username must be 1 to 64 letters, digits, ".", "_" or "-"' })
  owner_username?: string;
}
