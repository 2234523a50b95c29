/** The console's "who am I" extension (served by src/server/platform/auth/me.ts). */
export const ME_PATH = '/eTech/rest/ws/console/v1/me';

export interface Me {
  login: string;
  kind: 'user' | 'application';
  officeCode: string;
  officeName: string;
  roles: string[];
  scopes: string[];
}
