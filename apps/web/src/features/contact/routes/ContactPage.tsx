import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useSearchParams } from "react-router";
import { ApiError } from "../../../lib/api.ts";
import { useDocumentTitle } from "../../../lib/hooks.ts";
import { Button } from "../../../ui/Button.tsx";
import { TextAreaField, TextField } from "../../../ui/TextField.tsx";
import { useToast } from "../../../ui/Toast.tsx";
import { sendContactMessage } from "../api/sendContactMessage.ts";
import { MapIllustration } from "../components/MapIllustration.tsx";
import "./contact.css";

const topics: Record<string, { heading: string; starter: string }> = {
  jobs: { heading: "Work with us", starter: "I'd like to join the Diginoor team. About me: " },
  partner: {
    heading: "Become a partner",
    starter: "I represent a studio or artist and would like to partner with Diginoor. ",
  },
  feature: { heading: "Suggest a feature", starter: "I'd love Diginoor to " },
  investors: {
    heading: "Investor relations",
    starter: "I'd like to receive the investor information pack. ",
  },
};

const fieldNames = { name: "Name", email: "Email", message: "Message" } as const;
type Field = keyof typeof fieldNames;

export function ContactPage() {
  useDocumentTitle("Contact");
  const [params] = useSearchParams();
  const topic = topics[params.get("topic") ?? ""];
  const [values, setValues] = useState({ name: "", email: "", message: topic?.starter ?? "" });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const toast = useToast();

  const mutation = useMutation({
    mutationFn: sendContactMessage,
    onSuccess: () => {
      setValues({ name: "", email: "", message: "" });
      setErrors({});
      toast.success("Thanks! Your message is on its way. We reply within two working days.");
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 400) {
        const fields = err.fieldErrors();
        const next: Partial<Record<Field, string>> = {};
        for (const key of Object.keys(fieldNames) as Field[]) {
          if (fields[key]) next[key] = `${fieldNames[key]} ${fields[key]}`;
        }
        setErrors(next);
        if (Object.keys(next).length > 0) {
          toast.error("Please check the highlighted fields");
          const first = (Object.keys(fieldNames) as Field[]).find((k) => next[k]);
          if (first) document.getElementById(`contact-${first}`)?.focus();
          return;
        }
      }
      toast.error(err instanceof Error ? err.message : "Your message couldn't be sent, please retry");
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    mutation.mutate(values);
  }

  function set(field: Field, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  }

  return (
    <>
      <section className="container page-head">
        <p className="eyebrow">Contact</p>
        <h1>{topic?.heading ?? "We'd love to hear from you"}</h1>
        <p>
          Questions about a purchase, a wallet, a partnership or the press: write to us and a real person will
          answer.
        </p>
      </section>
      <section className="container contact-layout">
        <form
          className="card contact-form"
          onSubmit={onSubmit}
          noValidate
          aria-labelledby="contact-form-title"
        >
          <h2 id="contact-form-title">Send us a message</h2>
          <TextField
            id="contact-name"
            label="Name"
            name="name"
            autoComplete="name"
            value={values.name}
            maxLength={100}
            onChange={(e) => set("name", e.target.value)}
            error={errors.name}
          />
          <TextField
            id="contact-email"
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={values.email}
            maxLength={254}
            onChange={(e) => set("email", e.target.value)}
            error={errors.email}
            hint="We only use it to reply to you."
          />
          <TextAreaField
            id="contact-message"
            label="Message"
            name="message"
            value={values.message}
            maxLength={5000}
            onChange={(e) => set("message", e.target.value)}
            error={errors.message}
          />
          <Button type="submit" size="lg" loading={mutation.isPending}>
            Send message
          </Button>
        </form>
        <aside className="contact-aside" aria-label="Support details">
          <div className="card">
            <h2>Support</h2>
            <dl className="contact-details">
              <div>
                <dt>Email</dt>
                <dd>
                  <a href="mailto:support@diginoor.com">support@diginoor.com</a>
                </dd>
              </div>
              <div>
                <dt>Phone (Singapore)</dt>
                <dd>
                  <a href="tel:+6561234567">+65 6123 4567</a>
                </dd>
              </div>
              <div>
                <dt>Phone (India)</dt>
                <dd>
                  <a href="tel:+914440001234">+91 44 4000 1234</a>
                </dd>
              </div>
              <div>
                <dt>Hours</dt>
                <dd>Monday to Friday, 9:00–18:00 SGT</dd>
              </div>
            </dl>
          </div>
          <div className="map-frame">
            <MapIllustration />
            <p className="muted">10 Marina Boulevard, Singapore 018983</p>
          </div>
        </aside>
      </section>
    </>
  );
}
