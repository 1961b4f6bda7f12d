import { z } from 'zod'

/**
 * One command-line flag, declared once. A command's parseArgs options, its environment variables, its
 * zod object and its `--help` text are all derived from a table of these (`FlagTable`), so adding a
 * flag means adding one entry and nothing else.
 */
export type Flag<S extends z.ZodType = z.ZodType> = (
  | { type: 'boolean' }
  | {
      type: 'string'
      /** What the value is called in `--help`: the N of `--port N`. */
      value: string
    }
) & {
  short?: string
  /** The environment variable that sets the flag when the command line does not. */
  env?: string
  /**
   * Validates the value as it arrives (a string, from argv or the environment, or a boolean) and gives
   * its default; a default other than false is shown in `--help`.
   */
  schema: S
  /** One sentence for `--help`, wrapped to the column there (a newline forces a break). */
  help: string
  /** Further text under the flag's entry in `--help`, after its variable. */
  note?: string
}

export type FlagTable = Record<string, Flag>

/** Keeps the schema's own type, so the zod object derived from a table knows each value's type. */
export const flag = <S extends z.ZodType>(declaration: Flag<S>): Flag<S> => declaration

/** Every command takes it; `parseCommand` answers it before anything is validated. */
export const HELP_FLAG = flag({ type: 'boolean', short: 'h', schema: z.boolean().optional(), help: 'Show this help' })

export type FlagShape<T extends FlagTable> = { [K in keyof T]: T[K]['schema'] }

/** The table's schemas as a zod shape, for `z.object(...)` and the refinements across flags. */
export function flagShape<T extends FlagTable>(table: T): FlagShape<T> {
  // fromEntries loses the keys' types; the mapped type says what it built.
  return Object.fromEntries(Object.entries(table).map(([name, declaration]) => [name, declaration.schema])) as FlagShape<T>
}

export type ParseArgsOptions = Record<string, { type: 'string' | 'boolean'; short?: string }>

export function parseArgsOptions(table: FlagTable): ParseArgsOptions {
  return Object.fromEntries(
    Object.entries(table).map(([name, { type, short }]) => [name, short === undefined ? { type } : { type, short }]),
  )
}

/** Flag name to environment variable, for the flags that have one. */
export function envVariables(table: FlagTable): Record<string, string> {
  return Object.fromEntries(Object.entries(table).flatMap(([name, { env }]) => (env === undefined ? [] : [[name, env]])))
}

/** The schema's default, or undefined when it has none. */
export function defaultOf(schema: z.ZodType): unknown {
  return schema instanceof z.ZodDefault ? schema.def.defaultValue : undefined
}
