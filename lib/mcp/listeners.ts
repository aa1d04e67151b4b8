/**
 * A set of listeners for one kind of event of a connection entry (a resource's update, a list's
 * change): added with `add`, which returns the function that removes it, and all called by `emit`.
 */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  /** Listen; returns the function that stops listening. */
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  /** Call every listener with `value`. */
  emit(value: T): void {
    for (const listener of this.set) listener(value);
  }

  /** How many listen now. */
  get size(): number {
    return this.set.size;
  }
}
