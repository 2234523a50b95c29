/**
 * Who may use the board (issue 28: planners and admins): the one place of the rule. The
 * service enforces the scopes anyway (slots:read, scheduling:write); this keeps a viewer
 * from a page of refusals. The roles come from /console/v1/me (the shell's useAuth).
 */
import type { Me } from '../../../contract/console.ts';

const BOARD_ROLES = ['planner', 'admin'];

export const canDispatch = (me: Pick<Me, 'roles'> | undefined): boolean =>
  !!me && me.roles.some((r) => BOARD_ROLES.includes(r));
