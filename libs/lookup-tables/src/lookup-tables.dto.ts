import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';

const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

export class LookupMappingDto {
  @IsIn(['event', 'profile']) source!: 'event' | 'profile';
  /** `$distinct_id` is refused, as in the real product: a profile is the place for per-user data. */
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(/^(?!\$?distinct_id$)/, { message: 'a lookup table cannot be mapped to the distinct id' })
  @Matches(NO_CONTROL_CHARACTERS, { message: 'property must not hold control characters' })
  property!: string;
}

export class CreateLookupTableDto {
  @IsString() @MinLength(1) @MaxLength(255) @Matches(NO_CONTROL_CHARACTERS) name!: string;
  @IsOptional() @ValidateNested() @Type(() => LookupMappingDto) mapped_to?: LookupMappingDto;
}

export class UpdateLookupTableDto {
  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) @Matches(NO_CONTROL_CHARACTERS) name?: string;
  /** `null` removes the mapping. */
  @IsOptional() @ValidateNested() @Type(() => LookupMappingDto) mapped_to?: LookupMappingDto | null;
}
