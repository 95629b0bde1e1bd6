import { MessageSlabs } from './message-slabs';

const held = (slabs: MessageSlabs, value: string | Buffer) => slabs.hold(value, Buffer.byteLength(value));

describe('MessageSlabs', () => {
  it('holds each value as its UTF-8 bytes, and values held together never share bytes', () => {
    const slabs = new MessageSlabs(64, 2);
    const values = ['ab\n', 'é€😀\n', Buffer.from('raw bytes\n'), 'x'.repeat(20)];
    const all = values.map((value) => held(slabs, value));
    expect(all.map((h) => h.bytes.toString())).toEqual(values.map(String));
    // Writing more afterwards leaves what is held untouched.
    for (let i = 0; i < 20; i++) held(slabs, `${i}`.repeat(10));
    expect(all.map((h) => h.bytes.toString())).toEqual(values.map(String));
  });

  it('moves to another slab when the current one is full, and reuses a slab once all it held is given back', () => {
    const slabs = new MessageSlabs(32, 2);
    const first = held(slabs, 'a'.repeat(12));
    const second = held(slabs, 'b'.repeat(12));
    const third = held(slabs, 'c'.repeat(12));
    expect(second.slab).toBe(first.slab);
    expect(third.slab).not.toBe(first.slab);
    [first, second].forEach((h) => slabs.giveBack(h));
    // The next slab needed is the emptied one, not a new one.
    held(slabs, 'd'.repeat(12));
    const fifth = held(slabs, 'e'.repeat(12));
    expect(fifth.slab).toBe(first.slab);
    expect(third.bytes.toString()).toBe('c'.repeat(12));
  });

  it('starts the current slab again from its beginning when everything in it is given back', () => {
    const slabs = new MessageSlabs(32, 2);
    const first = held(slabs, 'a'.repeat(12));
    slabs.giveBack(first);
    const next = held(slabs, 'b'.repeat(12));
    expect(next.slab).toBeDefined();
    expect(next.slab).toBe(first.slab);
    expect(next.bytes.byteOffset).toBe(first.bytes.byteOffset);
  });

  it('gives a value over half a slab a Buffer of its own, which needs no giving back', () => {
    const slabs = new MessageSlabs(32, 2);
    const big = held(slabs, 'z'.repeat(17));
    expect(big.slab).toBeUndefined();
    expect(big.bytes.toString()).toBe('z'.repeat(17));
    expect(() => slabs.giveBack(big)).not.toThrow();
  });

  it('keeps only as many empty slabs as it is told to', () => {
    const slabs = new MessageSlabs(16, 1);
    // Three full slabs, then a fourth current one.
    const full = Array.from({ length: 6 }, (_, i) => held(slabs, `${i}`.repeat(8)));
    held(slabs, 'n'.repeat(8));
    full.forEach((h) => slabs.giveBack(h));
    // One spare kept: the next slab is it, the one after that is new.
    held(slabs, 'p'.repeat(8));
    const fromSpare = held(slabs, 'q'.repeat(8));
    held(slabs, 'r'.repeat(8));
    const fresh = held(slabs, 's'.repeat(8));
    expect(fresh.slab).toBeDefined();
    expect(full.map((h) => h.slab)).toContain(fromSpare.slab);
    expect(full.map((h) => h.slab)).not.toContain(fresh.slab);
  });
});
