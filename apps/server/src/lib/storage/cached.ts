import type { Storage, StoredObject } from "./storage.ts";

export interface ReadCacheOptions {
  /** Bytes of objects kept in memory (default 64 MiB); larger objects than an eighth of it are not kept. */
  maxBytes?: number;
  /**
   * Milliseconds an object stays cached (default 60 s). This process forgets a key it deletes at
   * once; other processes serve a deleted key until this runs out.
   */
  ttlMs?: number;
}

/**
 * Keeps recently read objects in memory, so popular artwork costs no storage round trip (the
 * database, or S3) per request. Objects never change under their key, so a cached copy is never
 * stale; only deletions lag in other processes (ttlMs).
 */
export function withReadCache(storage: Storage, opts: ReadCacheOptions = {}): Storage {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const ttlMs = opts.ttlMs ?? 60_000;
  // Insertion-ordered map used as an LRU: a hit moves to the end, the oldest are evicted first.
  const cache = new Map<string, { obj: StoredObject; until: number }>();
  let cachedBytes = 0;
  const forget = (key: string) => {
    const hit = cache.get(key);
    if (!hit) return;
    cache.delete(key);
    cachedBytes -= hit.obj.data.length;
  };
  const remember = (key: string, obj: StoredObject) => {
    if (obj.data.length > maxBytes / 8) return;
    forget(key);
    cache.set(key, { obj, until: Date.now() + ttlMs });
    cachedBytes += obj.data.length;
    for (const k of cache.keys()) {
      if (cachedBytes <= maxBytes) break;
      forget(k);
    }
  };
  return {
    ...storage,
    async put(key, data, contentType) {
      forget(key);
      await storage.put(key, data, contentType);
    },
    async get(key) {
      const hit = cache.get(key);
      if (hit && hit.until > Date.now()) {
        cache.delete(key);
        cache.set(key, hit);
        return hit.obj;
      }
      const obj = await storage.get(key);
      if (obj) remember(key, obj);
      else forget(key);
      return obj;
    },
    async delete(key) {
      forget(key);
      await storage.delete(key);
    },
  };
}
