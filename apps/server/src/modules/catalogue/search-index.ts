// In-memory search index of the catalogue list (docs/decisions/023-catalogue-search-index.md).
//
// The rows are kept as columns, not as objects: per NFT its card's JSON text, its id, sort title and
// search text (four strings, which the garbage collector marks without looking inside), and its list
// keys in typed arrays: price, creation time, and a code per equality filter (tier, sale type, film,
// star). A heap of 100,000 row objects with their dozen strings each made every full garbage
// collection of the server mark two million objects; these columns are half a million. Each sort order is a presorted array
// of row slots (newest and price_desc walk the ascending arrays backwards), so a page is found by
// walking the order from the cursor's position and testing the other conditions, or, when a filter
// or a search word leaves few candidates, by testing those candidates and reading the first matches
// off a bitset of their positions in the order. Search words of three characters or more find their
// candidates through trigram postings; every candidate is verified with a substring test.
//
// It returns exactly the rows of the SQL list (`WHERE <conditions> ORDER BY <key>, id LIMIT
// limit + 1`, repo.listNfts): title order is byte-wise (COLLATE "C", i.e. code point order), the
// search text is PostgreSQL's own lower-cased `search_text`, and keys are compared exactly.
import type { NftSort } from "@diginoor/api/catalogue";
import { cardJson } from "./card.ts";
import { TextColumn } from "./text-column.ts";
import type { NftCursor } from "./cursor.ts";
import type { IndexedNftRow, NftFilter } from "./repo.ts";

/** A card row of the list, with the search text the list's substring search matches. */
export type IndexRow = IndexedNftRow;

/** A row found: its card's JSON as UTF-8 (`JSON.stringify(toSummary(row))`) and the keys of a cursor after it. */
export type IndexHit = {
  id: string;
  /** A view of the index's arena (read it before the next change, or copy it). */
  card: Buffer;
  priceUsdCents: number;
  createdAtMicros: string;
  sortTitle: string;
};

/** Code point order (PostgreSQL's COLLATE "C" on UTF-8): UTF-16 order, except surrogates sort last. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x < 0xe000 ? x + 0x2000 : x - 0x800;
      y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The equality filters, in the order of `codes` and `dims`. */
const DIMS = ["tier", "saleType", "film", "celebrity"] as const;
type Dim = (typeof DIMS)[number];
const dimValue: Record<Dim, (r: IndexRow) => string> = {
  tier: (r) => r.tier,
  saleType: (r) => r.saleType,
  film: (r) => r.filmSlug,
  celebrity: (r) => r.celebritySlug,
};

type OrderName = "created" | "price" | "title";
const ORDER_OF: Record<NftSort, { order: OrderName; dir: 1 | -1 }> = {
  newest: { order: "created", dir: -1 },
  price_asc: { order: "price", dir: 1 },
  price_desc: { order: "price", dir: -1 },
  title: { order: "title", dir: 1 },
};

/** Candidates at most this many are tested at once, without walking the order first. */
export const DIRECT_CANDIDATES = 1500;

/** A trigram of UTF-16 code units as one exact number. */
const trigramAt = (s: string, i: number) =>
  s.charCodeAt(i) * 4294967296 + s.charCodeAt(i + 1) * 65536 + s.charCodeAt(i + 2);

/**
 * A search word's candidate rows (slots with all its trigrams, ascending) and a bitset of the slots
 * that may hold it; when `exact`, exactly those that do.
 */
type WordCandidates = { rows: Int32Array; bits: Uint32Array; exact: boolean };

/** Postings of one filter dimension: the slots with code c are items[start[c] .. start[c + 1]). */
type Postings = { start: Int32Array; items: Int32Array };

export class CatalogueSearchIndex {
  /**
   * @param directCandidates candidate sets up to this size are tested without walking the order
   *   first; larger ones after a walk of as many rows (tests lower it to exercise both ways).
   */
  constructor(private readonly directCandidates = DIRECT_CANDIDATES) {}

  /**
   * Per slot as UTF-8 outside the JavaScript heap (TextColumn): the card's JSON, the sort title and
   * the search text. UTF-8 byte order is code point order (COLLATE "C"), and a substring of the
   * text is a byte substring of its UTF-8, so both are tested on the bytes.
   */
  private cards = new TextColumn();
  private titles = new TextColumn();
  private texts = new TextColumn();
  /** 1 for a slot that holds a row. */
  private alive = new Uint8Array(0);
  /** Each slot's id (the slots ever used: ids.length). */
  private ids: string[] = [];
  private price = new Float64Array(0);
  private created = new Float64Array(0);
  /** The creation micros of the rows whose text is not `String(created[slot])` (none in practice). */
  private readonly oddMicros = new Map<number, string>();
  private dims: Uint32Array[] = DIMS.map(() => new Uint32Array(0));
  private readonly codes: Map<string, number>[] = DIMS.map(() => new Map());
  private readonly slotOf = new Map<string, number>();
  private free: number[] = [];
  private capacity = 0;
  private live = 0;

  /** Live slots in each order (ascending), valid for `live` entries, and each slot's position. */
  private orders: Record<OrderName, Int32Array> = {
    created: new Int32Array(0),
    price: new Int32Array(0),
    title: new Int32Array(0),
  };
  private ranks: Record<OrderName, Int32Array> = {
    created: new Int32Array(0),
    price: new Int32Array(0),
    title: new Int32Array(0),
  };
  private ordersSorted = false;
  /** Incremental moves left in the current apply() before the orders are re-sorted instead. */
  private moves = 0;
  private ranksValid = false;
  private postings: Postings[] | undefined;
  /** Per equality filter and order: the postings' slots sorted in that order (same offsets). */
  private dimOrders: Record<OrderName, Int32Array>[] | undefined;
  private trigrams: Trigrams | undefined;
  /** Slots whose text changed since the trigram postings were built: always candidates. */
  private recent = new Set<number>();
  private bits = new Uint32Array(0);
  /** Candidates of recent search words (see wordCandidates), least recently used first. */
  private readonly words = new Map<string, WordCandidates>();
  /** Bitsets of forgotten words, reused for new ones. */
  private spare: Uint32Array[] = [];

  get size(): number {
    return this.live;
  }

  /** Replaces the whole content. */
  replaceAll(rows: IndexRow[]): void {
    this.alive = new Uint8Array(0);
    this.ids = [];
    this.cards = new TextColumn();
    this.titles = new TextColumn();
    this.texts = new TextColumn();
    this.free = [];
    this.slotOf.clear();
    this.oddMicros.clear();
    for (const c of this.codes) c.clear();
    this.capacity = 0;
    this.live = 0;
    this.grow(rows.length);
    for (const r of rows) this.place(r);
    this.ordersSorted = false;
    this.ranksValid = false;
    this.postings = undefined;
    this.trigrams = undefined;
    this.recent.clear();
    this.dropWords();
  }

  /** Applies changed rows (inserted or updated) and deleted ids. */
  apply(upserts: IndexRow[], deletedIds: Iterable<string>): void {
    // Moving a row in the sorted orders costs a copy of each; beyond a few, one sort is cheaper.
    this.moves = 64;
    let membership = false;
    const remove = (slot: number, id: string) => {
      this.unorder(slot);
      this.alive[slot] = 0;
      for (const c of [this.cards, this.titles, this.texts]) c.clear(slot);
      this.oddMicros.delete(slot);
      this.slotOf.delete(id);
      this.free.push(slot);
      this.live--;
      membership = true;
    };
    for (const id of deletedIds) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) remove(slot, id);
    }
    for (const r of upserts) {
      const slot = this.slotOf.get(r.id);
      if (slot !== undefined) {
        const same =
          this.price[slot] === Number(r.priceUsdCents) &&
          this.microsOf(slot) === r.createdAtMicros &&
          this.titles.text(slot) === r.sortTitle &&
          this.texts.text(slot) === r.searchText &&
          DIMS.every((d, i) => this.codes[i]?.get(dimValue[d](r)) === this.dims[i]?.[slot]);
        if (same) {
          // Only what the card shows changed (editions left, auction end, names): no key moves.
          this.cards.set(slot, cardJson(r));
          continue;
        }
        remove(slot, r.id);
      }
      this.grow(this.live + 1);
      const placed = this.place(r);
      membership = true;
      if (this.trigrams) this.recent.add(placed);
      this.reorder(placed);
    }
    if (membership) {
      this.postings = undefined;
      this.ranksValid = false;
      this.dropWords();
    }
    if (this.recent.size > Math.max(1000, this.live / 20)) {
      this.trigrams = undefined;
      this.recent.clear();
    }
  }

  /** One page: the rows of `WHERE <filter> AND <after cursor> ORDER BY <sort key>, id LIMIT limit + 1`. */
  list(filter: NftFilter, sort: NftSort, limit: number, after?: NftCursor): IndexHit[] {
    this.prepare();
    const want = limit + 1;
    const n = this.live;
    const { order: orderName, dir } = ORDER_OF[sort];
    const order = this.orders[orderName];
    const rank = this.ranks[orderName];

    // Equality filters as codes; a value no NFT has matches nothing.
    const eqDims: number[] = [];
    const eqCodes: number[] = [];
    for (let d = 0; d < DIMS.length; d++) {
      const v = filter[DIMS[d] as Dim];
      if (v === undefined) continue;
      const code = this.codes[d]?.get(v);
      if (code === undefined) return [];
      eqDims.push(d);
      eqCodes.push(code);
    }
    const min = filter.minPriceCents;
    const max = filter.maxPriceCents;
    const q = filter.q ? filter.q.toLowerCase() : undefined;

    // The range of positions in the ascending order that lie after the cursor.
    let from = 0;
    let to = n;
    if (after) {
      const cmp = this.cursorComparer(after);
      // first position whose row is after the cursor (ascending) / not before it (descending)
      const cut = this.lowerBound(order, n, (slot) => (dir === 1 ? cmp(slot) <= 0 : cmp(slot) < 0));
      if (dir === 1) from = cut;
      else to = cut;
    }
    // Price bounds narrow the range of the price order itself.
    const priceLo =
      min === undefined ? 0 : this.lowerBound(this.orders.price, n, (s) => (this.price[s] as number) < min);
    const priceHi =
      max === undefined ? n : this.lowerBound(this.orders.price, n, (s) => (this.price[s] as number) <= max);
    if (orderName === "price") {
      from = Math.max(from, priceLo);
      to = Math.min(to, priceHi);
    }
    if (from >= to) return [];

    const price = this.price;
    const texts = this.texts;
    const needle = q === undefined ? undefined : this.needle(q);
    const recent = this.recent;
    // A word of three characters or more: its candidate rows, also as a bitset over slots.
    const word = q !== undefined && q.length >= 3 ? this.wordCandidates(q) : undefined;
    const wordRows = word?.rows;
    const textBits = word?.bits ?? EMPTY_BITS;
    const wordExact = word?.exact === true;
    const dims = this.dims;
    const matches = (slot: number): boolean => {
      for (let i = 0; i < eqDims.length; i++) {
        if ((dims[eqDims[i] as number] as Uint32Array)[slot] !== eqCodes[i]) return false;
      }
      const p = price[slot] as number;
      if (min !== undefined && p < min) return false;
      if (max !== undefined && p > max) return false;
      if (q === undefined) return true;
      if (wordRows !== undefined) {
        // Only rows with every trigram of the word can hold it (see wordCandidates).
        if (((textBits[slot >>> 5] as number) & (1 << (slot & 31))) === 0) return false;
        if (wordExact) return true;
      }
      return texts.includes(slot, needle);
    };

    // What to walk: the order itself, or the smallest equality filter's rows in that order.
    let seq = order;
    let a = from;
    let b = to;
    const postings = this.postings as Postings[];
    const dimOrders = this.dimOrders as Record<OrderName, Int32Array>[];
    for (let i = 0; i < eqDims.length; i++) {
      const d = eqDims[i] as number;
      const code = eqCodes[i] as number;
      const p = postings[d] as Postings;
      const s0 = p.start[code] as number;
      const s1 = p.start[code + 1] as number;
      if (s1 - s0 >= b - a) continue;
      const items = (dimOrders[d] as Record<OrderName, Int32Array>)[orderName];
      const lo = from;
      const hi = to;
      seq = items;
      a = this.lowerBound(items, s1, (slot) => (rank[slot] as number) < lo, s0);
      b = this.lowerBound(items, s1, (slot) => (rank[slot] as number) < hi, s0);
    }

    // The smallest candidate set, when smaller than the walk: a search word's rows (its trigrams'
    // postings intersected), or the price range (under another order).
    let best: { size: number; each: (fn: (slot: number) => void) => void } | undefined;
    const consider = (size: number, each: (fn: (slot: number) => void) => void) => {
      if (size < b - a && (!best || size < best.size)) best = { size, each };
    };
    if (wordRows !== undefined) {
      const list = wordRows;
      consider(list.length + recent.size, (fn) => {
        for (let j = 0; j < list.length; j++) fn(list[j] as number);
        for (const s of recent) fn(s);
      });
    }
    if (orderName !== "price" && (min !== undefined || max !== undefined)) {
      const pOrder = this.orders.price;
      consider(Math.max(0, priceHi - priceLo), (fn) => {
        for (let j = priceLo; j < priceHi; j++) fn(pOrder[j] as number);
      });
    }

    const out: IndexHit[] = [];
    const alive = this.alive;
    // Walk from the cursor; with a smaller candidate set, only as far as testing the candidates
    // would cost, then test the candidates beyond the point reached.
    const found = best as { size: number } | undefined;
    const budget = !found ? Number.POSITIVE_INFINITY : found.size <= this.directCandidates ? 0 : found.size;
    let walked = 0;
    if (dir === 1) {
      while (a < b && out.length < want && walked < budget) {
        const slot = seq[a++] as number;
        walked++;
        if (matches(slot)) out.push(this.hit(slot));
      }
      if (a < b) from = rank[seq[a] as number] as number;
    } else {
      while (a < b && out.length < want && walked < budget) {
        const slot = seq[--b] as number;
        walked++;
        if (matches(slot)) out.push(this.hit(slot));
      }
      if (a < b) to = (rank[seq[b - 1] as number] as number) + 1;
    }
    if (out.length >= want || a >= b || !best) return out;

    // Candidates: mark the positions of those that match within [from, to), read them in order.
    const bits = this.bits;
    let lowWord = bits.length;
    let highWord = -1;
    best.each((slot) => {
      if (alive[slot] === 0) return;
      const r = rank[slot] as number;
      if (r < from || r >= to || !matches(slot)) return;
      const w = r >>> 5;
      bits[w] = (bits[w] as number) | (1 << (r & 31));
      if (w < lowWord) lowWord = w;
      if (w > highWord) highWord = w;
    });
    if (highWord < 0) return out;
    if (dir === 1) {
      for (let w = lowWord; w <= highWord && out.length < want; w++) {
        let word = bits[w] as number;
        while (word !== 0 && out.length < want) {
          const bit = 31 - Math.clz32(word & -word);
          word &= word - 1;
          out.push(this.hit(order[(w << 5) + bit] as number));
        }
      }
    } else {
      for (let w = highWord; w >= lowWord && out.length < want; w--) {
        let word = bits[w] as number;
        while (word !== 0 && out.length < want) {
          const bit = 31 - Math.clz32(word);
          word &= ~(1 << bit);
          out.push(this.hit(order[(w << 5) + bit] as number));
        }
      }
    }
    bits.fill(0, lowWord, highWord + 1);
    return out;
  }

  /** Builds what the first query would (sorted orders, postings), so no visitor waits for it. */
  warm(): void {
    this.prepare();
    this.trigramPostings();
  }

  /** Bytes held outside the JavaScript heap's objects: typed arrays, postings and the UTF-8 columns. */
  structureBytes(): number {
    this.warm();
    let b = this.price.byteLength + this.created.byteLength + this.bits.byteLength;
    for (const d of this.dims) b += d.byteLength;
    for (const o of Object.values(this.orders)) b += o.byteLength;
    for (const o of Object.values(this.ranks)) b += o.byteLength;
    for (const p of this.postings ?? []) b += p.start.byteLength + p.items.byteLength;
    const t = this.trigrams;
    if (t) b += t.keys.byteLength + t.start.byteLength + t.items.byteLength;
    for (const c of [this.cards, this.titles, this.texts]) b += c.byteLength;
    return b;
  }

  // ---- internals

  private grow(need: number): void {
    if (need <= this.capacity) return;
    const cap = Math.max(need, Math.ceil(this.capacity * 1.5), 1024);
    const copy = <T extends Float64Array | Uint32Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      // (after replaceAll, the old arrays may be longer than the new capacity: no live slot is beyond it)
      b.set(a.length > cap ? a.subarray(0, cap) : a);
      return b;
    };
    this.price = copy(this.price, (k) => new Float64Array(k));
    for (const c of [this.cards, this.titles, this.texts]) c.grow(cap);
    const alive = new Uint8Array(cap);
    alive.set(this.alive.length > cap ? this.alive.subarray(0, cap) : this.alive);
    this.alive = alive;
    this.created = copy(this.created, (k) => new Float64Array(k));
    this.dims = this.dims.map((d) => copy(d, (k) => new Uint32Array(k)));
    for (const name of ["created", "price", "title"] as const) {
      this.orders[name] = copy(this.orders[name], (k) => new Int32Array(k));
      this.ranks[name] = copy(this.ranks[name], (k) => new Int32Array(k));
    }
    this.bits = new Uint32Array(Math.ceil(cap / 32) + 1);
    // Word bitsets are sized to the capacity: none of the old size is worth keeping.
    this.words.clear();
    this.spare = [];
    this.capacity = cap;
  }

  /**
   * A search word as the bytes to find in the UTF-8 texts; undefined for text with an unpaired
   * surrogate, which no text from PostgreSQL holds (its UTF-8 would be U+FFFD's, which one may).
   */
  private needle(q: string): Buffer | undefined {
    return LONE_SURROGATE.test(q) ? undefined : Buffer.from(q, "utf8");
  }

  /** A slot's creation time in microseconds, as PostgreSQL's text. */
  private microsOf(slot: number): string {
    return this.oddMicros.get(slot) ?? String(this.created[slot]);
  }

  private hit(slot: number): IndexHit {
    return {
      id: this.ids[slot] as string,
      card: this.cards.bytes(slot),
      priceUsdCents: this.price[slot] as number,
      createdAtMicros: this.microsOf(slot),
      sortTitle: this.titles.text(slot),
    };
  }

  /** Stores a row in a free slot (not yet in the orders): its columns only, not the row object. */
  private place(r: IndexRow): number {
    const slot = this.free.length > 0 ? (this.free.pop() as number) : this.ids.length;
    this.alive[slot] = 1;
    this.cards.set(slot, cardJson(r));
    this.ids[slot] = r.id;
    this.titles.set(slot, r.sortTitle);
    this.texts.set(slot, r.searchText);
    this.price[slot] = Number(r.priceUsdCents);
    const micros = Number(r.createdAtMicros);
    this.created[slot] = micros;
    if (String(micros) !== r.createdAtMicros) this.oddMicros.set(slot, r.createdAtMicros);
    for (let d = 0; d < DIMS.length; d++) {
      const codes = this.codes[d] as Map<string, number>;
      const v = dimValue[DIMS[d] as Dim](r);
      let code = codes.get(v);
      if (code === undefined) {
        code = codes.size + 1;
        codes.set(v, code);
      }
      (this.dims[d] as Uint32Array)[slot] = code;
    }
    this.slotOf.set(r.id, slot);
    this.live++;
    return slot;
  }

  private compareSlots(name: OrderName): (a: number, b: number) => number {
    const ids = this.ids;
    if (name === "title") {
      const t = this.titles;
      return (a, b) => t.compare(a, b) || compareIds(ids[a] as string, ids[b] as string);
    }
    const k = name === "price" ? this.price : this.created;
    return (a, b) => (k[a] as number) - (k[b] as number) || compareIds(ids[a] as string, ids[b] as string);
  }

  /** Compares a slot's (key, id) with the cursor's: negative when the slot comes first in ascending order. */
  private cursorComparer(c: NftCursor): (slot: number) => number {
    const ids = this.ids;
    switch (c.sort) {
      case "newest": {
        // Micros beyond 2^53 round, but stay beyond every row's (all within 2^53), so order holds.
        const key = Number(c.createdAtMicros);
        return (s) => (this.created[s] as number) - key || compareIds(ids[s] as string, c.id);
      }
      case "price_asc":
      case "price_desc":
        return (s) => (this.price[s] as number) - c.priceUsdCents || compareIds(ids[s] as string, c.id);
      case "title": {
        // As the driver sends it: text that is not valid UTF-16 becomes U+FFFD.
        const key = Buffer.from(c.sortTitle, "utf8");
        return (s) => this.titles.compareWith(s, key) || compareIds(ids[s] as string, c.id);
      }
    }
  }

  /** First position in `order[start..n)` for which `before` is false (`before` holds on a prefix). */
  private lowerBound(order: Int32Array, n: number, before: (slot: number) => boolean, start = 0): number {
    let lo = start;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(order[mid] as number)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Removes a slot from the sorted orders while they are sorted and moves remain. */
  private unorder(slot: number): void {
    if (!this.ordersSorted || this.moves-- <= 0) {
      this.ordersSorted = false;
      return;
    }
    for (const name of ["created", "price", "title"] as const) {
      const order = this.orders[name];
      const at = this.ranksValid ? (this.ranks[name][slot] as number) : order.indexOf(slot);
      if (at < 0 || at >= this.live) continue;
      order.copyWithin(at, at + 1, this.live);
    }
    this.ranksValid = false;
  }

  /** Inserts a placed slot into the sorted orders (which hold the other `live - 1` slots). */
  private reorder(slot: number): void {
    if (!this.ordersSorted || this.moves-- <= 0) {
      this.ordersSorted = false;
      return;
    }
    const n = this.live - 1;
    for (const name of ["created", "price", "title"] as const) {
      const order = this.orders[name];
      const cmp = this.compareSlots(name);
      const at = this.lowerBound(order, n, (s) => cmp(s, slot) < 0);
      order.copyWithin(at + 1, at, n);
      order[at] = slot;
    }
    // Positions after the insertion moved: the ranks are stale until the next prepare().
    this.ranksValid = false;
  }

  private prepare(): void {
    if (!this.ordersSorted) {
      const slots: number[] = [];
      for (let s = 0; s < this.ids.length; s++) if (this.alive[s] === 1) slots.push(s);
      for (const name of ["created", "price", "title"] as const) {
        const sorted = Int32Array.from(slots).sort(this.compareSlots(name));
        this.orders[name].set(sorted);
      }
      this.ordersSorted = true;
      this.ranksValid = false;
    }
    if (!this.ranksValid) {
      for (const name of ["created", "price", "title"] as const) {
        const order = this.orders[name];
        const rank = this.ranks[name];
        for (let i = 0; i < this.live; i++) rank[order[i] as number] = i;
      }
      this.ranksValid = true;
      this.dimOrders = undefined;
    }
    if (!this.postings) {
      this.postings = this.dims.map((d, i) => this.buildPostings(d, this.codes[i]?.size ?? 0));
      this.dimOrders = undefined;
    }
    if (!this.dimOrders) {
      const postings = this.postings;
      this.dimOrders = this.dims.map((codesOf, d) => {
        const start = (postings[d] as Postings).start;
        const byOrder = {} as Record<OrderName, Int32Array>;
        for (const name of ["created", "price", "title"] as const) {
          const order = this.orders[name];
          const items = new Int32Array(this.live);
          const fill = start.slice();
          for (let i = 0; i < this.live; i++) {
            const slot = order[i] as number;
            const c = codesOf[slot] as number;
            items[fill[c] as number] = slot;
            fill[c] = (fill[c] as number) + 1;
          }
          byOrder[name] = items;
        }
        return byOrder;
      });
    }
  }

  private buildPostings(codesOf: Uint32Array, codeCount: number): Postings {
    const start = new Int32Array(codeCount + 2);
    const alive = this.alive;
    const slots = this.ids.length;
    for (let s = 0; s < slots; s++) {
      if (alive[s] === 0) continue;
      const c = (codesOf[s] as number) + 1;
      start[c] = (start[c] as number) + 1;
    }
    for (let c = 1; c < start.length; c++) start[c] = (start[c] as number) + (start[c - 1] as number);
    const items = new Int32Array(this.live);
    const fill = start.slice();
    for (let s = 0; s < slots; s++) {
      if (alive[s] === 0) continue;
      const c = codesOf[s] as number;
      items[fill[c] as number] = s;
      fill[c] = (fill[c] as number) + 1;
    }
    return { start, items };
  }

  /**
   * Slots (ascending) whose text has every trigram of `q` (3+ characters), a superset of its matches,
   * and the same as a bitset over slots with the recently changed slots added. Kept for the most
   * recent words (visitors repeat words), until the rows or the postings change.
   */
  private wordCandidates(q: string): WordCandidates {
    const cached = this.words.get(q);
    if (cached) {
      this.words.delete(q);
      this.words.set(q, cached);
      return cached;
    }
    const tri = this.trigramPostings();
    const lists: Int32Array[] = [];
    for (let i = 0; i + 3 <= q.length; i++) lists.push(postingsOf(tri, trigramAt(q, i)));
    lists.sort((x, y) => x.length - y.length);
    let rows = lists[0] ?? EMPTY;
    for (let i = 1; i < lists.length && rows.length > 32; i++) rows = intersect(rows, lists[i] as Int32Array);
    // A three-character word is its trigram: its postings are exact, except for rows whose text
    // changed since they were built (`recent`, tested here). Longer words are tested here too unless
    // they have very many candidates (then each row walked is tested; a walk stops early for them).
    const exact = q.length === 3 || rows.length <= VERIFY_CANDIDATES;
    // The least recently used word's bitset is reused (cleared): no 12.5 kB allocated per new word,
    // which under browsing that rarely repeats a word was a steady stream for the garbage collector.
    if (this.words.size >= WORD_CACHE) {
      const oldest = this.words.keys().next().value as string;
      this.spare.push((this.words.get(oldest) as WordCandidates).bits);
      this.words.delete(oldest);
    }
    const need = Math.ceil(this.capacity / 32) + 1;
    let bits = this.spare.pop();
    if (bits?.length === need) bits.fill(0);
    else bits = new Uint32Array(need);
    const set = (slot: number) => {
      bits[slot >>> 5] = (bits[slot >>> 5] as number) | (1 << (slot & 31));
    };
    const alive = this.alive;
    const needle = this.needle(q);
    const holds = (slot: number) => alive[slot] === 1 && this.texts.includes(slot, needle);
    for (let j = 0; j < rows.length; j++) {
      const slot = rows[j] as number;
      if (this.recent.has(slot)) continue;
      if (q.length === 3 ? alive[slot] === 1 : !exact || holds(slot)) set(slot);
    }
    for (const slot of this.recent) if (holds(slot)) set(slot);
    const entry = { rows, bits, exact };
    this.words.set(q, entry);
    return entry;
  }

  /** Forgets the cached word candidates, keeping their bitsets for reuse. */
  private dropWords(): void {
    for (const e of this.words.values()) if (this.spare.length < WORD_CACHE) this.spare.push(e.bits);
    this.words.clear();
  }

  /**
   * Slots per trigram of their search text, built on first use (two passes: count, then fill), as
   * three typed arrays (a map of tens of thousands of arrays would be as many objects to collect).
   */
  private trigramPostings(): Trigrams {
    if (this.trigrams) return this.trigrams;
    type Entry = { last: number; count: number; at: number };
    const entries = new Map<number, Entry>();
    const alive = this.alive;
    const slots = this.ids.length;
    let items = EMPTY;
    let keys = new Float64Array(0);
    let start = EMPTY;
    for (let pass = 0; pass < 2; pass++) {
      if (pass === 1) {
        // Keys ascending; each one's slots are items[start[i] .. start[i + 1]).
        keys = Float64Array.from(entries.keys()).sort();
        start = new Int32Array(keys.length + 1);
        let total = 0;
        for (let i = 0; i < keys.length; i++) {
          const e = entries.get(keys[i] as number) as Entry;
          start[i] = total;
          e.at = total;
          e.last = -1;
          total += e.count;
        }
        start[keys.length] = total;
        items = new Int32Array(total);
      }
      for (let s = 0; s < slots; s++) {
        if (alive[s] === 0) continue;
        const text = this.texts.text(s);
        for (let i = 0; i + 3 <= text.length; i++) {
          const key = trigramAt(text, i);
          let e = entries.get(key);
          if (!e) {
            e = { last: -1, count: 0, at: 0 };
            entries.set(key, e);
          }
          if (e.last === s) continue;
          e.last = s;
          if (pass === 1) items[e.at++] = s;
          else e.count++;
        }
      }
    }
    this.trigrams = { keys, start, items };
    this.recent.clear();
    this.dropWords();
    return this.trigrams;
  }
}

const EMPTY = new Int32Array(0);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Trigram postings: the slots with trigram keys[i] are items[start[i] .. start[i + 1]), ascending. */
type Trigrams = { keys: Float64Array; start: Int32Array; items: Int32Array };

/** The slots whose text has a trigram (none for a trigram no text has). */
function postingsOf(t: Trigrams, key: number): Int32Array {
  let lo = 0;
  let hi = t.keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((t.keys[mid] as number) < key) lo = mid + 1;
    else hi = mid;
  }
  if (t.keys[lo] !== key) return EMPTY;
  return t.items.subarray(t.start[lo] as number, t.start[lo + 1] as number);
}

const EMPTY_BITS = new Uint32Array(0);
/** Up to this many candidates of a word are tested when it is first searched for. */
const VERIFY_CANDIDATES = 2000;
/** Search words whose candidates are kept (each a bitset of capacity / 8 bytes: 12.5 kB at 100,000). */
const WORD_CACHE = 256;

/** The common values of two ascending arrays. */
function intersect(x: Int32Array, y: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(x.length, y.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < x.length && j < y.length) {
    const u = x[i] as number;
    const v = y[j] as number;
    if (u === v) {
      out[k++] = u;
      i++;
      j++;
    } else if (u < v) i++;
    else j++;
  }
  return out.subarray(0, k);
}
