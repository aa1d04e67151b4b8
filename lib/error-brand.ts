/**
 * Error classes recognised by a brand instead of by their prototype. The app runs two bundles of the
 * same modules in one process (Next's route bundle and the direct lane's, loaded by instrumentation.ts),
 * and process-wide state (the engine pool, the quotas) is shared between them: an error made by one
 * bundle's `EngineError` is not an `instanceof` the other bundle's class, so a 409 or a 429 became a
 * 500. A branded class answers `instanceof` from a brand (a `Symbol.for` key, the same in every
 * bundle) that its constructor puts on each instance. A leaf module.
 */

const BRANDS = Symbol.for("switchboard.error");

type Branded = { [BRANDS]?: readonly string[] };
type BrandedClass = abstract new (...args: never[]) => object;

// The brands a class and the classes it extends declare (`static readonly brand`), most derived first.
function brandsOf(ctor: unknown): string[] {
  const found: string[] = [];
  for (let current = ctor; typeof current === "function"; current = Object.getPrototypeOf(current)) {
    const brand = Object.hasOwn(current, "brand") ? (current as { brand?: unknown }).brand : undefined;
    if (typeof brand === "string") found.push(brand);
  }
  return found;
}

/** Put on `error` the brand of every class in its constructor chain; call it as `brandError(this, new.target)`. */
export function brandError(error: object, made: BrandedClass): void {
  Object.defineProperty(error, BRANDS, { value: brandsOf(made), enumerable: false, configurable: true });
}

/** Whether `value` was made by a class branded `brand`, whichever bundle's copy of the class made it. */
export function hasErrorBrand(value: unknown, brand: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  return (value as Branded)[BRANDS]?.includes(brand) ?? false;
}

/**
 * `instanceof` for a branded class (its `static [Symbol.hasInstance]`): by the brand the class itself
 * declares, or by the prototype chain for a subclass that declares none.
 */
export function isBrandedInstance(ctor: BrandedClass, value: unknown): boolean {
  const brand = Object.hasOwn(ctor, "brand") ? (ctor as { brand?: unknown }).brand : undefined;
  if (typeof brand === "string") return hasErrorBrand(value, brand);
  return Function.prototype[Symbol.hasInstance].call(ctor, value);
}
