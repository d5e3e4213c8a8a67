// static-assets.ts: the build's files for the bench's own servers (the reference, the static ceiling), so
// Chromium loads their pages with the same stylesheet and scripts as Brisk's, brotli where the build has it.
import { join } from "node:path";

export async function serveAsset(clientDir: string, name: string, accept: string): Promise<Response> {
  const file = Bun.file(join(clientDir, name));
  const br = Bun.file(join(clientDir, `${name}.br`));
  const headers = { "content-type": file.type, "cache-control": "public, max-age=31536000, immutable" };
  if (accept.includes("br") && (await br.exists()))
    return new Response(br, { headers: { ...headers, "content-encoding": "br" } });
  return (await file.exists()) ? new Response(file, { headers }) : new Response("not found\n", { status: 404 });
}
