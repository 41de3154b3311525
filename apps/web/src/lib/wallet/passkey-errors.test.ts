import { WebAuthnError } from "@simplewebauthn/browser";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api.ts";
import { walletErrorMessage } from "./errors.ts";
import { passkeyErrorMessage, passkeyProblem, passkeyProblemCopy } from "./passkey-errors.ts";

/** What Chromium rejects navigator.credentials with when the fingerprint is cancelled, with its W3C text. */
const W3C_TEXT =
  "The operation either timed out or was not allowed. See: https://www.w3.org/TR/webauthn-2/#sctn-privacy-considerations-client.";
const dom = (name: string, message = W3C_TEXT) => new DOMException(message, name);

/** ox's wrapper under viem's WebAuthn account (ox/webauthn/Authentication SignFailedError), as it is built. */
class SignFailedError extends Error {
  override name = "Authentication.SignFailedError";
  constructor({ cause }: { cause?: unknown } = {}) {
    super("Failed to request credential.", { cause });
  }
}

describe("passkey errors in plain words", () => {
  it.each([
    ["NotAllowedError", "cancelled"],
    ["InvalidStateError", "already_here"],
    ["SecurityError", "insecure"],
    ["NotSupportedError", "unsupported"],
    ["ConstraintError", "unsupported"],
    ["AbortError", "interrupted"],
    ["UnknownError", "failed"],
  ] as const)("the browser's %s is %s", (name, problem) => {
    expect(passkeyProblem(dom(name))).toBe(problem);
  });

  it("maps @simplewebauthn/browser's codes, and its passthrough by the DOMException's name", () => {
    const wrap = (code: WebAuthnError["code"], cause: Error, name?: string) =>
      new WebAuthnError({ message: cause.message, code, cause, name });
    expect(passkeyProblem(wrap("ERROR_CEREMONY_ABORTED", dom("AbortError"), "AbortError"))).toBe(
      "interrupted",
    );
    expect(
      passkeyProblem(
        wrap("ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", dom("InvalidStateError"), "InvalidStateError"),
      ),
    ).toBe("already_here");
    expect(passkeyProblem(wrap("ERROR_INVALID_RP_ID", dom("SecurityError"), "SecurityError"))).toBe(
      "insecure",
    );
    expect(
      passkeyProblem(
        wrap(
          "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT",
          dom("ConstraintError"),
          "ConstraintError",
        ),
      ),
    ).toBe("unsupported");
    // startAuthentication's NotAllowedError: the passthrough code, the DOMException's name.
    expect(
      passkeyProblem(wrap("ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY", dom("NotAllowedError"), "NotAllowedError")),
    ).toBe("cancelled");
  });

  it("finds the browser's error under ox's 'Failed to request credential.' (signing a listing)", () => {
    const err = new SignFailedError({ cause: dom("NotAllowedError") });
    expect(err.message).toMatch(/Failed to request credential/);
    expect(passkeyProblem(err)).toBe("cancelled");
    // The wrapper alone, cause unknown: still plain words.
    expect(passkeyProblem(new SignFailedError())).toBe("failed");
  });

  it("never shows the browser's text or a W3C link", () => {
    for (const name of [
      "NotAllowedError",
      "InvalidStateError",
      "SecurityError",
      "NotSupportedError",
      "AbortError",
    ]) {
      const text = passkeyErrorMessage(dom(name));
      expect(text).toBe(passkeyProblemCopy[passkeyProblem(dom(name))!]);
      expect(text).not.toMatch(/w3\.org|webauthn|timed out or was not allowed|See:/i);
      expect(walletErrorMessage(new SignFailedError({ cause: dom(name) }))).toBe(text);
    }
  });

  it("leaves what is not a WebAuthn failure alone (a server answer keeps its own words)", () => {
    expect(passkeyProblem(new Error("network down"))).toBeUndefined();
    expect(passkeyProblem(new ApiError(409, "conflict", "This wallet is already linked"))).toBeUndefined();
    expect(passkeyProblem(undefined)).toBeUndefined();
    // A cause cycle ends.
    const a: Error & { cause?: unknown } = new Error("a");
    a.cause = a;
    expect(passkeyProblem(a)).toBeUndefined();
  });
});
