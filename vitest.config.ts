import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/dynamodb.ts'],
    setupFiles: ['test/setup/env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves a core idle (CPUs − 1: one worker on CI's two cores); the suite mostly
    // waits on DynamoDB Local and on child processes, so every core gets a worker.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
