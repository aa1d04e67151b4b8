/**
 * A parser of the Prometheus text exposition format (version 0.0.4) for tests: `# HELP`/`# TYPE`
 * lines and samples with escaped label values, into families of samples. Written here because no
 * parser is installed (prom-client only writes the format); it refuses what the format forbids
 * instead of skipping it, so a malformed scrape fails the test.
 */

/** One sample: its full name (a histogram's `_bucket` included), labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** One metric family: its type, help text and samples. */
export interface Family {
  name: string;
  type?: string;
  help?: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

/** Parse the exposition text; throws on a line that is not valid in the format. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    const found = families.get(name) ?? { name, samples: [] };
    families.set(name, found);
    return found;
  };
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
    if (meta) {
      if (meta[1] === "TYPE") {
        if (!["counter", "gauge", "histogram", "summary", "untyped"].includes(meta[3])) throw new Error(`line ${index + 1}: bad type`);
        family(meta[2]).type = meta[3];
      } else family(meta[2]).help = meta[3].replace(/\\n/g, "\n").replace(/\\\\/g, "\\");
      continue;
    }
    if (line.startsWith("#")) continue;
    const sample = parseSample(line, index + 1);
    const base = [...families.keys()].find(
      (name) =>
        sample.name === name || (/^_(bucket|sum|count|total)$/.test(sample.name.slice(name.length)) && sample.name.startsWith(name)),
    );
    family(base ?? sample.name).samples.push(sample);
  }
  return families;
}

function parseSample(line: string, at: number): Sample {
  const name = NAME.exec(line)?.[0];
  if (!name) throw new Error(`line ${at}: no metric name`);
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith("{")) {
    rest = rest.slice(1);
    while (!rest.startsWith("}")) {
      const label = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(rest);
      if (!label) throw new Error(`line ${at}: bad label`);
      rest = rest.slice(label[0].length);
      let value = "";
      for (;;) {
        if (rest === "") throw new Error(`line ${at}: unterminated label value`);
        const c = rest[0];
        if (c === '"') break;
        if (c === "\\") {
          const next = rest[1];
          value += next === "n" ? "\n" : next;
          rest = rest.slice(2);
        } else {
          value += c;
          rest = rest.slice(1);
        }
      }
      labels[label[1]] = value;
      rest = rest.slice(1);
      if (rest.startsWith(",")) rest = rest.slice(1);
    }
    rest = rest.slice(1);
  }
  const fields = rest.trim().split(/\s+/);
  if (fields.length < 1 || fields.length > 2 || fields[0] === "") throw new Error(`line ${at}: bad value`);
  const value = fields[0] === "+Inf" ? Infinity : fields[0] === "-Inf" ? -Infinity : Number(fields[0]);
  if (Number.isNaN(value) && fields[0] !== "NaN") throw new Error(`line ${at}: bad value ${fields[0]}`);
  return { name, labels, value };
}

/** The sum of a family's samples whose labels include `where`. */
export function sumOf(families: Map<string, Family>, name: string, where: Record<string, string> = {}): number {
  return (families.get(name)?.samples ?? [])
    .filter((s) => Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);
}
