// project-copy.ts (test support): a copy of the project to run `bun run dev` in, so a test's edits and the dev
// server's builds (dist/dev) never touch the checkout.
import { cp, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

/** A copy of the project whose app (src/app) is a fixture app (test/fixtures/<fixture>). */
export async function projectCopy(fixture = "app"): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "brisk-dev-"));
  // The whole project but what is made or installed: a new top-level folder (public/, say) comes along.
  const made = new Set(["node_modules", "dist", "data", ".git", ".brisk"]);
  for (const entry of await readdir(ROOT)) {
    if (!made.has(entry)) await cp(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  // The app `#app` names (src/app/app.ts) becomes the fixture app: the test does not depend on the examples.
  await rm(join(dir, "src/app"), { recursive: true });
  await cp(join(ROOT, "test/fixtures", fixture), join(dir, "src/app"), { recursive: true });
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}
