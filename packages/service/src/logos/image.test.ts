import { crc32, deflateSync } from 'node:zlib'
import { LOGO_RULES } from '@till/contract'
import sharp, { type Color } from 'sharp'
import { describe, expect, it } from 'vitest'
import { type CheckedLogo, checkLogo, isSquareEnough, LOGO_REFUSALS, LOGO_VARIANT_SIZES } from './image.ts'
import { LogoRefused } from './refusal.ts'

// Every fixture is generated here, small and mostly solid colours, so that the suite stays fast.

const RED = { r: 220, g: 20, b: 20 }
const WHITE = { r: 255, g: 255, b: 255 }

const solid = (width: number, height: number, background: Color = RED, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background } })

const halfTransparent = (width: number, height: number) => solid(width, height, { ...RED, alpha: 0.5 }, 4)

const pngChunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A well-formed PNG whose IHDR claims width×height (8-bit RGB) but whose IDAT holds a few bytes only. */
const pngClaiming = (width: number, height: number): Buffer => {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // truecolour
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(16))),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** Inserts a chunk just before a PNG's IEND. */
const withChunkBeforeIend = (png: Buffer, chunk: Buffer): Buffer => {
  const iend = png.length - 12
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)])
}

/**
 * Turns sharp's AVIF into a HEIC header (sharp's prebuilt libvips can't encode HEVC): av1C becomes a
 * minimal hvcC, item types av01 become hvc1, brands avif become heic; box sizes and iloc offsets are
 * fixed up. The pixels are not HEVC, but the header is, which is all the check reads.
 */
const avifToHeicHeader = (avif: Buffer): Buffer => {
  const hvcC = Buffer.alloc(23)
  hvcC[0] = 1 // configurationVersion
  hvcC[1] = 1 // Main profile
  hvcC.writeUInt32BE(0x60000000, 2)
  hvcC[12] = 90 // level 3
  hvcC.writeUInt16BE(0xf000, 13)
  hvcC[15] = 0xfc
  hvcC[16] = 0xfd // 4:2:0
  hvcC[17] = 0xf8 // 8-bit luma
  hvcC[18] = 0xf8 // 8-bit chroma
  hvcC[21] = 0x0f
  const at = avif.indexOf('av1C') - 4
  const oldSize = avif.readUInt32BE(at)
  const header = Buffer.alloc(8)
  header.writeUInt32BE(8 + hvcC.length)
  header.write('hvcC', 4, 'latin1')
  const delta = 8 + hvcC.length - oldSize
  const heic = Buffer.concat([avif.subarray(0, at), header, hvcC, avif.subarray(at + oldSize)])
  for (const parent of ['meta', 'iprp', 'ipco']) {
    const box = heic.indexOf(parent) - 4
    heic.writeUInt32BE(heic.readUInt32BE(box) + delta, box)
  }
  // The mdat follows the meta box, so its absolute offsets in iloc move by delta.
  let p = heic.indexOf('iloc') + 4
  const version = heic[p]!
  p += 4
  const offsetSize = heic[p]! >> 4
  const lengthSize = heic[p]! & 15
  const baseOffsetSize = heic[p + 1]! >> 4
  const indexSize = version >= 1 ? heic[p + 1]! & 15 : 0
  p += 2
  const shift = (size: number, q: number) => {
    if (size === 4) heic.writeUInt32BE(heic.readUInt32BE(q) + delta, q)
    if (size === 8) heic.writeBigUInt64BE(heic.readBigUInt64BE(q) + BigInt(delta), q)
  }
  const items = version < 2 ? heic.readUInt16BE(p) : heic.readUInt32BE(p)
  p += version < 2 ? 2 : 4
  for (let item = 0; item < items; item++) {
    p += (version < 2 ? 2 : 4) + (version >= 1 ? 2 : 0) + 2
    shift(baseOffsetSize, p)
    p += baseOffsetSize
    const extents = heic.readUInt16BE(p)
    p += 2
    for (let extent = 0; extent < extents; extent++) {
      p += indexSize
      if (baseOffsetSize === 0) shift(offsetSize, p)
      p += offsetSize + lengthSize
    }
  }
  for (const [from, to] of [
    ['av01', 'hvc1'],
    ['avif', 'heic'],
  ] as const) {
    for (let i = heic.indexOf(from); i >= 0; i = heic.indexOf(from)) heic.write(to, i, 'latin1')
  }
  return heic
}

/** Deterministic noise (no chance of a lucky magic number). */
const noise = (length: number): Buffer => {
  const bytes = Buffer.alloc(length)
  let state = 12345
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    bytes[i] = (state >> 16) & 0xff
  }
  bytes[0] = 0x42
  return bytes
}

const refusal = async (bytes: Buffer): Promise<string> => {
  const error = await checkLogo(bytes).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LogoRefused)
  return (error as LogoRefused).message
}

/** The pixel (RGBA) at x, y of an encoded image. */
const pixelAt = async (bytes: Buffer, x: number, y: number): Promise<number[]> => {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (y * info.width + x) * info.channels
  return [...data.subarray(at, at + info.channels)]
}

const expectCleanVariants = async (checked: CheckedLogo, { alpha }: { alpha: boolean }) => {
  expect(checked.variants.map((variant) => [variant.size, variant.contentType])).toEqual(
    LOGO_VARIANT_SIZES.map((size) => [size, 'image/webp']),
  )
  for (const variant of checked.variants) {
    const metadata = await sharp(variant.bytes).metadata()
    expect(metadata).toMatchObject({ format: 'webp', width: variant.size, height: variant.size, hasAlpha: alpha })
    expect(metadata.exif).toBeUndefined()
    expect(metadata.icc).toBeUndefined()
    expect(metadata.xmp).toBeUndefined()
  }
}

describe('LOGO_VARIANT_SIZES', () => {
  it('is the checkout size (3 × 64 CSS px) and the listing/wallet size', () => {
    expect(LOGO_VARIANT_SIZES).toEqual([192, 512])
  })
})

describe('checkLogo accepts and re-encodes', () => {
  it('a JPEG', async () => {
    const checked = await checkLogo(await solid(600, 600).jpeg().toBuffer())
    expect(checked).toMatchObject({ format: 'jpeg', width: 600, height: 600 })
    await expectCleanVariants(checked, { alpha: false })
    const [r, g, b] = await pixelAt(checked.variants[0]!.bytes, 96, 96)
    expect(Math.abs(r! - RED.r) + Math.abs(g! - RED.g) + Math.abs(b! - RED.b)).toBeLessThan(30)
  })

  it('a PNG with transparency, keeping its alpha', async () => {
    const checked = await checkLogo(await halfTransparent(600, 600).png().toBuffer())
    expect(checked).toMatchObject({ format: 'png', width: 600, height: 600 })
    await expectCleanVariants(checked, { alpha: true })
    const alpha = (await pixelAt(checked.variants[1]!.bytes, 256, 256))[3]!
    expect(Math.abs(alpha - 128)).toBeLessThanOrEqual(2)
  })

  it('a lossless WebP with alpha', async () => {
    const checked = await checkLogo(await halfTransparent(600, 600).webp({ lossless: true }).toBuffer())
    expect(checked).toMatchObject({ format: 'webp', width: 600, height: 600 })
    await expectCleanVariants(checked, { alpha: true })
  })

  it('a lossy WebP with alpha', async () => {
    const checked = await checkLogo(await halfTransparent(600, 600).webp({ quality: 70 }).toBuffer())
    expect(checked).toMatchObject({ format: 'webp', width: 600, height: 600 })
    await expectCleanVariants(checked, { alpha: true })
  })

  it('an opaque AVIF', async () => {
    const avif = await solid(512, 512).avif({ effort: 0 }).toBuffer()
    const checked = await checkLogo(avif)
    expect(checked).toMatchObject({ format: 'avif', width: 512, height: 512 })
    await expectCleanVariants(checked, { alpha: false })
  })

  it('exactly the minimum, 500×500 (enlarged to the 512 variant)', async () => {
    const checked = await checkLogo(await solid(LOGO_RULES.minSize, LOGO_RULES.minSize).png().toBuffer())
    expect(checked).toMatchObject({ width: 500, height: 500 })
    await expectCleanVariants(checked, { alpha: false })
  })

  it('exactly the maximum, 4096×4096', async () => {
    const png = await solid(LOGO_RULES.maxSize, LOGO_RULES.maxSize).png().toBuffer()
    const checked = await checkLogo(png)
    expect(checked).toMatchObject({ width: 4096, height: 4096 })
    await expectCleanVariants(checked, { alpha: false })
  })

  it('exactly the maximum file size (a PNG padded after IEND)', async () => {
    const png = await solid(600, 600).png().toBuffer()
    const padded = Buffer.concat([png, Buffer.alloc(LOGO_RULES.maxBytes - png.length)])
    expect(padded.length).toBe(LOGO_RULES.maxBytes)
    await expectCleanVariants(await checkLogo(padded), { alpha: false })
  })

  it.each([
    [1050, 1000],
    [1000, 1050],
    [1000, 953],
  ])('%i×%i, square within 5 %%, centre-cropped to square variants', async (width, height) => {
    const checked = await checkLogo(await solid(width, height, WHITE).jpeg().toBuffer())
    expect(checked).toMatchObject({ width, height })
    await expectCleanVariants(checked, { alpha: false })
  })

  it('a JPEG with EXIF orientation 6, turned upright and reported as displayed', async () => {
    // Stored 600×580 with a red marker in the stored top-left corner; orientation 6 means "rotate 90°
    // clockwise to display", so it is displayed 580×600 with the marker in the top-right corner.
    const width = 600
    const height = 580
    const raw = Buffer.alloc(width * height * 3, 255)
    for (let y = 0; y < 100; y++) {
      for (let x = 0; x < 100; x++) raw.set([RED.r, RED.g, RED.b], (y * width + x) * 3)
    }
    const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 95 })
      .withExif({ IFD0: { Copyright: 'Example Merchant' } })
      .withMetadata({ orientation: 6 })
      .toBuffer()
    expect((await sharp(jpeg).metadata()).orientation).toBe(6)

    const checked = await checkLogo(jpeg)
    expect(checked).toMatchObject({ format: 'jpeg', width: 580, height: 600 })
    await expectCleanVariants(checked, { alpha: false })
    const large = checked.variants[1]!.bytes
    const [topRight, topLeft, bottomRight] = await Promise.all([pixelAt(large, 500, 30), pixelAt(large, 10, 30), pixelAt(large, 500, 480)])
    expect(topRight[0]).toBeGreaterThan(180)
    expect(topRight[1]).toBeLessThan(80)
    expect(topLeft.slice(0, 3).every((channel) => channel > 230)).toBe(true)
    expect(bottomRight.slice(0, 3).every((channel) => channel > 230)).toBe(true)
  })

  it('a polyglot PNG (script in a text chunk and after IEND) as a clean WebP', async () => {
    const script = '<script>alert(1)</script>'
    const png = await solid(600, 600).png().toBuffer()
    const polyglot = Buffer.concat([
      withChunkBeforeIend(png, pngChunk('tEXt', Buffer.from(`Comment\0${script}`, 'latin1'))),
      Buffer.from(script, 'latin1'),
    ])
    const checked = await checkLogo(polyglot)
    await expectCleanVariants(checked, { alpha: false })
    for (const variant of checked.variants) {
      expect(variant.bytes.subarray(0, 4).toString('latin1')).toBe('RIFF')
      expect(variant.bytes.subarray(8, 12).toString('latin1')).toBe('WEBP')
      expect(variant.bytes.includes('script')).toBe(false)
      expect(variant.bytes.includes('alert')).toBe(false)
    }
  })
})

describe('checkLogo refuses', () => {
  it('a file over 2 MB, before looking at its type', async () => {
    const big = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(LOGO_RULES.maxBytes + 1 - PNG_SIGNATURE.length)])
    expect(await refusal(big)).toBe('the logo is larger than 2 MB')
  })

  it('an SVG, whatever its name would be', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><rect width="600" height="600"/></svg>'
    expect(await refusal(Buffer.from(svg))).toBe('the logo is an SVG image; use JPEG, PNG, WebP or AVIF')
    const withProlog = `\ufeff<?xml version="1.0"?>\n<!-- logo.png -->\n${svg}`
    expect(await refusal(Buffer.from(withProlog))).toBe(LOGO_REFUSALS.svg)
  })

  it('an HTML document', async () => {
    const html = '<!DOCTYPE html><html><head><title>Not found</title></head><body>404</body></html>'
    expect(await refusal(Buffer.from(html))).toBe('the logo is an HTML document, not an image; use JPEG, PNG, WebP or AVIF')
  })

  it('a GIF', async () => {
    expect(await refusal(await solid(600, 600).gif().toBuffer())).toBe('the logo is a GIF image; use JPEG, PNG, WebP or AVIF')
  })

  it('a TIFF', async () => {
    expect(await refusal(await solid(600, 600).tiff().toBuffer())).toBe('the logo is a TIFF image; use JPEG, PNG, WebP or AVIF')
  })

  it('a HEIC', async () => {
    const heic = avifToHeicHeader(await solid(512, 512).avif({ effort: 0 }).toBuffer())
    expect((await sharp(heic).metadata()).compression).toBe('hevc')
    expect(await refusal(heic)).toBe('the logo is a HEIC image; use JPEG, PNG, WebP or AVIF')
  })

  it('an empty file', async () => {
    expect(await refusal(Buffer.alloc(0))).toBe('the logo file is empty; use JPEG, PNG, WebP or AVIF')
  })

  it.each([
    ['random bytes', noise(4096)],
    ['text', Buffer.from('{"error":"not found"}')],
    ['an MP4 header', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\0\0isommp41'), noise(64)])],
  ])('%s', async (_name, bytes) => {
    expect(await refusal(bytes)).toBe('the logo is not an image Till can read; use JPEG, PNG, WebP or AVIF')
  })

  it('480×480', async () => {
    expect(await refusal(await solid(480, 480).png().toBuffer())).toBe('the image is 480×480 px; the minimum is 500×500')
  })

  it('4097×500', async () => {
    expect(await refusal(await solid(4097, 500).png().toBuffer())).toBe('the image is 4097×500 px; the maximum is 4096×4096')
  })

  it('5000×5000', async () => {
    expect(await refusal(pngClaiming(5000, 5000))).toBe('the image is 5000×5000 px; the maximum is 4096×4096')
  })

  it('a header claiming 60000×60000, from the header rather than from decoding', async () => {
    // Decoding would fail with a pixel-limit or data error; the dimension message proves the header decided.
    expect(await refusal(pngClaiming(60000, 60000))).toBe('the image is 60000×60000 px; the maximum is 4096×4096')
  })

  it('1000×600', async () => {
    expect(await refusal(await solid(1000, 600).jpeg().toBuffer())).toBe('the image is 1000×600 px; it must be square within 5 %')
  })

  it.each([
    [1051, 1000],
    [1000, 1051],
    [1000, 952],
  ])('%i×%i, just outside 5 %%', async (width, height) => {
    expect(await refusal(pngClaiming(width, height))).toBe(LOGO_REFUSALS.notSquare(width, height))
  })

  it('an AVIF with transparency', async () => {
    const avif = await halfTransparent(512, 512).avif({ effort: 0 }).toBuffer()
    expect(await refusal(avif)).toBe('transparency is allowed only in PNG and WebP logos')
  })

  // libvips' own error text is not passed on (its error buffer is shared across threads): a fixed reason.
  const UNDECODABLE = /^the logo could not be decoded: (the file is truncated|its header is corrupt|its image data is corrupt)$/

  it('a truncated PNG', async () => {
    const png = await halfTransparent(600, 600).png().toBuffer()
    expect(await refusal(png.subarray(0, png.length >> 1))).toMatch(UNDECODABLE)
    expect(await refusal(png.subarray(0, 20))).toMatch(UNDECODABLE)
  })

  it('a truncated JPEG', async () => {
    const jpeg = await solid(600, 600).jpeg().toBuffer()
    expect(await refusal(jpeg.subarray(0, jpeg.length >> 1))).toBe('the logo could not be decoded: the file is truncated')
  })

  it('a truncated WebP', async () => {
    const webp = await solid(600, 600).webp().toBuffer()
    expect(await refusal(webp.subarray(0, webp.length >> 1))).toMatch(UNDECODABLE)
  })

  it('a PNG whose pixel data does not match its header', async () => {
    expect(await refusal(pngClaiming(600, 600))).toMatch(UNDECODABLE)
  })
})

describe('isSquareEnough', () => {
  it('is symmetric and accepts the exact 5 % edge', () => {
    expect(isSquareEnough(1050, 1000)).toBe(true)
    expect(isSquareEnough(1000, 1050)).toBe(true)
    expect(isSquareEnough(525, 500)).toBe(true)
    expect(isSquareEnough(4096, 3901)).toBe(true) // 4096 / 3901 − 1 ≈ 0.04999
    expect(isSquareEnough(1051, 1000)).toBe(false)
    expect(isSquareEnough(1000, 952)).toBe(false)
    expect(isSquareEnough(526, 500)).toBe(false)
  })
})
