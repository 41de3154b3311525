import { authMessages, loginRequestSchema, signupRequestSchema } from "@diginoor/api/auth";
import type { FieldValues, ResolverOptions, UseFormReturn } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { ApiError } from "./api.ts";
import { applyServerErrors, confirmPasswordCheck, schemaResolver } from "./form.ts";

const good = {
  name: "Meena Iyer",
  phone: "+91 98765 43210",
  email: "Meena@Example.com",
  password: "long-enough-1",
  confirmPassword: "long-enough-1",
};
type Signup = typeof good;

// biome-ignore lint/suspicious/noExplicitAny: what react-hook-form passes a resolver, for any form
const options: ResolverOptions<any> = { fields: {}, names: [], shouldUseNativeValidation: false };

/** `{ field: message }` of a resolver's answer. */
async function messages<T extends FieldValues>(resolver: ReturnType<typeof schemaResolver<T>>, values: T) {
  const result = await resolver(values, undefined, options);
  return Object.fromEntries(
    Object.entries(result.errors).map(([k, v]) => [k, (v as { message?: string }).message]),
  );
}

const signup = schemaResolver<Signup>(signupRequestSchema, {
  prepare: (v) => ({ ...v, phone: v.phone.trim() === "" ? undefined : v.phone }),
  check: confirmPasswordCheck(authMessages.confirmMismatch),
});

describe("schemaResolver: the shared schemas, the server's messages", () => {
  it("accepts a complete sign-up and hands back the form's own values", async () => {
    const result = await signup(good, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toEqual(good);
  });

  it("names each wrong field with the spec's messages (an empty optional phone is left out first)", async () => {
    const errors = await messages(signup, { ...good, email: "nope", password: "short", phone: "98765" });
    expect(errors.email).toBe(authMessages.invalidEmail);
    expect(errors.password).toBe(authMessages.passwordTooShort);
    expect(errors.phone).toBe(authMessages.invalidPhone);
    expect(await messages(signup, { ...good, phone: "  " })).toEqual({});
  });

  it("reports a confirm mismatch together with other mistakes", async () => {
    const errors = await messages(signup, { ...good, name: "", confirmPassword: "long-enough-2" });
    expect(errors.name).toBeDefined();
    expect(errors.confirmPassword).toBe(authMessages.confirmMismatch);
  });

  it("asks for a missing confirmation and leaves a matching one alone", () => {
    const check = confirmPasswordCheck(authMessages.confirmMismatch);
    expect(check({ password: "a", confirmPassword: "" })).toEqual({
      confirmPassword: "Confirm Password is required",
    });
    expect(check({ password: "same-value", confirmPassword: "same-value" })).toEqual({});
  });

  it("needs a password on sign-in but no minimum length", async () => {
    const login = schemaResolver<{ email: string; password: string }>(loginRequestSchema);
    expect((await messages(login, { email: "a@b.co", password: "" })).password).toBeDefined();
    expect(await messages(login, { email: "a@b.co", password: "x" })).toEqual({});
  });
});

describe("applyServerErrors: the API's validation_failed details on the form's fields", () => {
  /** The part of a react-hook-form form the function uses, recording what it is asked to do. */
  function fakeForm(defaultValues: Record<string, string>) {
    const calls: { name: string; message: string; focus: boolean }[] = [];
    let cleared = 0;
    const form = {
      formState: { defaultValues },
      clearErrors: () => {
        cleared++;
      },
      setError: (name: string, error: { message: string }, opts?: { shouldFocus?: boolean }) => {
        calls.push({ name, message: error.message, focus: opts?.shouldFocus === true });
      },
    } as unknown as UseFormReturn<FieldValues>;
    return { form, calls, cleared: () => cleared };
  }

  const invalid = new ApiError(400, "validation_failed", "Invalid request", [
    { path: ["message"], message: "is required" },
    { path: ["name"], message: "is required" },
    { path: ["unknown"], message: "not a field of this form" },
  ]);

  it("shows each field's message, in the form's order, and focuses only the first", () => {
    const { form, calls, cleared } = fakeForm({ name: "", email: "", message: "" });
    const shown = applyServerErrors(form, invalid, {
      label: (n, m) => `${n === "name" ? "Name" : "Message"} ${m}`,
    });
    expect(shown).toEqual({ name: "Name is required", message: "Message is required" });
    expect(calls).toEqual([
      { name: "name", message: "Name is required", focus: true },
      { name: "message", message: "Message is required", focus: false },
    ]);
    expect(cleared()).toBe(1);
  });

  it("uses the caller's messages for other error codes, the server's details first", () => {
    const { form, calls } = fakeForm({ email: "", currentPassword: "" });
    const wrong = new ApiError(401, "invalid_credentials", "Wrong password");
    expect(applyServerErrors(form, wrong, { extra: { currentPassword: "Wrong password" } })).toEqual({
      currentPassword: "Wrong password",
    });
    expect(calls[0]).toEqual({ name: "currentPassword", message: "Wrong password", focus: true });
    const withDetails = new ApiError(400, "validation_failed", "x", {
      email: "must be a valid email address",
    });
    expect(
      applyServerErrors(fakeForm({ email: "" }).form, withDetails, { extra: { email: "other" } }),
    ).toEqual({
      email: "must be a valid email address",
    });
  });

  it("answers {} for errors that are not about fields", () => {
    const { form, calls } = fakeForm({ email: "" });
    expect(applyServerErrors(form, new ApiError(500, "internal", "Something went wrong"))).toEqual({});
    expect(applyServerErrors(form, new Error("network"))).toEqual({});
    expect(calls).toEqual([]);
  });
});
