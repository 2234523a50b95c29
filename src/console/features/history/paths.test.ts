import { describe, expect, it } from 'vitest';
import { CHANGE_KINDS } from '../../../contract/changes.ts';
import { endpoints } from '../../../contract/index.ts';
import { HISTORY_SOURCES, historyPath } from './paths.ts';

describe('history sources', () => {
  it('each is a history row of the contract with its kind of the change log', () => {
    for (const [resource, s] of Object.entries(HISTORY_SOURCES)) {
      expect(
        endpoints.some((e) => e.method === 'GET' && e.path === s.path),
        resource,
      ).toBe(true);
      expect(CHANGE_KINDS as readonly string[], resource).toContain(s.kind);
    }
  });

  it('fills the code (encoded) or the subscription id', () => {
    expect(historyPath(HISTORY_SOURCES.customer, 'A B')).toBe(
      '/eTech/rest/ws/referentials/v1/customers/code:A%20B/history',
    );
    expect(historyPath(HISTORY_SOURCES.subscription, 'f0e1')).toMatch(/\/subscriptions\/f0e1\/history$/);
  });
});
