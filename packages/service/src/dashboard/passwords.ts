import { hash, type Options, verify } from '@node-rs/argon2'
import { fieldError } from '../errors.ts'
import { isCommonPassword } from './common-passwords.ts'

/** NIST SP 800-63B: at least 12 characters here, and none a breach list or a keyboard would guess first. */
export const MIN_PASSWORD_LENGTH = 12
const MAX_PASSWORD_LENGTH = 256

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): about 30 ms here, and a hash a GPU farm cannot race.
// The library's Algorithm is a const enum, which this build cannot import: 2 is its Argon2id.
const ARGON2ID = 2 as Options['algorithm']
const ARGON2: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 }

/** Refuses a new password a guesser would try first; throws 400 naming `field`. */
export function checkNewPassword(password: string, field = 'password'): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) throw fieldError(field, `must be at least ${MIN_PASSWORD_LENGTH} characters long`)
  if (password.length > MAX_PASSWORD_LENGTH) throw fieldError(field, `must be at most ${MAX_PASSWORD_LENGTH} characters long`)
  if (isCommonPassword(password)) {
    throw fieldError(
      field,
      'is one of the passwords guessed first (it is in a list of common passwords); choose another, such as a few unrelated words',
    )
  }
}

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2)

/** Whether `password` is the one `stored` was made from; a malformed hash is no match. */
export async function passwordMatches(stored: string, password: string): Promise<boolean> {
  return verify(stored, password).catch(() => false)
}

/**
 * Verified against when the account does not exist, so that a wrong email takes as long as a wrong password
 * and the answer's timing says nothing about which accounts exist.
 */
let decoy: Promise<string> | undefined
export async function spendAsVerifying(password: string): Promise<void> {
  decoy ??= hashPassword('till-decoy-password-for-timing')
  await passwordMatches(await decoy, password)
}
