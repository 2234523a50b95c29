/**
 * /metrics with FIELDWORK_WORKERS processes behind one port: a scrape reaches one worker,
 * which asks the primary (IPC) to gather every worker's snapshot; the primary merges them
 * (metrics.ts merge) and answers. A worker that does not answer within GATHER_MS is left out
 * of that scrape.
 */
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { isRecord } from '../../contract/guards.ts';
import { type FamilySnapshot, merge, type Registry } from './metrics.ts';

const GATHER_MS = 2_000;

type Message =
  | { type: 'fieldwork:metrics:gather'; id: string }
  | { type: 'fieldwork:metrics:collect'; id: string }
  | { type: 'fieldwork:metrics:snapshot'; id: string; worker: string; families: FamilySnapshot[] }
  | { type: 'fieldwork:metrics:merged'; id: string; families: FamilySnapshot[] };

const isMessage = (m: unknown): m is Message =>
  isRecord(m) && String(m.type).startsWith('fieldwork:metrics:');

/** In the primary: answers the workers' gather requests. */
export function serveClusterMetrics() {
  cluster.on('message', (asker, message: unknown) => {
    if (!isMessage(message) || message.type !== 'fieldwork:metrics:gather') return;
    const id = message.id;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected());
    const got: { worker: string; families: FamilySnapshot[] }[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      cluster.off('message', onSnapshot);
      clearTimeout(timer);
      if (asker.isConnected())
        asker.send({ type: 'fieldwork:metrics:merged', id, families: merge(got) } satisfies Message);
    };
    const onSnapshot = (_w: unknown, m: unknown) => {
      if (!isMessage(m) || m.type !== 'fieldwork:metrics:snapshot' || m.id !== id) return;
      got.push({ worker: m.worker, families: m.families });
      if (got.length >= workers.length) finish();
    };
    const timer = setTimeout(finish, GATHER_MS);
    cluster.on('message', onSnapshot);
    for (const w of workers) w?.send({ type: 'fieldwork:metrics:collect', id } satisfies Message);
  });
}

/**
 * In a worker: answers the primary's collect requests with this process's snapshot, and
 * returns the function a scrape calls to get the merged families of every worker.
 */
export function clusterMetrics(registry: Registry) {
  const waiting = new Map<string, (families: FamilySnapshot[]) => void>();
  const onMessage = (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === 'fieldwork:metrics:collect') {
      void registry.snapshot().then((families) =>
        process.send?.({
          type: 'fieldwork:metrics:snapshot',
          id: message.id,
          worker: String(process.pid),
          families,
        } satisfies Message),
      );
    } else if (message.type === 'fieldwork:metrics:merged') {
      waiting.get(message.id)?.(message.families);
    }
  };
  process.on('message', onMessage);
  return {
    gather(): Promise<FamilySnapshot[]> {
      const id = randomUUID();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error('the primary did not gather the metrics in time'));
        }, GATHER_MS * 2);
        waiting.set(id, (families) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(families);
        });
        process.send?.({ type: 'fieldwork:metrics:gather', id } satisfies Message);
      });
    },
    stop: () => process.off('message', onMessage),
  };
}
