import { defineConfig } from 'vitest/config'

const postgres = process.env.TEST_DATABASE_URL

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/commands/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        test: {
          name: 'api-sqlite',
          include: ['tests/api/**/*.test.ts'],
          env: { TEST_DB: 'sqlite', PASSWORD_HASH_COST: '10' },
          testTimeout: 30_000,
        },
      },
      ...(postgres
        ? [
            {
              test: {
                name: 'api-postgres',
                include: ['tests/api/**/*.test.ts'],
                env: { TEST_DB: 'postgres', PASSWORD_HASH_COST: '10' },
                testTimeout: 30_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/globalSetup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
