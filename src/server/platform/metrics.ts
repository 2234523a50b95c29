/**
 * Prometheus metrics of one service process, written in the text exposition format 0.0.4
 * by hand (counters, gauges and histograms with labels are all the service needs; no
 * client library): https://prometheus.io/docs/instrumenting/exposition_formats/
 *
 * A registry holds families; `snapshot()` gives every sample as data, so that the primary
 * of FIELDWORK_WORKERS processes can merge its workers' snapshots (main.ts) and
 * `render()` writes the text of one snapshot or of a merge.
 */
import { readdirSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export type Labels = Record<string, string>;
export type MetricType = 'counter' | 'gauge' | 'histogram';

/** One sample line: name (with _bucket/_sum/_count for histograms), labels, value. */
export interface Sample {
  name: string;
  labels: Labels;
  value: number;
}

export interface FamilySnapshot {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

/**
 * The series key of a label set, kept per label object: the request hook passes the same
 * object for each method, route and status class (operations.ts), so its key is computed
 * once. A label object is never changed once it has counted.
 */
const labelKeys = new WeakMap<Labels, string>();
const labelKey = (labels: Labels) => {
  let key = labelKeys.get(labels);
  if (key === undefined) {
    key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
    labelKeys.set(labels, key);
  }
  return key;
};

export class Counter {
  readonly type = 'counter' as const;
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1) {
    const key = labelKey(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels, value: by });
  }
  get(labels: Labels = {}) {
    return this.values.get(labelKey(labels))?.value ?? 0;
  }
  samples(): Sample[] {
    return [...this.values.values()].map((e) => ({ name: this.name, labels: e.labels, value: e.value }));
  }
}

/** A gauge (or a counter kept elsewhere) whose samples are computed at scrape time (may read the database). */
export class Gauge {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly collect: () => Promise<Sample[] | number> | Sample[] | number,
    /** `counter` for a total read at scrape time (CPU seconds). */
    readonly type: 'gauge' | 'counter' = 'gauge',
  ) {}
  async samples(): Promise<Sample[]> {
    const got = await this.collect();
    return typeof got === 'number' ? [{ name: this.name, labels: {}, value: got }] : got;
  }
}

/** Seconds: from 5 ms (a cached read) to 10 s (beyond: the service is in trouble). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Histogram {
  readonly type = 'histogram' as const;
  private readonly series = new Map<
    string,
    { labels: Labels; counts: number[]; sum: number; count: number }
  >();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[] = LATENCY_BUCKETS,
  ) {}
  observe(labels: Labels, value: number) {
    const key = labelKey(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    // Cumulative buckets are computed when rendered; here each value counts in its first bucket.
    const { buckets } = this;
    for (let i = 0; i < buckets.length; i++)
      if (value <= buckets[i]) {
        s.counts[i]++;
        break;
      }
    s.sum += value;
    s.count++;
  }
  samples(): Sample[] {
    const out: Sample[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((b, i) => {
        cumulative += s.counts[i];
        out.push({
          name: `${this.name}_bucket`,
          labels: { ...s.labels, le: formatNumber(b) },
          value: cumulative,
        });
      });
      out.push({ name: `${this.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
      out.push({ name: `${this.name}_sum`, labels: s.labels, value: s.sum });
      out.push({ name: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return out;
  }
}

type Family = Counter | Gauge | Histogram;

export class Registry {
  private readonly families: Family[] = [];
  register<F extends Family>(family: F): F {
    if (this.families.some((f) => f.name === family.name))
      throw new Error(`metric ${family.name} registered twice`);
    this.families.push(family);
    return family;
  }
  async snapshot(): Promise<FamilySnapshot[]> {
    const out: FamilySnapshot[] = [];
    for (const f of this.families) {
      let samples: Sample[];
      try {
        samples = await f.samples();
      } catch {
        // A collector that cannot read (the database is down) leaves its family empty;
        // fieldwork_database_up says why.
        samples = [];
      }
      out.push({ name: f.name, help: f.help, type: f.type, samples });
    }
    return out;
  }
}

export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Number.POSITIVE_INFINITY) return '+Inf';
  if (n === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(n);
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** The text exposition format (Content-Type `text/plain; version=0.0.4`). */
export function render(families: FamilySnapshot[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      const labels = Object.entries(s.labels);
      const text = labels.length ? `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : '';
      lines.push(`${s.name}${text} ${formatNumber(s.value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Merges the snapshots of several processes (FIELDWORK_WORKERS): counters and histograms
 * are summed series by series; gauges keep one series per process, labelled `worker`
 * (memory, event loop: per process; the outbox backlog: the same figure seen by each).
 */
export function merge(snapshots: { worker: string; families: FamilySnapshot[] }[]): FamilySnapshot[] {
  const out = new Map<string, FamilySnapshot & { index: Map<string, Sample> }>();
  for (const { worker, families } of snapshots) {
    for (const f of families) {
      let target = out.get(f.name);
      if (!target) {
        target = { name: f.name, help: f.help, type: f.type, samples: [], index: new Map() };
        out.set(f.name, target);
      }
      for (const s of f.samples) {
        const labels = f.type === 'gauge' ? { ...s.labels, worker } : s.labels;
        const key = `${s.name}${labelKey(labels)}`;
        const existing = target.index.get(key);
        if (existing) existing.value += s.value;
        else {
          const sample = { name: s.name, labels, value: s.value };
          target.index.set(key, sample);
          target.samples.push(sample);
        }
      }
    }
  }
  return [...out.values()].map(({ index: _index, ...f }) => f);
}

/** The process metrics of the usual Prometheus clients (same names). */
export function registerProcessMetrics(registry: Registry) {
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const startSeconds = Math.round((Date.now() - performance.now()) / 1000);
  registry.register(
    new Gauge(
      'process_cpu_user_seconds_total',
      'User CPU time spent, seconds',
      () => process.cpuUsage().user / 1e6,
      'counter',
    ),
  );
  registry.register(
    new Gauge(
      'process_cpu_system_seconds_total',
      'System CPU time spent, seconds',
      () => process.cpuUsage().system / 1e6,
      'counter',
    ),
  );
  registry.register(
    new Gauge('process_resident_memory_bytes', 'Resident memory size, bytes', () =>
      process.memoryUsage.rss(),
    ),
  );
  registry.register(
    new Gauge('nodejs_heap_size_used_bytes', 'V8 heap used, bytes', () => process.memoryUsage().heapUsed),
  );
  registry.register(
    new Gauge(
      'nodejs_heap_size_total_bytes',
      'V8 heap allocated, bytes',
      () => process.memoryUsage().heapTotal,
    ),
  );
  registry.register(
    new Gauge(
      'process_start_time_seconds',
      'Start time of the process since the Unix epoch, seconds',
      () => startSeconds,
    ),
  );
  registry.register(
    new Gauge('process_open_fds', 'Open file descriptors', () => {
      try {
        return readdirSync('/proc/self/fd').length;
      } catch {
        return [];
      }
    }),
  );
  registry.register(
    new Gauge(
      'nodejs_eventloop_lag_p99_seconds',
      'Event loop delay, 99th percentile since the last scrape, seconds',
      () => {
        const value = loop.percentile(99) / 1e9;
        loop.reset();
        return value;
      },
    ),
  );
  registry.register(
    new Gauge('nodejs_version_info', 'Node.js version', () => [
      { name: 'nodejs_version_info', labels: { version: process.version }, value: 1 },
    ]),
  );
  return () => loop.disable();
}
