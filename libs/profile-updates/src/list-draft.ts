import { PropertyValue } from './profile-update';
import { jsonBytes, valueKey } from './property-values';

/** The slot of an item `$remove` took out: dropped when the list is read back. */
const REMOVED = Symbol('removed');
type Slot = PropertyValue | typeof REMOVED;

/** Puts a list back as it was before one change. */
export type UndoList = () => void;

/**
 * A list property while a batch changes it: its own copy of the items, and, once `$union` or
 * `$remove` asks, where each item's canonical key occurs. So each change costs what it adds or
 * takes out, never the list's length times the values sent (which made one request of `$union`s
 * on one profile quadratic). Items taken out leave a hole until the list is read back.
 */
export class ListDraft {
  /** What the profile's property holds while the batch runs: `describeValue` sees a list. */
  readonly slots: Slot[];
  /** UTF-8 bytes of the list's JSON. */
  bytes: number;
  private live: number;
  /** Positions of each key's live items; built on first need. */
  private positions: Map<string, number[]> | undefined;

  constructor(items: PropertyValue[], bytes = jsonBytes(items)) {
    this.slots = [...items];
    this.live = items.length;
    this.bytes = bytes;
  }

  has(key: string): boolean {
    return this.index().has(key);
  }

  /** Appends an item; returns how to take it out again. */
  push(item: PropertyValue, key?: string): UndoList {
    const added = jsonBytes(item) + (this.live ? 1 : 0);
    const at = this.slots.push(item) - 1;
    if (this.positions) this.occurs(key ?? valueKey(item), at);
    this.live++;
    this.bytes += added;
    return () => {
      this.slots.pop();
      if (this.positions) {
        // The index may have been built after the push: the key is found again then.
        const itemKey = key ?? valueKey(item);
        const list = this.positions.get(itemKey)!;
        list.pop();
        if (!list.length) this.positions.delete(itemKey);
      }
      this.live--;
      this.bytes -= added;
    };
  }

  /** Takes out every item with this key; returns how to put them back (none when there was none). */
  remove(key: string): UndoList | undefined {
    const index = this.index();
    const positions = index.get(key);
    if (!positions) return undefined;
    const items = positions.map((at) => this.slots[at] as PropertyValue);
    const bytes = this.bytes;
    for (const at of positions) this.slots[at] = REMOVED;
    index.delete(key);
    this.live -= positions.length;
    this.bytes = this.live ? bytes - items.reduce<number>((sum, item) => sum + jsonBytes(item) + 1, 0) : 2;
    return () => {
      positions.forEach((at, i) => (this.slots[at] = items[i]));
      index.set(key, positions);
      this.live += positions.length;
      this.bytes = bytes;
    };
  }

  /** The list as stored: the live items in order. */
  items(): PropertyValue[] {
    return this.live === this.slots.length
      ? [...(this.slots as PropertyValue[])]
      : (this.slots.filter((slot) => slot !== REMOVED) as PropertyValue[]);
  }

  private index(): Map<string, number[]> {
    if (!this.positions) {
      this.positions = new Map();
      this.slots.forEach((slot, at) => slot !== REMOVED && this.occurs(valueKey(slot), at));
    }
    return this.positions;
  }

  private occurs(key: string, at: number): void {
    const list = this.positions!.get(key);
    if (list) list.push(at);
    else this.positions!.set(key, [at]);
  }
}
