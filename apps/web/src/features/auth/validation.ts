import { authMessages } from "@diginoor/api/auth";
import type { ZodType } from "zod";

/**
 * Client-side checks run the very schemas the server validates with (shared in @diginoor/api/auth),
 * so people see the same messages before a round trip. The server stays authoritative: its field
 * errors are shown the same way. Only lazy route modules import this file (zod stays out of the
 * home page's first load).
 */
export type FieldErrors = Record<string, string>;

/** `{ field: first message }` for every issue of `schema` on `value` ({} when valid). */
export function fieldErrors(schema: ZodType, value: unknown): FieldErrors {
  const result = schema.safeParse(value);
  const out: FieldErrors = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join(".");
    if (key && !(key in out)) out[key] = issue.message;
  }
  return out;
}

/**
 * The object-level "confirm matches" rule only runs once every field is valid; check it on its own
 * as well so a mismatch is reported together with the other mistakes.
 */
export function withConfirmCheck(
  errors: FieldErrors,
  values: { password: string; confirmPassword: string },
  confirmField = "confirmPassword",
): FieldErrors {
  if (!(confirmField in errors)) {
    if (!values.confirmPassword) return { ...errors, [confirmField]: "Confirm Password is required" };
    if (values.password !== values.confirmPassword)
      return { ...errors, [confirmField]: authMessages.confirmMismatch };
  }
  return errors;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** Moves keyboard focus to the first field with an error, in the form's own order. */
export function focusFirstError(form: HTMLFormElement | null, errors: FieldErrors): void {
  if (!form) return;
  for (const el of Array.from(form.elements)) {
    const name = (el as HTMLInputElement).name;
    if (name && name in errors) {
      (el as HTMLInputElement).focus();
      return;
    }
  }
}
