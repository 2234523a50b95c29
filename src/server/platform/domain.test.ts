/**
 * The domain lifecycle (platform/domain.ts): each domain's settings come from its own folder
 * through configFromEnv, and its background work starts with the service and stops with it,
 * in the reverse order.
 */
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.ts';
import { createTestApp } from '../testing/harness.ts';
import { type DomainContext, startDomains } from './domain.ts';

describe("a domain's settings", () => {
  it('are read by configFromEnv from the domain folders', () => {
    const config = configFromEnv({
      FIELDWORK_CHANGES_RETENTION_DAYS: '30',
      FIELDWORK_CHANGES_POLL_MS: '1000',
      FIELDWORK_SERVICE_ORDER_MAX: '7',
      FIELDWORK_WEBHOOKS_WORKER: '0',
    });
    expect(config.changes?.retentionDays).toBe(30);
    expect(config.changes?.pollMs).toBe(1000);
    expect(config.serviceOrderMax).toBe(7);
    expect(config.webhooks?.worker).toBe(false);
    expect(configFromEnv({}).changes?.retentionDays).toBe(90);
  });

  it("refuse the service's start when one is malformed", () => {
    expect(() => configFromEnv({ FIELDWORK_CHANGES_RETENTION_DAYS: '0' })).toThrow(
      /FIELDWORK_CHANGES_RETENTION_DAYS/,
    );
    expect(() => configFromEnv({ FIELDWORK_CHANGES_POLL_MS: '10' })).toThrow(/FIELDWORK_CHANGES_POLL_MS/);
    expect(() => configFromEnv({ FIELDWORK_SERVICE_ORDER_MAX: 'many' })).toThrow(
      /FIELDWORK_SERVICE_ORDER_MAX/,
    );
  });
});

describe("a domain's background work", () => {
  const ctx = {} as DomainContext;

  it('starts in the registry order and stops in the reverse order, once', async () => {
    const seen: string[] = [];
    const module = (name: string) => ({
      start: async () => {
        seen.push(`start ${name}`);
        return () => {
          seen.push(`stop ${name}`);
        };
      },
    });
    const stop = await startDomains([module('a'), {}, module('b'), module('c')], ctx);
    await stop();
    await stop();
    expect(seen).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  });

  it('that fails to start stops the domains already started, and the start fails', async () => {
    const seen: string[] = [];
    const started = { start: () => () => void seen.push('stop a') };
    const failing = {
      start: async () => {
        throw new Error('no hub');
      },
    };
    const never = { start: () => () => void seen.push('stop c') };
    await expect(startDomains([started, failing, never], ctx)).rejects.toThrow('no hub');
    expect(seen).toEqual(['stop a']);
  });

  it("is the changes domain's stream hub, started by buildApp", async () => {
    const t = await createTestApp();
    try {
      expect(t.app.changeHub).toBeDefined();
    } finally {
      await t.close();
    }
  });
});
