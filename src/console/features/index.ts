/**
 * THE list of the console's features. Adding a feature is one line here: its routes,
 * navigation, Home cards, command-palette sources and strings all come from its
 * `feature.ts` (see docs/console.md, "Adding a feature").
 */
import { board } from './board/feature.ts';
import { catalog } from './catalog/feature.ts';
import { history } from './history/feature.ts';
import { planning } from './planning/feature.ts';
import { projects } from './projects/feature.ts';
import { referentials } from './referentials/feature.ts';
import { webhooks } from './webhooks/feature.ts';
import { workorders } from './workorders/feature.ts';

export const FEATURES = [
  referentials,
  catalog,
  workorders,
  planning,
  board,
  projects,
  webhooks,
  history,
] as const;
