import { forwardRef, type ReactNode } from "react";
import { TextField, type TextFieldProps } from "./TextField.tsx";
import "./form.css";

type NoticeTone = "info" | "error" | "success" | "warning";

/** An inline message inside a form (errors are announced with role="alert"). */
export const Notice = forwardRef<HTMLDivElement, { tone?: NoticeTone; children: ReactNode }>(function Notice(
  { tone = "info", children },
  ref,
) {
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={`auth-notice auth-notice--${tone}`}
      role={tone === "error" ? "alert" : "status"}
    >
      {children}
    </div>
  );
});

/** A registered field's props (`fieldProps(form, name)` of lib/form.ts): name, ref, handlers, error. */
type FieldProps = Omit<TextFieldProps, "label">;

/** The email address field of the accounts forms. */
export function EmailField({ label = "Email", ...field }: FieldProps & { label?: string }) {
  return <TextField label={label} type="email" autoComplete="email" inputMode="email" required {...field} />;
}

/** The phone number field (sign-up and the profile); `hint` says whether it is optional. */
export function PhoneField(field: FieldProps & { hint: string }) {
  return (
    <TextField
      label="Phone"
      type="tel"
      autoComplete="tel"
      inputMode="tel"
      placeholder="Phone Number with country code"
      {...field}
    />
  );
}

/** A new password and its confirmation (sign-up, password reset, the profile's password change). */
export function PasswordFields({
  passwordLabel = "New password",
  password,
  confirmPassword,
}: {
  passwordLabel?: string;
  password: FieldProps;
  confirmPassword: FieldProps;
}) {
  return (
    <>
      <TextField
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        placeholder="min 9 characters"
        required
        {...password}
      />
      <TextField
        label="Confirm Password"
        type="password"
        autoComplete="new-password"
        required
        {...confirmPassword}
      />
    </>
  );
}
