// How the template minifier (minify-templates.ts) rewrites one `html` or `css` template's text.
// Pure string code, no Node API.
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

export const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char)

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
