// The bundle's template minifier (build.ts): the elements' sources keep their `html` and `css` tagged
// templates laid out for reading, and the prebuilt bundle gets them without the layout. esbuild leaves the
// contents of template literals alone, so this rewrites them in the source before esbuild compiles it.
// Pure string code, no Node API: test/minify-templates.test.ts runs it in the browser with the other tests.
//
// What is removed, so what a template may rely on:
//
// - `html`: in text, a run of whitespace that holds a line break is removed next to a tag, a `${…}` or the
//   template's start or end, and becomes one space between two words (as JSX does). So lay templates out
//   with line breaks only where whitespace does not show (around block boxes, at the start and end of a
//   block), and keep inline content that must touch, or be one space apart, on one line. Whitespace
//   without a line break is kept. In a tag, whitespace between attributes becomes one space, and none is
//   left before `>` or `/>`; quoted attribute values are kept. `<pre>`, `<textarea>`, `<script>`, `<style>`
//   and comments are kept as written.
// - `css`: comments go; whitespace goes after `{ } ; , :` and before `{ } ; ,`, else becomes one space;
//   the `;` before a `}` goes. Strings are kept.
//
// Escapes are kept as written (the templates' raw text is what is rewritten), and `${…}` expressions are
// minified too when they hold templates of their own.

/** Stands for a `${…}` while a template's text is minified: a private-use character. */
const HOLE = '\uE000'

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char)

/** The end of the run of whitespace at `start` (`start` if there is none). */
function spaceEnd(text: string, start: number): number {
  let end = start
  while (isSpace(text[end])) end++
  return end
}

/** Whether markup (a tag, a comment or a `${…}`) starts at `index` of an html template's text. */
const markupAt = (text: string, index: number) => text[index] === HOLE || /^<(?:[A-Za-z/]|!--)/.test(text.slice(index, index + 4))

/** Elements whose content is kept as written. */
const VERBATIM = /^(?:pre|textarea|script|style)$/i

/** Minifies the text of an `html` template (its strings joined with {@link HOLE}). */
export function minifyHtml(text: string): string {
  let out = ''
  // What the next whitespace in text follows: the template's start, markup, or text.
  let after: 'start' | 'markup' | 'text' = 'start'
  let index = 0
  while (index < text.length) {
    const char = text[index] as string
    if (text.startsWith('<!--', index)) {
      const end = text.indexOf('-->', index)
      const stop = end < 0 ? text.length : end + 3
      out += text.slice(index, stop)
      index = stop
      after = 'markup'
    } else if (char === '<' && markupAt(text, index)) {
      const name = /^<([A-Za-z][\w-]*)/.exec(text.slice(index))?.[1]
      index = tag(text, index, (part) => {
        out += part
      })
      after = 'markup'
      if (name && VERBATIM.test(name)) {
        const close = text.toLowerCase().indexOf(`</${name.toLowerCase()}`, index)
        const stop = close < 0 ? text.length : close
        out += text.slice(index, stop)
        index = stop
      }
    } else if (char === HOLE) {
      out += char
      index++
      after = 'markup'
    } else if (isSpace(char)) {
      const end = spaceEnd(text, index)
      const run = text.slice(index, end)
      if (!/[\n\r]/.test(run)) out += run
      else if (after === 'text' && end < text.length && !markupAt(text, end)) out += ' '
      index = end
    } else {
      // A backslash and what it escapes stay together.
      const stop = char === '\\' ? index + 2 : index + 1
      out += text.slice(index, stop)
      index = stop
      after = 'text'
    }
  }
  return out
}

/** Writes the tag at `start` minified, and returns where it ends. */
function tag(text: string, start: number, write: (part: string) => void): number {
  let index = start
  while (index < text.length) {
    const char = text[index] as string
    if (char === '"' || char === "'") {
      const end = text.indexOf(char, index + 1)
      const stop = end < 0 ? text.length : end + 1
      write(text.slice(index, stop))
      index = stop
    } else if (isSpace(char)) {
      const end = spaceEnd(text, index)
      if (end < text.length && text[end] !== '>' && !text.startsWith('/>', end)) write(' ')
      index = end
    } else {
      const stop = char === '\\' ? index + 2 : index + 1
      write(text.slice(index, stop))
      index = stop
      if (char === '>') break
    }
  }
  return index
}

/** Minifies the text of a `css` template (its strings joined with {@link HOLE}). */
export function minifyCss(text: string): string {
  let out = ''
  let index = 0
  while (index < text.length) {
    const char = text[index] as string
    if (isSpace(char) || text.startsWith('/*', index)) {
      // Whitespace and comments, as one separator.
      let end = index
      for (;;) {
        end = spaceEnd(text, end)
        if (!text.startsWith('/*', end)) break
        const close = text.indexOf('*/', end + 2)
        end = close < 0 ? text.length : close + 2
      }
      const before = out.at(-1)
      const next = text[end]
      if (before !== undefined && next !== undefined && !'{};,:'.includes(before) && !'{};,'.includes(next)) out += ' '
      index = end
    } else if (char === '"' || char === "'") {
      let end = index + 1
      while (end < text.length && text[end] !== char) end += text[end] === '\\' ? 2 : 1
      out += text.slice(index, end + 1)
      index = end + 1
    } else if (char === '}') {
      if (out.endsWith(';')) out = out.slice(0, -1)
      out += char
      index++
    } else {
      const stop = char === '\\' ? index + 2 : index + 1
      out += text.slice(index, stop)
      index = stop
    }
  }
  return out
}

/** The strings of a tagged template (raw, as in the source) minified for `tag`; as many as given. */
export function minifyTemplate(tag: 'html' | 'css', strings: readonly string[]): string[] {
  if (strings.some((string) => string.includes(HOLE))) return [...strings]
  const joined = strings.join(HOLE)
  const minified = (tag === 'html' ? minifyHtml(joined) : minifyCss(joined)).split(HOLE)
  if (minified.length !== strings.length) throw new Error(`minifying a ${tag} template lost a \${…}: ${joined}`)
  return minified
}

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
