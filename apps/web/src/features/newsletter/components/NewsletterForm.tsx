import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { ApiError } from "../../../lib/api.ts";
import { Button } from "../../../ui/Button.tsx";
import { useToast } from "../../../ui/Toast.tsx";
import { subscribeToNewsletter } from "../api/subscribe.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Footer newsletter sign-up: validates the address, posts it, and says how it went. */
export function NewsletterForm() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const id = useId();
  const mutation = useMutation({
    mutationFn: subscribeToNewsletter,
    onSuccess: () => {
      setEmail("");
      setError(null);
      toast.success("You're in! Watch your inbox for new drops.");
    },
    onError: (err) => {
      const fieldError = err instanceof ApiError ? err.fieldErrors().email : undefined;
      if (fieldError) setError(`Email ${fieldError}`);
      toast.error(err instanceof Error ? err.message : "Couldn't subscribe, please retry");
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (!value) return setError("Enter your email address");
    if (!EMAIL.test(value) || value.length > 254)
      return setError("Enter a valid email address, like name@example.com");
    setError(null);
    mutation.mutate({ email: value });
  }

  return (
    <form className="newsletter" onSubmit={onSubmit} noValidate aria-label="Newsletter">
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
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <Button type="submit" loading={mutation.isPending}>
          I'm in
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error newsletter-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
