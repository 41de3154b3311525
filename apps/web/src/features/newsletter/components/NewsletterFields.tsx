import { type InputHTMLAttributes, type Ref, useId } from "react";
import { Button } from "../../../ui/Button.tsx";

export type NewsletterFieldsProps = {
  input: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
  error?: string;
  busy?: boolean;
};

/**
 * The newsletter form's markup, shared by the form (NewsletterForm, loaded lazily) and the stand-in
 * the footer shows until its code has loaded (LazyNewsletterForm), so the two look the same.
 */
export function NewsletterFields({ input, error, busy = false }: NewsletterFieldsProps) {
  const id = useId();
  return (
    <>
      <label htmlFor={`${id}-email`} className="newsletter-label">
        Get the next drop first
      </label>
      <div className="newsletter-row">
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          placeholder="Your email address"
          {...input}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <Button type="submit" loading={busy}>
          I'm in
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error newsletter-error">
          {error}
        </p>
      ) : null}
    </>
  );
}
