/**
 * Client-side pre-checks for avatar and cover uploads, so a wrong file is refused before it is sent.
 * The server checks again by content and re-encodes; these checks only save a round trip.
 */
export const MAX_IMAGE_BYTES = 5_242_880;
export const IMAGE_TYPE_MESSAGE = "Only JPEG or PNG images are allowed";
export const IMAGE_SIZE_MESSAGE = "The image must be at most 5 MB";

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

export type ImageKind = "png" | "jpeg";

/** Recognises JPEG and PNG by their first bytes, whatever the file name says. */
export function sniffImage(head: Uint8Array): ImageKind | null {
  const starts = (magic: number[]) => magic.every((b, i) => head[i] === b);
  if (head.length >= PNG_MAGIC.length && starts(PNG_MAGIC)) return "png";
  if (head.length >= JPEG_MAGIC.length && starts(JPEG_MAGIC)) return "jpeg";
  return null;
}

/** Returns an error message, or null when the file may be uploaded. */
export async function checkImageFile(file: Blob): Promise<string | null> {
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_SIZE_MESSAGE;
  if (file.size === 0) return IMAGE_TYPE_MESSAGE;
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffImage(head) ? null : IMAGE_TYPE_MESSAGE;
}
