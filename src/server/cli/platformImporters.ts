import { sql } from 'kysely';
import { z } from 'zod';
import { Code, CustomFieldEntity, CustomFieldType } from '../../contract/common.ts';
import { ALL_SCOPES } from '../../contract/domains.ts';
import { unknownRolesMessage } from '../../contract/roles.ts';
import { newSecretColumns } from '../platform/auth/applications.ts';
import { hashSecret, newClientSecret, verifySecret } from '../platform/auth/passwords.ts';
import { endSessions, unknownRoles } from '../platform/auth/users.ts';
import type { Importer } from '../platform/importer.ts';
import { officeIdByCode, upsertOffice } from '../platform/offices.ts';

/** Platform keys of the import file: offices, applications, users, customFieldDefinitions. */

const code = Code(256);
const scopeName = z.string().refine((s) => ALL_SCOPES.includes(s), {
  message: `unknown scope (one of ${ALL_SCOPES.join(', ')})`,
});

export const OfficeRow = z.strictObject({
  code,
  name: z.string().min(1).max(10000),
  parentCode: code.nullish(),
});
export type OfficeRow = z.infer<typeof OfficeRow>;

/** Shortest client secret an import may give (generated ones are 43 characters). */
export const CLIENT_SECRET_MIN = 32;

export const ApplicationRow = z.strictObject({
  name: z.string().min(1).max(256),
  officeCode: code,
  clientId: z
    .string()
    .min(3)
    .max(128)
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dot, underscore and dash only'),
  /**
   * Absent: a new application gets a generated secret (printed once); an existing one keeps
   * its own. At least 32 characters: too long to guess (the token endpoint limits failures
   * per address, not per client id; docs/security.md).
   */
  clientSecret: z.string().min(CLIENT_SECRET_MIN).max(512).optional(),
  scopes: z.array(scopeName).optional(),
});
export type ApplicationRow = z.infer<typeof ApplicationRow>;

export const UserRow = z.strictObject({
  login: z.string().trim().min(1).max(256),
  /** Absent: a new user gets a generated password (printed once); an existing one keeps its own. */
  password: z.string().min(4).max(512).optional(),
  officeCode: code,
  /** Role names of contract/roles.ts; none: the user is a viewer. */
  roles: z
    .array(z.string().min(1).max(64))
    .superRefine((roles, ctx) => {
      const unknown = unknownRoles(roles);
      if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: unknownRolesMessage(unknown) });
    })
    .optional(),
});
export type UserRow = z.infer<typeof UserRow>;

export const CustomFieldDefinitionRow = z
  .strictObject({
    entity: CustomFieldEntity,
    code,
    label: z.string().max(256).nullish(),
    type: CustomFieldType,
    mandatory: z.boolean(),
    values: z.array(z.string().min(1).max(256)).min(1).optional(),
  })
  .superRefine((row, ctx) => {
    if (row.type === 'dropDownValue' && !row.values)
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'required for dropDownValue' });
    if (row.type !== 'dropDownValue' && row.values)
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'only for dropDownValue' });
    if (row.values && new Set(row.values).size !== row.values.length)
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'duplicated value' });
  });
export type CustomFieldDefinitionRow = z.infer<typeof CustomFieldDefinitionRow>;

/** Credentials generated while importing, to show the operator once. */
export interface GeneratedCredential {
  kind: 'application' | 'user';
  /** client id or login */
  id: string;
  secret: string;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Parents first, whatever the order in the file; a cycle is refused. */
export function officesInTreeOrder(rows: OfficeRow[]): OfficeRow[] {
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: OfficeRow[] = [];
  const visit = (row: OfficeRow) => {
    if (done.has(row.code)) return;
    if (visiting.has(row.code)) throw new Error(`offices: ${row.code} is its own ancestor`);
    visiting.add(row.code);
    const parent = row.parentCode ? byCode.get(row.parentCode) : undefined;
    if (parent) visit(parent);
    visiting.delete(row.code);
    done.add(row.code);
    out.push(row);
  };
  for (const row of rows) visit(row);
  return out;
}

export const officesImporter: Importer<OfficeRow> = {
  key: 'offices',
  order: 10,
  schema: OfficeRow,
  keyOf: (r) => r.code,
  async apply(trx, rows) {
    let created = 0;
    let updated = 0;
    for (const row of officesInTreeOrder(rows)) {
      const existing = await trx
        .selectFrom('offices')
        .select('name')
        .where('code', '=', row.code)
        .executeTakeFirst();
      await upsertOffice(trx, row);
      if (!existing) created++;
      else if (existing.name !== row.name) updated++;
    }
    return { created, updated };
  },
};

export function applicationsImporter(
  onGenerated: (c: GeneratedCredential) => void = () => {},
): Importer<ApplicationRow> {
  return {
    key: 'applications',
    order: 20,
    schema: ApplicationRow,
    keyOf: (r) => r.clientId,
    async apply(trx, rows) {
      let created = 0;
      let updated = 0;
      for (const row of rows) {
        const office_id = await officeIdByCode(trx, row.officeCode);
        const scopes = row.scopes ?? [...ALL_SCOPES];
        const existing = await trx
          .selectFrom('applications')
          .select(['id', 'name', 'office_id', 'scopes', 'secret_hash'])
          .where('client_id', '=', row.clientId)
          .executeTakeFirst();
        if (!existing) {
          let secret = row.clientSecret;
          if (!secret) {
            secret = newClientSecret();
            onGenerated({ kind: 'application', id: row.clientId, secret });
          }
          await trx
            .insertInto('applications')
            .values({
              client_id: row.clientId,
              name: row.name,
              office_id,
              scopes,
              secret_hash: await hashSecret(secret),
            })
            .execute();
          created++;
          continue;
        }
        const secretChanged = row.clientSecret
          ? !(await verifySecret(row.clientSecret, existing.secret_hash))
          : false;
        if (
          existing.name === row.name &&
          String(existing.office_id) === String(office_id) &&
          sameSet(existing.scopes, scopes) &&
          !secretChanged
        )
          continue;
        await trx
          .updateTable('applications')
          .set({
            name: row.name,
            office_id,
            scopes,
            changed_at: new Date(),
            // A new secret revokes the tokens issued with the old one.
            ...(secretChanged ? await newSecretColumns(row.clientSecret as string) : {}),
          })
          .where('id', '=', existing.id)
          .execute();
        updated++;
      }
      return { created, updated };
    },
  };
}

export function usersImporter(onGenerated: (c: GeneratedCredential) => void = () => {}): Importer<UserRow> {
  return {
    key: 'users',
    order: 30,
    schema: UserRow,
    keyOf: (r) => r.login,
    async apply(trx, rows) {
      let created = 0;
      let updated = 0;
      for (const row of rows) {
        const office_id = await officeIdByCode(trx, row.officeCode);
        const roles = row.roles ?? [];
        const existing = await trx
          .selectFrom('users')
          .select(['id', 'office_id', 'roles', 'password_hash'])
          .where('login', '=', row.login)
          .executeTakeFirst();
        if (!existing) {
          let password = row.password;
          if (!password) {
            password = newClientSecret().slice(0, 20);
            onGenerated({ kind: 'user', id: row.login, secret: password });
          }
          await trx
            .insertInto('users')
            .values({ login: row.login, office_id, roles, password_hash: await hashSecret(password) })
            .execute();
          created++;
          continue;
        }
        const passwordChanged = row.password
          ? !(await verifySecret(row.password, existing.password_hash))
          : false;
        if (
          String(existing.office_id) === String(office_id) &&
          sameSet(existing.roles, roles) &&
          !passwordChanged
        )
          continue;
        await trx
          .updateTable('users')
          .set({
            office_id,
            roles,
            ...(passwordChanged ? { password_hash: await hashSecret(row.password as string) } : {}),
          })
          .where('id', '=', existing.id)
          .execute();
        // A new password ends the user's sign-ins; new roles apply on its next request.
        if (passwordChanged) await endSessions(trx, existing.id);
        updated++;
      }
      return { created, updated };
    },
  };
}

export const customFieldDefinitionsImporter: Importer<CustomFieldDefinitionRow> = {
  key: 'customFieldDefinitions',
  order: 40,
  schema: CustomFieldDefinitionRow,
  keyOf: (r) => `${r.entity}.${r.code}`,
  async apply(trx, rows) {
    let created = 0;
    let updated = 0;
    for (const row of rows) {
      const values = row.values ? JSON.stringify(row.values) : null;
      const next = { label: row.label ?? null, type: row.type, mandatory: row.mandatory, values };
      const existing = await trx
        .selectFrom('custom_field_definitions')
        .select(['label', 'type', 'mandatory', sql<string | null>`"values"::text`.as('values')])
        .where('entity', '=', row.entity)
        .where('code', '=', row.code)
        .executeTakeFirst();
      if (!existing) {
        await trx
          .insertInto('custom_field_definitions')
          .values({ entity: row.entity, code: row.code, ...next })
          .execute();
        created++;
        continue;
      }
      const existingValues = existing.values === null ? null : JSON.stringify(JSON.parse(existing.values));
      if (
        existing.label === next.label &&
        existing.type === next.type &&
        existing.mandatory === next.mandatory &&
        existingValues === values
      )
        continue;
      await trx
        .updateTable('custom_field_definitions')
        .set(next)
        .where('entity', '=', row.entity)
        .where('code', '=', row.code)
        .execute();
      updated++;
    }
    return { created, updated };
  },
};

/** The platform's importers; `onGenerated` receives the credentials made for new records. */
export function platformImporters(onGenerated?: (c: GeneratedCredential) => void): Importer[] {
  return [
    officesImporter,
    applicationsImporter(onGenerated),
    usersImporter(onGenerated),
    customFieldDefinitionsImporter,
  ] as Importer[];
}
