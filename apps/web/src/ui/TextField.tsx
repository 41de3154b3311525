import { type InputHTMLAttributes, type TextareaHTMLAttributes, useId } from "react";

interface FieldBits {
  label: string;
  hint?: string;
  /** Error text; marks the control invalid and is announced with it. */
  error?: string | null;
  /** Hide the label visually (still read by screen readers). */
  hideLabel?: boolean;
}

function describedBy(hintId: string, errorId: string, hint?: string, error?: string | null) {
  const ids = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ");
  return ids || undefined;
}

export type TextFieldProps = FieldBits & Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & { id?: string };

/** A labelled input with hint and error text wired through aria-describedby / aria-invalid. */
export function TextField({ label, hint, error, hideLabel, id, className, ...input }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <label htmlFor={inputId} className={hideLabel ? "visually-hidden" : undefined}>
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId, hint, error)}
        {...input}
      />
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export type TextAreaFieldProps = FieldBits &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> & { id?: string };

/** Multi-line variant of TextField. */
export function TextAreaField({
  label,
  hint,
  error,
  hideLabel,
  id,
  className,
  ...input
}: TextAreaFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <label htmlFor={inputId} className={hideLabel ? "visually-hidden" : undefined}>
        {label}
      </label>
      <textarea
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, errorId, hint, error)}
        {...input}
      />
      {hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={errorId} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
