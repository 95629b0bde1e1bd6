import { IsString } from 'class-validator';

export class DefineGroupKeyDto {
  /** The event property that carries the group id, e.g. `company`. Checked by GroupKeysService. */
  @IsString() name!: string;
}
