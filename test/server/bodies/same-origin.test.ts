// crossSiteRefusal: every branch of the cross-site rule, and where this site's origin comes from with and without a
// trusted proxy; crossHostRefusal, the tunnel's rule, where it differs.
import { describe, expect, test } from "bun:test";
import { crossHostRefusal, crossSiteRefusal, siteOrigin } from "../../../src/server/bodies/same-origin.ts";

const direct = { trustProxy: false };
const proxied = { trustProxy: true };

function post(headers: Record<string, string>, url = "http://localhost/form"): Request {
  return new Request(url, { method: "POST", headers });
}

describe("crossSiteRefusal: Sec-Fetch-Site", () => {
  test("cross-site is refused, even with a matching Origin", () => {
    expect(crossSiteRefusal(post({ "sec-fetch-site": "cross-site", origin: "http://localhost" }), direct)).toBe(
      "Sec-Fetch-Site is cross-site",
    );
  });

  test("is read case-insensitively", () => {
    expect(crossSiteRefusal(post({ "sec-fetch-site": " Cross-Site " }), direct)).toBe("Sec-Fetch-Site is cross-site");
  });

  test.each(["same-origin", "none"])("%s with this site's Origin goes on", (value) => {
    expect(crossSiteRefusal(post({ "sec-fetch-site": value, origin: "http://localhost" }), direct)).toBeUndefined();
  });

  test("same-site (a sibling subdomain) is still refused by its Origin", () => {
    const request = post(
      { "sec-fetch-site": "same-site", origin: "https://blog.example.com" },
      "https://www.example.com/a",
    );
    expect(crossSiteRefusal(request, direct)).toBe("Origin https://blog.example.com is not https://www.example.com");
  });
});

describe("crossSiteRefusal: Origin", () => {
  test("this site's Origin goes on", () => {
    expect(crossSiteRefusal(post({ origin: "http://localhost" }), direct)).toBeUndefined();
  });

  test("the request URL a caller has parsed already is the one its origin comes from", () => {
    const request = post({ origin: "http://localhost" });
    expect(crossSiteRefusal(request, direct, new URL(request.url))).toBeUndefined();
    expect(crossSiteRefusal(request, direct, new URL("https://localhost/form"))).toBe(
      "Origin http://localhost is not https://localhost",
    );
  });

  test("the same origin spelled with an upper-case host or its default port goes on", () => {
    expect(
      crossSiteRefusal(post({ origin: "HTTPS://Example.COM:443" }, "https://example.com/a"), direct),
    ).toBeUndefined();
  });

  test.each([
    ["another host", "http://evil.example", "Origin http://evil.example is not http://localhost"],
    ["another scheme", "https://localhost", "Origin https://localhost is not http://localhost"],
    ["another port", "http://localhost:8080", "Origin http://localhost:8080 is not http://localhost"],
    ["a subdomain", "http://a.localhost", "Origin http://a.localhost is not http://localhost"],
    [
      "a suffix look-alike",
      "http://localhost.evil.example",
      "Origin http://localhost.evil.example is not http://localhost",
    ],
  ])("%s is refused", (_, origin, reason) => {
    expect(crossSiteRefusal(post({ origin }), direct)).toBe(reason);
  });

  test("Origin: null is refused", () => {
    expect(crossSiteRefusal(post({ origin: "null" }), direct)).toBe("Origin is null");
  });

  test.each(["", "localhost", "file:///etc/passwd", "javascript:alert(1)", "http://"])(
    "an Origin that is not an http(s) URL (%j) is refused",
    (origin) => {
      expect(crossSiteRefusal(post({ origin }), direct)).toBe("Origin is not a URL");
    },
  );

  test("Origin decides when both are present: a same-origin Referer does not rescue a foreign Origin", () => {
    const request = post({ origin: "http://evil.example", referer: "http://localhost/form" });
    expect(crossSiteRefusal(request, direct)).toBe("Origin http://evil.example is not http://localhost");
  });

  test("Origin decides when both are present: a foreign Referer does not refuse this site's Origin", () => {
    expect(
      crossSiteRefusal(post({ origin: "http://localhost", referer: "http://evil.example/" }), direct),
    ).toBeUndefined();
  });
});

describe("crossSiteRefusal: Referer without Origin", () => {
  test("a Referer on this site goes on", () => {
    expect(crossSiteRefusal(post({ referer: "http://localhost/form?x=1#f" }), direct)).toBeUndefined();
  });

  test("a Referer on another origin is refused", () => {
    expect(crossSiteRefusal(post({ referer: "http://evil.example/page" }), direct)).toBe(
      "Referer is on http://evil.example, not http://localhost",
    );
  });

  test("a Referer that is not a URL is refused", () => {
    expect(crossSiteRefusal(post({ referer: "/form" }), direct)).toBe("Referer is not a URL");
  });

  test("neither Origin nor Referer (curl, a server) goes on", () => {
    expect(crossSiteRefusal(post({}), direct)).toBeUndefined();
  });
});

describe("siteOrigin: the request URL, or a trusted proxy's forwarded headers", () => {
  const behindProxy = (headers: Record<string, string>) => post(headers, "http://10.0.0.5:3000/form");

  test("without trustProxy the forwarded headers are ignored, so a browser's https Origin is refused", () => {
    const request = behindProxy({
      "x-forwarded-proto": "https",
      "x-forwarded-host": "shop.example",
      origin: "https://shop.example",
    });
    expect(siteOrigin(request, direct)).toBe("http://10.0.0.5:3000");
    expect(crossSiteRefusal(request, direct)).toBe("Origin https://shop.example is not http://10.0.0.5:3000");
  });

  test("with trustProxy the forwarded scheme and host are this site's origin", () => {
    const request = behindProxy({
      "x-forwarded-proto": "https",
      "x-forwarded-host": "shop.example",
      origin: "https://shop.example",
    });
    expect(siteOrigin(request, proxied)).toBe("https://shop.example");
    expect(crossSiteRefusal(request, proxied)).toBeUndefined();
  });

  test("with trustProxy, a foreign Origin is still refused", () => {
    const request = behindProxy({
      "x-forwarded-proto": "https",
      "x-forwarded-host": "shop.example",
      origin: "https://evil.example",
    });
    expect(crossSiteRefusal(request, proxied)).toBe("Origin https://evil.example is not https://shop.example");
  });

  test("the first entry of each forwarded header is the one used", () => {
    const request = behindProxy({
      "x-forwarded-proto": "https, http",
      "x-forwarded-host": "shop.example:8443, 10.0.0.5:3000",
    });
    expect(siteOrigin(request, proxied)).toBe("https://shop.example:8443");
  });

  test("only a forwarded scheme: the request's own host with that scheme", () => {
    expect(siteOrigin(post({ "x-forwarded-proto": "HTTPS" }, "http://shop.example/a"), proxied)).toBe(
      "https://shop.example",
    );
  });

  test("only a forwarded host: the request's own scheme with that host", () => {
    expect(siteOrigin(behindProxy({ "x-forwarded-host": "Shop.Example" }), proxied)).toBe("http://shop.example");
  });

  test.each([
    ["a scheme that is not http(s)", { "x-forwarded-proto": "javascript" }, "http://10.0.0.5:3000"],
    ["a host with a path", { "x-forwarded-host": "evil.example/x" }, "http://10.0.0.5:3000"],
    ["a host with user info", { "x-forwarded-host": "shop.example@evil.example" }, "http://10.0.0.5:3000"],
    ["an empty host", { "x-forwarded-host": " , shop.example" }, "http://10.0.0.5:3000"],
    ["a host with a bad port", { "x-forwarded-host": "shop.example:99999" }, "http://10.0.0.5:3000"],
  ])("a malformed forwarded header (%s) leaves the request URL's origin", (_, headers, origin) => {
    expect(siteOrigin(behindProxy(headers), proxied)).toBe(origin);
  });

  test("the default port of the forwarded scheme is dropped, as browsers drop it in Origin", () => {
    const request = behindProxy({
      "x-forwarded-proto": "https",
      "x-forwarded-host": "shop.example:443",
      origin: "https://shop.example",
    });
    expect(crossSiteRefusal(request, proxied)).toBeUndefined();
  });
});

describe("crossHostRefusal: the tunnel's rule, host and port without the scheme", () => {
  test("this host on another scheme goes on, by Origin or by Referer: the page behind a TLS proxy", () => {
    expect(crossHostRefusal(post({ origin: "https://localhost" }), direct)).toBeUndefined();
    expect(crossHostRefusal(post({ origin: "HTTPS://LOCALHOST:443" }), direct)).toBeUndefined();
    expect(crossHostRefusal(post({ referer: "https://localhost/page" }), direct)).toBeUndefined();
    expect(
      crossHostRefusal(post({ origin: "https://shop.example" }, "http://shop.example:80/monitoring"), direct),
    ).toBeUndefined();
  });

  test.each([
    [
      "Sec-Fetch-Site: same-site, whatever Origin says",
      { "sec-fetch-site": "same-site", origin: "http://localhost" },
      "Sec-Fetch-Site is same-site",
    ],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "Cross-Site" }, "Sec-Fetch-Site is cross-site"],
    ["another port", { origin: "https://localhost:8443" }, "Origin localhost:8443 is not localhost"],
    ["another host", { origin: "https://evil.example" }, "Origin evil.example is not localhost"],
    [
      "a suffix look-alike",
      { origin: "http://localhost.evil.example" },
      "Origin localhost.evil.example is not localhost",
    ],
    ["Origin: null", { origin: "null" }, "Origin is null"],
    ["an Origin that is not a URL", { origin: "file:///x" }, "Origin is not a URL"],
    ["a Referer on another host", { referer: "http://evil.example/page" }, "Referer is on evil.example, not localhost"],
  ])("refuses %s", (_, headers, reason) => {
    expect(crossHostRefusal(post(headers), direct)).toBe(reason);
  });

  test("with trustProxy the forwarded host is this site's; without, a forwarded host counts for nothing", () => {
    const request = post(
      { "x-forwarded-host": "shop.example", origin: "https://shop.example" },
      "http://10.0.0.5:3000/monitoring",
    );
    expect(crossHostRefusal(request, proxied)).toBeUndefined();
    expect(crossHostRefusal(request, direct)).toBe("Origin shop.example is not 10.0.0.5:3000");
  });

  test("neither Origin nor Referer (curl, a server) goes on", () => {
    expect(crossHostRefusal(post({}), direct)).toBeUndefined();
  });
});
