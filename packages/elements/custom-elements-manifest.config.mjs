// `pnpm run manifest` (cem analyze) writes custom-elements.json from the elements' JSDoc and Lit properties.
// The wtr suite fails when the committed file is not what this config generates (test/manifest.mjs).

/**
 * Keeps the manifest to the public API: no `#private` members (`@internal` ones the analyzer leaves out itself),
 * and module paths without a leading `/`.
 */
const publicApiOnly = () => ({
  name: 'till-public-api-only',
  packageLinkPhase({ customElementsManifest }) {
    for (const mod of customElementsManifest.modules) {
      for (const declaration of mod.declarations ?? []) {
        if (declaration.members) declaration.members = declaration.members.filter((member) => member.privacy !== 'private')
        if (declaration.superclass?.module?.startsWith('/')) declaration.superclass.module = declaration.superclass.module.slice(1)
      }
      for (const entry of mod.exports ?? []) {
        if (entry.declaration?.module?.startsWith('/')) entry.declaration.module = entry.declaration.module.slice(1)
      }
    }
  },
})

export default {
  globs: ['src/pay-button.ts', 'src/pay-return.ts', 'src/define/*.ts'],
  outdir: '.',
  litelement: true,
  // package.json already points at the manifest; the analyzer must not rewrite it.
  packagejson: false,
  plugins: [publicApiOnly()],
}
