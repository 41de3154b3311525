import { authMessages, loginRequestSchema, signupRequestSchema } from "@diginoor/api/auth";
import { describe, expect, it } from "vitest";
import { fieldErrors, hasErrors, withConfirmCheck } from "./validation.ts";

const good = {
  name: "Meena Iyer",
  phone: "+91 98765 43210",
  email: "Meena@Example.com",
  password: "long-enough-1",
  confirmPassword: "long-enough-1",
};

describe("client-side checks with the shared schemas", () => {
  it("accepts a complete sign-up", () => {
    expect(fieldErrors(signupRequestSchema, good)).toEqual({});
  });

  it("names each wrong field with the spec's messages", () => {
    const errors = fieldErrors(signupRequestSchema, {
      ...good,
      email: "nope",
      password: "short",
      phone: "98765",
    });
    expect(errors.email).toBe(authMessages.invalidEmail);
    expect(errors.password).toBe(authMessages.passwordTooShort);
    expect(errors.phone).toBe(authMessages.invalidPhone);
  });

  it("reports a confirm mismatch together with other mistakes", () => {
    const values = { ...good, name: "", confirmPassword: "long-enough-2" };
    const errors = withConfirmCheck(fieldErrors(signupRequestSchema, values), values);
    expect(errors.name).toBeDefined();
    expect(errors.confirmPassword).toBe(authMessages.confirmMismatch);
  });

  it("asks for a missing confirmation and leaves a matching one alone", () => {
    expect(withConfirmCheck({}, { password: "a", confirmPassword: "" }).confirmPassword).toBe(
      "Confirm Password is required",
    );
    expect(hasErrors(withConfirmCheck({}, { password: "same-value", confirmPassword: "same-value" }))).toBe(
      false,
    );
  });

  it("needs a password on sign-in but no minimum length", () => {
    expect(fieldErrors(loginRequestSchema, { email: "a@b.co", password: "" }).password).toBeDefined();
    expect(fieldErrors(loginRequestSchema, { email: "a@b.co", password: "x" })).toEqual({});
  });
});
