import { type ComponentType, useEffect, useRef, useState } from "react";
import type { NewsletterForm as Form } from "./NewsletterForm.tsx";
import { NewsletterFields } from "./NewsletterFields.tsx";

/**
 * The footer's newsletter form without its code in the first load (react-hook-form is not in the entry
 * chunk): the same markup stands in until the footer comes near the screen or someone uses it, then
 * the real form takes over with what was typed, the focus and a pending submit.
 */
export function LazyNewsletterForm() {
  const [wanted, setWanted] = useState(false);
  const [NewsletterForm, setForm] = useState<ComponentType<Parameters<typeof Form>[0]> | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const asked = useRef({ draft: "", focus: false, submit: false });

  useEffect(() => {
    const el = box.current;
    if (wanted || !el) return;
    if (typeof IntersectionObserver === "undefined") return setWanted(true);
    const observer = new IntersectionObserver(
      (seen) => seen.some((e) => e.isIntersecting) && setWanted(true),
      {
        rootMargin: "600px 0px",
      },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [wanted]);

  useEffect(() => {
    if (!wanted) return;
    let live = true;
    // A failed load leaves the stand-in; the next use of it tries again.
    import("./NewsletterForm.tsx").then(
      (m) => {
        if (!live) return;
        // What is in the box now, also what was typed before the page hydrated (no onInput then).
        const typed = box.current?.querySelector("input")?.value;
        if (typed) asked.current.draft = typed;
        setForm(() => m.NewsletterForm);
      },
      () => live && setWanted(false),
    );
    return () => {
      live = false;
    };
  }, [wanted]);

  if (NewsletterForm) {
    return (
      <div ref={box}>
        <NewsletterForm {...asked.current} />
      </div>
    );
  }
  return (
    <div ref={box}>
      <form
        className="newsletter"
        noValidate
        aria-label="Newsletter"
        onSubmit={(event) => {
          event.preventDefault();
          asked.current.submit = true;
          setWanted(true);
        }}
      >
        <NewsletterFields
          input={{
            onInput: (event) => {
              asked.current.draft = event.currentTarget.value;
            },
            onFocus: () => {
              asked.current.focus = true;
              setWanted(true);
            },
            onBlur: () => {
              asked.current.focus = false;
            },
          }}
        />
      </form>
    </div>
  );
}
