import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
  useId,
} from "react";

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

interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/** The label, hint and error around one control, with the ids wired for assistive technology. */
function Field({
  label,
  hint,
  error,
  hideLabel,
  id,
  className,
  control,
}: FieldBits & { id?: string; className?: string; control: (props: ControlProps) => ReactNode }) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  return (
    <div className={`field${className ? ` ${className}` : ""}`}>
      <label htmlFor={controlId} className={hideLabel ? "visually-hidden" : undefined}>
        {label}
      </label>
      {control({
        id: controlId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy(hintId, errorId, hint, error),
      })}
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

/** `ref` reaches the input (react-hook-form focuses the first invalid field through it). */
export type TextFieldProps = FieldBits &
  Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & { id?: string; ref?: Ref<HTMLInputElement> };

/** A labelled input with hint and error text wired through aria-describedby / aria-invalid. */
export function TextField({ label, hint, error, hideLabel, id, className, ...input }: TextFieldProps) {
  return (
    <Field
      {...{ label, hint, error, hideLabel, id, className }}
      control={(wiring) => <input {...wiring} {...input} />}
    />
  );
}

export type TextAreaFieldProps = FieldBits &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> & { id?: string; ref?: Ref<HTMLTextAreaElement> };

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
  return (
    <Field
      {...{ label, hint, error, hideLabel, id, className }}
      control={(wiring) => <textarea {...wiring} {...input} />}
    />
  );
}
