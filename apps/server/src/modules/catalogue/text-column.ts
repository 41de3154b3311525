// A column of texts for the catalogue's search index (search-index.ts).

/**
 * A text per slot, as UTF-8 one after another in one buffer outside the JavaScript heap (no string
 * per row for the garbage collector to mark and move): slot s is buf[at[s] .. at[s] + length[s]).
 * A changed text is appended and the old bytes left as garbage until the buffer is copied into a
 * new one; bytes once written are never overwritten, so views handed out (`bytes`) stay true.
 */
export class TextColumn {
  private buf = Buffer.alloc(0);
  private used = 0;
  private garbage = 0;
  private at = new Int32Array(0);
  private length = new Int32Array(0);

  get byteLength(): number {
    return this.buf.byteLength + this.at.byteLength + this.length.byteLength;
  }

  /** Room for slots below `capacity`. */
  grow(capacity: number): void {
    const at = new Int32Array(capacity);
    const length = new Int32Array(capacity);
    const n = Math.min(capacity, this.at.length);
    at.set(this.at.subarray(0, n));
    length.set(this.length.subarray(0, n));
    this.at = at;
    this.length = length;
  }

  set(slot: number, text: string): void {
    const bytes = Buffer.byteLength(text, "utf8");
    this.clear(slot);
    if (this.used + bytes > this.buf.length) {
      // Into a new buffer with the live texts only, and room for half as much again.
      const live = this.used - this.garbage;
      const next = Buffer.allocUnsafe(Math.max(64 * 1024, Math.ceil((live + bytes) * 1.5)));
      let used = 0;
      for (let s = 0; s < this.at.length; s++) {
        const n = this.length[s] as number;
        if (n === 0) continue;
        const from = this.at[s] as number;
        this.buf.copy(next, used, from, from + n);
        this.at[s] = used;
        used += n;
      }
      this.buf = next;
      this.used = used;
      this.garbage = 0;
    }
    this.buf.write(text, this.used, "utf8");
    this.at[slot] = this.used;
    this.length[slot] = bytes;
    this.used += bytes;
  }

  /** Forgets a slot's text. */
  clear(slot: number): void {
    this.garbage += this.length[slot] as number;
    this.length[slot] = 0;
  }

  /** The slot's bytes, as a view (no copy). */
  bytes(slot: number): Buffer {
    const from = this.at[slot] as number;
    return this.buf.subarray(from, from + (this.length[slot] as number));
  }

  text(slot: number): string {
    const from = this.at[slot] as number;
    return this.buf.toString("utf8", from, from + (this.length[slot] as number));
  }

  /** Whether the slot's text holds `needle` (none holds undefined). */
  includes(slot: number, needle: Buffer | undefined): boolean {
    if (needle === undefined) return false;
    if (needle.length === 0) return true;
    const n = this.length[slot] as number;
    if (needle.length > n) return false;
    return this.bytes(slot).indexOf(needle) !== -1;
  }

  /** Byte order of two slots' texts (code point order). */
  compare(a: number, b: number): number {
    const fa = this.at[a] as number;
    const fb = this.at[b] as number;
    return this.buf.compare(
      this.buf,
      fb,
      fb + (this.length[b] as number),
      fa,
      fa + (this.length[a] as number),
    );
  }

  /** Byte order of a slot's text and `key` (UTF-8). */
  compareWith(slot: number, key: Buffer): number {
    const from = this.at[slot] as number;
    return this.buf.compare(key, 0, key.length, from, from + (this.length[slot] as number));
  }
}
