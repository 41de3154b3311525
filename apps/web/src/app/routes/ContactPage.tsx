import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { ApiError } from "../../lib/api.ts";
import { applyServerErrors, fieldProps, hasMessages, useAppForm } from "../../lib/form.ts";
import { useDocumentTitle } from "../../lib/hooks.ts";
import { Button } from "../../ui/Button.tsx";
import { TextAreaField, TextField } from "../../ui/TextField.tsx";
import { useToast } from "../../ui/Toast.tsx";
import { sendContactMessage } from "../../features/contact/api/sendContactMessage.ts";
import { MapIllustration } from "../../features/contact/components/MapIllustration.tsx";
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
  const form = useAppForm({ defaultValues: { name: "", email: "", message: topic?.starter ?? "" } });
  const toast = useToast();

  const mutation = useMutation({
    mutationFn: sendContactMessage,
    onSuccess: () => {
      form.reset({ name: "", email: "", message: "" });
      toast.success("Thanks! Your message is on its way. We reply within two working days.");
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 400) {
        const label = (name: string, message: string) => `${fieldNames[name as Field]} ${message}`;
        if (hasMessages(applyServerErrors(form, err, { label }))) {
          toast.error("Please check the highlighted fields");
          return;
        }
      }
      toast.error(err instanceof Error ? err.message : "Your message couldn't be sent, please retry");
    },
  });

  // The server validates (its messages, prefixed with the field's name, are shown on the fields).
  const onSubmit = form.handleSubmit((values) => mutation.mutate(values));

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
            autoComplete="name"
            {...fieldProps(form, "name", { clearOnChange: true })}
          />
          <TextField
            id="contact-email"
            label="Email"
            type="email"
            autoComplete="email"
            hint="We only use it to reply to you."
            {...fieldProps(form, "email", { clearOnChange: true })}
          />
          <TextAreaField
            id="contact-message"
            label="Message"
            {...fieldProps(form, "message", { clearOnChange: true })}
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
