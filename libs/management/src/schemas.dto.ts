import { ArrayMaxSize, IsArray, IsBoolean, IsOptional } from 'class-validator';

/** The real API's most truncations/deletions per request. */
const MAX_ENTRIES = 3000;

export class UploadSchemasDto {
  /** `{entityType, name, schema | schemaJson}` each; checked by the service, which names the bad entry. */
  @IsArray() @ArrayMaxSize(MAX_ENTRIES) entries!: unknown[];
  @IsOptional() @IsBoolean() truncate?: boolean;
}
