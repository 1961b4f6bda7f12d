// The shop's logo, rendered from its SVG by the shop's build (vite.config.ts): the demo server serves the PNG
// and so never loads sharp and libvips, which held about 100 MB of a long-running process for one image.
import { readFile } from 'node:fs/promises'
import sharp from 'sharp'

export async function renderLogo(): Promise<Buffer> {
  const svg = await readFile(new URL('../brand/till-tea.svg', import.meta.url))
  return sharp(svg, { density: 72 }).resize(1024, 1024).png().toBuffer()
}
