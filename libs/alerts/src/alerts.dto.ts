import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { ALERT_CADENCES, ALERT_RULES, AlertCadence, AlertRule } from './alert-rule';

/** Shapes of the alerts' bodies; the rules beyond shape (report, URL, threshold) are AlertsService's. */

const FINITE = { allowNaN: false, allowInfinity: false };

export class CreateAlertDto {
  @IsString() @MinLength(1) @MaxLength(255) name!: string;
  @IsInt() @Min(1) @Max(2 ** 31 - 1) bookmark_id!: number;
  @IsIn(ALERT_RULES) rule!: AlertRule;
  @IsNumber(FINITE) threshold!: number;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) series?: string;
  @IsIn(ALERT_CADENCES) cadence!: AlertCadence;
  @IsString() @MaxLength(2048) webhook_url!: string;
  @IsOptional() @IsBoolean() enabled?: boolean;
}

export class UpdateAlertDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) name?: string;
  @IsOptional() @IsInt() @Min(1) @Max(2 ** 31 - 1) bookmark_id?: number;
  @IsOptional() @IsIn(ALERT_RULES) rule?: AlertRule;
  @IsOptional() @IsNumber(FINITE) threshold?: number;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) series?: string;
  @IsOptional() @IsIn(ALERT_CADENCES) cadence?: AlertCadence;
  @IsOptional() @IsString() @MaxLength(2048) webhook_url?: string;
  @IsOptional() @IsBoolean() enabled?: boolean;
}
