/** A row of the project linker's job list: position, drag handle, kind, code or name, planned dates. */
import { Text, VisuallyHidden } from '@mantine/core';
import { IconChecklist, IconFolder, IconTool } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProjectJob } from '../../../../contract/projectManagement.ts';
import { formatPlannedRange, phaseAt, refText } from '../model.ts';
import type { GraphHighlight } from './DependencyGraph.tsx';
import { WorkOrderCode } from './WorkOrderCode.tsx';

export function JobRow({
  job,
  index,
  handle,
  jobs,
  highlight,
}: {
  job: ProjectJob;
  index: number;
  handle: ReactNode;
  jobs: readonly ProjectJob[];
  highlight: GraphHighlight;
}) {
  const { t, i18n } = useTranslation('projects');
  const lang = i18n.resolvedLanguage ?? 'en';
  const inCycle = highlight.cycle?.nodes;
  const ref = refText(job);
  const inPhase = job.jobType !== 'phase' && phaseAt(jobs, index) !== null;
  const dates = formatPlannedRange(job.plannedStart, job.plannedEnd, lang);
  const state = inCycle?.has(ref) ? ' in-cycle' : highlight.overlap?.has(ref) ? ' overlap' : '';
  return (
    <div
      className={`job-row ${job.jobType === 'phase' ? 'phase' : ''}${inPhase ? ' in-phase' : ''}${state}`}
      data-testid="job-row"
      data-job={ref}
    >
      <Text size="xs" c="dimmed" className="job-pos" aria-hidden>
        {index + 1}
      </Text>
      <span className="job-handle">{handle}</span>
      <div className="job-main">
        {job.jobType === 'phase' ? (
          <IconFolder size={16} aria-hidden />
        ) : job.jobType === 'task' ? (
          <IconChecklist size={16} aria-hidden />
        ) : (
          <IconTool size={16} aria-hidden />
        )}
        <VisuallyHidden>{t(`jobType.${job.jobType}`)}</VisuallyHidden>
        {job.jobType === 'workOrder' ? (
          <WorkOrderCode code={job.code} />
        ) : (
          <Text size="sm" fw={job.jobType === 'phase' ? 700 : 500} truncate>
            {job.jobType === 'task' ? t('jobs.task', { code: job.code }) : job.code}
            {job.name ? (
              <Text span c="dimmed" size="sm" fw={400}>
                {` · ${job.name}`}
              </Text>
            ) : null}
          </Text>
        )}
      </div>
      {dates && (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {dates}
        </Text>
      )}
    </div>
  );
}
