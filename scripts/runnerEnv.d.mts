export function runnerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
