// Reading an uploaded file: one `file` part of a multipart/form-data request (profile images, the
// studio console's images). The route's scope registers @fastify/multipart with its limits.
import { authMessages } from "@diginoor/api/auth";
import type { FastifyRequest } from "fastify";
import { AppError } from "./errors.ts";

/** The one `file` part of a multipart request, fully read (413 above the limit, 415 if not multipart). */
export async function readSingleFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) {
    throw new AppError("unsupported_media_type", 'Send the image as multipart/form-data in the field "file"');
  }
  const oneFile = () =>
    new AppError("validation_failed", 'Send exactly one image in the field "file"', [
      { field: "file", message: 'Send exactly one image in the field "file"' },
    ]);
  let data: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== "file") continue;
      if (data !== undefined || part.fieldname !== "file") throw oneFile();
      data = await part.toBuffer();
      if (part.file.truncated) throw new AppError("payload_too_large", authMessages.imageTooLarge);
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE")
      throw new AppError("payload_too_large", authMessages.imageTooLarge);
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
      throw oneFile();
    if (err instanceof AppError) throw err;
    // The parser's own complaints (a body cut off inside a part, a malformed part header, no
    // boundary) are the client's: 400, never a 500. Fastify's multipart errors carry their 4xx.
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) throw err;
    throw new AppError("bad_request", "The upload was cut off or is not a valid multipart/form-data body");
  }
  if (data === undefined) throw oneFile();
  return data;
}
