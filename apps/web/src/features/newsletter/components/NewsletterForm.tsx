import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { applyServerErrors, fieldProps, useAppForm } from "../../../lib/form.ts";
import { useToast } from "../../../ui/Toast.tsx";
import { subscribeToNewsletter } from "../api/subscribe.ts";
import { NewsletterFields } from "./NewsletterFields.tsx";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checked here without zod: the server validates with its schema and its messages are shown too. */
function checkEmail(email: string): true | string {
  const value = email.trim();
  if (!value) return "Enter your email address";
  if (!EMAIL.test(value) || value.length > 254) return "Enter a valid email address, like name@example.com";
  return true;
}

/**
 * Footer newsletter sign-up: validates the address, posts it, and says how it went. What was typed
 * into the footer's stand-in before this code loaded is carried over (`draft`), and so are its focus
 * and a submit (`focus`, `submit`).
 */
export function NewsletterForm({
  draft = "",
  focus = false,
  submit = false,
}: {
  draft?: string;
  focus?: boolean;
  submit?: boolean;
}) {
  const form = useAppForm({ defaultValues: { email: draft } });
  const toast = useToast();
  const mutation = useMutation({
    mutationFn: subscribeToNewsletter,
    onSuccess: () => {
      form.reset({ email: "" });
      toast.success("You're in! Watch your inbox for new drops.");
    },
    onError: (err) => {
      applyServerErrors(form, err, { label: (_, message) => `Email ${message}` });
      toast.error(err instanceof Error ? err.message : "Couldn't subscribe, please retry");
    },
  });

  const onSubmit = form.handleSubmit(({ email }) => mutation.mutate({ email: email.trim() }));
  const { error, ...field } = fieldProps(form, "email", { clearOnChange: true, validate: checkEmail });

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for what the stand-in was asked
  useEffect(() => {
    if (focus) form.setFocus("email");
    if (submit) void onSubmit();
  }, []);

  return (
    <form className="newsletter" onSubmit={onSubmit} noValidate aria-label="Newsletter">
      <NewsletterFields input={field} error={error} busy={mutation.isPending} />
    </form>
  );
}
