import { defaultOf, HELP_FLAG, type Flag, type FlagTable } from './flag.ts'

// Columns: the flag, its description, then its environment variable in brackets at the right. A flag
// too long for its column gets a line of its own, the description starting on the next.
const INDENT = '  '
const FLAG_WIDTH = 22
const TEXT_WIDTH = 64

/** A command's `--help`: usage, what it does, then every flag of the table and `-h, --help`. */
export function commandHelp(input: { usage: string; about: string; flags: FlagTable }): string {
  return `Usage: ${input.usage}\n\n${input.about}\n\nOptions:\n${flagHelp({ ...input.flags, help: HELP_FLAG })}\n`
}

export function flagHelp(table: FlagTable): string {
  return Object.entries(table)
    .flatMap(([name, declaration]) => entry(name, declaration))
    .join('\n')
}

function entry(name: string, declaration: Flag): string[] {
  const label = `${declaration.short ? `-${declaration.short}, ` : ''}--${name}${declaration.type === 'string' ? ` ${declaration.value}` : ''}`
  const text = wrap(describe(declaration))
  if (declaration.env !== undefined) {
    const last = text.length - 1
    text[last] = `${(text[last] ?? '').padEnd(TEXT_WIDTH)} [${declaration.env}]`
  }
  if (declaration.note !== undefined) text.push(...wrap(declaration.note))
  const column = INDENT + ' '.repeat(FLAG_WIDTH)
  const [first, ...rest] = text
  const head = label.length < FLAG_WIDTH ? [`${INDENT}${label.padEnd(FLAG_WIDTH)}${first}`] : [`${INDENT}${label}`, `${column}${first}`]
  return [...head, ...rest.map((line) => `${column}${line}`)]
}

function describe(declaration: Flag): string {
  const value = defaultOf(declaration.schema)
  // A boolean flag's false is what leaving it out means; saying so adds nothing.
  if (value === undefined || declaration.type === 'boolean') return declaration.help
  return `${declaration.help} (default ${String(value)})`
}

/** Greedy word wrap to the description column; a newline forces a break, a word too long stands alone. */
function wrap(text: string): string[] {
  return text.split('\n').flatMap((paragraph) => {
    const lines: string[] = []
    let line = ''
    for (const word of paragraph.split(' ').filter(Boolean)) {
      if (line === '') line = word
      else if (line.length + 1 + word.length <= TEXT_WIDTH) line += ` ${word}`
      else {
        lines.push(line)
        line = word
      }
    }
    lines.push(line)
    return lines
  })
}
