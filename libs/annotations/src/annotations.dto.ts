import {
  ArrayMaxSize,
  IsArray,
  IsEmpty,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

const MAX_DESCRIPTION = 4096;
const MAX_TAGS = 100;
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

class AnnotationTagIds {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsInt({ each: true, message: 'tags must be an array of tag ids' })
  @Min(1, { each: true, message: 'tags must be an array of tag ids' })
  tags?: number[];
}

export class CreateAnnotationDto extends AnnotationTagIds {
  /** `YYYY-MM-DD HH:mm:ss` (UTC); checked by the service. */
  @IsString() date!: string;
  @IsString() @MinLength(1) @MaxLength(MAX_DESCRIPTION) description!: string;
}

export class UpdateAnnotationDto extends AnnotationTagIds {
  @IsEmpty({ message: 'date is not patchable: delete the annotation and create another' }) date?: unknown;
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_DESCRIPTION) description?: string;
}

export class CreateAnnotationTagDto {
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'name must not hold control characters' })
  name!: string;
}
