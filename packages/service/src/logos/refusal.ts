/** Why a logo was refused, worded for the partner: it becomes the `issues[].message` of `iconUrl` in a 400 params_validation. */
export class LogoRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'LogoRefused'
  }
}
