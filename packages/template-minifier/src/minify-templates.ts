// The template minifier of the elements' bundle and the checkout page's script: their sources keep their
// `html` and `css` tagged templates laid out for reading, and what a browser gets has them without the layout. esbuild leaves the
// contents of template literals alone, so this finds the templates in a module's source and rewrites their
// text (minify-markup.ts says how, and what a template may rely on) before esbuild compiles it, with a
// source map back to the readable source. Pure string code, no Node API.
import { isSpace, minifyTemplate } from './minify-markup.ts'

/** A span of a source's text. */
interface Span {
  start: number
  end: number
}

/** An `html` or `css` tagged template of a source: its strings' spans, in order. */
export interface TaggedTemplate {
  tag: 'html' | 'css'
  strings: Span[]
}

/** Words after which a `/` starts a regular expression, not a division. */
const KEYWORDS = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
])

/**
 * Scans JavaScript or TypeScript code from `start`, collecting its `html` and `css` templates (in the order
 * they start) in `found`. In an expression of a template (`nested`), it stops at the `}` that closes the expression and returns
 * where that is; else it scans to the end.
 */
function scanCode(source: string, start: number, nested: boolean, found: TaggedTemplate[]): number {
  let index = start
  let depth = 0
  let regexAllowed = true
  while (index < source.length) {
    const char = source[index] as string
    if (source.startsWith('//', index)) {
      const end = source.indexOf('\n', index)
      index = end < 0 ? source.length : end
    } else if (source.startsWith('/*', index)) {
      const end = source.indexOf('*/', index + 2)
      index = end < 0 ? source.length : end + 2
    } else if (char === '"' || char === "'") {
      let end = index + 1
      while (end < source.length && source[end] !== char && source[end] !== '\n') end += source[end] === '\\' ? 2 : 1
      index = end + 1
      regexAllowed = false
    } else if (char === '`') {
      index = scanTemplate(source, index, found)
      regexAllowed = false
    } else if (char === '/' && regexAllowed) {
      let end = index + 1
      let inClass = false
      while (end < source.length && source[end] !== '\n' && (inClass || source[end] !== '/')) {
        if (source[end] === '\\') end++
        else if (source[end] === '[') inClass = true
        else if (source[end] === ']') inClass = false
        end++
      }
      index = end + 1
      regexAllowed = false
    } else if (/[\w$]/.test(char)) {
      let end = index + 1
      while (end < source.length && /[\w$]/.test(source[end] as string)) end++
      regexAllowed = KEYWORDS.has(source.slice(index, end))
      index = end
    } else {
      if (char === '{') depth++
      else if (char === '}') {
        if (depth === 0 && nested) return index
        depth--
      }
      if (!isSpace(char)) regexAllowed = !')]}'.includes(char)
      index++
    }
  }
  if (nested) throw new Error('a template expression is not closed')
  return index
}

/** Scans the template literal whose backtick is at `start`, and returns where it ends. */
function scanTemplate(source: string, start: number, found: TaggedTemplate[]): number {
  const tag = /(?:^|[^\w$.])(html|css)$/.exec(source.slice(Math.max(0, start - 5), start))?.[1] as 'html' | 'css' | undefined
  const strings: Span[] = []
  if (tag) found.push({ tag, strings })
  let from = start + 1
  let index = from
  for (;;) {
    if (index >= source.length) throw new Error('a template literal is not closed')
    const char = source[index]
    if (char === '\\') index += 2
    else if (char === '`') break
    else if (char === '$' && source[index + 1] === '{') {
      strings.push({ start: from, end: index })
      index = scanCode(source, index + 2, true, found) + 1
      from = index
    } else index++
  }
  strings.push({ start: from, end: index })
  return index + 1
}

/** The `html` and `css` tagged templates of a JavaScript or TypeScript module's source, in the order they start. */
export function taggedTemplates(source: string): TaggedTemplate[] {
  const found: TaggedTemplate[] = []
  scanCode(source, 0, false, found)
  return found
}

/** What {@link minifyTemplates} returns: the code, and a source map from it to the source. */
export interface Minified {
  code: string
  /** Version 3 source map (`sources: [file]`, with the source's content). */
  map: { version: 3; sources: string[]; sourcesContent: string[]; names: string[]; mappings: string }
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

function vlq(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1
  let out = ''
  do {
    const digit = rest & 31
    rest >>>= 5
    out += BASE64[rest > 0 ? digit | 32 : digit]
  } while (rest > 0)
  return out
}

/**
 * Minifies the `html` and `css` tagged templates of a JavaScript or TypeScript module's source; the rest of
 * the code stays as it is. `file` names the source in the map.
 */
export function minifyTemplates(source: string, file: string): Minified {
  // Each string of each template replaced by its minified text (the strings of nested templates lie
  // between those of the template around them, so sorted they do not overlap).
  const edits: (Span & { text: string })[] = []
  for (const { tag, strings } of taggedTemplates(source)) {
    const minified = minifyTemplate(
      tag,
      strings.map(({ start, end }) => source.slice(start, end)),
    )
    for (const [i, { start, end }] of strings.entries()) edits.push({ start, end, text: minified[i] as string })
  }
  edits.sort((a, b) => a.start - b.start)

  // The source's line and column of each offset, for the map.
  const lineStarts = [0]
  for (let index = 0; index < source.length; index++) if (source[index] === '\n') lineStarts.push(index + 1)
  const position = (offset: number): [number, number] => {
    let line = lineStarts.length - 1
    while ((lineStarts[line] as number) > offset) line--
    return [line, offset - (lineStarts[line] as number)]
  }

  let code = ''
  const lines: string[] = ['']
  let column = 0
  let mappedColumn = 0
  let previous: [number, number] = [0, 0]
  /** Maps the code's current position to the source's `offset`. */
  const map = (offset: number) => {
    const [line, sourceColumn] = position(offset)
    const last = lines.length - 1
    lines[last] += `${lines[last] ? ',' : ''}${vlq(column - mappedColumn)}A${vlq(line - previous[0])}${vlq(sourceColumn - previous[1])}`
    mappedColumn = column
    previous = [line, sourceColumn]
  }
  /** Appends `text`, from the source's `offset`: copied (each line mapped), or minified (mapped as a whole). */
  const write = (text: string, offset: number, copied: boolean) => {
    if (text === '') return
    map(offset)
    for (let index = 0; index < text.length; index++) {
      if (text[index] !== '\n') {
        column++
        continue
      }
      lines.push('')
      column = 0
      mappedColumn = 0
      if (index + 1 < text.length) map(copied ? offset + index + 1 : offset)
    }
    code += text
  }
  let copiedTo = 0
  for (const edit of edits) {
    write(source.slice(copiedTo, edit.start), copiedTo, true)
    write(edit.text, edit.start, edit.text === source.slice(edit.start, edit.end))
    copiedTo = edit.end
  }
  write(source.slice(copiedTo), copiedTo, true)
  return { code, map: { version: 3, sources: [file], sourcesContent: [source], names: [], mappings: lines.join(';') } }
}
