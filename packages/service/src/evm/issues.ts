import type { z } from 'zod'

/**
 * Zod issues turned into lines an operator can act on: where the value is (`networks[0].rpcUrl`) and what
 * a good one looks like. Shared by the configuration file and the rate endpoint's answer.
 */
export type Problem = { path: string; message: string }

export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`
    return text === '' ? String(key) : `${text}.${String(key)}`
  }, '')
}

export const problemsOf = (error: z.ZodError): Problem[] =>
  error.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }))

export const problemLines = (source: string, problems: readonly Problem[]): string[] =>
  problems.map(({ path, message }) => (path === '' ? `${source}: ${message}` : `${source}: ${path}: ${message}`))

/**
 * An error map for a value's own schema: a missing field and a wrong one get the same example, because
 * "Invalid input: expected string, received undefined" does not say what to write.
 */
export const expecting =
  (text: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? `is required; it must be ${text}` : `must be ${text}`

const listed = (names: readonly string[]): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`

/** For a strict object: a misspelt field is named along with the fields that exist, rather than dropped. */
export const objectOf =
  (what: string, fields: readonly string[]) =>
  (issue: z.core.$ZodRawIssue): string => {
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => `"${key}"`).join(', ')
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${keys}; ${what} has ${listed(fields)}`
    }
    return expecting(`${what}: an object with ${listed(fields)}`)(issue)
  }
