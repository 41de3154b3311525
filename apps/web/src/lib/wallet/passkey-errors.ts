/**
 * What a failed passkey step (navigator.credentials.create / get, through @simplewebauthn/browser or
 * viem's WebAuthn account) means for the fan, in plain words (issue 35 item 2): never the browser's own
 * text, which names the WebAuthn specification and links to the W3C. Every problem is one the fan can
 * try again; the words are kept here together, for translation.
 */

export type PasskeyProblem =
  | "cancelled"
  | "already_here"
  | "insecure"
  | "unsupported"
  | "interrupted"
  | "failed";

export const passkeyProblemCopy: Record<PasskeyProblem, string> = {
  cancelled:
    "Your fingerprint, face or screen lock wasn't confirmed: the passkey check was cancelled or timed out. Nothing has changed.",
  already_here:
    "This phone or computer already has a passkey for your Diginoor wallet. Try again and choose that passkey, or add this device from the Wallet page.",
  insecure:
    "Passkeys can't be used on this page as it is open now. Open Diginoor directly at its own address and try again.",
  unsupported:
    "This browser or device can't make the kind of passkey your wallet needs (one confirmed by fingerprint, face or screen lock). Set a screen lock, or try another browser.",
  interrupted: "The passkey check was interrupted before it finished. Nothing has changed.",
  failed: "Your passkey couldn't be used just now. Nothing has changed.",
};

export const tryAgainLabel = "Try again";

/** @simplewebauthn/browser's WebAuthnError codes, by what they mean for the fan. */
const byCode: Record<string, PasskeyProblem> = {
  ERROR_CEREMONY_ABORTED: "interrupted",
  ERROR_INVALID_DOMAIN: "insecure",
  ERROR_INVALID_RP_ID: "insecure",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "already_here",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: "unsupported",
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: "unsupported",
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: "unsupported",
  ERROR_AUTO_REGISTER_USER_VERIFICATION_FAILURE: "cancelled",
  ERROR_AUTHENTICATOR_GENERAL_ERROR: "failed",
  ERROR_INVALID_USER_ID_LENGTH: "failed",
  ERROR_MALFORMED_PUBKEYCREDPARAMS: "failed",
};

/** The DOMException names navigator.credentials rejects with (WebAuthn Level 3, section 5.1.3 and 5.1.4). */
const byName: Record<string, PasskeyProblem> = {
  NotAllowedError: "cancelled",
  InvalidStateError: "already_here",
  SecurityError: "insecure",
  NotSupportedError: "unsupported",
  ConstraintError: "unsupported",
  AbortError: "interrupted",
  UnknownError: "failed",
};

/**
 * ox (under viem's WebAuthn account) wraps the browser's error ("Failed to request credential.") and keeps
 * it as the cause; these are its names, old and new.
 */
const WRAPPERS =
  /^(Authentication\.SignFailedError|Registration\.CreateFailedError|WebAuthnP256\.Credential(Request|Creation)FailedError)$/;

/**
 * The problem a passkey step's error is, or undefined when the error is not a WebAuthn failure (a server
 * answer, a network error): those keep their own message. Looks through `cause`, where the wrappers keep
 * the browser's DOMException.
 */
export function passkeyProblem(err: unknown): PasskeyProblem | undefined {
  let wrapped = false;
  const seen = new Set<unknown>();
  for (
    let e: unknown = err;
    e && typeof e === "object" && !seen.has(e);
    e = (e as { cause?: unknown }).cause
  ) {
    seen.add(e);
    const { code, name } = e as { code?: unknown; name?: unknown };
    if (typeof code === "string" && code !== "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY" && byCode[code]) {
      return byCode[code];
    }
    if (typeof name === "string") {
      if (byName[name]) return byName[name];
      if (WRAPPERS.test(name)) wrapped = true;
    }
  }
  return wrapped ? "failed" : undefined;
}

/** The plain sentence for a passkey step's error, or undefined when it is not a WebAuthn failure. */
export function passkeyErrorMessage(err: unknown): string | undefined {
  const problem = passkeyProblem(err);
  return problem ? passkeyProblemCopy[problem] : undefined;
}
