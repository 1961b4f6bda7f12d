// The bundle's template minifier (minify-templates.ts, which build.ts runs on the elements' sources).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are templates' text, `${…}` included
import { expect } from '@open-wc/testing'
import { minifyCss, minifyHtml, minifyTemplate } from '../minify-markup.ts'
import { minifyTemplates, taggedTemplates } from '../minify-templates.ts'

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

  // What the bundle gets of the elements' templates: the module as the dev server serves it (TypeScript
  // compiled, the templates' text untouched), minified as build.ts does.
  it('gives the elements’ templates to the bundle on one line each, without their layout', async () => {
    const templates: string[] = []
    for (const module of ['shared', 'pay-button', 'pay-return']) {
      const source = await (await fetch(`/src/${module}.ts`)).text()
      for (const { tag, strings } of taggedTemplates(source)) {
        templates.push(
          `${tag}\`${minifyTemplate(
            tag,
            strings.map(({ start, end }) => source.slice(start, end)),
          ).join('${…}')}\``,
        )
      }
    }
    expect(templates).to.deep.equal([
      'html`<span part="spinner"></span>`',
      'css`:host([hidden]){display:none}[part=spinner]{display:inline-block;padding:.25em;vertical-align:-.1em;margin-inline-end:.5em;border:.15em solid;border-right-color:#0000;border-radius:50%;animation:spin 1s linear infinite}@keyframes spin{to{rotate:1turn}}@media (prefers-reduced-motion:reduce){[part=spinner]{animation-duration:3s}}`',
      'css`:host{display:inline-block}button{border:0;font:var(--pay-button-font,inherit);color:var(--pay-button-color,#fff);background:var(--pay-button-background,#1d4ed8);border-radius:var(--pay-button-radius,.375em);padding:.6em 1.2em}button:focus-visible{outline-offset:2px}:disabled{opacity:.6}[part=status]{margin-top:.25em;min-height:1lh}`',
      'html`<button part="button" ?disabled=${…} aria-disabled=${…} aria-busy=${…} @click=${…}>${…}<span part="label"><slot name="label">${…}</slot></span></button><div part="status" role="status">${…}${…}</div>`',
      'html`<slot name=${…}>${…}</slot>`',
      'css`:host{display:block}button{margin-top:.5em;font:inherit}`',
      'html`<div part="status ${…}" role="status" tabindex="-1">${…}<slot name=${…}>${…}</slot>${…}</div>${…}`',
      'html`<button part="retry" @click=${…}><slot name="retry">Try again</slot></button>`',
    ])
  })
})
