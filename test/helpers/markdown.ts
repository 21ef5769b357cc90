import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./processes";

/** README.md and every Markdown file under docs/, as paths relative to the repository. */
export function documentationFiles(): string[] {
  const docs = path.join(ROOT, "docs");
  const nested = fs.existsSync(docs)
    ? fs
        .readdirSync(docs, { withFileTypes: true, recursive: true })
        .filter(e => e.isFile() && e.name.endsWith(".md"))
        .map(e => path.relative(ROOT, path.join(e.parentPath, e.name)))
    : [];
  return ["README.md", ...nested.sort()];
}

/** The lines of a Markdown text that are prose: fenced code blocks are blanked (line numbers kept). */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split("\n").map(line => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence === null && opener) {
      fence = opener[1];
      return "";
    }
    if (fence !== null) {
      if (line.trim().startsWith(fence)) fence = null;
      return "";
    }
    return line;
  });
}

/**
 * GitHub's anchor of a heading (the github-slugger rules): inline markup and link targets dropped,
 * lower case, every character that is not a letter, digit, mark, `_`, `-` or space removed, spaces
 * to hyphens; a repeated heading gets `-1`, `-2`…
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface MarkdownLink {
  line: number;
  target: string;
}

/** Every inline link and image of the prose (not inside code blocks or `code spans`). */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(markdown).forEach((line, index) => {
    const prose = line.replace(/`+[^`]*`+/g, "");
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: index + 1, target: match[1] });
    }
  });
  return links;
}

/**
 * What is wrong with the relative links of one Markdown file, as `file:line target: reason`.
 * Links with a scheme (https:, mailto:) are not ours to check; every other one must name a file or
 * folder inside the repository (a fresh clone has nothing beside it), and its `#anchor` a heading
 * of the Markdown file it names.
 */
export function brokenLinks(file: string, read: (relative: string) => string | null = readRepositoryFile): string[] {
  const text = read(file);
  if (text === null) return [`${file}: no such file`];
  const problems: string[] = [];
  for (const { line, target } of markdownLinks(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const where = `${file}:${line} ${target}`;
    const [rawPath, anchor] = target.split("#", 2);
    const relative = rawPath === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath)));
    if (relative.startsWith("../") || relative === ".." || path.posix.isAbsolute(relative)) {
      problems.push(`${where}: leaves the repository`);
      continue;
    }
    const content = read(relative.replace(/\/$/, ""));
    if (content === null) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!relative.endsWith(".md")) problems.push(`${where}: an anchor into a file that is not Markdown`);
    else if (!headingAnchors(content).has(anchor)) problems.push(`${where}: no heading with that anchor`);
  }
  return problems;
}

/** A file's text, "" for a folder, null when neither exists. */
function readRepositoryFile(relative: string): string | null {
  const full = path.join(ROOT, relative);
  if (!fs.existsSync(full)) return null;
  return fs.statSync(full).isDirectory() ? "" : fs.readFileSync(full, "utf8");
}

/** The fenced blocks that follow a `<!-- marker -->` line, in order: their info string and text. */
export function markedBlocks(markdown: string, marker: string): Array<{ language: string; code: string }> {
  const lines = markdown.split("\n");
  const blocks: Array<{ language: string; code: string }> = [];
  lines.forEach((line, index) => {
    if (line.trim() !== `<!-- ${marker} -->`) return;
    const opener = /^(`{3,})(\S*)/.exec(lines[index + 1] ?? "");
    if (!opener) throw new Error(`<!-- ${marker} --> on line ${index + 1} is not followed by a fenced block`);
    const end = lines.findIndex((candidate, at) => at > index + 1 && candidate.startsWith(opener[1]));
    if (end < 0) throw new Error(`the block after line ${index + 1} is never closed`);
    blocks.push({ language: opener[2], code: lines.slice(index + 2, end).join("\n") });
  });
  return blocks;
}

/** The ```sh blocks of one section (from its heading to the next of its level). */
export function shellBlocksOf(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const level = heading.split(" ")[0];
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n${level} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(m => m[1]);
}

/** Every ```sh block of a Markdown text, in order, whatever its section: what a whole-page walk runs. */
export function allShellBlocksOf(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map(m => m[1]);
}
