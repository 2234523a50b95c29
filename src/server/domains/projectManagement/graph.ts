/**
 * The cycle check of a project's dependencies, in memory: the project's edges are read in one
 * query, the call's new edges added, and a depth-first search looks for a path that comes
 * back to the linked job. The graph held before the call has no cycle (every change is
 * checked), and every new edge touches the linked job, so a cycle, if any, goes through it:
 * one search from that job, O(jobs + dependencies).
 */

export interface Edge {
  blocking: string;
  blocked: string;
}

/**
 * A cycle through `start` in `edges` (job ids), as the path start -> ... -> start, or
 * undefined. Iterative (a project's chain of dependencies may be thousands of jobs long).
 */
export function cycleThrough(start: string, edges: readonly Edge[]): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const list = next.get(e.blocking);
    if (list) list.push(e.blocked);
    else next.set(e.blocking, [e.blocked]);
  }
  const parent = new Map<string, string>();
  const seen = new Set<string>([start]);
  const stack = [start];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const to of next.get(node) ?? []) {
      if (to === start) {
        const path = [start];
        // Every node reached but start has a parent: the walk ends at start.
        for (let at: string | undefined = node; at !== undefined && at !== start; at = parent.get(at))
          path.push(at);
        path.push(start);
        // Collected backwards from the last edge: start, ..., node, start read in reverse.
        return [start, ...path.slice(1, -1).reverse(), start];
      }
      if (seen.has(to)) continue;
      seen.add(to);
      parent.set(to, node);
      stack.push(to);
    }
  }
  return undefined;
}

/**
 * Any cycle in `edges` (a whole dependency set, as an import gives it), as a path from a job
 * back to itself, or undefined. Iterative depth-first search with colours.
 */
export function findCycle(edges: readonly Edge[]): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const list = next.get(e.blocking);
    if (list) list.push(e.blocked);
    else next.set(e.blocking, [e.blocked]);
  }
  const done = new Set<string>();
  for (const root of next.keys()) {
    if (done.has(root)) continue;
    // The current path, each node with the index of its next child to visit.
    const path: string[] = [root];
    const childAt: number[] = [0];
    const onPath = new Set<string>([root]);
    while (path.length > 0) {
      const node = path[path.length - 1];
      const children = next.get(node) ?? [];
      const i = childAt[childAt.length - 1]++;
      if (i >= children.length) {
        done.add(node);
        onPath.delete(node);
        path.pop();
        childAt.pop();
        continue;
      }
      const to = children[i];
      if (onPath.has(to)) return [...path.slice(path.indexOf(to)), to];
      if (done.has(to)) continue;
      path.push(to);
      childAt.push(0);
      onPath.add(to);
    }
  }
  return undefined;
}
