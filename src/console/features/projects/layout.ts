/**
 * The graph's layered layout, computed by elkjs in a web worker: this module (the small
 * elk-api) loads with the first graph shown, and the worker (elkjs's 1.6 MB GWT build,
 * served as its own file) starts then, once; the page and the browser's main thread never
 * carry the layout engine.
 */
import ElkConstructor, { type ELK } from 'elkjs/lib/elk-api.js';
import workerUrl from 'elkjs/lib/elk-worker.min.js?url';
import { type LayoutGraph, positionsOf } from './model.ts';

let elk: ELK | undefined;

/** Node positions of the graph (model.ts `layoutInput`), by node id. */
export async function layoutGraph(graph: LayoutGraph): Promise<Map<string, { x: number; y: number }>> {
  elk ??= new ElkConstructor({ workerUrl, algorithms: ['layered'] });
  return positionsOf(await elk.layout(graph));
}
