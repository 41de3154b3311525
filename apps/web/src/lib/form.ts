import { zodResolver } from "@hookform/resolvers/zod";
import {
  type FieldError,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  type RegisterOptions,
  type Resolver,
  type ResolverOptions,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import type { ZodType } from "zod";
import { serverFieldErrors } from "./api.ts";

/**
 * The web app's one way to build a form (decision 072): react-hook-form, validated by the zod schemas
 * the server validates with (packages/api) through @hookform/resolvers, or by field rules where no
 * schema exists. The kit adds what every form of ours did by hand:
 *
 * - `useAppForm`: errors appear on submit and stay until the next one (as before), and the first
 *   invalid field gets the keyboard focus;
 * - `fieldProps(form, name)`: what a `TextField` needs (registration, ref for focus, the error text);
 * - `schemaResolver(schema, { prepare, check })`: the schema's first message per field, on the values
 *   as the request will send them (`prepare`), plus checks the schema cannot make on its own;
 * - `applyServerErrors(form, err)`: the API's `{ error: { code, message, details } }` field errors
 *   (`validation_failed` details) shown on their fields, the first one focused.
 *
 * Only lazy route chunks import this file: react-hook-form and zod stay out of the home page's first load.
 */
export function useAppForm<T extends FieldValues>(options: UseFormProps<T>): UseFormReturn<T> {
  return useForm<T>({ mode: "onSubmit", reValidateMode: "onSubmit", shouldFocusError: true, ...options });
}

/**
 * Props for `TextField` (and `TextAreaField`): the registration and the field's error message.
 * `rules` are react-hook-form's field rules (`validate` for forms without a schema); `clearOnChange`
 * hides the field's error as soon as it is edited.
 */
export function fieldProps<T extends FieldValues>(
  form: UseFormReturn<T>,
  name: FieldPath<T>,
  { clearOnChange = false, ...rules }: RegisterOptions<T, FieldPath<T>> & { clearOnChange?: boolean } = {},
) {
  const onChange = clearOnChange ? () => form.clearErrors(name) : undefined;
  return { ...form.register(name, { ...rules, onChange }), error: errorOf(form.formState.errors, name) };
}

function errorOf(errors: FieldErrors, name: string): string | undefined {
  const error = errors[name] as FieldError | undefined;
  return typeof error?.message === "string" && error.message ? error.message : undefined;
}

/** Messages by field name, in the form's order. */
export type FieldMessages = Record<string, string>;

/**
 * Validates with `schema` (first message per field). `prepare` turns the form's values into the body
 * that will be sent (e.g. an empty optional field left out) before the schema sees them; `check` adds
 * messages for fields the schema left alone (e.g. a confirmation that must match, which an object-level
 * refinement would only report once every field is valid). `fieldOf` names the form field that shows a
 * body key's message where the two differ (the console's "price" field sends `priceUsdCents`). The
 * values handed to the submit handler are the form's own (not the schema's output): handlers build
 * their request bodies as before.
 */
export function schemaResolver<T extends FieldValues>(
  schema: ZodType,
  {
    prepare,
    check,
    fieldOf = {},
  }: {
    prepare?: (values: NoInfer<T>) => unknown;
    check?: (values: NoInfer<T>) => FieldMessages;
    fieldOf?: Record<string, string>;
  } = {},
): Resolver<T> {
  // biome-ignore lint/suspicious/noExplicitAny: the schema's own input type is the prepared body, not T
  const validate = zodResolver(schema as any, undefined, { raw: true }) as unknown as Resolver<FieldValues>;
  return async (values, context, options) => {
    const body = (prepare ? prepare(values) : values) as FieldValues;
    const result = await validate(body, context, options as unknown as ResolverOptions<FieldValues>);
    const errors: Record<string, FieldError> = {};
    for (const [key, error] of flatErrors(result.errors as FieldErrors)) {
      const name = fieldOf[key] ?? key;
      if (!errors[name]) errors[name] = error;
    }
    for (const [name, message] of Object.entries(check?.(values) ?? {})) {
      if (!errors[name]) errors[name] = { type: "check", message };
    }
    return Object.keys(errors).length > 0
      ? { values: {}, errors: errors as FieldErrors<T> }
      : { values, errors: {} };
  };
}

/** A nested body's errors (`prize.amountCents`) by their dotted path, each with its message. */
function flatErrors(errors: FieldErrors, prefix = ""): [string, FieldError][] {
  return Object.entries(errors).flatMap(([key, error]): [string, FieldError][] => {
    if (!error || typeof error !== "object") return [];
    const path = `${prefix}${key}`;
    return typeof (error as FieldError).message === "string"
      ? [[path, error as FieldError]]
      : flatErrors(error as FieldErrors, `${path}.`);
  });
}

/** "Confirm Password is required" / the mismatch message, for a new password and its confirmation. */
export function confirmPasswordCheck(mismatch: string) {
  return (values: { password: string; confirmPassword: string }): FieldMessages =>
    !values.confirmPassword
      ? { confirmPassword: "Confirm Password is required" }
      : values.password !== values.confirmPassword
        ? { confirmPassword: mismatch }
        : {};
}

/**
 * Shows a failed request's field errors (the API's `validation_failed` details, else the `extra`
 * messages the caller derives from other error codes) on the form's fields and focuses the first of them in the
 * form's order (the order of `defaultValues`); `fieldOf` maps body keys to fields as in `schemaResolver`.
 * Fields the form does not have are left out. Returns the
 * messages shown, {} when the error was not about fields (the caller then says what went wrong).
 */
export function applyServerErrors<T extends FieldValues>(
  form: UseFormReturn<T>,
  err: unknown,
  {
    extra = {},
    label,
    fieldOf = {},
  }: {
    extra?: FieldMessages;
    label?: (name: string, message: string) => string;
    fieldOf?: Record<string, string>;
  } = {},
): FieldMessages {
  const fields: FieldMessages = { ...extra };
  for (const [key, message] of Object.entries(serverFieldErrors(err))) fields[fieldOf[key] ?? key] = message;
  const order = Object.keys(form.formState.defaultValues ?? {});
  const shown: FieldMessages = {};
  for (const name of order) {
    const message = fields[name];
    if (message) shown[name] = label ? label(name, message) : message;
  }
  form.clearErrors();
  let focused = false;
  for (const [name, message] of Object.entries(shown)) {
    form.setError(name as FieldPath<T>, { type: "server", message }, { shouldFocus: !focused });
    focused = true;
  }
  return shown;
}

export const hasMessages = (messages: FieldMessages) => Object.keys(messages).length > 0;
