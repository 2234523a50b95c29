/** A binary heap; `better(a, b)`: a comes out first. Items are objects: undefined means empty. */
export class Heap<T extends object> {
  private items: T[] = [];
  constructor(private readonly better: (a: T, b: T) => boolean) {}
  get size() {
    return this.items.length;
  }
  push(x: T) {
    const a = this.items;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.better(a[i], a[parent])) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }
  pop(): T | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop();
    if (last !== undefined && a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < a.length && this.better(a[l], a[best])) best = l;
        if (r < a.length && this.better(a[r], a[best])) best = r;
        if (best === i) break;
        [a[i], a[best]] = [a[best], a[i]];
        i = best;
      }
    }
    return top;
  }
}
