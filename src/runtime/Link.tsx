// Link.tsx: wouter's <Link>, which Brisk's navigation drives, with its page loaded ahead when asked
// (`prefetch`): on hover or focus (`"intent"`), as soon as it renders (`"render"`), or not (`"none"`).
import { useEffect, useRef, type SyntheticEvent } from "react";
import { Link as RouterLink, type LinkProps as RouterLinkProps } from "wouter";
import { useNavigation } from "./navigation.ts";
import type { CheckedHref } from "./route-paths.ts";

export type PrefetchMode = "intent" | "render" | "none";

/** `Omit` over each member of a union, so wouter's `asChild` variants stay apart. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * wouter's props, with `to` (or `href`) a path of the app's route table (`CheckedHref`): a path no route answers
 * is a type error that names it.
 */
export type LinkProps<To extends string = string> = OmitEach<RouterLinkProps, "to" | "href"> &
  ({ to: CheckedHref<To>; href?: never } | { href: CheckedHref<To>; to?: never }) & {
    /** Loads the page's data and code ahead, so a click shows it without waiting for the network. */
    prefetch?: PrefetchMode;
  };

/** A hover shorter than this is a pointer passing over, not an intent (React Router waits as long). */
const INTENT_DELAY_MS = 100;

type Handler = ((event: never) => void) | undefined;

/** The app's own handler, then ours. */
const both = (own: Handler, ours: () => void) => (event: SyntheticEvent) => {
  (own as ((event: SyntheticEvent) => void) | undefined)?.(event);
  ours();
};

export function Link<const To extends string>({ prefetch = "none", ...checked }: LinkProps<To>) {
  // The check is the caller's: inside, a path is a path.
  const props = checked as RouterLinkProps;
  const nav = useNavigation();
  const href = (props.href ?? props.to)!;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    if (prefetch === "render") nav.prefetch(href);
  }, [nav, prefetch, href]);
  useEffect(() => () => clearTimeout(timer.current), []);
  if (prefetch !== "intent") return <RouterLink {...props} />;
  const start = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => nav.prefetch(href), INTENT_DELAY_MS);
  };
  const stop = () => clearTimeout(timer.current);
  const intent = {
    onMouseEnter: both(props.onMouseEnter, start),
    onFocus: both(props.onFocus, start),
    onMouseLeave: both(props.onMouseLeave, stop),
    onBlur: both(props.onBlur, stop),
    // The click navigates: there is nothing left to load ahead.
    onClick: both(props.onClick, stop),
    // A touch is followed by the click within milliseconds: no pointer passes over a screen.
    onTouchStart: both(props.onTouchStart, () => nav.prefetch(href)),
  };
  return <RouterLink {...props} {...intent} />;
}
