import jsQRModule from 'jsqr'

// Reads a QR code as qr.ts draws it, the way a phone's camera would: its SVG path rasterised, with the
// quiet zone the screen adds, and decoded by jsQR, a QR code reader that shares nothing with the encoder.

// jsQR is CommonJS: an ES import gets its module.exports, whose `default` is the reader.
const jsQR = jsQRModule.default

const RUN = /M(\d+) (\d+)h(\d+)v1h-(\d+)z/y

/** The modules an SVG path of qr.ts fills, row by row; throws on anything but its own runs. */
export function pathModules(size: number, path: string): boolean[][] {
  const modules = Array.from({ length: size }, () => Array<boolean>(size).fill(false))
  RUN.lastIndex = 0
  while (RUN.lastIndex < path.length) {
    const [, x = '', y = '', width = '', back = ''] = RUN.exec(path) ?? []
    if (!x || width !== back) throw new Error(`not a run of qr.ts at ${RUN.lastIndex}: ${path.slice(RUN.lastIndex, RUN.lastIndex + 20)}`)
    for (let column = Number(x); column < Number(x) + Number(width); column++) {
      const row = modules[Number(y)]
      if (!row || column >= size) throw new Error(`a run leaves the code: ${x} ${y} ${width}`)
      row[column] = true
    }
  }
  return modules
}

/** The text a reader finds in a code of `size` modules drawn by `path`, four modules of quiet zone around it. */
export function readQr(size: number, path: string): string | undefined {
  const scale = 4
  const side = (size + 8) * scale
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255)
  for (const [y, row] of pathModules(size, path).entries()) {
    for (const [x, dark] of row.entries()) {
      if (!dark) continue
      for (let dy = 0; dy < scale; dy++) {
        const start = (((y + 4) * scale + dy) * side + (x + 4) * scale) * 4
        for (let offset = 0; offset < scale * 4; offset += 4) pixels.fill(0, start + offset, start + offset + 3)
      }
    }
  }
  return jsQR(pixels, side, side)?.data
}
