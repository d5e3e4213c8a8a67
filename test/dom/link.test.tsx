// <Link prefetch> (Link.tsx): when a link asks the navigation to load its page ahead: as it renders, on a hover
// or focus that lasts (a pointer passing over does not count, nor a click), at once on a touch, or never.
import { afterEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { Link } from "../../src/runtime/Link.tsx";
import type { Navigation } from "../../src/runtime/navigation.ts";
import { pagePayload, testNavigation } from "../../src/server/testing/dom.tsx";
import { renderWith } from "./render.tsx";

afterEach(() => {
  cleanup();
  jest.useRealTimers();
});

function recording() {
  const prefetched: string[] = [];
  const { nav, calls } = testNavigation(pagePayload({ path: "/" }));
  const navigation: Navigation = { ...nav, prefetch: (href) => void prefetched.push(href) };
  return { navigation, prefetched, calls };
}

describe("Link prefetch", () => {
  test('"render": as the link renders', async () => {
    const { navigation, prefetched } = recording();
    await renderWith(
      navigation,
      <Link href="/items/1" prefetch="render">
        One
      </Link>,
    );
    expect(prefetched).toEqual(["/items/1"]);
  });

  test('"intent": a hover or a focus that lasts 100 ms; one that ends sooner, or a click, asks nothing', async () => {
    jest.useFakeTimers();
    const { navigation, prefetched, calls } = recording();
    await renderWith(
      navigation,
      <Link href="/items/2" prefetch="intent">
        Two
      </Link>,
    );
    const link = screen.getByRole("link");
    fireEvent.mouseEnter(link);
    jest.advanceTimersByTime(99);
    fireEvent.mouseLeave(link);
    jest.advanceTimersByTime(200);
    expect(prefetched).toEqual([]);
    fireEvent.mouseEnter(link);
    fireEvent.click(link);
    jest.advanceTimersByTime(200);
    expect(prefetched).toEqual([]);
    expect(calls.map(([to]) => to)).toEqual(["/items/2"]);
    fireEvent.focus(link);
    jest.advanceTimersByTime(100);
    expect(prefetched).toEqual(["/items/2"]);
  });

  test('"intent": a touch asks at once; the app\'s own handlers still run', async () => {
    const { navigation, prefetched } = recording();
    let touched = 0;
    await renderWith(
      navigation,
      <Link href="/items/3" prefetch="intent" onTouchStart={() => touched++}>
        Three
      </Link>,
    );
    await act(async () => void fireEvent.touchStart(screen.getByRole("link")));
    expect([prefetched, touched]).toEqual([["/items/3"], 1]);
  });

  test('"none" (the default): never', async () => {
    jest.useFakeTimers();
    const { navigation, prefetched } = recording();
    await renderWith(navigation, <Link href="/items/4">Four</Link>);
    const link = screen.getByRole("link");
    fireEvent.mouseEnter(link);
    fireEvent.focus(link);
    fireEvent.touchStart(link);
    jest.advanceTimersByTime(1000);
    expect(prefetched).toEqual([]);
  });
});
