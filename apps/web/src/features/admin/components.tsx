// The console's building blocks: a table that becomes cards on phones, a form described by its
// fields (labels, hints, server and client errors, focus on the first error), image uploads.
import type { UploadPurpose } from "@diginoor/api/admin";
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { ApiError } from "../../lib/api.ts";
import { Button } from "../../ui/Button.tsx";
import { EmptyState } from "../../ui/EmptyState.tsx";
import { type QueryLike, QueryState } from "../../ui/QueryState.tsx";
import { Skeleton } from "../../ui/Skeleton.tsx";
import { TextAreaField, TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { uploadImage } from "./api.ts";

export interface Column<T> {
  label: string;
  render: (row: T) => ReactNode;
  /** The column that names the row (the card's title on phones). */
  primary?: boolean;
}

/**
 * A console list from its query (loading, error with Retry, empty, rows): a table on wide screens;
 * under 464 px each row is a card with its labels (admin.css).
 */
export function AdminTable<T>({
  caption,
  columns,
  query,
  rowKey,
  empty,
}: {
  caption: string;
  columns: Column<T>[];
  query: QueryLike<{ items: T[] }>;
  rowKey: (row: T) => string | number;
  empty: string;
}) {
  return (
    <QueryState
      query={query}
      loading={
        <div className="admin-table-skeleton" aria-busy="true">
          <Skeleton height="2.5rem" />
          <Skeleton height="2.5rem" />
          <Skeleton height="2.5rem" />
        </div>
      }
      errorTitle={`We couldn't load ${caption.toLowerCase()}`}
      isEmpty={(d) => d.items.length === 0}
      empty={<EmptyState title={`No ${caption.toLowerCase()} yet`}>{empty}</EmptyState>}
    >
      {({ items: rows }) => (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.label} scope="col">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <td
                      key={c.label}
                      data-label={c.label}
                      className={c.primary ? "admin-cell-primary" : undefined}
                    >
                      {c.render(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryState>
  );
}

export type FieldValue = string | boolean | number | null;
export type Values = Record<string, FieldValue>;

export interface FieldSpec {
  name: string;
  label: string;
  kind?: "text" | "textarea" | "number" | "money" | "select" | "checkbox" | "image" | "datetime";
  hint?: string;
  required?: boolean;
  options?: { value: string; label: string }[];
  /** Image fields: what the upload is for, and which field each rendition fills (rendition → field). */
  purpose?: UploadPurpose;
  fills?: Record<string, string>;
  /** Shown only when this returns true (e.g. auction length for auctions). */
  when?: (values: Values) => boolean;
  /** Long fields span the whole form width. */
  wide?: boolean;
}

/** Focuses the first control marked invalid inside `form`. */
function focusFirstInvalid(form: HTMLFormElement | null) {
  requestAnimationFrame(() => {
    form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  });
}

/**
 * A form built from field specs. Required fields are checked here; everything else by the server,
 * whose field errors are shown under their fields (the first one gets the focus).
 */
export function EntityForm({
  title,
  fields,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  title: string;
  fields: FieldSpec[];
  initial: Values;
  submitLabel: string;
  onSubmit: (values: Values) => Promise<void>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const titleId = useId();
  const set = (name: string, value: FieldValue) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      const { [name]: _, ...rest } = e;
      return rest;
    });
  };
  const shown = fields.filter((f) => !f.when || f.when(values));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing: Record<string, string> = {};
    for (const f of shown) {
      const v = values[f.name];
      if (f.required && (v === undefined || v === "")) missing[f.name] = `${f.label} is required`;
    }
    setFormError(null);
    if (Object.keys(missing).length > 0) {
      setErrors(missing);
      focusFirstInvalid(formRef.current);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(values);
    } catch (err) {
      const fieldErrors = err instanceof ApiError ? err.fieldErrors() : {};
      const known = Object.fromEntries(
        Object.entries(fieldErrors).filter(([k]) => shown.some((f) => f.name === k)),
      );
      setErrors(known);
      setFormError(err instanceof Error ? err.message : "Something went wrong, please retry");
      if (Object.keys(known).length > 0) focusFirstInvalid(formRef.current);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} className="admin-form" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <h3 id={titleId} className="admin-form__title">
        {title}
      </h3>
      {formError ? (
        <p className="admin-form__error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="admin-form__grid">
        {shown.map((f) => (
          <FieldControl key={f.name} spec={f} values={values} error={errors[f.name]} set={set} />
        ))}
      </div>
      <div className="admin-form__actions">
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function FieldControl({
  spec: f,
  values,
  error,
  set,
}: {
  spec: FieldSpec;
  values: Values;
  error?: string;
  set: (name: string, value: FieldValue) => void;
}) {
  const id = useId();
  const value = values[f.name];
  const className = f.wide || f.kind === "textarea" || f.kind === "image" ? "admin-field--wide" : undefined;
  const label = f.required ? `${f.label} *` : f.label;
  switch (f.kind) {
    case "textarea":
      return (
        <TextAreaField
          className={className}
          label={label}
          hint={f.hint}
          error={error}
          name={f.name}
          rows={f.name === "markdown" ? 12 : 4}
          value={String(value ?? "")}
          onChange={(e) => set(f.name, e.target.value)}
        />
      );
    case "checkbox":
      return (
        <div className="field admin-check">
          <label htmlFor={id}>
            <input
              id={id}
              type="checkbox"
              name={f.name}
              checked={value === true}
              onChange={(e) => set(f.name, e.target.checked)}
            />{" "}
            {f.label}
          </label>
        </div>
      );
    case "select":
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select
            id={id}
            name={f.name}
            value={String(value ?? "")}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => set(f.name, e.target.value)}
          >
            <option value="">Choose…</option>
            {f.options?.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {error ? (
            <span id={`${id}-error`} className="field-error">
              {error}
            </span>
          ) : null}
        </div>
      );
    case "image":
      return <ImageField spec={f} values={values} error={error} set={set} className={className} />;
    default:
      return (
        <TextField
          className={className}
          label={label}
          hint={f.hint}
          error={error}
          name={f.name}
          type={
            f.kind === "number" || f.kind === "money"
              ? "text"
              : f.kind === "datetime"
                ? "datetime-local"
                : "text"
          }
          inputMode={f.kind === "number" ? "numeric" : f.kind === "money" ? "decimal" : undefined}
          value={String(value ?? "")}
          onChange={(e) => set(f.name, e.target.value)}
        />
      );
  }
}

/** Uploads an image (checked and re-encoded by the server) and fills the form's URL fields with its renditions. */
function ImageField({
  spec: f,
  values,
  error,
  set,
  className,
}: {
  spec: FieldSpec;
  values: Values;
  error?: string;
  set: (name: string, value: FieldValue) => void;
  className?: string;
}) {
  const id = useId();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const url = String(values[f.name] ?? "");
  const shownError = uploadError ?? error;
  return (
    <div className={`field admin-image ${className ?? ""}`}>
      <label htmlFor={id}>{f.required ? `${f.label} *` : f.label}</label>
      <div className="admin-image__row">
        {url ? (
          <img src={url} alt="" className="admin-image__preview" />
        ) : (
          <div className="admin-image__empty" />
        )}
        <div>
          <input
            id={id}
            type="file"
            name={`${f.name}-file`}
            accept="image/png,image/jpeg"
            aria-invalid={shownError ? true : undefined}
            aria-describedby={`${id}-hint${shownError ? ` ${id}-error` : ""}`}
            disabled={busy}
            onChange={async (e) => {
              const file = e.target.files?.[0];
              if (!file || !f.purpose) return;
              setBusy(true);
              setUploadError(null);
              try {
                const images = await uploadImage(f.purpose, file);
                for (const [rendition, field] of Object.entries(f.fills ?? {})) {
                  const u = images[rendition];
                  if (u) set(field, u);
                }
                toast.success("Image uploaded");
              } catch (err) {
                setUploadError(err instanceof Error ? err.message : "The upload failed");
              } finally {
                setBusy(false);
              }
            }}
          />
          <span id={`${id}-hint`} className="field-hint">
            {busy
              ? "Uploading…"
              : (f.hint ?? "JPEG or PNG, up to 5 MB. It is re-encoded and cropped to fit.")}
          </span>
          {shownError ? (
            <span id={`${id}-error`} className="field-error">
              {shownError}
            </span>
          ) : null}
        </div>
      </div>
    </div>
  );
}

/** "12.50" → 1250; anything else is left for the server to refuse. */
export function centsOf(v: FieldValue | undefined): number | undefined {
  const s = String(v ?? "").trim();
  if (!/^\d+(\.\d{1,2})?$/.test(s)) return s === "" ? undefined : Number.NaN;
  return Math.round(Number(s) * 100);
}
export function dollarsOf(cents: number): string {
  return (cents / 100).toFixed(2);
}
export function intOf(v: FieldValue | undefined): number | null {
  const s = String(v ?? "").trim();
  return s === "" ? null : /^\d+$/.test(s) ? Number(s) : Number.NaN;
}
export function textOf(v: FieldValue | undefined): string {
  return String(v ?? "").trim();
}

/** The heading of a console section with its primary action. */
export function SectionHead({ title, action }: { title: string; action?: ReactNode }) {
  return (
    <div className="admin-section-head">
      <h2 tabIndex={-1}>{title}</h2>
      {action}
    </div>
  );
}
