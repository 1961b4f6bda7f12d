// Without this file vitest would pick up the workspace config in a parent directory and run every
// package's suite; `pnpm exec vitest run` here is meant to test the contract alone.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
  },
})
