// doc-samples.ts (test support): the TypeScript samples of README.md and docs/, and the projects they make when
// written out as files, for the tests that hold the docs to the code (boundary.test.ts, docs.test.ts).
//
// The convention, also stated in docs/README.md:
//   ```ts / ```tsx          a sample; it must type-check with the project's tsconfig
//   // src/app/x.ts         as its first line: the sample is that file (src/app/… or test/app/…); a later sample
//                           naming the same file replaces it (the file grew)
//   no such line            the sample is a module of its own
//   ```ts fragment          an excerpt that is no module (a piece of a route table): its imports are checked,
//                           its types are not
// Each page is a project of its own; the guide (docs/guide/NN-*.md) is one app built chapter by chapter, so its
// files carry over from one chapter to the next, and the app is checked as it stands after each chapter.
import { join, relative } from "node:path";

export const ROOT = join(import.meta.dir, "../..");

export interface Sample {
  /** The page, from the project root. */
  doc: string;
  /** Where the sample's code starts in the page, 1-based. */
  line: number;
  lang: "ts" | "tsx";
  fragment: boolean;
  /** The file the sample is, when its first line names one. */
  path?: string;
  code: string;
}

/** README.md and every page under docs/, the guide's chapters in order. */
export async function docPages(): Promise<string[]> {
  const pages = ["README.md"];
  for await (const file of new Bun.Glob("docs/**/*.md").scan({ cwd: ROOT })) pages.push(file);
  return pages.sort((a, b) => (a === "README.md" ? -1 : b === "README.md" ? 1 : a.localeCompare(b)));
}

const FENCE = /^```(tsx?)([^\n]*)\n([\s\S]*?)^```/gm;
const FILE_LINE = /^\/\/ ((?:src|test)\/app\/[\w./-]+?\.tsx?)(?=[\s:(]|$)/;

export function samplesOf(doc: string, markdown: string): Sample[] {
  return [...markdown.matchAll(FENCE)].map((m) => {
    const line = markdown.slice(0, m.index).split("\n").length + 1;
    const code = m[3]!;
    return {
      doc,
      line,
      lang: m[1] as "ts" | "tsx",
      fragment: /\bfragment\b/.test(m[2]!),
      path: FILE_LINE.exec(code)?.[1],
      code,
    };
  });
}

/** A file written for the check, and the sample it came from. */
interface SampleFile {
  path: string;
  sample: Sample;
}

/** A set of files checked together: one page, or the guide as it stands after one chapter. */
export interface SampleProject {
  name: string;
  files: SampleFile[];
}

/** Whether a page is a chapter of the guide, whose app carries over from chapter to chapter. */
const isChapter = (doc: string) => /^docs\/guide\/\d+[^/]*\.md$/.test(doc);

/** The projects the pages' samples make (see the convention above). */
export function projectsOf(pages: ReadonlyArray<{ doc: string; samples: readonly Sample[] }>): SampleProject[] {
  const projects: SampleProject[] = [];
  const guide = new Map<string, SampleFile>();
  for (const { doc, samples } of pages) {
    const files = isChapter(doc) ? guide : new Map<string, SampleFile>();
    const modules = samples.filter((sample) => !sample.fragment);
    for (const sample of modules) {
      const path = sample.path ?? `src/app/sample-${sample.line}.${sample.lang}`;
      files.set(path, { path, sample });
    }
    if (modules.length > 0)
      projects.push({ name: doc.replace(/\.md$/, "").replaceAll("/", "_"), files: [...files.values()] });
  }
  return projects;
}

/** A checker's error line (`dir/project/src/app/x.ts(3,7): error TS…`), as the page and line of its sample. */
export function errorInDocs(line: string, dir: string, projects: readonly SampleProject[]): string {
  const m = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line.trim());
  if (!m) return line;
  const [project, ...rest] = relative(dir, join(ROOT, m[1]!)).split("/");
  const file = projects.find((p) => p.name === project)?.files.find((f) => f.path === rest.join("/"));
  if (!file) return line;
  return `${file.sample.doc}:${file.sample.line + Number(m[2]) - 1} (${file.path}): ${m[4]}`;
}
