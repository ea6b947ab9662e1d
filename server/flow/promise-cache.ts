/**
 * Promises by key, at most `limit` kept (the oldest goes first): what is loaded once and then read many times —
 * compiled processes, deployed documents, a tenant's organisation. A load that fails is forgotten, so the next read
 * tries again.
 */
export class PromiseCache<T> {
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly limit: number) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    let found = this.entries.get(key);
    if (!found) {
      if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as string);
      found = load();
      this.entries.set(key, found);
      found.catch(() => {
        if (this.entries.get(key) === found) this.entries.delete(key);
      });
    }
    return found;
  }

  clear(): void {
    this.entries.clear();
  }
}
