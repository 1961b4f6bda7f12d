// The template minifier (minify-templates.ts, which the elements' bundle and the checkout page's build run).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are templates' text, `${…}` included
import { describe, expect, it } from 'vitest'
import { minifyCss, minifyHtml, minifyTemplate } from './minify-markup.ts'
import { minifyTemplates, taggedTemplates } from './minify-templates.ts'

/** The source lines a map's code lines start at (their first segment's). */
function firstSourceLines(mappings: string): (number | undefined)[] {
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  let sourceLine = 0
  return mappings.split(';').map((line) => {
    let first: number | undefined
    for (const segment of line ? line.split(',') : []) {
      const values: number[] = []
      let value = 0
      let shift = 0
      for (const char of segment) {
        const digit = BASE64.indexOf(char)
        value += (digit & 31) << shift
        shift += 5
        if (digit & 32) continue
        values.push(value & 1 ? -(value >> 1) : value >> 1)
        value = 0
        shift = 0
      }
      sourceLine += values[2] ?? 0
      first ??= sourceLine
    }
    return first
  })
}

describe('the template minifier of the bundle', () => {
  describe('html', () => {
    it('removes line-breaking whitespace next to tags and ${…}, and at the ends', () => {
      expect(minifyTemplate('html', ['\n  <div>\n    ', '<span>a</span>\n    ', '\n  </div>\n'])).to.deep.equal([
        '<div>',
        '<span>a</span>',
        '</div>',
      ])
    })

    it('makes a line break between two words one space, and keeps whitespace without one', () => {
      expect(minifyHtml('<p>\n  Payment could not\n  start.  Now <b>x</b> y\n</p>')).to.equal(
        '<p>Payment could not start.  Now <b>x</b> y</p>',
      )
    })

    it('collapses whitespace in tags, leaves none before > or />, and keeps quoted values', () => {
      expect(
        minifyTemplate('html', ['<button\n  part="status  ', '"\n  ?disabled=', "\n  title='a\n b'\n  @click=", '\n>\n  Pay\n</button >']),
      ).to.deep.equal(['<button part="status  ', '" ?disabled=', " title='a\n b' @click=", '>Pay</button>'])
      expect(minifyHtml('<p>\n  <input\n    name="a"\n  />\n</p>')).to.equal('<p><input name="a"/></p>')
    })

    it('keeps <pre>, <textarea> and comments as written', () => {
      expect(minifyHtml('<div>\n  <pre class="x">\n  a\n    b\n</pre>\n  <textarea>\n x\n</textarea>\n</div>')).to.equal(
        '<div><pre class="x">\n  a\n    b\n</pre><textarea>\n x\n</textarea></div>',
      )
      expect(minifyHtml('<!--\n  a note\n-->\n<p>x</p>')).to.equal('<!--\n  a note\n--><p>x</p>')
    })

    it('keeps an escape with what it escapes, and a < that starts no tag', () => {
      expect(minifyHtml('<p>a\\\n  b\\n\n  c < d</p>')).to.equal('<p>a\\\n  b\\n c < d</p>')
    })
  })

  describe('css', () => {
    it('removes comments, layout whitespace and the ; before a }', () => {
      expect(
        minifyCss(
          '\n  /* the host */\n  :host {\n    display: block;\n  }\n\n  button:focus-visible,\n  a  >  b {\n    font: var(--x, inherit);\n    margin: 0 auto !important;\n  }\n',
        ),
      ).to.equal(':host{display:block}button:focus-visible,a > b{font:var(--x,inherit);margin:0 auto !important}')
    })

    it('keeps the space of a descendant selector before a pseudo-class, strings, and a media query’s spaces', () => {
      expect(
        minifyCss(
          ':host :is(a) {\n  content: "a  ;  b";\n}\n\n@media (prefers-reduced-motion: reduce) {\n  a {\n    rotate: 1turn;\n  }\n}',
        ),
      ).to.equal(':host :is(a){content:"a  ;  b"}@media (prefers-reduced-motion:reduce){a{rotate:1turn}}')
    })

    it('keeps each ${…} in its place', () => {
      expect(minifyTemplate('css', ['\n  a {\n    width: ', 'px;\n    color: ', ';\n  }\n'])).to.deep.equal(['a{width:', 'px;color:', '}'])
    })
  })

  describe('a module’s source', () => {
    const source = [
      'const a = html`',
      '  <p>',
      "    ${ok ? html`\n      <b>${'}'}</b>\n    ` : { b: '`' }}",
      '  </p>',
      '`',
      'const b = `',
      '  <p> </p>',
      '` // not tagged: html`',
      'const c = xhtml`\n  <p>\n  </p>\n` /* css` */',
      "const d = /`html`/.test(s) && 1 / 2 / (3) / 4 && '\\'html`'",
      'const e = css`',
      '  a {',
      '    color: red;',
      '  }',
      '`',
    ].join('\n')

    it('has its html and css tagged templates rewritten, nested ones too, and nothing else', () => {
      const { code } = minifyTemplates(source, 'a.ts')
      expect(code).to.equal(
        [
          "const a = html`<p>${ok ? html`<b>${'}'}</b>` : { b: '`' }}</p>`",
          'const b = `',
          '  <p> </p>',
          '` // not tagged: html`',
          'const c = xhtml`\n  <p>\n  </p>\n` /* css` */',
          "const d = /`html`/.test(s) && 1 / 2 / (3) / 4 && '\\'html`'",
          'const e = css`a{color:red}`',
        ].join('\n'),
      )
      expect(taggedTemplates(source).map(({ tag }) => tag)).to.deep.equal(['html', 'html', 'css'])
    })

    it('comes with a map from each line of the code to its line in the source', () => {
      const { code, map } = minifyTemplates(source, 'a.ts')
      expect(map.sources).to.deep.equal(['a.ts'])
      expect(map.sourcesContent).to.deep.equal([source])
      const sourceLines = source.split('\n')
      const lines = firstSourceLines(map.mappings)
      expect(lines).to.have.length(code.split('\n').length)
      code.split('\n').forEach((line, index) => {
        const mapped = lines[index]
        if (mapped === undefined) throw new Error(`line ${index + 1} of the code is not mapped`)
        // A copied line maps to itself; a rewritten one to the line its template starts on.
        expect(sourceLines[mapped]?.startsWith(line.slice(0, 10))).to.equal(true, `line ${index + 1}: ${line}`)
      })
    })
  })
})
