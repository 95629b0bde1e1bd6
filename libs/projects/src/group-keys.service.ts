import { Clock } from '@analytics/clock';
import { EVENT_LIMITS } from '@analytics/events';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { GroupKeysRepository } from './group-keys.repository';
import { GroupKeysError, GroupKeysErrorCode } from './group-keys-error';
import { GroupKey } from './group-keys.schema';

const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * The group keys a project defined: a group update names one, and events carry the key as a
 * property. The gateway asks for every group update, so defined keys are remembered for 30 s; a
 * key removed on another replica keeps being accepted there for that long.
 */
@Injectable()
export class GroupKeysService {
  private readonly defined = new Map<string, number>();

  constructor(
    private readonly repository: GroupKeysRepository,
    private readonly clock: Clock,
  ) {}

  list(scope: ProjectScope): Promise<GroupKey[]> {
    return this.repository.list(scope);
  }

  /** Idempotent: defining an existing key returns it unchanged. */
  define(scope: ProjectScope, name: string): Promise<GroupKey> {
    checkName(name);
    return this.repository.define(scope, name);
  }

  /** Group profiles of a removed key stay; new updates for it are refused. */
  async remove(scope: ProjectScope, name: string): Promise<void> {
    if (!(await this.repository.remove(scope, name))) {
      throw new GroupKeysError(
        GroupKeysErrorCode.UnknownGroupKey,
        `group key "${name}" is not defined in project ${scope.projectId}`,
      );
    }
    this.defined.delete(cacheKey(scope, name));
  }

  async isDefined(scope: ProjectScope, name: string): Promise<boolean> {
    const key = cacheKey(scope, name);
    const now = this.clock.now();
    if ((this.defined.get(key) ?? 0) > now) return true;
    if (!(await this.repository.find(scope, name))) return false;
    if (this.defined.size >= CACHE_MAX_ENTRIES) this.defined.delete(this.defined.keys().next().value as string);
    this.defined.set(key, now + CACHE_TTL_MS);
    return true;
  }
}

const cacheKey = (scope: ProjectScope, name: string) => `${scope.projectId}:${name}`;

/** A key is an event property name: not empty, at most 255 characters, no control characters. */
function checkName(name: string): void {
  if (name === '' || name.length > EVENT_LIMITS.maxStringLength || CONTROL_CHARACTERS.test(name)) {
    throw new GroupKeysError(
      GroupKeysErrorCode.InvalidGroupKey,
      'name must be 1 to 255 characters without control characters',
    );
  }
}
