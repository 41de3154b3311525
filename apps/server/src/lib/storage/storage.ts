/** Where uploaded files live. Keys are relative paths like `avatars/<user>/<random>.webp`. */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Public URL of a stored key. */
  url(key: string): string;
  /** Deletes a key; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are made by the server only; this refuses anything that could escape the storage root. */
export function assertSafeKey(key: string): void {
  if (!/^[a-z0-9][a-z0-9/_-]*(\.[a-z0-9]+)?$/i.test(key) || key.includes("..") || key.includes("//")) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}
