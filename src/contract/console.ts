/**
 * The console's own extensions: not in the spec, open to any valid token (no scope); what
 * they answer is still what the token may read (docs/api/console.md).
 */
import { z } from 'zod';
import { QueryInteger } from './common.ts';
import { endpoint } from './endpoint.ts';
import { derivedCode } from './errors.ts';

const CONSOLE = 'console';

export const Me = z
  .object({
    login: z.string().meta({ description: "The user's login, or the application's name" }),
    kind: z.enum(['user', 'application']),
    officeCode: z.string(),
    officeName: z.string(),
    roles: z.array(z.string()).meta({
      description:
        "A user's roles in force (contract/roles.ts; none given: viewer); empty for an application",
    }),
    scopes: z.array(z.string()).meta({
      description:
        'The scopes this token may use: those it was granted that its user or application holds now',
    }),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

/**
 * Who the bearer token speaks for, so the console can show the signed-in user and office.
 * Chosen over OIDC userinfo because it answers in the API's own style (error body, office
 * codes) and needs no `openid` scope.
 */
export const getMe = endpoint({
  id: 'console.me.get',
  method: 'GET',
  path: '/eTech/rest/ws/console/v1/me',
  domain: 'console',
  range: 'high',
  summary: 'The user or application behind the bearer token, its office, roles and scopes. Any valid token.',
  errorPrefix: 'console',
  responses: { 200: Me },
  extension: true,
});

/**
 * The kinds of record the console finds and counts, each with the scope that reads it: a
 * caller sees a kind only when it holds that scope. The keys are the console's resource keys.
 */
export const RECORD_KINDS = {
  customer: 'referentials:read',
  site: 'referentials:read',
  asset: 'referentials:read',
  item: 'businessOrganization:read',
  skill: 'staff:read',
  characteristic: 'staff:read',
  workOrder: 'fieldService:read',
  technician: 'rostering:read',
  project: 'projectManagement:read',
  standardServiceOrder: 'projectManagement:read',
  routeServiceOrder: 'projectManagement:read',
  subscription: 'webhooks:read',
} as const;
export type RecordKind = keyof typeof RECORD_KINDS;
export const RECORD_KIND_NAMES = Object.keys(RECORD_KINDS) as [RecordKind, ...RecordKind[]];

/** Hits of one kind a search answers at most (`size`), and by default. */
export const SEARCH_SIZE = { max: 50, default: 6 } as const;

export const ConsoleCodes = {
  continuationTokenInvalid: derivedCode.continuationTokenInvalid(CONSOLE),
  /** A continuationToken needs the `kind` it pages through. */
  kindMandatory: derivedCode.mandatory(CONSOLE, 'kind'),
};

export const SearchQuery = z
  .strictObject({
    q: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .meta({ description: 'The start of a code, or text contained in a name (case and accents as typed)' }),
    kind: z
      .enum(RECORD_KIND_NAMES)
      .optional()
      .meta({ description: 'One kind, paged by continuationToken; absent: the first hits of every kind' }),
    size: QueryInteger(1, SEARCH_SIZE.max)
      .optional()
      .meta({ description: `Hits per kind, 1 to ${SEARCH_SIZE.max} (default ${SEARCH_SIZE.default})` }),
    continuationToken: z.string().optional(),
  })
  .meta({ id: 'SearchQuery' });
export type SearchQuery = z.output<typeof SearchQuery>;

export const SearchHit = z
  .object({
    kind: z.enum(RECORD_KIND_NAMES),
    code: z.string().meta({ description: "The record's code (a subscription's id)" }),
    name: z.string().meta({ description: "Its name (a work order's type, a subscription's callback URL)" }),
    uuid: z.string().optional().meta({ description: "A work order's uuid (a validated one is named by it)" }),
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchAnswer = z
  .object({
    data: z.array(SearchHit),
    kinds: z
      .array(z.object({ kind: z.enum(RECORD_KIND_NAMES), more: z.boolean() }))
      .meta({ description: 'The kinds searched (those the caller may read), and whether more hits follow' }),
    continuationToken: z.string().nullable(),
  })
  .meta({ id: 'SearchAnswer' });
export type SearchAnswer = z.infer<typeof SearchAnswer>;

/**
 * The console's palette: one call searches every kind of record the caller may read (a
 * kind needs its read scope), in the caller's office tree, each kind's hits sorted by code.
 * Its own rate range (`interactive`): a person typing does not spend the budget of the lists.
 */
export const searchRecords = endpoint({
  id: 'console.search',
  method: 'GET',
  path: '/eTech/rest/ws/console/v1/search',
  domain: 'console',
  range: 'interactive',
  summary:
    'Records of every kind the token may read (codes starting with `q`, names containing it), first hits of each kind; with `kind`, that kind page after page. Any valid token.',
  errorPrefix: CONSOLE,
  query: SearchQuery,
  responses: { 200: SearchAnswer },
  errors: { 400: [ConsoleCodes.continuationTokenInvalid, ConsoleCodes.kindMandatory] },
  extension: true,
});

export const HomeFigures = z
  .object({
    counts: z
      .array(
        z.object({
          kind: z.enum(RECORD_KIND_NAMES),
          count: z.number().int().meta({ description: 'Exact up to HOME_COUNT_CAP (10,000)' }),
          more: z.boolean().meta({ description: 'More records than `count`' }),
        }),
      )
      .meta({ description: 'Per kind the caller may read: how many records of its office tree' }),
    offices: z.array(
      z.object({
        code: z.string(),
        name: z.string(),
        parentCode: z.string().nullable(),
        depth: z.number().int(),
      }),
    ),
    officeCount: z
      .number()
      .int()
      .meta({ description: 'Offices of the tree (the list holds the first ones)' }),
  })
  .meta({ id: 'HomeFigures' });
export type HomeFigures = z.infer<typeof HomeFigures>;

/** Counts are exact up to this; above, `more`. */
export const HOME_COUNT_CAP = 10_000;
/** Offices listed on Home, in tree order. */
export const HOME_OFFICES = 12;

/** Home's figures in one call: the count of each kind the caller may read, and its offices. */
export const getHome = endpoint({
  id: 'console.home.get',
  method: 'GET',
  path: '/eTech/rest/ws/console/v1/home',
  domain: 'console',
  range: 'high',
  summary: `The number of records of each kind the token may read (exact up to ${HOME_COUNT_CAP}) and the first ${HOME_OFFICES} offices of its tree. Any valid token.`,
  errorPrefix: CONSOLE,
  responses: { 200: HomeFigures },
  extension: true,
});

/** The console endpoints by name, in the order of the OpenAPI document (contract/domains.ts). */
export const consoleEndpoints = {
  getMe,
  getHome,
  searchRecords,
};
