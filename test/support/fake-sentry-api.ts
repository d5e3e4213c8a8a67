// fake-sentry-api.ts (test support): the part of Sentry's web API that `sentry-cli sourcemaps upload` talks to,
// recording each artifact bundle it receives, unzipped.
//
//   const api = await startFakeSentryApi();
//   // SENTRY_URL=api.url sentry-cli sourcemaps upload …
//   api.bundles[0].release; api.bundles[0].files["manifest.json"]
import { inflateRawSync } from "node:zlib";

export interface ReceivedBundle {
  org: string;
  projects: string[];
  release?: string;
  authorization: string | null;
  /** Path inside the bundle → its bytes as text. */
  files: Record<string, string>;
}

export interface FakeSentryApi {
  url: string;
  bundles: ReceivedBundle[];
  stop(): Promise<void>;
}

/** The entries of a zip archive (stored or deflated), found through its central directory. */
export function unzip(bytes: Uint8Array): Record<string, string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  // The end-of-central-directory record (no archive comment here) is the last 22 bytes.
  const end = bytes.length - 22;
  if (view.getUint32(end, true) !== 0x06054b50) throw new Error("not a zip archive");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    // Sizes come from the central directory: local headers may defer them to a data descriptor.
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + size);
    files[name] = decoder.decode(method === 8 ? inflateRawSync(data) : data);
    at += 46 + skip;
  }
  return files;
}

export async function startFakeSentryApi(): Promise<FakeSentryApi> {
  const chunks = new Map<string, Uint8Array>();
  const bundles: ReceivedBundle[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const { pathname } = new URL(request.url);
      const org = /^\/api\/0\/organizations\/([^/]+)\//.exec(pathname)?.[1];
      if (!org) return new Response("not found", { status: 404 });
      if (pathname.endsWith("/chunk-upload/") && request.method === "GET") {
        return Response.json({
          url: `${origin}${pathname}`,
          chunkSize: 8 * 1024 * 1024,
          chunksPerRequest: 64,
          maxFileSize: 2 ** 31,
          maxRequestSize: 32 * 1024 * 1024,
          concurrency: 1,
          hashAlgorithm: "sha1",
          compression: [],
          accept: ["artifact_bundles"],
        });
      }
      if (pathname.endsWith("/chunk-upload/")) {
        for (const [, part] of await request.formData()) {
          if (part instanceof Blob) {
            const bytes = new Uint8Array(await part.arrayBuffer());
            chunks.set(new Bun.CryptoHasher("sha1").update(bytes).digest("hex"), bytes);
          }
        }
        return new Response(null, { status: 200 });
      }
      if (pathname.endsWith("/artifactbundle/assemble/")) {
        const body = (await request.json()) as { chunks: string[]; projects: string[]; version?: string };
        const missing = body.chunks.filter((c) => !chunks.has(c));
        if (missing.length) return Response.json({ state: "not_found", missingChunks: missing });
        const zip = Buffer.concat(body.chunks.map((c) => chunks.get(c)!));
        bundles.push({
          org,
          projects: body.projects,
          release: body.version,
          authorization: request.headers.get("authorization"),
          files: unzip(zip),
        });
        return Response.json({ state: "ok", missingChunks: [] });
      }
      return new Response("not found", { status: 404 });
    },
  });
  const origin: string = `http://127.0.0.1:${server.port}`;
  return { url: origin, bundles, stop: () => server.stop(true) };
}
