import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Endpoint, RateRange } from '../../contract/endpoint.ts';
import type { Caller } from './caller.ts';

export type RateLimitFigures = Record<RateRange, { perMinute: number; perHour: number }>;

/** gaps.md: the stricter per-minute statement is the default. */
export const DEFAULT_RATE_LIMITS: RateLimitFigures = {
  high: { perMinute: 110, perHour: 4000 },
  standard: { perMinute: 55, perHour: 2000 },
  low: { perMinute: 30, perHour: 1000 },
};

/** Reads FIELDWORK_RATE_LIMITS (JSON); missing keys keep their default. */
export function parseRateLimits(text: string | undefined): RateLimitFigures {
  const figures = structuredClone(DEFAULT_RATE_LIMITS);
  if (!text) return figures;
  const given = JSON.parse(text) as Partial<
    Record<RateRange, Partial<{ perMinute: number; perHour: number }>>
  >;
  for (const range of Object.keys(figures) as RateRange[]) Object.assign(figures[range], given[range] ?? {});
  return figures;
}

// TODO(platform helper): per-application, per-range windows with memory and Redis stores.
export function createRateLimiter(_figures: RateLimitFigures) {
  return {
    async check(_request: FastifyRequest, _reply: FastifyReply, _caller: Caller, _endpoint: Endpoint) {},
    async close() {},
  };
}
