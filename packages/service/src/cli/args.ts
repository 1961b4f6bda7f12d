import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { z } from 'zod'

/** A mistake on the command line: printed as is, with no stack, and the command exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

type Options = NonNullable<ParseArgsConfig['options']>

/**
 * Parses flags strictly (an unknown flag is an error, not silently ignored), then validates the values
 * with a zod schema so every message says which flag is wrong and how to fix it.
 */
export function parseCommand<S extends z.ZodType>(input: {
  argv: string[]
  command: string
  options: Options
  schema: S
  env?: Record<string, string | undefined>
  fromEnv?: Record<string, string>
}): z.output<S> | 'help' {
  let values: Record<string, unknown>
  try {
    values = parseArgs({ args: input.argv, options: { ...input.options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\nRun \`till ${input.command} --help\` for the options.`)
  }
  if (values.help) return 'help'
  const merged: Record<string, unknown> = {}
  for (const [name, variable] of Object.entries(input.fromEnv ?? {})) {
    const value = input.env?.[variable]
    if (value !== undefined && value !== '') merged[name] = value
  }
  for (const [name, value] of Object.entries(values)) if (value !== undefined) merged[name] = value
  const result = input.schema.safeParse(merged)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const flag = issue.path.length > 0 ? `--${String(issue.path[0])}` : 'options'
      const variable = issue.path.length > 0 ? input.fromEnv?.[String(issue.path[0])] : undefined
      return `  ${flag}${variable ? ` (or ${variable})` : ''}: ${issue.message}`
    })
    throw new UsageError(`Invalid options for \`till ${input.command}\`:\n${lines.join('\n')}\nRun \`till ${input.command} --help\` for the options.`)
  }
  return result.data
}
