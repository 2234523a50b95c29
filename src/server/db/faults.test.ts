import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../config.ts';
import { DatabaseBusyError, isConnectionLost, isDatabaseUnavailable, isPlainRead } from './faults.ts';

const pgError = (code: string) => Object.assign(new Error('x'), { code });

describe('which database errors are a 503', () => {
  it('a lost or refused connection, a timeout, a lock not obtained, a server shutting down', () => {
    for (const err of [
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      pgError('ECONNREFUSED'),
      pgError('57P01'),
      pgError('57014'),
      pgError('55P03'),
      pgError('08006'),
      pgError('53300'),
      new DatabaseBusyError(5000),
    ])
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
  });

  it('not a refused statement: a unique violation, a syntax error, a serialization failure', () => {
    for (const err of [pgError('23505'), pgError('42601'), pgError('40001'), new Error('boom'), undefined])
      expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it('only a broken connection is lost (a timeout is not retried)', () => {
    expect(isConnectionLost(pgError('57P01'))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(pgError('57014'))).toBe(false);
    expect(isConnectionLost(pgError('55P03'))).toBe(false);
  });

  it('a plain read may run again; a write or a read with an effect may not', () => {
    expect(isPlainRead('select "id" from "customers" where "code" = $1')).toBe(true);
    expect(isPlainRead('  SELECT 1')).toBe(true);
    for (const text of [
      'insert into customers values ($1)',
      'with x as (delete from t returning *) select * from x',
      "select pg_notify('c', '')",
      "select nextval('s')",
      'select pg_advisory_xact_lock(1)',
    ])
      expect(isPlainRead(text), text).toBe(false);
  });
});

describe('FIELDWORK_DB_TIMEOUT_MS', () => {
  it('milliseconds from 100 to 3600000; absent: the default of the service', () => {
    expect(configFromEnv({}).dbTimeoutMs).toBeUndefined();
    expect(configFromEnv({ FIELDWORK_DB_TIMEOUT_MS: '1500' }).dbTimeoutMs).toBe(1500);
    for (const bad of ['0', '99', '1.5', 'soon', '3600001'])
      expect(() => configFromEnv({ FIELDWORK_DB_TIMEOUT_MS: bad })).toThrow(/FIELDWORK_DB_TIMEOUT_MS/);
  });
});
