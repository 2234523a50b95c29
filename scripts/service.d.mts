export interface StartedService {
  ready(limitMs: number): Promise<boolean>;
  tail(): string;
  stop(): Promise<number | string>;
}
export function startService(options: {
  script: string;
  env: NodeJS.ProcessEnv;
  readyUrl: string;
  log: string;
}): StartedService;
