/**
 * The CPU time of the page's main-thread tasks in a Chromium trace (browser.startTracing with
 * the `toplevel` and `devtools.timeline` categories): each task's own thread time, which a
 * loaded machine stretches far less than its wall time.
 */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** The CPU time (ms) of each task of the renderer's main thread, longest first. */
export function mainThreadTaskCpu(trace: { traceEvents: TraceEvent[] }): number[] {
  const events = trace.traceEvents;
  const main = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`))
    .map((e) => (e.tdur ?? e.dur ?? 0) / 1000)
    .sort((a, b) => b - a);
}
