// A build tool, run by esbuild plugins at build time and never shipped: its consumers import the sources.
export { minifyCss, minifyHtml, minifyTemplate } from './minify-markup.ts'
export { minifyTemplates, taggedTemplates } from './minify-templates.ts'
