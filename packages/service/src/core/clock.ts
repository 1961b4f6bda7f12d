/** Where "now" comes from. Every timestamp Till writes goes through one, so tests can move time. */
export type Clock = { now(): Date }

export const systemClock: Clock = { now: () => new Date() }

export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000)
}
