import type { ControllerDeps } from './controller-ports.ts'
import { en } from './strings.ts'
import { wait } from './wait.ts'

/** The test account a sandbox test wallet "connects". */
export const TEST_ACCOUNT = '0x1111111111111111111111111111111111111111'

/**
 * What a controller test leaves as it is: English words, no navigation, one account, no browser wallets.
 * A test spreads it and gives the screen, the session and the gateway it scripts (and overrides the rest).
 */
export const quietDeps = {
  t: en,
  navigate: () => {},
  open: () => {},
  newAddress: () => TEST_ACCOUNT,
  clientId: () => undefined,
  discoverWallets: () => () => {},
  wait,
} satisfies Omit<ControllerDeps, 'screen' | 'session' | 'api'>
