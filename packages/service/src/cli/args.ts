import { parseArgs } from 'node:util'
import type { z } from 'zod'
import { envVariables, HELP_FLAG, parseArgsOptions, type FlagTable } from '../config/flag.ts'

/** A mistake on the command line: printed as is, with no stack, and the command exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/**
 * Parses the table's flags strictly (an unknown flag is an error, not silently ignored), fills in the
 * ones left out from their environment variables, then validates with `schema` (the table's zod object
 * and its cross-flag rules) so every message says which flag is wrong, under which variable, and how
 * to fix it.
 */
export function parseCommand<S extends z.ZodType>(input: {
  argv: string[]
  command: string
  flags: FlagTable
  schema: S
  env?: Record<string, string | undefined>
}): z.output<S> | 'help' {
  let values: Record<string, unknown>
  try {
    const options = parseArgsOptions({ ...input.flags, help: HELP_FLAG })
    values = parseArgs({ args: input.argv, options, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\nRun \`till ${input.command} --help\` for the options.`)
  }
  if (values.help) return 'help'
  const fromEnv = envVariables(input.flags)
  const merged: Record<string, unknown> = {}
  for (const [name, variable] of Object.entries(fromEnv)) {
    const value = input.env?.[variable]
    if (value !== undefined && value !== '') merged[name] = value
  }
  for (const [name, value] of Object.entries(values)) if (value !== undefined) merged[name] = value
  const result = input.schema.safeParse(merged)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      // A rule across flags (no path) says in its message which flags it is about.
      if (issue.path.length === 0) return `  ${issue.message}`
      const name = String(issue.path[0])
      const variable = fromEnv[name]
      return `  --${name}${variable ? ` (or ${variable})` : ''}: ${issue.message}`
    })
    throw new UsageError(
      `Invalid options for \`till ${input.command}\`:\n${lines.join('\n')}\nRun \`till ${input.command} --help\` for the options.`,
    )
  }
  return result.data
}
