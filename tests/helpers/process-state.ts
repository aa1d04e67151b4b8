/**
 * The process state of the app's server code, found by reading its sources: every `singleton(...)`
 * slot (lib/singleton.ts), every slot kept on `globalThis` (`__switchboard…` properties and
 * `Symbol.for("switchboard.…")` keys), and every module-level variable holding something made with
 * `new` (caches, maps, limiters) or assigned later (`let`). UPPER_CASE names are constants by the
 * house convention and are left out. Each is named as docs/architecture.md#process-state lists it.
 */
import fs from "node:fs";
import path from "node:path";

/** The folders whose modules run in the server. */
const ROOTS = ["lib", "db", "app"];
/** Modules that run in the browser (the pages' components): their state is a tab's, not the server's. */
const BROWSER = "app/_components/";

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(file, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(file);
  }
  return out;
}

/** The value of `const NAME = "…"` in `text`, for a slot named through a constant. */
function constantValue(text: string, name: string): string | undefined {
  return new RegExp(`const ${name}\\s*=\\s*"([^"]+)"`).exec(text)?.[1];
}

/** Every piece of process state under `root`, as `slot name` or `module#variable`, with where it was found. */
export function findProcessState(root: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of ROOTS.flatMap((dir) => sources(path.join(root, dir)))) {
    const relative = path.relative(root, file).split(path.sep).join("/");
    if (relative === "lib/singleton.ts" || relative.startsWith(BROWSER)) continue;
    const text = fs.readFileSync(file, "utf8");
    for (const match of text.matchAll(/\bsingleton\s*(?:<[^()]*?>)?\(\s*("([^"]+)"|[A-Z_]+)\s*,/g)) {
      const name = match[2] ?? constantValue(text, match[1]);
      if (name) found.set(name, relative);
    }
    for (const match of text.matchAll(/globalThis as \{\s*(__switchboard\w+)\??:/g)) found.set(match[1], relative);
    for (const match of text.matchAll(/Symbol\.for\("(switchboard\.[\w.]+)"\)/g)) found.set(match[1], relative);
    // Module-level statements: they start at the line's first column.
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      const declared = /^(?:export )?(const|let) ([a-z]\w*)\b/.exec(line);
      if (!declared) return;
      let statement = line;
      for (let j = i + 1; j < lines.length && /^\s|^[)}\]]/.test(lines[j]); j++) statement += `\n${lines[j]}`;
      const initializer = statement.slice(statement.indexOf("=") + 1);
      const isState = declared[1] === "let" || /^\s*new\s/.test(initializer) || /^\s*\{[\s\S]*\bnew\s+[A-Z]/.test(initializer);
      // A function (arrow or not) made at load holds no state of its own.
      if (isState && !/^\s*(async\s*)?(\([^)]*\)|\w+)\s*(:\s*[^=]+)?=>/.test(initializer))
        found.set(`${relative}#${declared[2]}`, relative);
    });
  }
  return found;
}
