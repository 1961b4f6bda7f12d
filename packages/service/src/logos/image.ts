import { LOGO_RULES } from '@till/contract'
import type { Metadata, Sharp, SharpOptions } from 'sharp'
import { LogoRefused } from './refusal.ts'
import { LOGO_SIZES } from './urls.ts'

// Spec 8.2: check a merchant logo's bytes and re-encode it into the sizes Till serves.
//
// The type comes from the bytes (magic numbers, then the decoder's own header parse), never from a
// file name or a Content-Type. Dimensions come from the header, so an image claiming 60000×60000 is
// refused before a single pixel is decoded. Only then is the image decoded, with a pixel limit, and
// re-encoded from its pixels: the output carries no metadata and none of the input's bytes, which
// neutralises polyglots (a PNG that is also HTML, a trailer of script after IEND, text chunks…).

type LogoFormat = (typeof LOGO_RULES.formats)[number]

export type LogoVariant = { size: number; contentType: 'image/webp'; bytes: Buffer }
export type CheckedLogo = { format: LogoFormat; width: number; height: number; variants: LogoVariant[] }

/** The sizes Till serves (logos/urls.ts): the checkout page's logo and the listing/wallet size. */
export const LOGO_VARIANT_SIZES = [LOGO_SIZES.page, LOGO_SIZES.listing] as const

const FORMAT_NAMES: Record<LogoFormat, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP', avif: 'AVIF' }

/** "JPEG, PNG, WebP or AVIF" */
const namesList = (formats: readonly LogoFormat[], conjunction: 'or' | 'and'): string => {
  const names = formats.map((format) => FORMAT_NAMES[format])
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`
}

const USE_FORMATS = `use ${namesList(LOGO_RULES.formats, 'or')}`

/** The partner-readable reasons a logo is refused. */
export const LOGO_REFUSALS = {
  tooLarge: `the logo is larger than ${LOGO_RULES.maxBytes / (1024 * 1024)} MB`,
  empty: `the logo file is empty; ${USE_FORMATS}`,
  svg: `the logo is an SVG image; ${USE_FORMATS}`,
  html: `the logo is an HTML document, not an image; ${USE_FORMATS}`,
  gif: `the logo is a GIF image; ${USE_FORMATS}`,
  tiff: `the logo is a TIFF image; ${USE_FORMATS}`,
  heic: `the logo is a HEIC image; ${USE_FORMATS}`,
  unreadable: `the logo is not an image Till can read; ${USE_FORMATS}`,
  tooBig: (width: number, height: number) =>
    `the image is ${width}×${height} px; the maximum is ${LOGO_RULES.maxSize}×${LOGO_RULES.maxSize}`,
  tooSmall: (width: number, height: number) =>
    `the image is ${width}×${height} px; the minimum is ${LOGO_RULES.minSize}×${LOGO_RULES.minSize}`,
  notSquare: (width: number, height: number) =>
    `the image is ${width}×${height} px; it must be square within ${Math.round(LOGO_RULES.aspectRatioTolerance * 100)} %`,
  transparency: `transparency is allowed only in ${namesList(LOGO_RULES.transparentFormats, 'and')} logos`,
  undecodable: (reason: string) => `the logo could not be decoded: ${reason}`,
} as const

/**
 * Spec 8.2's aspect rule, symmetric in width and height: the longer side may exceed the shorter by at
 * most `aspectRatioTolerance` of the shorter, i.e. max/min − 1 ≤ 0.05. At 1000 px that accepts
 * 1000×1050 and 1050×1000 and refuses 1051×1000 and 1000×952 (1000/952 − 1 ≈ 0.0504). Being symmetric,
 * the verdict doesn't depend on EXIF orientation. Computed without dividing; the epsilon keeps the
 * exact edge (max − min = min × tolerance) accepted despite floating point.
 */
export const isSquareEnough = (width: number, height: number): boolean => {
  const long = Math.max(width, height)
  const short = Math.min(width, height)
  return long - short <= short * LOGO_RULES.aspectRatioTolerance + 1e-9
}

/** Refusals decided from the first bytes alone. */
type SniffRefusal = 'empty' | 'svg' | 'html' | 'gif' | 'tiff' | 'unreadable'
type Sniffed = LogoFormat | 'heif-container' | SniffRefusal
const SNIFF_REFUSALS = new Set<Sniffed>(['empty', 'svg', 'html', 'gif', 'tiff', 'unreadable'])
const isSniffRefusal = (sniffed: Sniffed): sniffed is SniffRefusal => SNIFF_REFUSALS.has(sniffed)

const startsWith = (bytes: Buffer, signature: readonly number[], at = 0): boolean =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte)

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0))

const HEIF_BRANDS = new Set(['mif1', 'msf1', 'avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'])
const HEVC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'])

/** The ISO BMFF `ftyp` brands (major and compatible) if the bytes open with an `ftyp` box. */
const ftypBrands = (bytes: Buffer): string[] | undefined => {
  if (!startsWith(bytes, ascii('ftyp'), 4)) return undefined
  const end = Math.min(bytes.readUInt32BE(0), bytes.length, 256)
  const brands = [bytes.toString('latin1', 8, 12)]
  for (let at = 16; at + 4 <= end; at += 4) brands.push(bytes.toString('latin1', at, at + 4))
  return brands
}

/** What the first bytes say the file is: magic numbers for binary formats, the first tag for markup. */
const sniff = (bytes: Buffer): Sniffed => {
  if (bytes.length === 0) return 'empty'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp'
  const brands = ftypBrands(bytes)
  if (brands) {
    if (brands.some((brand) => HEIF_BRANDS.has(brand))) return 'heif-container'
    return 'unreadable'
  }
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif'
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff'
  if (startsWith(bytes, [0x49, 0x49, 0x2b, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2b])) return 'tiff' // BigTIFF
  // Markup: skip a UTF-8 BOM and whitespace; an XML prolog, comments or a doctype may precede the root tag.
  const head = bytes
    .toString('latin1', 0, 4096)
    .replace(/^\xef\xbb\xbf/, '')
    .trimStart()
    .toLowerCase()
  if (head.startsWith('<')) {
    if (/<svg[\s>/]/.test(head)) return 'svg'
    if (/<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]/.test(head)) return 'html'
  }
  return 'unreadable'
}

/**
 * A short, fixed reason for a libvips failure. libvips' own text is not passed on: its error buffer is
 * process-wide, so under concurrency a message can carry another image's error.
 */
const decodeReason = (error: unknown, stage: 'header' | 'pixels'): string => {
  const message = error instanceof Error ? error.message : String(error)
  if (/premature end|truncat|unexpected end|end of (file|data|stream)|too small|not enough data/i.test(message))
    return 'the file is truncated'
  return stage === 'header' ? 'its header is corrupt' : 'its image data is corrupt'
}

type Header = { format: LogoFormat; width: number; height: number; hasAlpha: boolean }

// libvips is loaded with the first logo, not with the service: most instances never import one, and it
// costs start-up time and some 20 MB (bench/startup).
let loaded: Promise<(input: Buffer, options: SharpOptions) => Sharp> | undefined
const sharp = async (input: Buffer, options: SharpOptions): Promise<Sharp> => {
  loaded ??= import('sharp').then(
    (module) => module.default,
    (error: unknown) => {
      // Tried again with the next logo rather than failing every logo for good.
      loaded = undefined
      throw error
    },
  )
  return (await loaded)(input, options)
}

/** Reads the header only (no pixel decode), with no pixel limit so that a huge claim is reported as such. */
const readHeader = async (bytes: Buffer, sniffed: LogoFormat | 'heif-container'): Promise<Header> => {
  // Outside the try: a libvips that will not load is Till's failure, not a bad logo.
  const image = await sharp(bytes, { limitInputPixels: false })
  let metadata: Metadata
  try {
    metadata = await image.metadata()
  } catch (error) {
    if (sniffed === 'heif-container' && ftypBrands(bytes)?.some((brand) => HEVC_BRANDS.has(brand))) {
      throw new LogoRefused(LOGO_REFUSALS.heic)
    }
    throw new LogoRefused(LOGO_REFUSALS.undecodable(decodeReason(error, 'header')))
  }
  let format: LogoFormat
  if (sniffed === 'heif-container') {
    if (metadata.format !== 'heif') throw new LogoRefused(LOGO_REFUSALS.unreadable)
    if (metadata.compression === 'hevc') throw new LogoRefused(LOGO_REFUSALS.heic)
    if (metadata.compression !== 'av1') throw new LogoRefused(LOGO_REFUSALS.unreadable)
    format = 'avif'
  } else {
    // The decoder must agree with the magic number.
    if (metadata.format !== sniffed) throw new LogoRefused(LOGO_REFUSALS.unreadable)
    format = sniffed
  }
  // As displayed: EXIF orientations 5–8 swap width and height.
  const { width, height } = metadata.autoOrient ?? metadata
  if (!width || !height) throw new LogoRefused(LOGO_REFUSALS.unreadable)
  return { format, width, height, hasAlpha: metadata.hasAlpha === true }
}

/** Decodes and re-encodes one variant: upright, centre-cropped to a square, WebP without metadata. */
const encodeVariant = async (bytes: Buffer, size: number): Promise<LogoVariant> => {
  const image = await sharp(bytes, { limitInputPixels: LOGO_RULES.maxSize * LOGO_RULES.maxSize, failOn: 'error' })
  const out = await image
    .autoOrient()
    .resize(size, size, { fit: 'cover', position: 'centre' })
    .webp({ quality: 90, alphaQuality: 100, effort: 2 })
    .toBuffer()
  return { size, contentType: 'image/webp', bytes: out }
}

/**
 * Checks a logo against spec 8.2 and re-encodes it into {@link LOGO_VARIANT_SIZES}.
 * Throws {@link LogoRefused} with a partner-readable message when the logo is refused.
 */
export async function checkLogo(bytes: Buffer): Promise<CheckedLogo> {
  // 1. Size (the fetcher caps too).
  if (bytes.length > LOGO_RULES.maxBytes) throw new LogoRefused(LOGO_REFUSALS.tooLarge)

  // 2. Type, from the bytes.
  const sniffed = sniff(bytes)
  if (isSniffRefusal(sniffed)) throw new LogoRefused(LOGO_REFUSALS[sniffed])
  const { format, width, height, hasAlpha } = await readHeader(bytes, sniffed)

  // 3. Dimensions, from the header: nothing has been decoded yet.
  if (width > LOGO_RULES.maxSize || height > LOGO_RULES.maxSize) throw new LogoRefused(LOGO_REFUSALS.tooBig(width, height))
  if (width < LOGO_RULES.minSize || height < LOGO_RULES.minSize) throw new LogoRefused(LOGO_REFUSALS.tooSmall(width, height))
  if (!isSquareEnough(width, height)) throw new LogoRefused(LOGO_REFUSALS.notSquare(width, height))

  // 4. Transparency (JPEG cannot carry alpha; an AVIF can).
  if (hasAlpha && !(LOGO_RULES.transparentFormats as readonly string[]).includes(format)) {
    throw new LogoRefused(LOGO_REFUSALS.transparency)
  }

  // 5 and 6. Decode fully (pixel-limited, failing on corrupt or truncated data) and re-encode. Any
  // failure here is the input's: the encoder is fed pixels libvips has already produced. One variant
  // at a time, so that a bad file fails once.
  const variants: LogoVariant[] = []
  for (const size of LOGO_VARIANT_SIZES) {
    try {
      variants.push(await encodeVariant(bytes, size))
    } catch (error) {
      throw new LogoRefused(LOGO_REFUSALS.undecodable(decodeReason(error, 'pixels')))
    }
  }
  return { format, width, height, variants }
}
