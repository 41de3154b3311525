// The console's building blocks: a table that becomes cards on phones, a form described by its
// fields (labels, hints, server and client errors, focus on the first error), image uploads.
import type { UploadPurpose } from "@diginoor/api/admin";
import { type ReactNode, useId, useState } from "react";
import type { FieldErrors, UseFormReturn } from "react-hook-form";
import type { ZodType } from "zod";
import { applyServerErrors, schemaResolver, useAppForm } from "../../lib/form.ts";
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

/**
 * A console form built from field specs on the web app's one form system (lib/form.ts, decision 072):
 * react-hook-form, validated before anything is sent by the packages/api schema the server validates
 * the write with (`schema`), on the body as it will be sent (`toBody`). Required fields are checked
 * with the labels people see; a body key's message shows on the field that fills it (`fieldOf`, e.g.
 * `priceUsdCents` on "Price"); a message for no visible field shows above the form. The server's field
 * errors are shown the same way, the first invalid field focused.
 */
export function EntityForm({
  title,
  fields,
  initial,
  submitLabel,
  schema,
  toBody,
  fieldOf,
  onSubmit,
  onCancel,
}: {
  title: string;
  fields: FieldSpec[];
  initial: Values;
  submitLabel: string;
  /** The write endpoint's body schema (packages/api). */
  schema: ZodType;
  /** The request body the values make. */
  toBody: (values: Values) => unknown;
  /** Body key → the field that shows its messages, where the names differ. */
  fieldOf?: Record<string, string>;
  /** Called with the body, once the schema accepted it. */
  onSubmit: (body: unknown) => Promise<void>;
  onCancel: () => void;
}) {
  const titleId = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const shownOf = (values: Values) => fields.filter((f) => !f.when || f.when(values));
  const form = useAppForm<Values>({
    defaultValues: initial,
    resolver: async (values, context, options) => {
      const result = await schemaResolver<Values>(schema, { prepare: toBody, fieldOf })(
        values,
        context,
        options,
      );
      const errors: FieldErrors<Values> = { ...result.errors };
      // An empty required field says so with the label people see (the schema's wording is for the API).
      for (const f of shownOf(values)) {
        const text = String(values[f.name] ?? "").trim();
        const message =
          f.required && text === ""
            ? "is required"
            : text !== "" && f.kind === "money" && Number.isNaN(centsOf(text))
              ? "must be an amount like 12.50"
              : text !== "" && f.kind === "number" && !/^\d+$/.test(text)
                ? "must be a whole number"
                : null;
        if (message) errors[f.name] = { type: "check", message };
      }
      // A message for a body key no visible field fills would block the form without a word: say it.
      const names = new Set(shownOf(values).map((f) => f.name));
      const stray = Object.entries(errors).filter(([name]) => !names.has(name));
      setFormError(
        stray.length > 0 ? stray.map(([name, e]) => `${name}: ${String(e?.message)}`).join("; ") : null,
      );
      return Object.keys(errors).length > 0 ? { values: {}, errors } : result;
    },
  });
  const values = form.watch();
  const shown = shownOf(values);
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (v) => {
    setFormError(null);
    try {
      await onSubmit(toBody(v));
    } catch (err) {
      applyServerErrors(form, err, { fieldOf });
      setFormError(err instanceof Error ? err.message : "Something went wrong, please retry");
    }
  });

  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby={titleId}>
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
          <FieldControl
            key={f.name}
            spec={f}
            form={form}
            value={values[f.name]}
            error={labelled(f.label, errors[f.name]?.message)}
          />
        ))}
      </div>
      <div className="admin-form__actions">
        <Button type="submit" loading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel} disabled={form.formState.isSubmitting}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * A field's message as people read it: the packages/api schemas word theirs for a named field
 * ("must be lower-case letters…"), so those get the field's label in front.
 */
const labelled = (label: string, message: unknown) =>
  typeof message !== "string" || !message
    ? undefined
    : /^[a-z]/.test(message)
      ? `${label} ${message}`
      : message;

function FieldControl({
  spec: f,
  form,
  value,
  error,
}: {
  spec: FieldSpec;
  form: UseFormReturn<Values>;
  value: FieldValue | undefined;
  error?: string;
}) {
  const id = useId();
  const className = f.wide || f.kind === "textarea" || f.kind === "image" ? "admin-field--wide" : undefined;
  const label = f.required ? `${f.label} *` : f.label;
  const field = form.register(f.name, { onChange: () => form.clearErrors(f.name) });
  switch (f.kind) {
    case "textarea":
      return (
        <TextAreaField
          className={className}
          label={label}
          hint={f.hint}
          error={error}
          rows={f.name === "markdown" ? 12 : 4}
          {...field}
        />
      );
    case "checkbox":
      return (
        <div className="field admin-check">
          <label htmlFor={id}>
            <input id={id} type="checkbox" {...field} /> {f.label}
          </label>
        </div>
      );
    case "select":
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select
            id={id}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            {...field}
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
      return (
        <ImageField
          spec={f}
          url={String(value ?? "")}
          error={error}
          set={(name, v) => form.setValue(name, v, { shouldDirty: true })}
          className={className}
        />
      );
    default:
      return (
        <TextField
          className={className}
          label={label}
          hint={f.hint}
          error={error}
          type={f.kind === "datetime" ? "datetime-local" : "text"}
          inputMode={f.kind === "number" ? "numeric" : f.kind === "money" ? "decimal" : undefined}
          {...field}
        />
      );
  }
}

/** Uploads an image (checked and re-encoded by the server) and fills the form's URL fields with its renditions. */
function ImageField({
  spec: f,
  url,
  error,
  set,
  className,
}: {
  spec: FieldSpec;
  url: string;
  error?: string;
  set: (name: string, value: FieldValue) => void;
  className?: string;
}) {
  const id = useId();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
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
                set(f.name, images[Object.keys(f.fills ?? {})[0] ?? ""] ?? "");
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
