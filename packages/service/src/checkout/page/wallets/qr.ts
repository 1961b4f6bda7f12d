import { correction, generate } from 'lean-qr/nano'

// The one module that imports the QR code library, so the phone-wallet chunk carries it and the page's script
// does not. lean-qr's `nano` build only encodes (2.1 KB gzip with this module), against 4.0 KB for uqr; both
// were measured as this chunk (docs/decisions/0008, amendment).

/** A QR code as the page draws it: `size` modules a side, and the SVG path of its dark modules. */
export type QrCode = { size: number; path: string }

/** Whether the module at column `x`, row `y` is dark. */
export type Modules = (x: number, y: number) => boolean

/**
 * The SVG path of a square of `size` modules, in module units: each row's runs of dark modules as one
 * rectangle apiece, far fewer than one per module.
 */
export function modulesPath(size: number, dark: Modules): string {
  let path = ''
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!dark(x, y)) continue
      const start = x
      while (x + 1 < size && dark(x + 1, y)) x++
      path += `M${start} ${y}h${x + 1 - start}v1h${start - x - 1}z`
    }
  }
  return path
}

/**
 * `text` as a QR code, at least at error correction level M, for a code read off a screen that may be
 * dimmed, scratched or partly in glare; the library raises the level while the code's size allows.
 */
export function qrCode(text: string): QrCode {
  const code = generate(text, { minCorrectionLevel: correction.M })
  return { size: code.size, path: modulesPath(code.size, (x, y) => code.get(x, y)) }
}
