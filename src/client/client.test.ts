import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { endpoint } from '../contract/endpoint.ts';
import { ApiError, createClient, fillPath, isRetryable, NetworkError, queryString } from './index.ts';

const Thing = z.object({ code: z.string(), name: z.string() });
const getThing = endpoint({
  id: 'getThing',
  method: 'GET',
  path: '/eTech/rest/ws/test/v1/things/code:{thingCode}',
  domain: 'referentials',
  range: 'high',
  summary: 'test',
  errorPrefix: 'test.thing',
  params: z.object({ thingCode: z.string() }),
  responses: { 200: Thing },
});
const putThing = endpoint({
  id: 'putThing',
  method: 'PUT',
  path: '/eTech/rest/ws/test/v1/things/code:{thingCode}',
  domain: 'referentials',
  range: 'standard',
  summary: 'test',
  errorPrefix: 'test.thing',
  params: z.object({ thingCode: z.string() }),
  body: z.object({ name: z.string() }),
  responses: { 201: undefined, 204: undefined },
});
const listThings = endpoint({
  id: 'listThings',
  method: 'GET',
  path: '/eTech/rest/ws/test/v1/things',
  domain: 'referentials',
  range: 'standard',
  summary: 'test',
  errorPrefix: 'test.thing',
  query: z.object({ q: z.string().optional(), continuationToken: z.string().optional() }),
  responses: { 200: z.object({ continuationToken: z.string().nullable(), data: z.array(Thing) }) },
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakeFetch(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const f = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer(String(url), init ?? {});
  });
  return { fetch: f as unknown as typeof fetch, calls };
}

describe('typed client', () => {
  it('fills code:{x} segments with encoded values and sends the bearer token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { code: 'A/B', name: 'x' }));
    const api = createClient({ baseUrl: 'http://svc/', getToken: async () => 'tok', fetch });
    const thing = await api.call(getThing, { params: { thingCode: 'a/b c' } });
    expect(thing.name).toBe('x');
    expect(calls[0].url).toBe('http://svc/eTech/rest/ws/test/v1/things/code:a%2Fb%20c');
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(calls[0].init.method).toBe('GET');
  });

  it('sends JSON bodies and tells 201 from 204', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 201 }));
    const api = createClient({ baseUrl: '', fetch });
    const r = await api.request(putThing, { params: { thingCode: 'X' }, body: { name: 'n' } });
    expect(r.status).toBe(201);
    expect(r.data).toBeUndefined();
    expect(calls[0].init.body).toBe('{"name":"n"}');
    expect((calls[0].init.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect((calls[0].init.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('sends extra headers (If-Match) and answers the response headers (ETag)', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204, headers: { etag: '"v2"' } }));
    const api = createClient({ baseUrl: '', getToken: () => 'tok', fetch });
    const r = await api.request(putThing, {
      params: { thingCode: 'X' },
      body: { name: 'n' },
      headers: { 'if-match': '"v1"', authorization: 'not this one' },
    });
    const sent = calls[0].init.headers as Record<string, string>;
    expect(sent['if-match']).toBe('"v1"');
    // The client's own headers win over extra ones.
    expect(sent.authorization).toBe('Bearer tok');
    expect(r.headers.get('etag')).toBe('"v2"');
  });

  it('a refused conditional write is an ApiError with status 412', async () => {
    const body = {
      errors: [{ code: 'test.thing.precondition.failed', message: 'changed since' }],
      errorReference: 'ref-412',
    };
    const { fetch } = fakeFetch(() => json(412, body));
    const e = await createClient({ baseUrl: '', fetch })
      .request(putThing, { params: { thingCode: 'X' }, body: { name: 'n' }, headers: { 'if-match': '"v1"' } })
      .catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(412);
    expect(e.has('test.thing.precondition.failed')).toBe(true);
  });

  it('throws ApiError with errors[] and errorReference, and reports 401s', async () => {
    const onUnauthorized = vi.fn();
    const body = {
      errors: [{ code: 'unauthorized.badcredentials', message: 'expired' }],
      errorReference: 'ref-1',
    };
    const { fetch } = fakeFetch(() => json(401, body));
    const api = createClient({ baseUrl: '', fetch, onUnauthorized });
    const e = await api.call(getThing, { params: { thingCode: 'X' } }).catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(401);
    expect(e.errors).toEqual(body.errors);
    expect(e.errorReference).toBe('ref-1');
    expect(e.has('unauthorized.badcredentials')).toBe(true);
    expect(onUnauthorized).toHaveBeenCalledWith(e);
    expect(isRetryable(e)).toBe(false);
  });

  it('makes an ApiError of an answer without the error body', async () => {
    const { fetch } = fakeFetch(
      () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const e = await createClient({ baseUrl: '', fetch })
      .call(getThing, { params: { thingCode: 'X' } })
      .catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.errors[0].code).toBe('http.502');
    expect(e.errorReference).toBeNull();
    expect(isRetryable(e)).toBe(true);
  });

  it('throws NetworkError when there is no answer, and lets aborts through', async () => {
    const down = createClient({
      baseUrl: '',
      fetch: fakeFetch(() => {
        throw new TypeError('Failed to fetch');
      }).fetch,
    });
    const e = await down.call(getThing, { params: { thingCode: 'X' } }).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(isRetryable(e)).toBe(true);
    const aborted = createClient({
      baseUrl: '',
      fetch: fakeFetch(() => {
        throw new DOMException('aborted', 'AbortError');
      }).fetch,
    });
    const a = await aborted.call(getThing, { params: { thingCode: 'X' } }).catch((x) => x);
    expect(a.name).toBe('AbortError');
  });

  it('iterates pages over continuationToken until a null token', async () => {
    const pages: Record<string, unknown> = {
      '': { continuationToken: 't1', data: [{ code: 'A', name: 'a' }] },
      t1: { continuationToken: 't2', data: [{ code: 'B', name: 'b' }] },
      t2: { continuationToken: null, data: [{ code: 'C', name: 'c' }] },
    };
    const { fetch, calls } = fakeFetch((url) => {
      const u = new URL(url, 'http://x');
      return json(200, pages[u.searchParams.get('continuationToken') ?? '']);
    });
    const api = createClient({ baseUrl: '', fetch });
    const codes: string[] = [];
    for await (const page of api.pages(listThings, { query: { q: 'x' } }))
      codes.push(...page.data.map((t) => t.code));
    expect(codes).toEqual(['A', 'B', 'C']);
    expect(calls.map((c) => c.url)).toEqual([
      '/eTech/rest/ws/test/v1/things?q=x',
      '/eTech/rest/ws/test/v1/things?q=x&continuationToken=t1',
      '/eTech/rest/ws/test/v1/things?q=x&continuationToken=t2',
    ]);
  });

  it('stops on an empty page even with a token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { continuationToken: 'again', data: [] }));
    const api = createClient({ baseUrl: '', fetch });
    let n = 0;
    for await (const _ of api.pages(listThings)) n++;
    expect(n).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('builds paths and query strings', () => {
    expect(() => fillPath('/a/code:{x}', {})).toThrow(/x/);
    expect(queryString({ a: 'b', c: undefined, d: '', e: ['1', '2'] })).toBe('?a=b&e=1&e=2');
    expect(queryString({})).toBe('');
  });

  describe('Idempotency-Key on POST (issue 29 §5)', () => {
    const hdr = (c: { init: RequestInit }) => (c.init.headers as Record<string, string>)['idempotency-key'];

    it('sends a fresh key on each POST and none on other methods', async () => {
      const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }));
      const api = createClient({ baseUrl: '', fetch });
      await api.raw('POST', '/a/link', { body: { x: 1 } });
      await api.raw('POST', '/a/link', { body: { x: 1 } });
      await api.request(putThing, { params: { thingCode: 'X' }, body: { name: 'n' } });
      expect(hdr(calls[0])).toMatch(/^[0-9a-f-]{36}$/);
      expect(hdr(calls[1])).toMatch(/^[0-9a-f-]{36}$/);
      expect(hdr(calls[0])).not.toBe(hdr(calls[1]));
      expect(hdr(calls[2])).toBeUndefined();
    });

    it('sends the same key again when the answer was lost, and stops at the first answer', async () => {
      let n = 0;
      const { fetch, calls } = fakeFetch(() => {
        n++;
        if (n === 1) throw new TypeError('connection reset');
        if (n === 2) return json(503, { errors: [{ code: 'service.unavailable', message: 'busy' }] });
        return json(200, { linked: true });
      });
      const api = createClient({ baseUrl: '', fetch, retryPauseMs: 1 });
      expect(await api.raw('POST', '/a/link', { body: {} })).toEqual({ linked: true });
      expect(calls).toHaveLength(3);
      expect(new Set(calls.map(hdr)).size).toBe(1);
    });

    it('waits for a first send still running (409 in progress) and asks again with the same key', async () => {
      let n = 0;
      const { fetch, calls } = fakeFetch(() => {
        n++;
        if (n === 1) throw new TypeError('connection reset');
        if (n === 2)
          return new Response(
            JSON.stringify({ errors: [{ code: 'request.idempotencykey.inprogress', message: 'running' }] }),
            { status: 409, headers: { 'retry-after': '0' } },
          );
        return json(200, { linked: true });
      });
      const api = createClient({ baseUrl: '', fetch, retryPauseMs: 1 });
      expect(await api.raw('POST', '/a/link', { body: {} })).toEqual({ linked: true });
      expect(calls).toHaveLength(3);
      expect(new Set(calls.map(hdr)).size).toBe(1);
    });

    it('does not resend a refused POST (4xx, 500) nor one past its attempts', async () => {
      const refused = fakeFetch(() => json(409, { errors: [{ code: 'request.inprogress', message: 'x' }] }));
      const api = createClient({ baseUrl: '', fetch: refused.fetch, retryPauseMs: 1 });
      await expect(api.raw('POST', '/a/link')).rejects.toMatchObject({ status: 409 });
      expect(refused.calls).toHaveLength(1);
      const down = fakeFetch(() => {
        throw new TypeError('offline');
      });
      const api2 = createClient({ baseUrl: '', fetch: down.fetch, retryPauseMs: 1 });
      await expect(api2.raw('POST', '/a/link')).rejects.toBeInstanceOf(NetworkError);
      expect(down.calls).toHaveLength(3);
      const failed = fakeFetch(() => json(500, { errors: [{ code: 'internal', message: 'x' }] }));
      const api3 = createClient({ baseUrl: '', fetch: failed.fetch, retryPauseMs: 1 });
      await expect(api3.raw('POST', '/a/link')).rejects.toBeInstanceOf(ApiError);
      expect(failed.calls).toHaveLength(1);
    });

    it('keeps a key the caller gives', async () => {
      const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }));
      const api = createClient({ baseUrl: '', fetch });
      await api.raw('POST', '/a/link', { headers: { 'Idempotency-Key': 'mine' } });
      expect((calls[0].init.headers as Record<string, string>)['Idempotency-Key']).toBe('mine');
      expect(hdr(calls[0])).toBeUndefined();
    });
  });
});
