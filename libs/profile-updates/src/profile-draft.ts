import { ListDraft } from './list-draft';
import { ProfileLimits } from './profile-limits';
import { Properties, PropertyValue } from './profile-update';
import { describeValue, jsonBytes } from './property-values';

/** A stored profile: its properties, and when each property was last written. */
export interface ProfileState {
  properties: Properties;
  /** Ms of the last write of each property, kept after `$unset`: an older `$time` loses to it. */
  stamps: Record<string, number>;
}

/** Which profile limit an update would pass (the `limit` label of the over-limit metric). */
export type ProfileLimitName = 'properties' | 'property_bytes' | 'profile_bytes';

/** Why an update did not apply; `limit` when it would have passed one. */
export interface Refusal {
  message: string;
  limit?: ProfileLimitName;
}

/** Thrown by an operation that cannot apply to what the profile holds; the whole record fails. */
export class Inapplicable extends Error {
  constructor(
    message: string,
    readonly limit?: ProfileLimitName,
  ) {
    super(message);
  }
}

/** Bytes a property adds to the profile's JSON: `"name":value` and a comma. */
const entryBytes = (name: string, valueBytes: number) => jsonBytes(name) + valueBytes + 2;

/**
 * One profile while a batch of updates changes it, in place: its lists as {@link ListDraft}s and
 * its size kept up to date as it changes, so each update costs what it sends, not what the profile
 * holds. Each update is one {@link change}: it applies whole, or (an operation that cannot apply,
 * or a limit it would pass) is undone whole. It never changes the state it was made from.
 */
export class ProfileDraft {
  private properties: Properties = {};
  private stamps: Record<string, number> = {};
  private lists = new Map<string, ListDraft>();
  /** Bytes of the values measured so far (lists keep their own). */
  private sizes = new Map<string, number>();
  private count = 0;
  /** Bytes of the properties' JSON less the opening brace, when there is one. */
  private entries = 0;
  private live: boolean;
  private readonly undo: (() => void)[] = [];
  /** Properties the running change wrote, with their bytes before it (undefined: absent). */
  private readonly touched = new Map<string, number | undefined>();

  constructor(
    current: ProfileState | undefined,
    private readonly limits: ProfileLimits,
  ) {
    this.live = current !== undefined;
    if (current) this.load(current.properties, current.stamps);
  }

  get exists(): boolean {
    return this.live;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.properties, name);
  }

  value(name: string): PropertyValue {
    return this.properties[name];
  }

  stampOf(name: string): number | undefined {
    return this.stamps[name];
  }

  /** The profile as stored after the changes so far (undefined: none). */
  state(): ProfileState | undefined {
    if (!this.live) return undefined;
    const properties = { ...this.properties };
    for (const [name, list] of this.lists) properties[name] = list.items();
    return { properties, stamps: { ...this.stamps } };
  }

  delete(): void {
    this.live = false;
    this.load({}, {});
  }

  /** Runs one update's writes: all of them, or (refused) none. Returns the refusal. */
  change(op: string, writes: () => void): Refusal | undefined {
    const [live, count, entries, bytes] = [this.live, this.count, this.entries, this.profileBytes()];
    this.touched.clear();
    try {
      writes();
      const over = this.overLimit(op, count, bytes);
      if (over) throw over;
    } catch (error) {
      while (this.undo.length) this.undo.pop()!();
      [this.live, this.count, this.entries] = [live, count, entries];
      if (error instanceof Inapplicable) return { message: error.message, limit: error.limit };
      throw error;
    } finally {
      this.undo.length = 0;
    }
    return undefined;
  }

  /** Makes the profile exist (it starts empty); the caller then writes `$created`. */
  create(): void {
    this.live = true;
    this.undo.push(() => (this.live = false));
  }

  /** Sets (undefined: removes) a property; with a time, also its write time. */
  write(name: string, value: PropertyValue | undefined, timeMs?: number): void {
    const had = this.has(name);
    this.touch(name);
    if (had) {
      this.entries -= entryBytes(name, this.sizeOf(name));
      this.count--;
    }
    const [old, list, size] = [this.properties[name], this.lists.get(name), this.sizes.get(name)];
    this.lists.delete(name);
    if (value === undefined) {
      delete this.properties[name];
      this.sizes.delete(name);
    } else {
      const bytes = jsonBytes(value);
      this.properties[name] = value;
      this.sizes.set(name, bytes);
      this.entries += entryBytes(name, bytes);
      this.count++;
    }
    this.undo.push(() => {
      if (had) this.properties[name] = old;
      else delete this.properties[name];
      if (list) this.lists.set(name, list);
      else this.lists.delete(name);
      if (size === undefined) this.sizes.delete(name);
      else this.sizes.set(name, size);
    });
    if (timeMs !== undefined) this.stamp(name, timeMs);
  }

  stamp(name: string, timeMs: number): void {
    const had = Object.hasOwn(this.stamps, name);
    const old = this.stamps[name];
    this.stamps[name] = Math.max(old ?? timeMs, timeMs);
    this.undo.push(() => {
      if (had) this.stamps[name] = old;
      else delete this.stamps[name];
    });
  }

  /** The list a property holds, a new empty one when it is missing; anything else fails the record. */
  list(name: string, op: string): ListDraft {
    const draft = this.lists.get(name);
    if (draft) return draft;
    if (!this.has(name)) this.write(name, []);
    const value = this.properties[name];
    if (!Array.isArray(value)) throw new Inapplicable(`${op}: "${name}" holds ${describeValue(value)}, not a list`);
    // The same items in another form: nothing to undo.
    const list = new ListDraft(value, this.sizeOf(name));
    this.properties[name] = list.slots as PropertyValue[];
    this.lists.set(name, list);
    this.sizes.delete(name);
    return list;
  }

  push(name: string, list: ListDraft, item: PropertyValue, key?: string): void {
    this.touch(name);
    const before = list.bytes;
    this.undo.push(list.push(item, key));
    this.entries += list.bytes - before;
  }

  remove(name: string, list: ListDraft, key: string): void {
    this.touch(name);
    const before = list.bytes;
    const undo = list.remove(key);
    if (undo) this.undo.push(undo);
    this.entries += list.bytes - before;
  }

  private load(properties: Properties, stamps: Record<string, number>): void {
    this.properties = { ...properties };
    this.stamps = { ...stamps };
    this.lists = new Map();
    this.sizes = new Map();
    this.count = Object.keys(this.properties).length;
    this.entries = this.count ? jsonBytes(this.properties) - 1 : 0;
  }

  private profileBytes(): number {
    return this.count ? this.entries + 1 : 2;
  }

  private sizeOf(name: string): number {
    const list = this.lists.get(name);
    if (list) return list.bytes;
    let size = this.sizes.get(name);
    if (size === undefined) this.sizes.set(name, (size = jsonBytes(this.properties[name])));
    return size;
  }

  private touch(name: string): void {
    if (!this.touched.has(name)) this.touched.set(name, this.has(name) ? this.sizeOf(name) : undefined);
  }

  /**
   * A change may not take the profile past a limit; one that does not grow what is already past it
   * (a profile folded from several, or limits lowered) still applies, so it can always be shrunk.
   */
  private overLimit(op: string, countBefore: number, bytesBefore: number): Inapplicable | undefined {
    const { maxProperties, maxPropertyBytes, maxProfileBytes } = this.limits;
    for (const [name, before] of this.touched) {
      const size = this.has(name) ? this.sizeOf(name) : 0;
      if (size > maxPropertyBytes && size > (before ?? 0)) {
        return new Inapplicable(
          `${op}: "${name}" would hold ${size} bytes; a property holds at most ${maxPropertyBytes}`,
          'property_bytes',
        );
      }
    }
    if (this.count > maxProperties && this.count > countBefore) {
      return new Inapplicable(
        `${op}: the profile would have ${this.count} properties; at most ${maxProperties} are allowed`,
        'properties',
      );
    }
    const bytes = this.profileBytes();
    if (bytes > maxProfileBytes && bytes > bytesBefore)
      return new Inapplicable(
        `${op}: the profile would hold ${bytes} bytes; at most ${maxProfileBytes} are allowed`,
        'profile_bytes',
      );
    return undefined;
  }
}
