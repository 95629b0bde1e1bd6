/** Large enough for any message a send carries (MAX_SEND_BYTES) with room for several more. */
const SLAB_BYTES = 2 * 1024 * 1024;
/** Slabs kept for reuse once empty; the others are left to the collector. */
const MAX_SPARE_SLABS = 4;

interface Slab {
  buffer: Buffer;
  /** Bytes written from its start. */
  used: number;
  /** Messages written into it and not yet given back. */
  live: number;
}

/** A message's bytes while a publisher holds them; `slab` is absent for a value too large for one. */
export interface HeldBytes {
  bytes: Buffer;
  slab?: Slab;
}

/**
 * Reused memory for the bytes of the messages that wait for the broker. A message lives from publish to
 * its acknowledgement, tens of milliseconds: long enough for V8 to promote it, so each value written as
 * a string or a Buffer of its own became old-generation garbage that only a full collection frees
 * (about 80 % of what the gateway's full collections found,
 * docs/benchmarks/2026-11-28-gateway-memory-under-300-mb.md). Written into a few
 * slabs and given back when no send holds it any more, a message costs neither an allocation nor a
 * collection. Bump allocation: a slab is reused once every message written into it is given back.
 */
export class MessageSlabs {
  private current: Slab | undefined;
  private readonly spares: Slab[] = [];

  constructor(
    private readonly slabBytes = SLAB_BYTES,
    private readonly maxSpares = MAX_SPARE_SLABS,
  ) {}

  /** Copies the value (`size` is its UTF-8 length) into a slab; a value over half a slab gets a Buffer of its own. */
  hold(value: string | Buffer, size: number): HeldBytes {
    if (size > this.slabBytes / 2) return { bytes: typeof value === 'string' ? Buffer.from(value) : value };
    let slab = this.current;
    if (!slab || slab.used + size > this.slabBytes) slab = this.current = this.nextSlab();
    const start = slab.used;
    if (typeof value === 'string') slab.buffer.write(value, start);
    else value.copy(slab.buffer, start);
    slab.used += size;
    slab.live++;
    return { bytes: slab.buffer.subarray(start, start + size), slab };
  }

  /** Once per held message, when nothing will read its bytes again. */
  giveBack({ slab }: HeldBytes): void {
    if (!slab || --slab.live > 0) return;
    slab.used = 0;
    if (slab !== this.current && this.spares.length < this.maxSpares) this.spares.push(slab);
  }

  /** The slab being left still holds messages (an empty one starts again from its beginning). */
  private nextSlab(): Slab {
    return this.spares.pop() ?? { buffer: Buffer.allocUnsafeSlow(this.slabBytes), used: 0, live: 0 };
  }
}
