/**
 * Minimal RFC 6570 support for resource templates in the picker: list the variables and expand
 * simple (`{x}`), reserved (`{+x}`) and query (`{?x,y}`) expressions. Node-free (client-safe).
 */

const EXPRESSION = /\{([+#./;?&]?)([^}]+)\}/g;

/** Variable names in template order, without duplicates. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    for (const raw of match[2].split(",")) {
      const name = raw.replace(/[*]|:\d+$/g, "").trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** Expand a template with string values (missing values expand to nothing). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_, operator: string, list: string) => {
    const names = list.split(",").map((n) => n.replace(/[*]|:\d+$/g, "").trim());
    const present = names.filter((n) => values[n] !== undefined && values[n] !== "");
    if (operator === "?" || operator === "&") {
      if (present.length === 0) return "";
      return operator + present.map((n) => `${n}=${encodeURIComponent(values[n])}`).join("&");
    }
    const encode = operator === "+" || operator === "#" ? encodeURI : encodeURIComponent;
    const joined = present.map((n) => encode(values[n])).join(",");
    if (!joined) return "";
    return operator === "+" ? joined : operator === "" ? joined : operator + joined;
  });
}
