/**
 * A wallet's open reservations (message id → credits), immutable, with edits that copy only what
 * they touch. A campaign holds 100,000 reservations open at once on one wallet; with a plain Map,
 * every decision on the wallet (a chunk of reservations, a batch of captures) copied all of them,
 * so settling a campaign cost its size squared. Here the ids are spread by a hash over 64 × 64
 * buckets: an edit copies the top array, the middle arrays and the buckets it changes, so a
 * decision costs about what it changes, whatever the wallet holds.
 */
const FANOUT = 64;
type Leaf = ReadonlyMap<string, number>;

/** What a wallet's reservations answer, whether being edited or not. */
export interface Reservations extends Iterable<[string, number]> {
  readonly size: number;
  get(id: string): number | undefined;
  has(id: string): boolean;
}

function* entriesOf(top: Top): IterableIterator<[string, number]> {
  for (const middle of top) {
    if (!middle) continue;
    for (const leaf of middle) if (leaf) yield* leaf;
  }
}
type Middle = readonly (Leaf | undefined)[];
type Top = readonly (Middle | undefined)[];

/** FNV-1a over the id: message ids of one batch or campaign differ only in their last characters. */
function hash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const slots = (id: string) => {
  const h = hash(id);
  return [h & (FANOUT - 1), (h >>> 6) & (FANOUT - 1)] as const;
};

export class ReservationMap implements Reservations {
  static readonly EMPTY = new ReservationMap(new Array<Middle | undefined>(FANOUT).fill(undefined), 0);

  private constructor(
    private readonly top: Top,
    readonly size: number,
  ) {}

  static from(entries: Iterable<readonly [string, number]>): ReservationMap {
    const editor = ReservationMap.EMPTY.edit();
    for (const [id, sms] of entries) editor.set(id, sms);
    return editor.done();
  }

  get(id: string): number | undefined {
    const [a, b] = slots(id);
    return this.top[a]?.[b]?.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return entriesOf(this.top);
  }

  /** Changes from this map on, leaving it as it is. */
  edit(): ReservationEditor {
    return new ReservationEditor(this.top, this.size, (top, size) => new ReservationMap(top, size));
  }
}

/** A map being changed: each part of the map it was made from is copied once, at its first change. */
export class ReservationEditor implements Reservations {
  private top: (Middle | undefined)[] | null = null;
  private readonly ownMiddles = new Set<number>();
  private readonly ownLeaves = new Set<number>();

  constructor(
    private base: Top,
    public size: number,
    private readonly build: (top: Top, size: number) => ReservationMap,
  ) {}

  get(id: string): number | undefined {
    const [a, b] = slots(id);
    return (this.top ?? this.base)[a]?.[b]?.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return entriesOf(this.top ?? this.base);
  }

  set(id: string, sms: number): void {
    const leaf = this.leaf(id, true) as Map<string, number>;
    if (!leaf.has(id)) this.size++;
    leaf.set(id, sms);
  }

  delete(id: string): void {
    if (!this.has(id)) return;
    const leaf = this.leaf(id, true) as Map<string, number>;
    leaf.delete(id);
    this.size--;
    if (leaf.size > 0) return;
    // Emptied parts go, so a map holds the same parts however it came to its entries.
    const [a, b] = slots(id);
    const top = this.top as (Middle | undefined)[];
    const middle = top[a] as (Leaf | undefined)[];
    middle[b] = undefined;
    this.ownLeaves.delete(a * FANOUT + b);
    if (middle.every((l) => l === undefined)) {
      top[a] = undefined;
      this.ownMiddles.delete(a);
    }
  }

  /** The map as it now stands; the editor may go on changing without touching it. */
  done(): ReservationMap {
    const map = this.build(this.top ?? this.base, this.size);
    if (this.top) this.base = this.top;
    this.top = null;
    this.ownMiddles.clear();
    this.ownLeaves.clear();
    return map;
  }

  private leaf(id: string, writable: boolean): Leaf | undefined {
    const [a, b] = slots(id);
    if (!writable) return (this.top ?? this.base)[a]?.[b];
    this.top ??= [...this.base];
    if (this.ownMiddles.has(a) && !this.top[a]) this.ownMiddles.delete(a);
    if (!this.ownMiddles.has(a)) {
      this.top[a] = this.top[a]
        ? [...(this.top[a] as Middle)]
        : new Array<Leaf | undefined>(FANOUT).fill(undefined);
      this.ownMiddles.add(a);
    }
    const middle = this.top[a] as (Leaf | undefined)[];
    const key = a * FANOUT + b;
    if (!this.ownLeaves.has(key) || !middle[b]) {
      middle[b] = new Map(middle[b] ?? []);
      this.ownLeaves.add(key);
    }
    return middle[b];
  }
}
