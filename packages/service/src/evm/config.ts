import { readFile } from 'node:fs/promises'
import { checkEvmConfig } from './config-rules.ts'
import { type EvmConfig, EvmConfigFields } from './config-schema.ts'
import { type Problem, problemLines, problemsOf } from './issues.ts'

export type { EvmConfig, EvmNetwork, EvmToken, FixedRate } from './config-schema.ts'

/**
 * The operator's EVM configuration (the file `till serve --config FILE` reads), parsed once at start-up:
 * the rail then trusts every id, address and rate in it.
 */

// The rules across fields read ids and symbols the field schemas produced; where any field failed, they
// would report phantom problems on its half-built value, so they wait until every field is right.
const EvmConfigSchema = EvmConfigFields.superRefine(checkEvmConfig, { when: (payload) => payload.issues.length === 0 })

/** A configuration that cannot be used: one line per problem, each naming the file, the field and a fix. */
export class ConfigError extends Error {
  override name = 'ConfigError'

  constructor(
    readonly source: string,
    readonly problems: readonly Problem[],
  ) {
    super(problemLines(source, problems).join('\n'))
  }
}

export function parseEvmConfig(json: unknown, source: string): EvmConfig {
  const result = EvmConfigSchema.safeParse(json)
  if (!result.success) throw new ConfigError(source, problemsOf(result.error))
  return result.data
}

export async function loadEvmConfig(path: string): Promise<EvmConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error)
    throw new ConfigError(path, [{ path: '', message: `cannot be read (${reason}); check the path given to --config` }])
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ConfigError(path, [{ path: '', message: `is not valid JSON (${reason}); comments and trailing commas are not allowed` }])
  }
  return parseEvmConfig(json, path)
}
