/**
 * A wallet's open reservations (message id → credits), immutable, with edits that copy only what
 * they touch. A campaign holds 100,000 reservations open at once on one wallet; with a plain Map,
 * every decision on the wallet (a chunk of reservations, a batch of captures) copied all of them,
 * so settling a campaign cost its size squared. Past FLAT_MAX entries the ids are spread by a
 * hash over 64 × 64 buckets: an edit copies the top array, the middle arrays and the buckets it
 * changes, so a decision costs about what it changes, whatever the wallet holds. Below it (nearly
 * every wallet) they stay in one Map copied whole at an edit's first change: cheaper than many
 * small buckets for a batch of a thousand reservations on an otherwise idle wallet.
 */
const FANOUT = 64;
/** Up to this many reservations the map is one flat Map; past it, buckets. */
const FLAT_MAX = 2048;
/** A bucketed map that shrank below this is made flat again (not at FLAT_MAX: no flapping). */
const FLAT_AGAIN = FLAT_MAX / 4;

type Leaf = ReadonlyMap<string, number>;
type Middle = readonly (Leaf | undefined)[];
type Top = readonly (Middle | undefined)[];
type Parts = { readonly flat: Leaf } | { readonly top: Top };

/** What a wallet's reservations answer, whether being edited or not. */
export interface Reservations extends Iterable<[string, number]> {
  readonly size: number;
  get(id: string): number | undefined;
  has(id: string): boolean;
}

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

function* entriesOf(parts: Parts): IterableIterator<[string, number]> {
  if ('flat' in parts) {
    yield* parts.flat;
    return;
  }
  for (const middle of parts.top) {
    if (!middle) continue;
    for (const leaf of middle) if (leaf) yield* leaf;
  }
}

function lookup(parts: Parts, id: string): number | undefined {
  if ('flat' in parts) return parts.flat.get(id);
  const [a, b] = slots(id);
  return parts.top[a]?.[b]?.get(id);
}

export class ReservationMap implements Reservations {
  static readonly EMPTY = new ReservationMap({ flat: new Map() }, 0);

  private constructor(
    private readonly parts: Parts,
    readonly size: number,
  ) {}

  static from(entries: Iterable<readonly [string, number]>): ReservationMap {
    const editor = ReservationMap.EMPTY.edit();
    for (const [id, sms] of entries) editor.set(id, sms);
    return editor.done();
  }

  get(id: string): number | undefined {
    return lookup(this.parts, id);
  }

  has(id: string): boolean {
    return lookup(this.parts, id) !== undefined;
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return entriesOf(this.parts);
  }

  /** Changes from this map on, leaving it as it is. */
  edit(): ReservationEditor {
    return new ReservationEditor(this.parts, this.size, (parts, size) => new ReservationMap(parts, size));
  }
}

/** A map being changed: each part of the map it was made from is copied once, at its first change. */
export class ReservationEditor implements Reservations {
  /** The flat map or the top array, copied from `base` at the first change; null until then. */
  private flat: Map<string, number> | null = null;
  private top: (Middle | undefined)[] | null = null;
  private readonly ownMiddles = new Set<number>();
  private readonly ownLeaves = new Set<number>();

  constructor(
    private base: Parts,
    public size: number,
    private readonly build: (parts: Parts, size: number) => ReservationMap,
  ) {}

  private get current(): Parts {
    if (this.flat) return { flat: this.flat };
    if (this.top) return { top: this.top };
    return this.base;
  }

  get(id: string): number | undefined {
    return lookup(this.current, id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return entriesOf(this.current);
  }

  set(id: string, sms: number): void {
    if (!this.has(id)) this.size++;
    if ('flat' in this.base) {
      this.flat ??= new Map(this.base.flat);
      this.flat.set(id, sms);
      return;
    }
    (this.leaf(id) as Map<string, number>).set(id, sms);
  }

  delete(id: string): void {
    if (!this.has(id)) return;
    this.size--;
    if ('flat' in this.base) {
      this.flat ??= new Map(this.base.flat);
      this.flat.delete(id);
      return;
    }
    const leaf = this.leaf(id) as Map<string, number>;
    leaf.delete(id);
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

  /** The map as it now stands (flat or bucketed by its size); the editor may go on changing. */
  done(): ReservationMap {
    let parts = this.current;
    if ('flat' in parts && this.size > FLAT_MAX) parts = { top: bucketed(parts.flat) };
    else if ('top' in parts && this.size < FLAT_AGAIN) parts = { flat: new Map(entriesOf(parts)) };
    const map = this.build(parts, this.size);
    this.base = parts;
    this.flat = null;
    this.top = null;
    this.ownMiddles.clear();
    this.ownLeaves.clear();
    return map;
  }

  private leaf(id: string): Leaf | undefined {
    const [a, b] = slots(id);
    this.top ??= [...(this.base as { top: Top }).top];
    if (!this.ownMiddles.has(a) || !this.top[a]) {
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

function bucketed(flat: Leaf): Top {
  const top: (Leaf | undefined)[][] = [];
  for (const [id, sms] of flat) {
    const [a, b] = slots(id);
    const middle = (top[a] ??= new Array<Leaf | undefined>(FANOUT).fill(undefined));
    const leaf = (middle[b] ??= new Map()) as Map<string, number>;
    leaf.set(id, sms);
  }
  return Array.from({ length: FANOUT }, (_, a) => top[a]);
}
