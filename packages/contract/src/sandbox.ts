import { z } from 'zod'

export const SimulateOutcome = z
  .enum(['processing', 'succeeded', 'failed', 'expired'])
  .meta({ id: 'SimulateOutcome', description: 'Status to move a sandbox payment to.' })
export type SimulateOutcome = z.infer<typeof SimulateOutcome>

export const SimulatePaymentRequest = z
  .object({ outcome: SimulateOutcome })
  .meta({ id: 'SimulatePaymentRequest', description: 'Body of the sandbox-only simulate endpoint.' })
export type SimulatePaymentRequest = z.infer<typeof SimulatePaymentRequest>
