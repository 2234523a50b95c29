/**
 * The delivery worker: takes due callbacks from the outbox (outbox.ts), POSTs them
 * (http.ts) and records each attempt. Started by buildApp with the service and stopped by
 * its close: no new claim, the deliveries in flight finish (each within its timeout) and are
 * recorded before the database closes.
 *
 * When it looks: at once when callbacks are queued (NOTIFY on PostgreSQL, from any process;
 * an in-process signal on PGlite), when one of its deliveries ends, at the time of the
 * earliest retry, and every 2 s regardless (in case a notification was missed). Several
 * processes on one PostgreSQL share the work: each attempt is made by one of them.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbHandle } from '../db/index.ts';
import { createAgents, postCallback, type Resolver, systemResolver } from './http.ts';
import { outboxChannel, outboxSignal } from './index.ts';
import { type ClaimedDelivery, claimDue, msUntilNextDue, purgeFinished, recordAttempt } from './outbox.ts';
import { callbackBody, callbackHeaders } from './payload.ts';
import { type DeliveryTimes, deliveryTimes } from './schedule.ts';

/** Longest wait between two looks at the outbox when nothing is known to be due. */
const IDLE_POLL_MS = 2_000;

export interface WorkerOptions {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL: LISTEN on the schema's outbox channel (DbHandle.listen reconnects by itself). */
  listen?: { schema: string; on: DbHandle['listen'] };
  log: FastifyBaseLogger;
  timeScale: number;
  allowPrivate: boolean;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  resolve?: Resolver;
  ca?: string | Buffer;
  /** Called after each attempt (the metrics count them). */
  onAttempt?: (delivered: boolean) => void;
}

export class DeliveryWorker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly times: DeliveryTimes;
  private readonly agents = createAgents();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly onSignal = () => this.wake();

  constructor(private readonly options: WorkerOptions) {
    this.times = deliveryTimes(options.timeScale);
  }

  async start(): Promise<void> {
    if (this.options.kind === 'postgres') await this.listen();
    else outboxSignal.on('queued', this.onSignal);
    this.purgeTimer = setInterval(() => void this.purge(), Math.max(1000, this.times.purgeEveryMs));
    this.purgeTimer.unref();
    void this.purge();
    this.wake();
  }

  /** Stops claiming, lets the deliveries in flight finish and record, then returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    clearInterval(this.purgeTimer);
    outboxSignal.off('queued', this.onSignal);
    await this.unlisten?.().catch(() => {});
    this.unlisten = undefined;
    await this.looking;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Looks at the outbox soon (coalesces the requests made while a look is running). */
  wake(): void {
    if (this.stopping) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.looking = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.look())
      .finally(() => {
        this.looking = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async look(): Promise<void> {
    let wait = IDLE_POLL_MS;
    try {
      for (;;) {
        if (this.stopping) return;
        this.again = false;
        const free = this.options.concurrency - this.inFlight.size;
        if (free <= 0) return; // a delivery ending wakes the worker again
        const claimed = await claimDue(this.options.db, free, this.times.leaseMs);
        for (const delivery of claimed) this.track(this.deliver(delivery));
        if (claimed.length < free && !this.again) break;
      }
      // While deliveries are in flight, their ends bring the next look (and the idle poll
      // bounds the wait); otherwise sleep until the earliest retry.
      if (this.inFlight.size === 0) {
        const next = await msUntilNextDue(this.options.db);
        if (next !== null) wait = Math.min(wait, Math.max(next, 0) + 5);
      }
    } catch (err) {
      if (!this.stopping) this.options.log.error({ err }, 'webhooks: cannot read the outbox; trying again');
    }
    if (!this.stopping) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.wake(), wait);
      this.timer.unref();
    }
  }

  private track(p: Promise<void>) {
    this.inFlight.add(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      this.wake();
    });
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const body = JSON.stringify(callbackBody(d));
    const startedAt = new Date();
    const result = await postCallback(d.callback_url, body, callbackHeaders(d, body, startedAt.getTime()), {
      timeoutMs: this.times.timeoutMs,
      allowPrivate: this.options.allowPrivate,
      resolve: this.options.resolve ?? systemResolver,
      agents: this.agents,
      ca: this.options.ca,
    });
    this.options.onAttempt?.(result.error === null);
    try {
      await recordAttempt(
        this.options.db,
        d,
        { ...result, startedAt },
        {
          retryDelayMs: this.times.retryDelayMs(d.window_attempts + 1),
          windowMs: this.times.windowMs,
          worker: this.id,
        },
      );
    } catch (err) {
      // The claim's lease ends and the callback is sent again: at least once, same id.
      this.options.log.error({ err, deliveryId: d.id }, 'webhooks: cannot record a delivery attempt');
    }
    if (result.error)
      this.options.log.debug(
        { deliveryId: d.id, subscriptionId: d.subscription_id, error: result.error },
        'webhooks: delivery attempt failed',
      );
  }

  private async purge() {
    try {
      const purged = await purgeFinished(this.options.db, this.times.retentionMs);
      if (purged > 0)
        this.options.log.info({ purged }, 'webhooks: purged finished deliveries past retention');
    } catch (err) {
      if (!this.stopping) this.options.log.warn({ err }, 'webhooks: purge failed; trying again later');
    }
  }

  /**
   * PostgreSQL: a connection of its own LISTENing to the outbox's channel. While it is
   * lost the 2 s poll finds the work; once it is back, a look covers what was missed.
   */
  private async listen(): Promise<void> {
    const listen = this.options.listen;
    if (this.stopping || !listen) return;
    let lost = false;
    this.unlisten = await listen.on(
      outboxChannel(listen.schema),
      () => this.wake(),
      (up) => {
        if (!up && !lost)
          this.options.log.warn('webhooks: lost the LISTEN connection; polling until it is back');
        lost = !up;
        if (up) this.wake();
      },
    );
  }
}
