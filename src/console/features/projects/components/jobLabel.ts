import type { JobRef } from '../../../../contract/projectManagement.ts';

type T = (key: string, options?: Record<string, unknown>) => string;

/** How a job is named in sentences and lists: `Task 3`, a phase's or work order's code. */
export function jobLabel(j: JobRef, t: T): string {
  return j.jobType === 'task' ? t('jobs.task', { code: j.code }) : j.code;
}
