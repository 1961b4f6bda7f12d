// What the elements' bundle gets of their templates: each module as the dev server serves it (TypeScript
// compiled, the templates' text untouched), minified as build.ts does with @till/template-minifier.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are templates' text, `${…}` included
import { expect } from '@open-wc/testing'
import { minifyTemplate, taggedTemplates } from '@till/template-minifier'

describe("the elements' templates in the bundle", () => {
  it('are given to the bundle on one line each, without their layout', async () => {
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
